"""Durak invariants on random legal playouts (every game type, with and without transfer).

The checks here are computed independently of the engine's own ``problems()``: the cap from the
defender's hand as seen when the bout began, and card conservation from the public hands, table,
discard and talon counts.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.durak2 import Durak2
from engine.events import Event, card_event

GAME_TYPES = st.sampled_from(["short", "super_short", "long3"])


def cards_in_places(game: Durak2) -> list[str]:
    d = game.describe()
    on_table = [c for pair in d["table"] for c in pair if c is not None]
    return [c.code for s in (0, 1) for c in game.hand(s)] + on_table


def check_state(game: Durak2, bout: dict[str, int]) -> None:
    d = game.describe()
    if d["phase"] != "play":
        return
    attackers = len(d["table"])
    if attackers == 0 or bout.get("attacker") != d["attacker"]:
        # A bout begins (or a transfer swapped the roles): note what the defender holds now.
        bout["attacker"] = d["attacker"]
        bout["held"] = d["hand_sizes"][d["defender"]] + sum(
            1 for _a, cover in d["table"] if cover is not None)
    # Never more than 6 cards in a bout, nor more than the defender held when it began.
    assert attackers <= 6
    assert attackers <= bout["held"], (attackers, bout, d["table"])
    # Cards are conserved: every card is in exactly one place.
    placed = cards_in_places(game)
    assert len(placed) == len(set(placed))
    aside = 0
    if game.super_short and d["trump_card"] is not None:
        aside = 36 - 12  # the unused talon and the turned card
    assert len(placed) + d["discard"] + d["talon"] + aside == 36


def legal_matches_judge(game: Durak2) -> None:
    """Every listed action is legal; every card action not listed is refused or illegal."""
    listed = set(game.legal_actions())
    for e in listed:
        assert game.is_legal(e), e
    d = game.describe()
    unbeaten = [a for a, c in d["table"] if c is None]
    candidates: list[Event] = []
    for seat in (0, 1):
        for c in game.hand(seat):
            candidates.append(card_event("play", seat, c))
            candidates.append(card_event("transfer", seat, c))
            for a in unbeaten:
                candidates.append(Event.parse(f"{seat} beat {c.code} {a}"))
        candidates += [Event("take", seat), Event("done", seat), Event("foul", seat)]
    for e in candidates:
        if e not in listed:
            assert not game.is_legal(e), f"{e} is legal but not listed"


def play(game: Durak2, rng: random.Random, probe: bool) -> Durak2:
    bout: dict[str, int] = {}
    steps = 0
    while not game.is_over:
        actions = game.legal_actions()
        assert actions
        if probe and not game.expects_shoe and steps % 3 == 0:
            legal_matches_judge(game)
        game.apply(actions[rng.randrange(len(actions))])
        check_state(game, bout)
        assert game.problems() == [], game.problems()
        steps += 1
    return game


@given(seed=st.integers(0, 2**32 - 1), game_type=GAME_TYPES, transfer=st.booleans())
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_cap_never_exceeded_and_cards_conserved(seed: int, game_type: str, transfer: bool) -> None:
    game = play(Durak2(game_type=game_type, transfer=transfer), random.Random(seed), probe=False)
    sheet = game.score_sheet()
    assert sheet.finished
    # Points: one per game won; a draw gives none (no fouls in legal playouts).
    wins = sum(1 for deal in sheet.deals if sum(deal.points) == 1)
    assert sum(sheet.totals) == wins


@given(seed=st.integers(0, 2**32 - 1), transfer=st.booleans())
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_legal_actions_are_exactly_the_legal_ones(seed: int, transfer: bool) -> None:
    play(Durak2(transfer=transfer), random.Random(seed), probe=True)


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=15, deadline=None)
def test_replay_and_pop_are_exact(seed: int) -> None:
    rng = random.Random(seed)
    game = Durak2(transfer=bool(seed % 2))
    while not game.is_over:
        actions = game.legal_actions()
        before = game.snapshot()
        action = actions[rng.randrange(len(actions))]
        game.apply(action)
        if rng.random() < 0.05:
            after = game.snapshot()
            assert game.pop() == action
            assert game.snapshot() == before
            game.apply(action)
            assert game.snapshot() == after
    assert Durak2.replay(game.raw_log, game.settings).snapshot() == game.snapshot()


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=10, deadline=None)
def test_fast_apply_matches_record(seed: int) -> None:
    # Durak2.apply writes Game._commit out for speed: it must leave exactly what record leaves.
    applied = Durak2(game_type="long3", transfer=bool(seed % 2))
    recorded = Durak2(game_type="long3", transfer=bool(seed % 2))
    rng = random.Random(seed)
    while not applied.is_over:
        actions = applied.legal_actions()
        action = actions[rng.randrange(len(actions))]
        assert applied.apply(action) == recorded.record(action)
    assert applied.snapshot() == recorded.snapshot()
    assert vars(applied).keys() == vars(recorded).keys()
    assert (applied.raw_log, applied.events, applied.verdicts) == (
        recorded.raw_log, recorded.events, recorded.verdicts)
