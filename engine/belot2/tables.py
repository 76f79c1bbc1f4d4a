"""Precomputed per-card tables for two-player Belot.

Hands are bit masks over the engine's card indices (suit * 9 + rank, ranks 6…A = 0…8); the
32-card deck uses ranks 7…A, so each suit is one byte at bit ``suit * 9 + 1``. Everything the hot
loop needs (points, trick strength, higher trumps, sequences, interned events) is looked up here
instead of being computed per play.
"""

from __future__ import annotations

from functools import cache

from engine.cards import BY_INDEX, SUIT_SYMBOLS, SUITS, Card, composition_mask
from engine.events import CardEvents, Event
from engine.verdict import share_legal_verdict

DECK = composition_mask("32")
N = 36  # table size: every index a 32-card deck can use

SUIT_OF = [i // 9 for i in range(N)]
RANK_OF = [i % 9 for i in range(N)]  # 1 = seven … 8 = ace
SUIT_BITS = [sum(1 << (s * 9 + r) for r in range(1, 9)) for s in range(4)]
SUIT_SHIFT = [s * 9 + 1 for s in range(4)]

#                      6  7  8  9  T   J   Q  K  A
_PLAIN_POINTS = [0, 0, 0, 0, 10, 2, 3, 4, 11]
_TRUMP_POINTS = [0, 0, 0, 14, 10, 20, 3, 4, 11]
_PLAIN_ORDER = [0, 0, 1, 2, 6, 3, 4, 5, 7]  # A T K Q J 9 8 7
_TRUMP_ORDER = [0, 0, 1, 6, 4, 7, 2, 3, 5]  # J 9 A T K Q 8 7


def _per_trump(plain: list[int], trump: list[int], trump_offset: int = 0) -> list[list[int]]:
    return [[(trump[RANK_OF[i]] + trump_offset) if SUIT_OF[i] == t else plain[RANK_OF[i]]
             for i in range(N)] for t in range(4)]


# POINTS[trump][card], STRENGTH[trump][card]: trumps rank above every plain card.
POINTS = _per_trump(_PLAIN_POINTS, _TRUMP_POINTS)
STRENGTH = _per_trump(_PLAIN_ORDER, _TRUMP_ORDER, 8)
# HIGHER_TRUMP[card]: the cards of its suit that beat it when that suit is trump.
HIGHER_TRUMP = [
    sum(1 << j for j in range(s * 9 + 1, s * 9 + 9) if _TRUMP_ORDER[RANK_OF[j]] > _TRUMP_ORDER[RANK_OF[i]])
    if RANK_OF[i] else 0
    for i in range(N) for s in [SUIT_OF[i]]
]
SEVEN = [s * 9 + 1 for s in range(4)]
BELLA = [(1 << (s * 9 + 6)) | (1 << (s * 9 + 7)) for s in range(4)]  # trump Q + K

# ----------------------------------------------------------------- sequences (terz, fifty)
# Sequence orders, low to high, as natural rank offsets within the suit byte (0 = seven … 7 = ace).
SEQUENCE_ORDERS = {"AKQJT987": (0, 1, 2, 3, 4, 5, 6, 7), "ATKQJ987": (0, 1, 2, 4, 5, 6, 3, 7)}


def _runs(order: tuple[int, ...]) -> list[tuple[tuple[int, int, int], ...]]:
    """For each suit byte: its maximal runs of 3+ as (length, top position, natural byte)."""
    table = []
    for byte in range(256):
        runs = []
        pos = 0
        while pos < 8:
            if byte >> order[pos] & 1:
                start = pos
                while pos < 8 and byte >> order[pos] & 1:
                    pos += 1
                if pos - start >= 3:
                    runs.append((pos - start, pos - 1, sum(1 << order[p] for p in range(start, pos))))
            pos += 1
        table.append(tuple(runs))
    return table


RUNS = {name: _runs(order) for name, order in SEQUENCE_ORDERS.items()}


def _run(mask: int, order_name: str) -> list[Card]:
    position = {offset: p for p, offset in enumerate(SEQUENCE_ORDERS[order_name])}
    found = cards_of(mask)
    found.sort(key=lambda c: position[c.index % 9 - 1], reverse=True)
    return found


def run_text(mask: int, order_name: str) -> str:
    """A run from its top card down, in the sequence order in force: "A♠ K♠ Q♠"."""
    return " ".join(c.pretty() for c in _run(mask, order_name))


def run_cards(mask: int, order_name: str) -> list[str]:
    """The run's card codes in the same order as :func:`run_text`."""
    return [c.code for c in _run(mask, order_name)]


def combination_value(length: int) -> int:
    return 20 if length == 3 else 50


def combination_name(length: int) -> str:
    return {3: "terz", 4: "fifty"}.get(length, f"run of {length} (scores as fifty)")


# ----------------------------------------------------------------- interned events and verdicts
# One table per seat of the engine's CardEvents (the same events card_event interns, each with
# its shared legal verdict: engine.verdict).
PLAY_CARDS = (CardEvents("play", 0), CardEvents("play", 1))


def simple(kind: str, seat: int | None, arg: str = "") -> Event:
    return _simple(kind, seat, arg)


@cache
def _simple(kind: str, seat: int | None, arg: str) -> Event:
    return share_legal_verdict(Event(kind, seat, (), arg))


@cache
def declare_event(seat: int, mask: int) -> Event:
    return share_legal_verdict(Event("declare", seat, tuple(cards_of(mask)), ""))


def cards_of(mask: int) -> list[Card]:
    out = []
    while mask:
        low = mask & -mask
        out.append(BY_INDEX[low.bit_length() - 1])
        mask ^= low
    return out


def suit_name(s: int) -> str:
    return SUIT_SYMBOLS[SUITS[s]]


def pretty(mask: int) -> str:
    return " ".join(c.pretty() for c in cards_of(mask))
