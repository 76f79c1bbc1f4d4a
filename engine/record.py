"""Game records: a versioned, human-readable text format, one event per line.

See ``docs/records.md``. A record is replayed with :meth:`Game.record`, so illegal plays in it
come back with their verdicts; anything that cannot be replayed raises :class:`RecordError`
naming the line and the rule.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from engine.errors import EngineError, RecordError, SettingsError
from engine.events import Event
from engine.game import Game
from engine.registry import game_class
from engine.settings import parse_option

MAGIC = "cardtable-record"
VERSION = 1
BOM = "\ufeff"
MAX_LINE = 1000
"""Characters in one record line; the longest event the games write is under 60."""
EXCERPT = 60
"""Characters of a line quoted in an error message."""


@dataclass
class Record:
    game: Game
    meta: dict[str, str] = field(default_factory=dict)


def dumps(game: Game, meta: dict[str, str] | None = None) -> str:
    lines = [f"{MAGIC} {VERSION}", f"game {game.name}"]
    lines += [f"option {k}={v}" for k, v in game.settings.changed().items()]
    # a meta value is one line: a line break in it would become a line of its own (an option)
    lines += [f"meta {k}={' '.join(str(v).split())}" for k, v in (meta or {}).items()]
    lines += [str(e) for e in game.raw_log]
    return "\n".join(lines) + "\n"


def write(path: str | Path, game: Game, meta: dict[str, str] | None = None) -> None:
    Path(path).write_text(dumps(game, meta), encoding="utf-8")


def _excerpt(text: str, limit: int = EXCERPT) -> str:
    """``text`` quoted, cut to ``limit`` characters: a message never carries a huge line."""
    return repr(text if len(text) <= limit else text[:limit] + "…")


def _short(message: str, limit: int = 4 * EXCERPT) -> str:
    return message if len(message) <= limit else message[:limit] + "…"


def _check_options(cls: type[Game], options: dict[str, str], lines: dict[str, int],
                   number: int) -> None:
    """Validate the options read so far; a bad one is named on its own line."""
    try:
        cls.settings_model.build(options)
    except SettingsError as exc:
        culprit = number
        for key, line in sorted(lines.items(), key=lambda kv: kv[1]):
            try:
                cls.settings_model.build({key: options[key]})
            except SettingsError:
                culprit = line
                break
        raise RecordError(culprit, _short(str(exc)), exc.rule) from exc


def loads(text: str) -> Record:
    """Read and replay a record; anything wrong raises :class:`RecordError` naming the line."""
    if text.startswith(BOM):
        text = text[len(BOM):]
    game: Game | None = None
    cls: type[Game] | None = None
    options: dict[str, str] = {}
    option_lines: dict[str, int] = {}
    meta: dict[str, str] = {}
    seen_header = False
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if len(line) > MAX_LINE:
            raise RecordError(number, f"a line of {len(line):,} characters is longer than a record "
                                      f"line can be ({MAX_LINE:,}): {_excerpt(line)}", "record-line")
        word, _, rest = line.partition(" ")
        try:
            if not seen_header:
                if word != MAGIC:
                    raise RecordError(number, f"not a cardtable record (first line must be "
                                              f"'{MAGIC} {VERSION}')", "record-header")
                if rest.strip() != str(VERSION):
                    raise RecordError(number, f"record version {_excerpt(rest.strip(), 20)} is not "
                                              f"supported (this program reads version {VERSION})",
                                      "record-version")
                seen_header = True
            elif word == "game":
                if cls is not None:
                    raise RecordError(number, "a second 'game' line: a record holds one game",
                                      "record-game")
                cls = game_class(rest.strip())
                if options:
                    _check_options(cls, options, option_lines, number)
            elif word == "option":
                if game is not None:
                    raise RecordError(number, "options come before the first event",
                                      "record-option")
                key, value = parse_option(rest)
                options[key] = value
                option_lines[key] = number
                if cls is not None:
                    _check_options(cls, options, option_lines, number)
            elif word == "meta":
                key, value = parse_option(rest)
                meta[key] = value
            else:
                if game is None:
                    if cls is None:
                        raise RecordError(number, "events before the 'game NAME' line", "record-game")
                    game = cls(options)
                game.record(Event.parse(line))
        except RecordError:
            raise
        except EngineError as exc:
            raise RecordError(number, f"{_excerpt(line)}: {_short(str(exc))}", exc.rule) from exc
    if not seen_header:
        raise RecordError(1, "empty record", "record-header")
    if game is None:
        if cls is None:
            raise RecordError(1, "record names no game", "record-game")
        try:
            game = cls(options)
        except EngineError as exc:
            raise RecordError(1, _short(str(exc)), exc.rule) from exc
    return Record(game, meta)


def read(path: str | Path) -> Record:
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise RecordError(0, f"cannot read record {path}: {exc}", "record-unreadable") from exc
    return loads(text)
