"""Events: the things that happen at a table, and their one-line notation.

Notation: ``[SEAT] KIND [CARD ...] [ARG ...]``. Examples::

    shoe TH            a card out of the shoe (the engine knows whose it is)
    0 bid pass         seat 0 passes
    1 bid H            seat 1 names hearts
    0 declare 7H 8H 9H seat 0 declares a terz
    0 play JH          seat 0 plays the jack of hearts
    0 play BJ want H   a joker played with a mode
    1 claim            «Партия!»
    undo               take back the last event
    fix 12 shoe TD     line 12 of the log was misread: it was TD

Cards come first and the argument is everything after the first token that is not a card code, so
a game must not start an argument with something that reads as a card (bids write ``8:H``).

A seat is written in ASCII digits. The cards of a ``declare`` event are a set: :meth:`Event.parse`
lists them in card-index order (the order ``legal_actions`` uses), so ``0 declare QS JS TS`` and
``0 declare TS JS QS`` are the same event in every game.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from operator import attrgetter

from engine.cards import ALL_CARDS, Card, card, is_card_code
from engine.errors import BadEventError
from engine.verdict import share_legal_verdict

SHOE = "shoe"
UNDO = "undo"
FIX = "fix"
DECLARE = "declare"
MAX_NUMBER_DIGITS = 9
"""Seats and ``fix`` event numbers have at most this many digits."""


def parse_number(token: str) -> int | None:
    """A non-negative number written in ASCII digits (``²`` or ``٣`` are not numbers here)."""
    if token.isascii() and token.isdigit() and len(token) <= MAX_NUMBER_DIGITS:
        return int(token)
    return None


_INDEX = attrgetter("index")


def _excerpt(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "…")


@dataclass(frozen=True, slots=True)
class Event:
    kind: str
    seat: int | None = None
    cards: tuple[Card, ...] = ()
    arg: str = ""

    @property
    def card(self) -> Card:
        """The single card of a ``shoe`` or ``play`` event."""
        if len(self.cards) != 1:
            if not self.cards and self.arg:
                card(self.arg.split()[0])  # raises UnknownCardError naming the bad code
            raise BadEventError(f"{self} needs exactly one card", "bad-event")
        return self.cards[0]

    def __str__(self) -> str:
        parts = [] if self.seat is None else [str(self.seat)]
        parts.append(self.kind)
        parts.extend(c.code for c in self.cards)
        if self.arg:
            parts.append(self.arg)
        return " ".join(parts)

    @classmethod
    def parse(cls, text: str) -> Event:
        tokens = text.split()
        if not tokens:
            raise BadEventError("empty event", "bad-event")
        seat: int | None = None
        if tokens[0].isnumeric():
            seat = parse_number(tokens[0])
            if seat is None:
                raise BadEventError(
                    f"event {_excerpt(text)}: {_excerpt(tokens[0], 12)} is not a seat: seats are "
                    "written 0, 1, 2 … in plain digits", "bad-seat")
            tokens.pop(0)
            if not tokens:
                raise BadEventError(f"event {_excerpt(text)} has a seat but no kind", "bad-event")
        kind = tokens.pop(0).lower()
        if not kind.isidentifier():
            raise BadEventError(f"event {_excerpt(text)}: {_excerpt(kind, 20)} is not an event kind",
                                "bad-event")
        for t in tokens:
            if t.isnumeric() and parse_number(t) is None:
                raise BadEventError(
                    f"event {_excerpt(text)}: {_excerpt(t, 12)} is not a number this notation "
                    f"reads: numbers are written in plain digits, at most {MAX_NUMBER_DIGITS}",
                    "bad-event")
        if kind == FIX:
            return cls(FIX, seat, (), " ".join(tokens))
        found: list[Card] = []
        while tokens and is_card_code(tokens[0]):
            found.append(card(tokens.pop(0)))
        if kind == DECLARE:
            found.sort(key=_INDEX)
        return cls(kind, seat, tuple(found), " ".join(tokens))


def shoe(code: str | Card) -> Event:
    return card_event(SHOE, None, card(code))


def play(seat: int, code: str | Card, arg: str = "") -> Event:
    return card_event("play", seat, card(code), arg)


@cache
def card_event(kind: str, seat: int | None, c: Card, arg: str = "") -> Event:
    """Interned one-card events: legal-move lists reuse them instead of building new objects."""
    return share_legal_verdict(Event(kind, seat, (c,), arg))


class CardEvents:
    """The interned events of one kind, seat and argument for every card, listed for a mask.

    The one card-event table of the engine, whatever the deck: legal-move generation runs once
    per event of every random playout, so the list for a hand mask is four lookups in per-suit
    tables of every 9-bit pattern (a card's index is suit × 9 + rank, 6 to ace), plus the jokers
    when the mask holds any. A 32-card deck simply never sets a suit's lowest bit.
    """

    __slots__ = ("by_index", "suits")

    def __init__(self, kind: str, seat: int | None = None, arg: str = "") -> None:
        self.by_index: tuple[Event, ...] = tuple(card_event(kind, seat, c, arg) for c in ALL_CARDS)
        self.suits = tuple(
            tuple(tuple(self.by_index[s * 9 + r] for r in range(9) if pattern >> r & 1)
                  for pattern in range(512))
            for s in range(4))

    def of(self, mask: int) -> list[Event]:
        """The events of the cards in ``mask``, in card-index order."""
        t = self.suits
        out = [*t[0][mask & 511], *t[1][mask >> 9 & 511], *t[2][mask >> 18 & 511],
               *t[3][mask >> 27 & 511]]
        if mask >> 36:
            out += [e for i, e in enumerate(self.by_index[36:], start=36) if mask >> i & 1]
        return out

    def __getitem__(self, index: int) -> Event:
        return self.by_index[index]


SHOE_EVENTS = CardEvents(SHOE)


def ev(text: str) -> Event:
    """Shorthand for :meth:`Event.parse`, handy in tests and scripts."""
    return Event.parse(text)
