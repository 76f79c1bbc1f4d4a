"""Hypothesis properties of two-player Belot over random parties with random house rules.

Besides the generic suite (tests/test_engine_properties.py, short parties with defaults), these
play long parties, Rozaliev, open cards, every policy, and tables where players break the rules.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import record
from engine.belot2 import Belot2
from engine.belot2.tables import DECK, RUNS, SUIT_SHIFT
from engine.events import Event, card_event
from engine.playout import play_out

OPTIONS = st.fixed_dictionaries({
    "game_type": st.sampled_from(["short", "301", "501", "open150", "open155", "open160"]),
    "policy": st.sampled_from(["retract", "penalize", "on_claim"]),
    "first_speaker": st.sampled_from(["loser", "non_dealer"]),
    "sequence_order": st.sampled_from(["AKQJT987", "ATKQJ987"]),
    "second_open_card": st.booleans(),
    "claims": st.booleans(),
    "lot": st.integers(0, 1),
    "first_dealer": st.integers(0, 1),
}) | st.just({"rozaliev": True}) | st.just({"rozaliev": True, "claims": False})

FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def is_run(game: Belot2, event: Event) -> bool:
    """The declared cards are exactly one maximal run of 3+ of the declarer's hand."""
    m = 0
    for c in event.cards:
        m |= c.bit
    hand = game.hands[event.seat]  # type: ignore[index]
    for s in range(4):
        for _length, _top, byte in RUNS[game._seq_order][hand >> SUIT_SHIFT[s] & 255]:
            if byte << SUIT_SHIFT[s] == m:
                return True
    return False


def conserved(game: Belot2) -> bool:
    """Every card of the deal is in exactly one place; the places add up to the shoe's cards."""
    places = [*game.hands, *game.won, (1 << game.lead) if game.lead >= 0 else 0,
              (1 << game.turned) if game.turned >= 0 else 0,
              (1 << game.second) if game.second >= 0 else 0]
    union = 0
    for p in places:
        if union & p:
            return False
        union |= p
    return union == game.seen and not game.seen & ~DECK


def step_checks(game: Belot2, action: Event) -> None:
    if action.kind == "declare":
        assert is_run(game, action), f"{action} is not a run of the hand"
    if action.kind == "bella":
        pair = 0
        for c in ("K", "Q"):
            pair |= 1 << (game.trump * 9 + "6789TJQKA".index(c))
        seat = action.seat
        assert (game.hands[seat] | game.played[seat]) & pair == pair  # type: ignore[index]


@given(options=OPTIONS, seed=st.integers(0, 2**32 - 1))
@FAST
def test_random_parties_conserve_cards_and_declare_only_held_runs(options: dict, seed: int) -> None:
    rng = random.Random(seed)
    game = Belot2(options)
    steps = 0
    while not game.is_over:
        actions = game.legal_actions()
        assert actions
        action = actions[rng.randrange(len(actions))]
        step_checks(game, action)
        game.apply(action)
        assert conserved(game)
        if steps % 11 == 0:
            assert game.problems() == []
        steps += 1
        assert steps < 20_000
    sheet = game.score_sheet()
    assert sheet.finished and sheet.winner in (0, 1)
    assert sheet.totals == [sum(d.points[s] for d in sheet.deals) for s in (0, 1)]
    assert type(game).replay(game.raw_log, game.settings).snapshot() == game.snapshot()


@given(options=OPTIONS, seed=st.integers(0, 2**32 - 1))
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_every_listed_action_applies_and_every_unlisted_card_is_refused(options: dict,
                                                                       seed: int) -> None:
    rng = random.Random(seed)
    game = Belot2(options)
    steps = 0
    while not game.is_over and steps < 400:
        actions = game.legal_actions()
        if steps % 9 == 0 and not game.expects_shoe:
            before = game.snapshot()
            for a in actions:
                game.apply(a)
                game.pop()
                assert game.snapshot() == before
            listed = set(actions)
            for seat in (0, 1):
                for c in game.hand(seat):
                    for kind in ("play", "swap"):
                        e = card_event(kind, seat, c)
                        assert (e in listed) == game.is_legal(e), e
        game.apply(actions[rng.randrange(len(actions))])
        steps += 1


@given(options=OPTIONS.filter(lambda o: o.get("policy") != "retract"),
       seed=st.integers(0, 2**32 - 1))
@FAST
def test_tables_that_break_the_rules_still_keep_a_valid_replayable_state(options: dict,
                                                                        seed: int) -> None:
    """Players sometimes put down any card they hold; victims sometimes claim the foul."""
    rng = random.Random(seed)
    game = Belot2(options)
    steps = 0
    while not game.is_over:
        actions = game.legal_actions()
        seat = game.to_act()
        if game.phase == 3 and seat is not None and rng.random() < 0.15:
            hand = game.hand(seat)
            game.record(card_event("play", seat, hand[rng.randrange(len(hand))]))
        else:
            fouls = [a for a in actions if a.kind == "foul"]
            game.apply(fouls[0] if fouls and rng.random() < 0.7 else actions[rng.randrange(len(actions))])
        assert conserved(game)
        steps += 1
    assert game.problems() == []
    back = record.loads(record.dumps(game)).game
    assert back.snapshot() == game.snapshot()
    assert len(back.illegal_plays) == len(game.illegal_plays)


@given(seed=st.integers(0, 2**32 - 1))
@FAST
def test_a_short_partie_is_exactly_one_played_deal(seed: int) -> None:
    game = play_out(Belot2(game_type="short"), random.Random(seed))
    deals = game.score_sheet().deals
    assert all("redeal" in d.notes[0] for d in deals[:-1])
    assert game.winner is not None and game.declarer in (0, 1)


@given(seed=st.integers(0, 2**32 - 1))
@FAST
def test_long_parties_without_claims_end_at_the_target(seed: int) -> None:
    game = play_out(Belot2(game_type="301", claims=False), random.Random(seed))
    w = game.winner
    assert w is not None and game.totals[w] >= 301
    last = game.score_sheet().deals[-1]
    # Before the last deal nobody had reached the target.
    assert all(game.totals[s] - last.points[s] < 301 for s in (0, 1))
