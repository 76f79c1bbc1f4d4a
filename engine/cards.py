"""Cards, suits, ranks and deck compositions.

Cards are interned singletons with a small integer index, so a hand can be held as an int bit mask
(``1 << card.index``): legal-move generation is then a few bitwise operations, which is what lets
the engine play thousands of random deals a second.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from functools import cache
from typing import Literal

from engine.errors import UnknownCardError

SUITS = "CDHS"
RANKS = "6789TJQKA"
SUIT_SYMBOLS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RUSSIAN_RANKS = {"T": "10", "J": "В", "Q": "Д", "K": "К", "A": "Т"}
RANK_NAMES = {"T": "10"}


class Card:
    """One card. Compare with ``is`` or ``==``; never construct directly, use :func:`card`."""

    __slots__ = ("bit", "code", "index", "is_joker", "rank", "suit")

    def __init__(self, code: str, index: int) -> None:
        self.code = code
        self.index = index
        self.bit = 1 << index
        self.is_joker = code in ("BJ", "RJ")
        self.rank = "" if self.is_joker else code[0]
        self.suit = "" if self.is_joker else code[1]

    @property
    def rank_index(self) -> int:
        """Natural rank 0 (six) … 8 (ace); jokers have -1."""
        return RANKS.index(self.rank) if self.rank else -1

    def pretty(self, russian: bool = False) -> str:
        if self.is_joker:
            return "🃏" + ("ч" if self.code == "BJ" else "к") if russian else self.code
        rank = (RUSSIAN_RANKS if russian else RANK_NAMES).get(self.rank, self.rank)
        return rank + SUIT_SYMBOLS[self.suit]

    def __repr__(self) -> str:
        return f"Card({self.code})"

    def __str__(self) -> str:
        return self.code

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (card, (self.code,))


ALL_CARDS: tuple[Card, ...] = tuple(
    [Card(r + s, SUITS.index(s) * 9 + RANKS.index(r)) for s in SUITS for r in RANKS]
    + [Card("BJ", 36), Card("RJ", 37)]
)
_BY_CODE = {c.code: c for c in ALL_CARDS}
_BY_CODE.update({"10" + c.suit: c for c in ALL_CARDS if c.rank == "T"})
BY_INDEX: tuple[Card, ...] = ALL_CARDS
JOKERS_MASK = ALL_CARDS[36].bit | ALL_CARDS[37].bit
SUIT_MASK: dict[str, int] = {
    s: sum(1 << (SUITS.index(s) * 9 + r) for r in range(9)) for s in SUITS
}


def card(code: str | Card) -> Card:
    """The card for a code such as ``TH``, ``10H``, ``qs`` or ``BJ``."""
    if isinstance(code, Card):
        return code
    found = _BY_CODE.get(code.strip().upper()) if isinstance(code, str) else None
    if found is None:
        raise UnknownCardError(
            f"unknown card code {code!r}: expected rank 6 7 8 9 T J Q K A plus suit C D H S, or BJ/RJ"
        )
    return found


def is_card_code(token: str) -> bool:
    return token.strip().upper() in _BY_CODE


def cards(codes: str | Iterable[str | Card]) -> tuple[Card, ...]:
    """Cards from ``"7H 8H 9H"`` or an iterable of codes."""
    if isinstance(codes, str):
        codes = codes.replace(",", " ").split()
    return tuple(card(c) for c in codes)


def mask_of(cs: Iterable[Card]) -> int:
    m = 0
    for c in cs:
        m |= c.bit
    return m


def cards_in(mask: int) -> Iterator[Card]:
    """The cards of a bit mask in index order."""
    while mask:
        low = mask & -mask
        yield BY_INDEX[low.bit_length() - 1]
        mask ^= low


def count(mask: int) -> int:
    return mask.bit_count()


Composition = Literal["32", "36", "36j", "38"]


@cache
def composition(name: Composition) -> tuple[Card, ...]:
    """The cards of a deck composition in standard order (suits C D H S, ascending rank, jokers).

    ``32``: 7…A. ``36``: 6…A. ``36j``: 36 with BJ, RJ replacing 6♠, 6♣ (Joker). ``38``: 36 + 2 jokers.
    """
    low = "6" if name != "32" else "7"
    base = [c for c in ALL_CARDS[:36] if RANKS.index(c.rank) >= RANKS.index(low)]
    if name == "32" or name == "36":
        return tuple(base)
    if name == "36j":
        return (*(c for c in base if c.code not in ("6S", "6C")), ALL_CARDS[36], ALL_CARDS[37])
    if name == "38":
        return (*base, ALL_CARDS[36], ALL_CARDS[37])
    raise ValueError(f"unknown composition {name!r}: expected 32, 36, 36j or 38")


@cache
def composition_mask(name: Composition) -> int:
    return mask_of(composition(name))
