"""The dealer is guided: ``Game.shoe_due()`` says where the next card out of the shoe goes and
how many go there in a row, in every game; the display words it («сдаёт Аня: 3 карты → Боря»).

The deal orders below are worked by hand from docs/rules.md (and each game's page in docs/games/);
a seeded random walk through whole games of all five checks that every card the engine was told
was due to a seat is in that seat's hand once dealt, that a card due face up is in no hand, and
that a packet of N is followed by N - 1 more cards to the same seat.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine.events import Event
from engine.game import Game, ShoeDue
from engine.registry import game_class


def _deal(game: Game, cards: list[str]) -> list[ShoeDue | None]:
    """The prompt before each of ``cards`` (dealt in turn), and the one after the last."""
    out = []
    for code in cards:
        out.append(game.shoe_due())
        game.apply(Event.parse(f"shoe {code}"))
    out.append(game.shoe_due())
    return out


def _packets(prompts: list[ShoeDue | None]) -> list[tuple[Any, ...]]:
    """The prompts shown at each packet's first card: (seat or face-up kind, count)."""
    out: list[tuple[Any, ...]] = []
    left = 0
    for due in prompts:
        if due is None:
            out.append(("none",))
            continue
        if left > 0:
            left -= 1
            continue
        out.append((due.seat if due.face_up is None else due.face_up, due.count))
        left = due.count - 1
    return out


BELOT_32 = [r + s for s in "CDHS" for r in "789TJQKA"]


def test_belot2_deal_by_rules_section_1() -> None:
    """§1: 3 + 3 to each, the non-dealer first; the next card turned for trump; after the
    bidding 3 more each in the same order and the second open card. Dealer: seat 0."""
    g = game_class("belot2")({})
    first = _deal(g, BELOT_32[:13])
    assert all(d is not None and d.dealer == 0 for d in first[:13])
    assert _packets(first) == [(1, 3), (0, 3), (1, 3), (0, 3), ("trump", 1), ("none",)]
    g.apply(Event.parse("1 bid play"))
    second = _deal(g, BELOT_32[13:20])
    assert _packets(second) == [(1, 3), (0, 3), ("open", 1), ("none",)]


def test_belot2_without_the_second_open_card() -> None:
    g = game_class("belot2")({"second_open_card": False})
    _deal(g, BELOT_32[:13])
    g.apply(Event.parse("1 bid play"))
    assert _packets(_deal(g, BELOT_32[13:19])) == [(1, 3), (0, 3), ("none",)]


def test_durak2_deal_by_rules_section_2() -> None:
    """§2: 3 + 3 to each, the non-dealer first, then the trump card turned."""
    g = game_class("durak2")({})
    deck = [r + s for s in "CDHS" for r in "6789TJQKA"]
    rng = random.Random(3)
    rng.shuffle(deck)
    prompts = _deal(g, deck[:13])
    dealer = prompts[0].dealer if prompts[0] is not None else None
    assert dealer in (0, 1)
    other = 1 - dealer
    assert _packets(prompts)[:5] == [(other, 3), (dealer, 3), (other, 3), (dealer, 3),
                                     ("trump", 1)]


def test_durak2_drawing_after_a_bout_by_rules_section_2() -> None:
    """§2: after a bout the attacker draws up to six first, then the defender."""
    rng = random.Random(11)
    for _ in range(200):
        g = game_class("durak2")({})
        while not g.is_over:
            due = g.shoe_due()
            if due is not None and due.draw:
                need = 6 - len(g.hand(due.seat))
                assert due.count == min(need, g.shoe_left) and due.count >= 1
                return
            actions = g.legal_actions()
            g.apply(actions[rng.randrange(len(actions))])
    pytest.fail("no draw in 200 games")


def test_joker_deal_by_rules_section_3() -> None:
    """§3: one card at a time, clockwise from the dealer's left; the next card turned for trump
    (first deal: one card each). First dealer seat 2."""
    g = game_class("joker")({"first_dealer": 2})
    prompts = _deal(g, ["7H", "8H", "9H", "TH", "JH"])
    assert _packets(prompts) == [(3, 1), (0, 1), (1, 1), (2, 1), ("trump", 1), ("none",)]
    assert all(p is not None and p.dealer == 2 for p in prompts[:5])


def test_joker_ace_draw_by_rules_section_3() -> None:
    """§3 тузование: face-up cards, one to each seat in turn, until an ace."""
    g = game_class("joker")({})
    due = g.shoe_due()
    assert due is not None and due.face_up == "ace-draw"
    seats = []
    for code in ("7H", "8H", "9H", "TH", "AS"):
        due = g.shoe_due()
        assert due is not None and due.face_up == "ace-draw"
        seats.append(due.seat)
        g.apply(Event.parse(f"shoe {code}"))
    assert seats in ([0, 1, 2, 3, 0], [None, 0, 1, 2, 3])  # with a centre card first, or not
    due = g.shoe_due()
    assert due is not None and due.face_up is None and due.dealer == seats[-1]


@pytest.mark.parametrize(("pattern", "packets"), [
    ("4+4", [(0, 4), (1, 4), (2, 4), (3, 4)] * 2),
    ("3+2+3", [(0, 3), (1, 3), (2, 3), (3, 3), (0, 2), (1, 2), (2, 2), (3, 2),
               (0, 3), (1, 3), (2, 3), (3, 3)]),
])
def test_bazar_deal_by_rules_section_4(pattern: str, packets: list[tuple[int, int]]) -> None:
    """§4: packets of 4 + 4 (or 3 + 2 + 3) clockwise from the dealer's left. Dealer: seat 3."""
    g = game_class("bazar")({"first_dealer": 3, "deal_pattern": pattern})
    prompts = _deal(g, BELOT_32)
    assert _packets(prompts) == [*packets, ("none",)]


def test_terz_deal_by_rules_section_5() -> None:
    """§5 defaults: 9 each in packets of 3, the dealer last; then the trump card turned."""
    g = game_class("terz")({})
    prompts = _deal(g, BELOT_32[:19])
    assert _packets(prompts) == [(1, 3), (0, 3)] * 3 + [("trump", 1), ("none",)]


# ---------------------------------------------------------------- the engine agrees with itself
@pytest.mark.parametrize("name", ["belot2", "durak2", "joker", "bazar", "terz"])
def test_every_card_goes_where_the_prompt_said(name: str) -> None:
    rng = random.Random(name)
    checked = 0
    for _ in range(8):
        g = game_class(name)({})
        expect_next: ShoeDue | None = None
        for _step in range(20_000):
            if g.is_over:
                break
            actions = g.legal_actions()
            if not g.expects_shoe:
                expect_next = None
                g.apply(actions[rng.randrange(len(actions))])
                continue
            due = g.shoe_due()
            assert due is not None, g.raw_log[-3:]
            if expect_next is not None:
                assert (due.seat, due.count, due.face_up) == (
                    expect_next.seat, expect_next.count, expect_next.face_up), g.raw_log[-3:]
            event = actions[rng.randrange(len(actions))]
            g.apply(event)
            code = event.cards[0].code
            in_hands = [s for s in range(g.num_seats) if code in {c.code for c in g.hand(s)}]
            if due.seat is None or due.face_up == "ace-draw":
                assert in_hands == [], (due, code, in_hands)
            else:
                assert due.seat in in_hands, (due, code, in_hands)
            expect_next = (ShoeDue(due.seat, due.count - 1, due.face_up, due.dealer, due.draw)
                           if due.count > 1 else None)
            checked += 1
    assert checked > 100
