"""Precomputed tables for Bazar-Belot: card orders and values per game, bids, interned events.

Everything a deal needs in its inner loop is a tuple lookup indexed by card index (``Card.index``)
or by game number, so legal-move generation and trick resolution are a few bitwise operations.

Game numbers: 0–3 a suit game with that trump (``C D H S``, the order of :data:`engine.cards.SUITS`),
4 БК (no trump), 5 ВК (all trumps: the suit led is trump in each trick).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache

from engine.cards import BY_INDEX, SUIT_MASK, SUITS, Card, cards_in, composition
from engine.events import CardEvents, Event, card_event
from engine.verdict import share_legal_verdict

BK = 4
VK = 5
GAME_CODES = ("C", "D", "H", "S", "BK", "VK")
GAME_NAMES = ("♣", "♦", "♥", "♠", "БК", "ВК")
SUIT_MASKS: tuple[int, ...] = tuple(SUIT_MASK[s] for s in SUITS)
DECK: tuple[Card, ...] = composition("32")
DECK_MASK = sum(c.bit for c in DECK)
N_CARDS = 38  # table size: every index of engine.cards (only the 32 of the deck are used)

# In-suit strength (higher wins) by rank letter.
TRUMP_ORDER = "78QKTA9J"  # J 9 A 10 K Q 8 7, weakest first
PLAIN_ORDER = "789JQKTA"  # A 10 K Q J 9 8 7, weakest first
TRUMP_VALUE = {"J": 20, "9": 14, "A": 11, "T": 10, "K": 4, "Q": 3, "8": 0, "7": 0}
PLAIN_VALUE = {"A": 11, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
BK_VALUE = {"A": 19, "T": 10, "K": 4, "Q": 3, "J": 2, "9": 0, "8": 0, "7": 0}
DECK_VISTY = (162, 162, 162, 162, 162, 258)  # the whole deck incl. the last trick, per game
LAST_TRICK = 10


def _is_trump(game: int, c: Card) -> bool:
    return game == VK or (game < BK and SUITS.index(c.suit) == game)


def _strength(game: int, c: Card) -> int:
    return (TRUMP_ORDER if _is_trump(game, c) else PLAIN_ORDER).index(c.rank)


def _value(game: int, c: Card) -> int:
    if game == BK:
        return BK_VALUE[c.rank]
    return (TRUMP_VALUE if _is_trump(game, c) else PLAIN_VALUE)[c.rank]


def _table(fn) -> tuple[tuple[int, ...], ...]:
    rows = []
    for game in range(6):
        row = [0] * N_CARDS
        for c in DECK:
            row[c.index] = fn(game, c)
        rows.append(tuple(row))
    return tuple(rows)


VALUE = _table(_value)
"""VALUE[game][card index]: card points."""
HIGHER = _table(lambda g, c: sum(o.bit for o in DECK if o.suit == c.suit
                                 and _strength(g, o) > _strength(g, c)))
"""HIGHER[game][card index]: mask of the cards of the same suit that beat it in that game."""
SUIT_OF: tuple[int, ...] = tuple(i // 9 for i in range(N_CARDS))
RANK_OF: tuple[int, ...] = tuple(i % 9 for i in range(N_CARDS))  # 1 = seven … 8 = ace
KQ_MASK: tuple[int, ...] = tuple(
    SUIT_MASKS[s] & sum(c.bit for c in DECK if c.rank in "KQ") for s in range(4))
"""KQ_MASK[suit]: the king and queen of that suit (the Бэла)."""
IS_KQ: tuple[bool, ...] = tuple(i < 36 and BY_INDEX[i].rank in "KQ" for i in range(N_CARDS))


def game_of_code(code: str) -> int:
    return GAME_CODES.index(code.upper())


# --------------------------------------------------------------------------- constructions
SEQ_VALUE = {3: 20, 4: 50}
QUINT_VALUE = 100
RANK_ORDER_RAMKI = {  # weakest first; 7 and 8 are not ranked: they void the deal / cancel all
    "trump": "QKTA9J",
    "bk": "JQKTA",
}
RAMKI_VALUE = {
    "trump": {"J": 200, "9": 140, "A": 110, "T": 100, "K": 100, "Q": 100},
    "bk": {"A": 190, "T": 100, "K": 100, "Q": 100, "J": 100},
}
RANK_MASK: tuple[int, ...] = tuple(sum(1 << (s * 9 + r) for s in range(4)) for r in range(9))
"""RANK_MASK[rank index]: the four cards of that rank."""


def _sub_runs(pattern: int) -> tuple[int, ...]:
    """Every run of ≥ 3 consecutive set bits inside a 9-bit rank pattern (as masks)."""
    out = []
    for lo in range(9):
        for hi in range(lo + 2, 9):
            m = ((1 << (hi - lo + 1)) - 1) << lo
            if pattern & m == m:
                out.append(m)
    out.sort(key=lambda m: (-m.bit_count(), -m.bit_length()))
    return tuple(out)


SUB_RUNS: tuple[tuple[int, ...], ...] = tuple(_sub_runs(p) for p in range(512))
"""SUB_RUNS[9-bit rank pattern of one suit]: its runs of three or more (longest, highest first)."""


# --------------------------------------------------------------------------- bids
NORMAL, KAPO, HAND = 0, 1, 2
MIN_N = (8, 8, 8, 8, 8, 20)


@dataclass(frozen=True, slots=True)
class Bid:
    """A significant bid. ``key`` orders seniority: N, then any Капо (by K), then Капо с руки."""

    code: str
    game: int
    kind: int  # NORMAL, KAPO, HAND
    n: int  # N of a normal bid
    plus: int  # K of «Капо + K»
    key: int

    def pretty(self) -> str:
        g = GAME_NAMES[self.game]
        if self.kind == NORMAL:
            return f"{self.n} {g}"
        word = "Капо" if self.kind == KAPO else "Капо с руки"
        return f"{word} {g}" + (f" + {self.plus}" if self.plus else "")


def bid_key(kind: int, n: int, plus: int) -> int:
    return n if kind == NORMAL else (1000 if kind == KAPO else 2000) + plus


def make_bid(kind: int, game: int, n: int = 0, plus: int = 0) -> Bid:
    g = GAME_CODES[game]
    if kind == NORMAL:
        code = f"{n}:{g}"
    else:
        code = ("kapo:" if kind == KAPO else "hand:") + g + (f"+{plus}" if plus else "")
    return Bid(code, game, kind, n, plus, bid_key(kind, n, plus))


BID_RE = re.compile(r"^(?:(\d+):(C|D|H|S|BK|VK)|(kapo|hand):(C|D|H|S|BK|VK)(?:\+(\d+))?)$")
WORDS = {"pass": "pass", "пас": "pass", "contra": "contra", "контра": "contra",
         "recontra": "recontra", "реконтра": "recontra"}


@lru_cache(maxsize=4096)
def parse_bid(arg: str) -> Bid | str | None:
    """``pass`` / ``contra`` / ``recontra`` (Russian words too), a :class:`Bid`, or None."""
    text = arg.strip()
    word = WORDS.get(text.lower())
    if word is not None:
        return word
    m = BID_RE.match(text.replace("капо", "kapo").replace("Капо", "kapo")
                     .replace("БК", "BK").replace("ВК", "VK"))
    if m is None:
        m = BID_RE.match(text.upper().replace("KAPO", "kapo").replace("HAND", "hand"))
        if m is None:
            return None
    if m.group(1):
        return make_bid(NORMAL, game_of_code(m.group(2)), int(m.group(1)))
    kind = KAPO if m.group(3) == "kapo" else HAND
    return make_bid(kind, game_of_code(m.group(4)), 0, int(m.group(5) or 0))


@dataclass(frozen=True, slots=True)
class BidTables:
    """Every bid the table offers under given caps, in seniority order, with interned events."""

    bids: tuple[Bid, ...]
    keys: tuple[int, ...]
    hand_start: int  # index of the first Капо с руки
    events: tuple[tuple[Event, ...], ...]  # [seat][i]
    by_code: dict[str, int]
    game_keys: tuple[tuple[int, ...], ...]  # [game][j] keys of the non-hand bids of that game
    game_events: tuple[tuple[tuple[Event, ...], ...], ...]  # [seat][game][j]
    passes: tuple[Event, ...]
    contras: tuple[Event, ...]
    recontras: tuple[Event, ...]


@cache
def bid_tables(max_n: int, max_plus: int) -> BidTables:
    bids = [make_bid(NORMAL, g, n) for g in range(6) for n in range(MIN_N[g], max_n + 1)]
    bids += [make_bid(KAPO, g, 0, k) for g in range(6) for k in range(max_plus + 1)]
    bids += [make_bid(HAND, g, 0, k) for g in range(6) for k in range(max_plus + 1)]
    bids.sort(key=lambda b: (b.key, b.game))
    events = tuple(tuple(_interned("bid", s, b.code) for b in bids) for s in range(4))
    hand_start = next(i for i, b in enumerate(bids) if b.kind == HAND)
    game_idx = [[i for i, b in enumerate(bids) if b.game == g and b.kind != HAND] for g in range(6)]
    return BidTables(
        bids=tuple(bids),
        keys=tuple(b.key for b in bids),
        hand_start=hand_start,
        events=events,
        by_code={b.code: i for i, b in enumerate(bids)},
        game_keys=tuple(tuple(bids[i].key for i in idx) for idx in game_idx),
        game_events=tuple(tuple(tuple(events[s][i] for i in idx) for idx in game_idx)
                          for s in range(4)),
        passes=tuple(_interned("bid", s, "pass") for s in range(4)),
        contras=tuple(_interned("bid", s, "contra") for s in range(4)),
        recontras=tuple(_interned("bid", s, "recontra") for s in range(4)),
    )


# --------------------------------------------------------------------------- interned events
# Every event the game lists is interned with its shared legal verdict (engine.verdict).


@cache
def _interned(kind: str, seat: int, arg: str = "") -> Event:
    """One event without cards, for the life of the process."""
    return share_legal_verdict(Event(kind, seat, (), arg))


PLAY_CARDS: tuple[CardEvents, ...] = tuple(CardEvents("play", s) for s in range(4))
BELA_EVENTS: tuple[tuple[Event | None, ...], ...] = tuple(
    tuple(card_event("play", s, BY_INDEX[i], "bela") if IS_KQ[i] and BY_INDEX[i] in DECK else None
          for i in range(N_CARDS))
    for s in range(4))
KQ_ALL = sum(1 << i for i in range(N_CARDS) if IS_KQ[i])
DEALER_EVENTS: tuple[Event, ...] = tuple(_interned("dealer", s) for s in range(4))
CLAIM_EVENTS: tuple[Event, ...] = tuple(_interned("claim", s) for s in range(4))
CONFIRM_EVENTS: tuple[Event, ...] = tuple(_interned("confirm", s) for s in range(4))


@cache
def declare_event(seat: int, mask: int) -> Event:
    return share_legal_verdict(Event("declare", seat, tuple(cards_in(mask))))


def deal_seats(pattern: str) -> tuple[int, ...]:
    """Seat offsets from the dealer (1 = the dealer's left) of the 32 cards, in shoe order."""
    packets = [int(p) for p in pattern.split("+")]
    out: list[int] = []
    for size in packets:
        for offset in (1, 2, 3, 0):
            out += [offset] * size
    return tuple(out)
