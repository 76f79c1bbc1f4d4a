"""The record format: round trip, and errors that name the line and the rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import record
from engine.errors import EngineError, RecordError

pytestmark = pytest.mark.usefixtures("toy_game")  # tests/conftest.py


GOOD = """cardtable-record 1
game toy
option policy=penalize
meta table=club-3
# deal
shoe 7H
shoe 8H
shoe 9S
shoe AC
0 play 7H
1 play AC
"""


def test_a_record_replays_with_its_verdicts_and_meta(tmp_path: Path) -> None:
    path = tmp_path / "g.rec"
    path.write_text(GOOD)
    rec = record.read(path)
    assert rec.meta == {"table": "club-3"}
    assert [v.rule for v in rec.game.illegal_plays] == ["follow-suit"]
    assert record.loads(record.dumps(rec.game, rec.meta)).game.snapshot() == rec.game.snapshot()


@pytest.mark.parametrize(
    ("text", "line", "rule"),
    [
        ("", 1, "record-header"),
        ("chess 1\n", 1, "record-header"),
        ("cardtable-record 9\n", 1, "record-version"),
        ("cardtable-record 1\ngame nosuch\n", 2, "unknown-game"),
        ("cardtable-record 1\nshoe 7H\n", 2, "record-game"),
        # The bad option is named on its own line (3), no longer on the first event's (4).
        ("cardtable-record 1\ngame toy\noption cards_each=many\nshoe 7H\n", 3, "bad-setting"),
        ("cardtable-record 1\ngame toy\nshoe 7H\nshoe XX\n", 4, "unknown-card"),
        ("cardtable-record 1\ngame toy\nshoe 7H\nshoe 7H\n", 4, "card-dealt-twice"),
        ("cardtable-record 1\ngame toy\nshoe 7H\nshoe 8H\nshoe 9S\nshoe AC\n1 play 8H\n", 7, "out-of-turn"),
    ],
)
def test_record_errors_name_the_line_and_the_rule(text: str, line: int, rule: str) -> None:
    with pytest.raises(RecordError) as info:
        record.loads(text)
    assert info.value.line == line
    assert info.value.rule == rule
    assert f"line {line}" in str(info.value)


def test_unreadable_record_file_is_a_record_error(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        record.read(tmp_path / "missing.rec")


# ----------------------------------------------------------------- hardening of the reader
from engine.events import Event, ev  # noqa: E402
from engine.game import Game  # noqa: E402
from engine.registry import available_games, game_class  # noqa: E402

GAMES = available_games()
HEADER = "cardtable-record 1\ngame toy\n"


def dealing(name: str) -> tuple[Game, list[str]]:
    """A game of ``name`` at its first shoe event, and the record lines that led there."""
    game = game_class(name)()
    while not game.expects_shoe:
        game.apply(game.legal_actions()[0])
    return game, ["cardtable-record 1", f"game {name}", *(str(e) for e in game.raw_log)]


def refused_at(text: str, line: int, rule: str | None = None) -> RecordError:
    with pytest.raises(RecordError) as info:
        record.loads(text)
    err = info.value
    assert err.line == line and f"line {line}:" in str(err), str(err)
    if rule is not None:
        assert err.rule == rule, str(err)
    assert len(str(err)) < 400
    return err


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("shape", ["{e} now", "{e} 7C", "9 {e}", "0 {e}"])
def test_a_shoe_event_takes_no_seat_and_nothing_after_its_card(name: str, shape: str) -> None:
    game, lines = dealing(name)
    good = str(game.legal_actions()[0])
    text = "\n".join([*lines, shape.format(e=good)]) + "\n"
    err = refused_at(text, len(lines) + 1)
    assert isinstance(err.__cause__, EngineError)
    # The same line without the extra word is fine.
    assert record.loads("\n".join([*lines, good]) + "\n").game.raw_log[-1] == ev(good)


def declaring(name: str, seed: int = 0) -> tuple[Game, Event] | None:
    """A random party of ``name`` played to a point where a declaration is legal."""
    import random

    rng = random.Random(seed)
    game = game_class(name)()
    for _ in range(5000):
        if game.is_over:
            return None
        actions = game.legal_actions()
        declares = [a for a in actions if a.kind == "declare" and len(a.cards) >= 3]
        if declares:
            return game, declares[0]
        game.apply(actions[rng.randrange(len(actions))])
    return None


DECLARING = [n for n in GAMES if any(declaring(n, s) for s in range(3))]


def declaration_record(name: str) -> tuple[list[str], Event]:
    found = next(f for f in (declaring(name, s) for s in range(3)) if f)
    game, declare = found
    return [*record.dumps(game).splitlines()], declare


def test_some_games_have_declarations() -> None:
    assert {"belot2", "bazar", "terz"} <= set(DECLARING)


@pytest.mark.parametrize("name", DECLARING)
def test_a_declaration_takes_no_words_after_its_cards(name: str) -> None:
    lines, declare = declaration_record(name)
    err = refused_at("\n".join([*lines, f"{declare} now"]) + "\n", len(lines) + 1)
    assert err.rule in ("bad-event", "unknown-card")


@pytest.mark.parametrize("name", DECLARING)
def test_a_declaration_is_the_same_event_in_any_order_in_every_game(name: str) -> None:
    lines, declare = declaration_record(name)
    codes = [c.code for c in declare.cards]
    listed = record.loads("\n".join([*lines, str(declare)]) + "\n").game
    for order in (codes[::-1], codes[1:] + codes[:1]):
        text = "\n".join([*lines, f"{declare.seat} declare {' '.join(order)}"]) + "\n"
        game = record.loads(text).game
        assert game.raw_log[-1] == declare and game.events[-1] == declare
        assert game.snapshot() == listed.snapshot()
        assert record.dumps(game) == record.dumps(listed)
    assert ev("0 declare QS JS TS") == ev("0 declare TS JS QS") == ev("0 declare JS TS QS")


@pytest.mark.parametrize(
    ("events", "line"),
    [
        ("¹ bid play", 3),                 # a superscript one: str.isdigit says yes, int() says no
        ("shoe 7H\nfix ² shoe 7C", 4),
        ("shoe 7H\nfix ١ shoe 7C", 4),     # an Arabic-Indic one
        ("٣ play 7H", 3),
        ("shoe 7H\nfix 1 ", 4),
        ("shoe 7H\nfix one shoe 7C", 4),
        ("shoe 7H\nfix 99999999999999999999999 shoe 7C", 4),
        ("9" * 5000 + " play 7H", 3),     # int() refuses more than 4300 digits
    ],
)
def test_numbers_must_be_ascii_digits_and_are_refused_readably(events: str, line: int) -> None:
    refused_at(HEADER + events + "\n", line)


def test_a_joker_bid_in_non_ascii_digits_is_refused_not_a_traceback() -> None:
    game = game_class("joker")()
    while not any(a.kind == "bid" for a in game.legal_actions()):
        game.apply(game.legal_actions()[0])
    bid = next(a for a in game.legal_actions() if a.kind == "bid")
    lines = record.dumps(game).splitlines()
    refused_at("\n".join([*lines, f"{bid.seat} bid ²"]) + "\n", len(lines) + 1, "bad-event")


def test_a_bad_option_is_named_on_its_own_line() -> None:
    text = HEADER + "option policy=penalize\noption cards_each=many\nmeta seed=1\n# c\nshoe 7H\n"
    err = refused_at(text, 4, "bad-setting")
    assert "cards_each" in str(err)
    refused_at(HEADER + "option colour=red\n", 3, "bad-setting")  # even with no event after it
    refused_at("cardtable-record 1\noption cards_each=x\ngame toy\n", 2, "bad-setting")
    refused_at(HEADER + "shoe 7H\noption policy=retract\n", 4, "record-option")


def test_a_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    plain = record.loads(GOOD).game
    assert record.loads("\ufeff" + GOOD).game.snapshot() == plain.snapshot()
    path = tmp_path / "windows.rec"
    path.write_text(GOOD.replace("\n", "\r\n"), encoding="utf-8-sig")
    assert record.read(path).game.snapshot() == plain.snapshot()


@pytest.mark.parametrize("where", ["event", "trailing", "meta", "header", "comment-free"])
def test_a_huge_line_is_refused_with_a_short_excerpt(where: str) -> None:
    huge = "X" * 5_000_000
    text = {
        "event": HEADER + huge + "\n",
        "trailing": HEADER + "shoe 7H " + huge + "\n",
        "meta": HEADER + "meta note=" + huge + "\n",
        "header": "cardtable-record " + huge + "\n",
        "comment-free": HEADER + "0 play " + "7H " * 1_000_000 + "\n",
    }[where]
    line = 1 if where == "header" else 3
    err = refused_at(text, line)
    assert "…" in str(err)


def test_a_second_game_line_is_refused() -> None:
    refused_at(HEADER + "game toy\n", 3, "record-game")
