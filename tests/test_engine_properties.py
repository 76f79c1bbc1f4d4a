"""Properties every game must keep, checked on random legal playouts of whole parties.

- playing random legal actions to the end never crashes and never gets stuck;
- every state along the way is valid (``problems()`` is empty);
- replaying the log gives the same state, and so does a record written and read back;
- ``pop`` is exact: apply then pop gives back the same state;
- ``legal_actions`` lists exactly the legal plays: every card a seat holds but may not play is
  judged illegal or refused.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import record
from engine.events import card_event
from engine.game import Game
from engine.registry import available_games, game_class

GAMES = available_games()
# Every game with its default (full-length) party, plus one-deal types where a game has them and
# Belot without «Партия!» (random seats claim blind and so end most parties in the first deal).
EXTRA = [("belot2", "game_type=short"), ("belot2", "claims=false"), ("durak2", "game_type=short")]
VARIANTS = [*GAMES, *(f"{g}:{o}" for g, o in EXTRA if g in GAMES)]


def new_game(variant: str) -> Game:
    name, _, option = variant.partition(":")
    key, _, value = option.partition("=")
    return game_class(name)({key: value} if option else {})


def checked_playout(game: Game, rng: random.Random, probe_every: int) -> None:
    steps = 0
    while not game.is_over:
        actions = game.legal_actions()
        assert actions, f"{game.name}: stuck with no legal action after {game.raw_log[-3:]}"
        action = actions[rng.randrange(len(actions))]
        if steps % probe_every == 0:
            before = game.snapshot()
            game.apply(action)
            assert game.problems() == [], game.problems()
            after = game.snapshot()
            game.pop()
            assert game.snapshot() == before, f"pop of {action} was not exact"
            game.apply(action)
            assert game.snapshot() == after
            check_unlisted_plays_are_illegal(game, set(game.legal_actions()))
        else:
            game.apply(action)
        steps += 1
        assert steps < 100_000
    assert game.problems() == []


def check_unlisted_plays_are_illegal(game: Game, listed: set) -> None:
    if game.expects_shoe or game.is_over:
        return
    hands = getattr(game, "hands", None)
    if hands is None:
        return
    for seat in range(game.num_seats):
        for c in game.hand(seat):
            event = card_event("play", seat, c)
            if event in listed:
                continue
            assert not game.is_legal(event), f"{event} is legal but not listed by legal_actions"


@pytest.mark.parametrize("name", VARIANTS)
@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_playout_keeps_every_state_valid(name: str, seed: int) -> None:
    game = new_game(name)
    checked_playout(game, random.Random(seed), probe_every=7)
    sheet = game.score_sheet()
    assert sheet.finished and len(sheet.totals) >= 2


@pytest.mark.parametrize("name", VARIANTS)
@given(seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
@settings(max_examples=15, deadline=None)
def test_replay_of_the_log_and_of_the_record_gives_the_same_state(name: str, seed: int,
                                                                  cut: float) -> None:
    from engine.playout import play_out

    game = play_out(new_game(name), random.Random(seed))
    # Replay a prefix too: a game interrupted mid-deal must come back exactly.
    prefix = game.raw_log[: int(len(game.raw_log) * cut)]
    partial = type(game).replay(prefix, game.settings)
    assert type(game).replay(partial.raw_log, game.settings).snapshot() == partial.snapshot()
    assert type(game).replay(game.raw_log, game.settings).snapshot() == game.snapshot()
    back = record.loads(record.dumps(partial)).game
    assert back.snapshot() == partial.snapshot()
    assert back.raw_log == partial.raw_log


@pytest.mark.parametrize("name", GAMES)
def test_finished_game_accepts_no_more_actions(name: str) -> None:
    from engine.playout import play_out

    game = play_out(new_game(name), random.Random(7))
    assert game.is_over and game.legal_actions() == []
    assert game.to_act() is None
