"""Building two-player Belot deals from known hands, for the hand-worked tests."""

from __future__ import annotations

from engine.belot2 import Belot2
from engine.cards import cards, composition
from engine.events import ev
from engine.playout import deal_hands
from engine.verdict import Verdict


def shoe_order(game: Belot2, hands: dict[int, str], turned: str) -> tuple[list[str], list[str]]:
    """The shoe codes of a deal in protocol order: 3 ND, 3 D, 3 ND, 3 D, turned | 3 ND, 3 D.

    ``hands[seat]`` lists the seat's nine cards: the first six come in the first batch, the last
    three in the second batch.
    """
    nd, d = hands[1 - game.dealer].split(), hands[game.dealer].split()
    assert len(nd) == len(d) == 9, "nine cards each"
    first = nd[0:3] + d[0:3] + nd[3:6] + d[3:6] + [turned]
    second = nd[6:9] + d[6:9]
    every = first + second
    assert len(set(every)) == len(every), "a card is in two places"
    return first, second


def deal(game: Belot2, hands: dict[int, str], turned: str, bids: list[str],
         second_open: str | None = None) -> None:
    """Shoe the deal, run the bidding, shoe the second batch and the second open card (by
    default the first unused card of the deck: it is never played).

    ``hands[seat]`` lists the seat's nine cards: the first six come in the first batch, the last
    three in the second. The shoe is stacked by the engine's own ``deal_hands``; the deal
    protocol itself is checked against the hand-written ``shoe_order`` in test_belot2_deal.
    """
    first, second = shoe_order(game, hands, turned)  # also checks nine cards each, no repeats
    deal_hands(game, {s: h.split()[:6] for s, h in hands.items()}, turned)
    for bid in bids:
        game.apply(ev(bid))
    rest = []
    if game._second_open:
        if second_open is None:
            second_open = next(c.code for c in composition("32") if c.code not in first + second)
        assert second_open not in first + second
        rest = [second_open]
    deal_hands(game, {s: h.split()[6:] for s, h in hands.items()}, rest)


def plays(game: Belot2, script: str) -> list[Verdict]:
    """Record ``"1 JH 0 7H …"``: seat/card pairs, in order (illegal ones get their verdict)."""
    tokens = script.split()
    return [game.record(ev(f"{tokens[i]} play {tokens[i + 1]}")) for i in range(0, len(tokens), 2)]


def confirm(game: Belot2) -> None:
    """Both seats accept the deal's score (the next dealer first)."""
    game.apply(ev(f"{1 - game.dealer} confirm"))
    game.apply(ev(f"{game.dealer} confirm"))


def items(game: Belot2, number: int, rule: str) -> list[tuple[int, int]]:
    """(side, points) of the score-sheet items of deal ``number`` made by ``rule``."""
    for d in game.score_sheet().deals:
        if d.number == number:
            return [(i.side, i.points) for i in d.items if i.rule == rule]
    raise AssertionError(f"no deal {number} on the sheet")


def finish_with_first_legal(game: Belot2) -> None:
    """Play out the deal with each seat's first legal card (for tests that do not check cards)."""
    while game.phase == 3:  # PLAY
        seat = game.to_act()
        game.apply(next(a for a in game.legal_actions(seat) if a.kind == "play"))


def mask(codes: str) -> int:
    m = 0
    for c in cards(codes):
        m |= c.bit
    return m


# Seat 1 takes every trick with trump hearts: 98 card points + last trick 10 = 108.
SWEEP = {1: "JH 9H AH AS TS KS AC TC KC", 0: "7H 8H QH 7S 8S 9S 7C 8C 9C"}
SWEEP_TURNED = "TH"
SWEEP_PLAY_1_LEADS = ("1 JH 0 7H 1 9H 0 8H 1 AH 0 QH 1 AS 0 7S 1 TS 0 8S 1 KS 0 9S "
                      "1 AC 0 7C 1 TC 0 8C 1 KC 0 9C")
SWEEP_PLAY_0_LEADS = ("0 7H 1 JH 1 9H 0 8H 1 AH 0 QH 1 AS 0 7S 1 TS 0 8S 1 KS 0 9S "
                      "1 AC 0 7C 1 TC 0 8C 1 KC 0 9C")

# A 39 : 39 deal when seat 1 leads (no trumps in either hand; trump hearts).
TIE = {1: "AS TS KS 7D 8D 9D 8C 9C JC", 0: "JS 7S 8S AD TD KD TC KC 7C"}
TIE_TURNED = "7H"
TIE_PLAY = ("1 AS 0 7S 1 TS 0 8S 1 KS 0 JS 1 7D 0 AD 0 TD 1 8D 0 KD 1 9D "
            "0 TC 1 8C 0 KC 1 9C 0 7C 1 JC")
