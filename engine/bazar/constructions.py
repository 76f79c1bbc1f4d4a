"""Constructions (конструкции): what a declaration is worth and which pair's best one wins.

A construction is a :class:`Construction` (a named tuple, so the game state stays comparable):
``kind`` is ``терц`` / ``пятьдесят`` / ``квинта`` / ``рамки`` / ``рамки7`` / ``рамки8`` and ``key``
orders strength: ``(1, rank strength, 0, 0)`` for Рамки, ``(0, length, top rank, trump)`` for a
sequence. Ties go to the one announced first.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from engine.bazar.tables import (
    BK,
    QUINT_VALUE,
    RAMKI_VALUE,
    RANK_MASK,
    RANK_ORDER_RAMKI,
    SEQ_VALUE,
    SUIT_MASKS,
)
from engine.cards import BY_INDEX, RANKS

Key = tuple[int, int, int, int]


class Construction(NamedTuple):
    """A construction announced in the first trick."""

    seat: int
    kind: str
    value: int
    key: Key
    mask: int


SEVEN, EIGHT = RANKS.index("7"), RANKS.index("8")


def classify(mask: int, game: int) -> tuple[str, int, Key] | str:
    """``(kind, value, key)`` of the cards of ``mask`` as a construction in ``game``, or why not."""
    n = mask.bit_count()
    for rank, rmask in enumerate(RANK_MASK):
        if mask == rmask:
            if rank == SEVEN:
                return ("рамки7", 0, (2, 0, 0, 0))
            if rank == EIGHT:
                return ("рамки8", 0, (2, 1, 0, 0))
            table = "bk" if game == BK else "trump"
            letter = RANKS[rank]
            if letter not in RAMKI_VALUE[table]:
                return f"four {letter} are not Рамки in {'БК' if game == BK else 'this game'}"
            return ("рамки", RAMKI_VALUE[table][letter],
                    (1, RANK_ORDER_RAMKI[table].index(letter) + 1, 0, 0))
    if n < 3:
        return "a construction is a run of three or more in one suit, or four of a kind"
    for suit, smask in enumerate(SUIT_MASKS):
        if mask & ~smask:
            continue
        low = (mask & -mask).bit_length() - 1
        run = ((1 << n) - 1) << low
        if run != mask:
            return "the cards are not a run in natural order (7 8 9 10 J Q K A)"
        top = low + n - 1 - suit * 9
        trump = 1 if game == suit else 0
        kind = "терц" if n == 3 else "пятьдесят" if n == 4 else "квинта"
        return (kind, SEQ_VALUE.get(n, QUINT_VALUE), (0, n, top, trump))
    return "a sequence must be in one suit"


def label(c: Construction) -> str:
    cards = " ".join(BY_INDEX[i].pretty() for i in range(36) if c[4] >> i & 1)
    kind = {"рамки7": "Рамки 7", "рамки8": "Рамки 8", "рамки": "Рамки"}.get(c[1], c[1])
    return f"{kind} {cards}"


def winner(constructions: Sequence[tuple[int, str, int, Key, int]]) -> int:
    """The pair (0 or 1) whose best construction wins, or -1 when nobody declared one.

    ``constructions`` (:class:`Construction` or plain tuples of its fields) is in announcement
    order, so the first of two equal ones wins.
    """
    best: list[tuple[Key, int]] = []
    for order, c in enumerate(constructions):
        best.append((c[3], -order))
    if not best:
        return -1
    top = max(best)
    return constructions[-top[1]][0] & 1

