"""Scripted Durak deals for the durak2 tests: every card of every scenario is chosen by hand.

The first game is dealt by seat 1, so seat 0 gets shoe cards 1-3 and 7-9, seat 1 cards 4-6 and
10-12, and card 13 is turned for trump.

DEAL (trump ♠ from the turned 8S):
    seat 0: 6C 6D 6H 6S 7C 7D      seat 1: 8C 8D 8H 7S 9C 9D
    lowest trump: 6S (seat 0) < 7S (seat 1), so seat 0 attacks first.

BOUT1: seat 0 attacks with six cards, seat 1 beats all six (every throw-in's rank is on the table):
    6C<8C 6D<8D 6H<8H, 6S<7S (trump by a higher trump), 7C<9C 7D<9D, then «бито».
    Both hands are empty; the talon holds 23 - 0 = 23 shoe cards + 8S = 24; each draws 6.
"""

from __future__ import annotations

from engine.durak2 import Durak2
from engine.events import Event, ev

DEAL = "6C 6D 6H 8C 8D 8H 6S 7C 7D 7S 9C 9D 8S"

BOUT1 = [
    "0 play 6C", "1 beat 8C 6C",
    "0 play 6D", "1 beat 8D 6D",
    "0 play 6H", "1 beat 8H 6H",
    "0 play 6S", "1 beat 7S 6S",
    "0 play 7C", "1 beat 9C 7C",
    "0 play 7D", "1 beat 9D 7D",
    "0 done",
]


def shoe(codes: str) -> list[str]:
    return [f"shoe {c}" for c in codes.split()]


def run(game: Durak2, lines: list[str]) -> Durak2:
    """Apply scripted events; every one of them must be legal."""
    for line in lines:
        game.apply(ev(line))
    return game


def hand(game: Durak2, seat: int) -> set[str]:
    return {c.code for c in game.hand(seat)}


def codes(text: str) -> set[str]:
    return set(text.split())


# Scenario A: after BOUT1 seat 0 draws JC JD JH QS KC KD, seat 1 draws TC TD TH JS QC QD.
# BOUT2 (seat 1 attacks, seat 0 beats all six): TC<JC TD<JD TH<JH, JS<QS (higher trump),
# QC<KC QD<KD. The talon now holds 11 shoe cards + 8S = 12: seat 1 (attacker) draws six from the
# shoe, seat 0 draws the last five from the shoe and then the turned 8S with no shoe event.
A_DRAW1 = "JC JD JH QS KC KD TC TD TH JS QC QD"
A_BOUT2 = [
    "1 play TC", "0 beat JC TC",
    "1 play TD", "0 beat JD TD",
    "1 play TH", "0 beat JH TH",
    "1 play JS", "0 beat QS JS",
    "1 play QC", "0 beat KC QC",
    "1 play QD", "0 beat KD QD",
    "1 done",
]
A_DRAW2 = "9S TS QH KS AS 7H AC AD 9H AH KH"  # seat 1 the first six, seat 0 the last five (+ 8S)


def scenario_a(**options: object) -> Durak2:
    """Talon empty; seat 0 (AC AD 9H AH KH 8S) attacks seat 1 (9S TS QH KS AS 7H)."""
    game = Durak2(options)
    return run(game, shoe(DEAL) + BOUT1 + shoe(A_DRAW1) + A_BOUT2 + shoe(A_DRAW2))


# Scenario B (talon short): after BOUT1 seat 0 draws JC JD JH QS QC QD, seat 1 TC TD TH JS KC KD.
# BOUT2 with four pairs: TC<JC TD<JD TH<JH JS<QS; seat 1 draws KH AS 9S TS, seat 0 QH KS 7H 9H.
# The talon is left with 3 shoe cards (AC AD AH) + 8S.
B_DRAW1 = "JC JD JH QS QC QD TC TD TH JS KC KD"
B_BOUT2 = [
    "1 play TC", "0 beat JC TC",
    "1 play TD", "0 beat JD TD",
    "1 play TH", "0 beat JH TH",
    "1 play JS", "0 beat QS JS",
    "1 done",
]
B_DRAW2 = "KH AS 9S TS QH KS 7H 9H"


def scenario_b(**options: object) -> Durak2:
    game = Durak2(options)
    return run(game, shoe(DEAL) + BOUT1 + shoe(B_DRAW1) + B_BOUT2 + shoe(B_DRAW2))


def events(lines: list[str]) -> list[Event]:
    return [ev(line) for line in lines]
