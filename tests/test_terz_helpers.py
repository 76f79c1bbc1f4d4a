"""Helpers shared by the Terz tests (no tests here): deal known hands through the shoe, run scripts."""

from __future__ import annotations

from engine.cards import card, cards
from engine.events import ev, shoe
from engine.terz import Terz


def deal(game: Terz, opponent: str, dealer: str, turned: str) -> None:
    """Feed the shoe as the default protocol reads it: packets of three, the dealer's opponent
    first and the dealer last (cards 1–3, 7–9, 13–15 opponent; 4–6, 10–12, 16–18 dealer), then the
    turned trump (card 19)."""
    opp, dlr = cards(opponent), cards(dealer)
    assert len(opp) == len(dlr) == 9
    order = (*opp[0:3], *dlr[0:3], *opp[3:6], *dlr[3:6], *opp[6:9], *dlr[6:9], card(turned))
    for c in order:
        game.apply(shoe(c))


def run(game: Terz, *lines: str) -> None:
    """Apply events written in the record notation (``1 play AC``, ``shoe KS``)."""
    for line in lines:
        game.apply(ev(line))


def hand(game: Terz, seat: int) -> set[str]:
    return {c.code for c in game.hand(seat)}


# The worked deal of test_terz_scoring.py, dealer seat 0 (so seat 1 leads), trump ♠ (7♠ turned).
SEAT1 = "9H TH JH AC AD AS 8C 8D 9C"
SEAT0 = "TD JD QD KD 7H 8H 7C 7D KC"
TURNED = "7S"
