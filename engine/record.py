"""Game records: a versioned, human-readable text format, one event per line.

See ``docs/records.md``. A record is replayed with :meth:`Game.record`, so illegal plays in it
come back with their verdicts; anything that cannot be replayed raises :class:`RecordError`
naming the line and the rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import EngineError, RecordError
from engine.events import Event
from engine.game import Game
from engine.registry import game_class
from engine.settings import parse_option

MAGIC = "cardtable-record"
VERSION = 1


@dataclass
class Record:
    game: Game
    meta: dict[str, str] = field(default_factory=dict)


def dumps(game: Game, meta: dict[str, str] | None = None) -> str:
    lines = [f"{MAGIC} {VERSION}", f"game {game.name}"]
    lines += [f"option {k}={v}" for k, v in game.settings.changed().items()]
    lines += [f"meta {k}={v}" for k, v in (meta or {}).items()]
    lines += [str(e) for e in game.raw_log]
    return "\n".join(lines) + "\n"


def write(path: str | Path, game: Game, meta: dict[str, str] | None = None) -> None:
    Path(path).write_text(dumps(game, meta), encoding="utf-8")


def loads(text: str) -> Record:
    game: Game | None = None
    game_name: str | None = None
    options: dict[str, str] = {}
    meta: dict[str, str] = {}
    seen_header = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        word, _, rest = line.partition(" ")
        try:
            if not seen_header:
                if word != MAGIC:
                    raise RecordError(number, f"not a cardtable record (first line must be "
                                              f"'{MAGIC} {VERSION}')", "record-header")
                if rest.strip() != str(VERSION):
                    raise RecordError(number, f"record version {rest.strip()!r} is not supported "
                                              f"(this program reads version {VERSION})", "record-version")
                seen_header = True
            elif word == "game" and game is None and game_name is None:
                game_name = rest.strip()
                game_class(game_name)
            elif word == "option" and game is None:
                key, value = parse_option(rest)
                options[key] = value
            elif word == "meta":
                key, value = parse_option(rest)
                meta[key] = value
            else:
                if game is None:
                    if game_name is None:
                        raise RecordError(number, "events before the 'game NAME' line", "record-game")
                    game = game_class(game_name)(options)
                game.record(Event.parse(line))
        except RecordError:
            raise
        except EngineError as exc:
            raise RecordError(number, f"{line!r}: {exc}", exc.rule) from exc
    if not seen_header:
        raise RecordError(1, "empty record", "record-header")
    if game is None:
        if game_name is None:
            raise RecordError(1, "record names no game", "record-game")
        try:
            game = game_class(game_name)(options)
        except EngineError as exc:
            raise RecordError(1, str(exc), exc.rule) from exc
    return Record(game, meta)


def read(path: str | Path) -> Record:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(0, f"cannot read record {path}: {exc}", "record-unreadable") from exc
    return loads(text)
