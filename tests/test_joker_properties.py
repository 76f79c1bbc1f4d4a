"""Joker properties on random legal playouts under random house rules (hypothesis)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import record
from engine.errors import EngineError
from engine.events import Event, card_event
from engine.joker import DEAL_SIZES, Joker

MODES = ["", "high", "low", *(f"{m} {s}" for m in ("want", "give") for s in "CDHS"),
         "nominal 6S", "nominal 6C"]

house_rules = st.fixed_dictionaries({
    "deck": st.sampled_from(["36j", "38"]),
    "minus_joker": st.booleans(),
    "joker_lead_modes": st.booleans(),
    "joker_nominal": st.booleans(),
    "first_dealer": st.sampled_from([None, 0, 1, 2, 3]),
})
FAST = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def step(g: Joker, rng: random.Random) -> Event:
    actions = g.legal_actions()
    assert actions, f"stuck after {g.raw_log[-3:]}"
    action = actions[rng.randrange(len(actions))]
    g.apply(action)
    return action


def candidates(g: Joker) -> list[Event]:
    """Every action a seat could try now: each held card with each mode, each bid, each trump word."""
    out: list[Event] = []
    for seat in range(4):
        for c in g.hand(seat):
            out += [card_event("play", seat, c, m) for m in (MODES if c.is_joker else [""])]
        out += [Event("bid", seat, (), str(k)) for k in range(10)]
        out += [Event("trump", seat, (), w) for w in ("C", "D", "H", "S", "none")]
    return out


@given(options=house_rules, seed=st.integers(0, 2**32 - 1), deals=st.integers(1, 24))
@FAST
def test_every_deal_s_tricks_sum_to_the_cards_dealt_and_cards_are_conserved(
        options: dict, seed: int, deals: int) -> None:
    g = Joker(options)
    rng = random.Random(seed)
    while len(g.results) < deals:
        step(g, rng)
        assert g.problems() == []
        if len(g.raw_log) % 97 == 0:
            json.dumps(g.describe())  # the display always gets plain data
        if g.phase == "play":
            # every card out of the shoe is in a hand, on the table or the turned card
            out = sum(h.bit_count() for h in g.hands) + g.played.bit_count() + (g.trump_card >= 0)
            assert out == g.seen.bit_count() == 4 * g.n + (g.n < 9)
    for number, (n, _dealer, _trump, bids, taken, _pen, _fouls) in enumerate(g.results):
        assert n == DEAL_SIZES[number]
        assert sum(taken) == n
        assert sum(bids) != n  # the dealer was kept off the equal total


@given(options=house_rules, seed=st.integers(0, 2**32 - 1), stop=st.integers(0, 1500))
@FAST
def test_legal_actions_list_exactly_what_judge_accepts(options: dict, seed: int, stop: int) -> None:
    g = Joker(options)
    rng = random.Random(seed)
    while not g.is_over and (len(g.raw_log) < stop or g.expects_shoe):
        step(g, rng)
    if g.is_over:
        return
    listed = set(g.legal_actions())
    for e in candidates(g):
        try:
            ok = g.judge(e).legal
        except EngineError:
            ok = False
        assert ok == (e in listed), f"{e}: judged {'legal' if ok else 'not legal'}, listed {e in listed}"
    # and the seat-filtered lists partition the seated actions
    seated = {e for s in range(4) for e in g.legal_actions(s)}
    assert seated == {e for e in listed if e.seat is not None}


@given(options=house_rules, seed=st.integers(0, 2**32 - 1), stop=st.integers(0, 600))
@FAST
def test_the_table_is_never_refused_a_card_the_player_on_turn_holds(
        options: dict, seed: int, stop: int) -> None:
    g = Joker(options)
    rng = random.Random(seed)
    while g.phase != "play" or len(g.raw_log) < stop:
        step(g, rng)
    seat = g.to_act()
    assert seat is not None
    for c in g.hand(seat):
        if c.is_joker:
            continue
        verdict = g.judge(card_event("play", seat, c))  # legal or a verdict, never an exception
        assert verdict.legal or verdict.rule in ("follow-suit", "must-trump", "want-highest")
    # recording an illegal card keeps the game valid and replayable
    illegal = [c for c in g.hand(seat) if not c.is_joker and not g.judge(card_event("play", seat, c))]
    if illegal:
        g.record(card_event("play", seat, illegal[0]))
        assert g.problems() == [] and g.fouls[seat] == 1
        assert Joker.replay(g.raw_log, g.settings).snapshot() == g.snapshot()


@given(options=house_rules, seed=st.integers(0, 2**32 - 1), stop=st.integers(0, 1400))
@settings(max_examples=10, deadline=None)
def test_a_record_with_house_rules_replays_to_the_same_state(options: dict, seed: int,
                                                             stop: int) -> None:
    g = Joker(options)
    rng = random.Random(seed)
    while not g.is_over and len(g.raw_log) < stop:
        step(g, rng)
    back = record.loads(record.dumps(g)).game
    assert back.settings == g.settings and back.snapshot() == g.snapshot()
    assert back.score_sheet() == g.score_sheet()


def duty_oracle(g: Joker, seat: int) -> set[str]:
    """The plain cards RULES.md §3 lets ``seat`` play now, worked out from the public table only."""
    from engine.cards import card

    led = None
    for item in g.describe()["table"]:
        mode = item["mode"]
        if mode.startswith(("want", "give")):
            led, want = mode[-1], mode.startswith("want")
        elif mode.startswith("nominal"):
            led, want = mode[-1], False
        elif not mode:
            led, want = card(item["card"]).suit, False
        if led is not None:
            break
    plain = [c for c in g.hand(seat) if not c.is_joker]
    if led is None:
        return {c.code for c in plain}
    same = [c for c in plain if c.suit == led]
    if same:
        if want:  # «хочу»: the highest card of the suit
            return {max(same, key=lambda c: c.index).code}
        return {c.code for c in same}
    trump = g.describe()["trump"]
    trumps = [c for c in plain if c.suit == trump]
    return {c.code for c in (trumps or plain)}


@given(options=house_rules, seed=st.integers(0, 2**32 - 1), deals=st.integers(1, 6))
@settings(max_examples=30, deadline=None)
def test_legal_plain_cards_match_an_independent_reading_of_the_follow_and_trump_duties(
        options: dict, seed: int, deals: int) -> None:
    g = Joker(options)
    rng = random.Random(seed)
    while len(g.results) < deals:
        if g.phase == "play":
            seat = g.to_act()
            listed = {e.cards[0].code for e in g.legal_actions(seat) if not e.cards[0].is_joker}
            assert listed == duty_oracle(g, seat), (g.describe()["table"], g.hand(seat))
        step(g, rng)
