"""Helpers and scripted deals shared by the Terz tests (no tests here): deal known hands
through the shoe, run scripts, the hand-worked deal of test_terz_scoring."""

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


# Dealer seat 0, so seat 1 (the dealer's opponent) leads; 7♠ turned: spades are trumps.
#   seat 1: 9♥ 10♥ В♥ Т♣ Т♦ Т♠ 8♣ 8♦ 9♣      seat 0: 10♦ В♦ Д♦ К♦ 7♥ 8♥ 7♣ 7♦ К♣
# Seat 1 wins tricks 1–7, so after each it draws first: shoe cards 20, 22 … 32 go to seat 1,
# 21, 23 … 31 to seat 0, and in the 7th refill seat 0 takes the turned 7♠.
FIRST_SEVEN = [
    # lead 1: seat 1 declares the терц 9-10-J♥ (20); seat 0 beats it with the четверик 10-K♦ (50)
    "1 declare 9H TH JH", "0 declare TD JD QD KD",
    "1 play AC", "0 play 7C",              # T1 seat 1: A♣ 11 + 7♣ 0 = 11
    "shoe KS", "shoe 9D",
    # lead 2: seat 1 leads silently; seat 0 may declare: the пятерик 9-K♦ (100) — it holds the
    # scored четверик, it is not inside it, so it is allowed
    "1 play 8C", "0 declare 9D TD JD QD KD", "0 play 7H",   # T2 seat 1: 0 + 0 = 0
    "shoe QS", "shoe TC",
    # lead 3: seat 1 declares the trump marriage K♠ Q♠ (20): nothing answers it
    "1 bella", "1 play AD", "0 play 7D",   # T3 seat 1: 11 + 0 = 11
    "shoe AH", "shoe JC",
    "1 play AH", "0 play 8H",              # T4 seat 1: 11 + 0 = 11
    "shoe QC", "shoe 8S",
    "1 play TH", "0 play 9D",              # T5 seat 1: 10 + 0 = 10
    "shoe KH", "shoe 9S",
    "1 play 9C", "0 play JD",              # T6 seat 1: 0 + 1 = 1
    "shoe JS", "shoe TS",
    "1 play 8D", "0 play JC",              # T7 seat 1: 0 + 1 = 1 (the talon still lasts: free play)
    "shoe QH",                             # the last shoe card to seat 1; seat 0 takes the 7♠
]

LAST_NINE = [
    # lead 8 — the talon ran out with the last refill; the last declaration is made now:
    # seat 1 declares the четверик J-A♠ (50, trumps); seat 0 asks «от чего?» — its 7-10♠ is lower
    "1 declare JS QS KS AS", "0 ask", "0 pass",
    "1 play AS", "0 play 9S",              # T8 seat 0: trump 9 beats trump A: 11 + 13 = 24
    "0 play TC", "1 play QC",              # T9 seat 0: 10 + 2 = 12
    "0 play KC", "1 play QS",              # T10 seat 1 (void ♣, must trump): 3 + 2 = 5
    "1 play KH", "0 play 7S",              # T11 seat 0 (void ♥, must trump): 3 + 0 = 3
    "0 play TD", "1 play KS",              # T12 seat 1: 10 + 3 = 13
    "1 play QH", "0 play 8S",              # T13 seat 0: 2 + 0 = 2
    "0 play KD", "1 play 9H",              # T14 seat 0: void ♦, only the trump jack: exempt: 3 + 0 = 3
    "0 play TS", "1 play JS",              # T15 seat 1: trump J beats 10: 10 + 20 = 30
    "1 play JH", "0 play QD",              # T16 seat 1: 1 + 2 = 3, and the last trick 10
]


B1 = "9H TH JH QD KD 7C 8C 9C AS"
B0 = "7D 8D 9D TS JS 7H 8H AC KC"


def game_b(**options: object) -> Terz:
    game = Terz(**options)
    deal(game, B1, B0, "TD")
    return game


# The worked deal of test_terz_scoring, but in trick 9 seat 1 keeps Д♣ and plays 9♥ on 10♣.
FOUL_FINISH = [
    "0 play KC", "1 play QC",              # T10 seat 0: К♣ over Д♣: 3 + 2 = 5
    "0 play TD", "1 play QS",              # T11 seat 1 (void ♦, must trump): 10 + 2 = 12
    "1 play KH", "0 play 7S",              # T12 seat 0: 3 + 0 = 3
    "0 play KD", "1 play KS",              # T13 seat 1: 3 + 3 = 6
    "1 play QH", "0 play 8S",              # T14 seat 0: 2 + 0 = 2
    "0 play TS", "1 play JS",              # T15 seat 1: 10 + 20 = 30
    "1 play JH", "0 play QD",              # T16 seat 1: 1 + 2 = 3, last trick 10
]
