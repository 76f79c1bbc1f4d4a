"""Hypothesis properties of Bazar-Belot on random legal playouts.

- the card points of a suit or БК deal plus the last trick sum to 162, of a ВК deal to 258;
- cards are conserved and every state is valid at every step;
- the cards listed as playable are exactly those a plain reading of the trick duties allows
  (an independent reference below), and every listed action is legal;
- no auction word is legal without being listed (checked against every bid of the table).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.bazar import BazarBelot
from engine.cards import BY_INDEX, SUITS, Card
from engine.events import Event
from engine.playout import play_out

TRUMP_ORDER = "78QKTA9J"
PLAIN_ORDER = "789JQKTA"


def sensible_chooser(rng: random.Random) -> Callable[[BazarBelot, list[Event]], Event]:
    """Bids like people: mostly pass, otherwise one of the lowest bids; Контра now and then."""

    def choose(game: BazarBelot, actions: list[Event]) -> Event:
        if game.phase in ("auction", "contra"):
            seat = game.to_act()
            mine = [a for a in actions if a.seat == seat]
            words = [a for a in actions if a.arg in ("contra", "recontra")]
            if words and rng.random() < 0.08:
                return rng.choice(words)
            passes = [a for a in mine if a.arg == "pass"]
            if passes and rng.random() < 0.6:
                return passes[0]
            lowest: dict[str, Event] = {}  # the lowest bid of each game (listed in seniority order)
            for a in mine:
                if a.arg not in ("pass", "contra", "recontra"):
                    lowest.setdefault(a.arg.split(":")[1].split("+")[0], a)
            if lowest:
                return rng.choice(sorted(lowest.values(), key=str))
            return rng.choice(mine or actions)
        return actions[rng.randrange(len(actions))]

    return choose


def reference_playable(game: BazarBelot, seat: int) -> set[str]:
    """RULES.md §4 «Play», read literally, with card objects instead of bit masks."""
    hand = game.hand(seat)
    table = [(s, BY_INDEX[i]) for s, i in zip(game.trick_seats, game.trick, strict=True)]
    if not table:
        return {c.code for c in hand}
    led = table[0][1].suit
    trump = led if game.game == 5 else (SUITS[game.game] if game.game < 4 else None)

    def strength(c: Card) -> int:
        return (TRUMP_ORDER if c.suit == trump else PLAIN_ORDER).index(c.rank)

    def beats(c: Card, w: Card) -> bool:
        if c.suit == w.suit:
            return strength(c) > strength(w)
        return c.suit == trump

    win_seat, win = table[0]
    for s, c in table[1:]:
        if beats(c, win):
            win_seat, win = s, c
    follow = [c for c in hand if c.suit == led]
    if trump is None:
        allowed = follow or hand
    elif led == trump:
        allowed = [c for c in follow if beats(c, win)] or follow or hand
    elif follow:
        allowed = follow
    elif win_seat % 2 == seat % 2:
        allowed = hand
    else:
        allowed = [c for c in hand if c.suit == trump and beats(c, win)] or hand
    return {c.code for c in allowed}


def every_bid(game: BazarBelot) -> list[Event]:
    t = game.bids
    return [e for seat in range(4) for e in
            (*t.events[seat], t.passes[seat], t.contras[seat], t.recontras[seat])]


def every_declaration(seat: int) -> list[Event]:
    """Every run of 3+ and every four of a kind of the 32-card deck, as a declaration of seat."""
    out = []
    for suit in SUITS:
        ranks = [c for c in BY_INDEX[:36] if c.suit == suit and c.rank != "6"]
        for lo in range(8):
            for hi in range(lo + 3, 9):
                out.append(Event("declare", seat, tuple(ranks[lo:hi])))
    for rank in "789TJQKA":
        out.append(Event("declare", seat, tuple(c for c in BY_INDEX[:36] if c.rank == rank)))
    return out


def check_state(game: BazarBelot, probe: bool) -> None:
    assert game.problems() == []
    if not probe or game.expects_shoe or game.is_over:
        return
    listed = game.legal_actions()
    listed_set = set(listed)
    for e in listed:
        assert game.is_legal(e), f"{e} is listed but not legal"
    if game.phase == "play":
        seat = game.turn
        mine = {e.cards[0].code for e in listed if e.kind == "play" and e.seat == seat}
        assert mine == reference_playable(game, seat), (game.trick, game.game)
    if game.phase == "play" and game.trick_no == 0:
        seat = game.turn
        for e in every_declaration(seat):
            if e not in listed_set:
                assert not game.is_legal(e), f"{e} is legal but not listed"
    if game.phase in ("auction", "contra"):
        for e in every_bid(game):
            if e not in listed_set:
                assert not game.is_legal(e), f"{e} is legal but not listed"


def playout(seed: int, deals: int, probe_every: int, options: dict | None = None) -> BazarBelot:
    rng = random.Random(seed)
    game = BazarBelot(options or {})
    choose = sensible_chooser(rng)
    steps = 0
    while not game.is_over and len(game.deals) < deals:
        actions = game.legal_actions()
        assert actions
        event = actions[rng.randrange(len(actions))] if game.expects_shoe or game.phase in (
            "lot", "confirm") else choose(game, actions)
        game.apply(event)
        steps += 1
        check_state(game, steps % probe_every == 0)
    return game


@given(seed=st.integers(0, 2**32 - 1), pattern=st.sampled_from(["4+4", "3+2+3"]))
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_card_points_plus_last_trick_are_162_or_258_in_vk(seed: int, pattern: str) -> None:
    game = playout(seed, deals=6, probe_every=1_000_000, options={"deal_pattern": pattern})
    played = [d[4] for d in game.deals if d[4] is not None and not d[4][1]]
    for game_type, _hand, raw in played:
        assert sum(raw) == (258 if game_type == 5 else 162), (game_type, raw)


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_legal_lists_match_the_rules_and_cards_are_conserved(seed: int) -> None:
    playout(seed, deals=3, probe_every=3, options={"policy": "on_claim"})


@given(seed=st.integers(0, 2**32 - 1))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_random_full_parties_never_crash_and_end_at_301(seed: int) -> None:
    game = play_out(BazarBelot(), random.Random(seed))
    assert game.problems() == []
    sheet = game.score_sheet()
    assert sheet.finished and max(sheet.totals) >= 301
    t = sheet.totals
    assert sheet.winner == (0 if t[0] > t[1] else 1 if t[1] > t[0] else game.last_contract_pair)


def test_every_kind_of_contract_turns_up_in_sensible_playouts() -> None:
    # Guards the properties above against a chooser that never reaches ВК, БК or a Контра.
    kinds = set()
    for seed in range(40):
        game = playout(seed, deals=4, probe_every=1_000_000)
        for d in game.deals:
            if d[4] is not None:
                kinds.add(d[4][0] if d[4][0] >= 4 else "suit")
            for item in d[2]:
                if "Контра" in item[1] or "Реконтра" in item[1]:
                    kinds.add("contra")
    assert kinds >= {"suit", 4, 5, "contra"}


@given(seed=st.integers(0, 2**32 - 1), cut=st.floats(0, 1))
@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_record_round_trip_with_house_options(seed: int, cut: float) -> None:
    from engine import record

    options = {"policy": "on_claim", "deal_pattern": "3+2+3", "four_passes": "same_dealer"}
    game = playout(seed, deals=2, probe_every=1_000_000, options=options)
    partial = BazarBelot.replay(game.raw_log[: int(len(game.raw_log) * cut)], game.settings)
    back = record.loads(record.dumps(partial)).game
    assert back.snapshot() == partial.snapshot() and back.settings == partial.settings
