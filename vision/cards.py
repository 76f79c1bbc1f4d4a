"""Card codes and deck compositions as the shoe and table readers use them.

One vocabulary for the whole project: the codes and compositions are the engine's
(``engine.cards``), so a deck the engine deals (``38`` included) is a deck the readers know. The
readers work in plain code strings; ``??`` is the code of a card that could not be read.
"""

from __future__ import annotations

from enum import StrEnum
from typing import cast, get_args

from engine import cards as _engine

RANKS = tuple(_engine.RANKS)
SUITS = tuple(_engine.SUITS)
JOKERS = tuple(c.code for c in _engine.ALL_CARDS[36:])
UNKNOWN = "??"

COMPOSITIONS: tuple[str, ...] = get_args(_engine.Composition)


class ReaderFlag(StrEnum):
    """Why a reader's event is flagged: the one list both readers and the controller use.

    The values are the words the JSON lines and the alerts show; compare with the members."""

    # shoe reader
    OBSTRUCTION = "obstruction"
    INDEX_NOT_SEEN = "index not seen"
    UNKNOWN_FACE = "not a known card face"
    GEOMETRY_CHANGED = "shoe geometry changed, teach again or recalibrate"
    UNVERIFIED_PROFILE = "deck not verified: confirm every card the reader is unsure of"
    # table reader
    TWO_AT_ONCE = "two cards at once from one seat"
    REMOVED_EARLY = "removed before the trick was complete"
    PARTLY_TAKEN = "only some of the cards were taken"
    NO_CANDIDATES = "no candidates left for any seat"
    HELD_BY_NONE = "looks like a card no seat holds"
    OUTSIDE_ZONES = "card outside any seat zone"
    CAMERA_MOVED = "camera moved: reading paused until the markers are back in place"
    CAMERA_BACK = "camera back in place: reading again"
    BLACK_FRAME = "black frame: the camera sees nothing"
    GLARE = "glare: the frame is blown out"


def all_codes() -> tuple[str, ...]:
    """Every code a deck profile may contain, in standard order."""
    return tuple(c.code for c in _engine.ALL_CARDS)


def is_card_code(code: str) -> bool:
    return code in all_codes()


def composition(name: str) -> list[str]:
    """Cards of a composition in standard order: suits C, D, H, S by ascending rank, then jokers
    (``36j``: the 36-card joker pack, whose jokers replace the two black sixes; ``38``: 36 + 2)."""
    if name not in COMPOSITIONS:
        raise ValueError(f"unknown composition {name!r}; choose one of {', '.join(COMPOSITIONS)}")
    return [c.code for c in _engine.composition(name)]


def parse_card_list(text: str) -> list[str]:
    """Parse ``"QS,TH,BJ"`` (case-insensitive, ``10`` allowed for ``T``) into codes."""
    cards: list[str] = []
    for raw in text.split(","):
        token = raw.strip().upper()
        if not token:
            continue
        if token.startswith("10"):
            token = "T" + token[2:]
        if not is_card_code(token):
            raise ValueError(f"not a card code: {raw.strip()!r} (use e.g. QS, TH, 7C, BJ, RJ)")
        cards.append(token)
    if not cards:
        raise ValueError("the card list is empty")
    return cards


def check_card_list(codes: list[str], expected: int | None = None, what: str = "") -> list[str]:
    """Refuse a teaching card list with a card twice or (with ``expected``) of the wrong length."""
    seen: set[str] = set()
    twice = [c for c in codes if c in seen or cast(None, seen.add(c))]
    if twice:
        raise ValueError(f"the card list names {', '.join(dict.fromkeys(twice))} more than once; "
                         f"every card of the deck must appear exactly once")
    if expected is not None and len(codes) != expected:
        raise ValueError(f"the card list has {len(codes)} cards but {what or 'the deck'} has "
                         f"{expected}")
    return codes
