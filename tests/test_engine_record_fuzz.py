"""The record reader on damaged records: random mutations of valid records of every game.

Whatever the damage (a line deleted, duplicated or moved, a token retyped, garbage inserted, the
text cut short), ``record.loads`` either refuses with its own documented error (a
:class:`RecordError` naming the line, itself an :class:`EngineError`) or accepts a record that
replays to the state it reports.
"""

from __future__ import annotations

import contextlib
import random
from functools import cache

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import record
from engine.errors import EngineError, RecordError
from engine.events import ev
from engine.playout import play_out
from engine.registry import available_games, game_class

GAMES = available_games()
GARBAGE = ["¹ bid play", "fix ² shoe 7C", "", "#", "undo", "fix", "fix 3", "fix 0 shoe 7C", "fix 99999 shoe 7C", "shoe", "shoe 7C",
           "shoe BJ", "0 play", "9 play 7H", "1 bid", "0 bid pass", "2 declare 7H 8H 9H",
           "0 declare 7H 7H 8H", "option policy=retract", "meta x=y", "game belot2",
           "cardtable-record 1", "0 play BJ want", "0 claim",
           "\ufeffshoe 7C", "０ play 7H", "x" * 3000, "0 play 7H " + "now " * 50, "=", "option =",
           "meta", "  \t ", "1 swap 7H", "0 bid 8:H", "0 bid ²", "3 dealer", "0 confirm"]
TOKENS = ["²", "7C", "AS", "TH", "BJ", "RJ", "XX", "10H", "0", "1", "3", "9", "²", "pass", "play",
          "undo", "fix", "shoe", "declare", "bid", "now", "8:H", "want", "H", "-1", "٣", "", "x" * 2000]


@cache
def valid_record(name: str, seed: int) -> str:
    """A record of a random party prefix with a few undo/fix, as the table writes it."""
    rng = random.Random(seed)
    game = play_out(game_class(name)(), rng, stop=lambda g: len(g.raw_log) >= 60 + seed % 90)
    for _ in range(3):
        if game.events and rng.random() < 0.5:
            game.undo()
    shoe = [n for n, e in enumerate(game.raw_log, 1) if e.kind == "shoe"]
    if shoe and game.unseen_cards():  # the last card out of the shoe was misread
        with contextlib.suppress(EngineError):
            game.fix(shoe[-1], ev(f"shoe {game.unseen_cards()[0].code}"))
    return record.dumps(game, {"seed": str(seed)})


def mutate(text: str, ops: list[tuple[int, int, int, str]]) -> str:
    lines = text.split("\n")
    for op, a, b, word in ops:
        if not lines:
            lines = [""]
        i, j = a % len(lines), b % len(lines)
        if op == 0:  # delete a line
            del lines[i]
        elif op == 1:  # duplicate one
            lines.insert(j, lines[i])
        elif op == 2:  # swap two
            lines[i], lines[j] = lines[j], lines[i]
        elif op == 3:  # retype a token
            words = lines[i].split(" ")
            words[b % len(words)] = word
            lines[i] = " ".join(words)
        elif op == 4:  # insert garbage
            lines.insert(i, word)
        else:  # truncate
            cut = sum(len(x) + 1 for x in lines[:i]) + b % (len(lines[i]) + 1)
            return "\n".join(lines)[:cut]
    return "\n".join(lines)


# Retyped tokens and inserted lines come from one pool; half the time from the nastiest few.
NASTY = ["¹ bid play", "fix ² shoe 7C", "²", "٣", "shoe 7C now", "x" * 2000]
WORDS = st.one_of(st.sampled_from(NASTY), st.sampled_from([*GARBAGE, *TOKENS]))
OPS = st.lists(st.tuples(st.integers(0, 5), st.integers(0, 10_000), st.integers(0, 10_000), WORDS),
               min_size=1, max_size=4)


@given(name=st.sampled_from(GAMES), seed=st.integers(0, 5), ops=OPS)
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          database=None)
def test_a_damaged_record_is_refused_cleanly_or_replays_to_what_it_reports(
        name: str, seed: int, ops: list[tuple[int, int, int, str]]) -> None:
    text = mutate(valid_record(name, seed), ops)
    try:
        rec = record.loads(text)
    except RecordError as err:  # the documented refusal: a line number and a rule
        assert isinstance(err, EngineError) and err.rule
        assert err.line >= 0 and str(err).startswith(f"line {err.line}: ")
        assert len(str(err)) < 600
        return
    game = rec.game
    again = type(game).replay(game.raw_log, game.settings)
    assert again.snapshot() == game.snapshot()
    assert (again.events, again.verdicts) == (game.events, game.verdicts)
    assert record.loads(record.dumps(game, rec.meta)).game.snapshot() == game.snapshot()


def test_the_unmutated_records_load() -> None:
    for name in GAMES:
        for seed in range(6):
            game = record.loads(valid_record(name, seed)).game
            assert type(game).replay(game.raw_log, game.settings).snapshot() == game.snapshot()
