"""Card codes and deck compositions as the shoe reader sees them.

Kept here rather than imported from ``engine`` so the vision package stays independent of the
rules engine (the engine imports nothing from other packages, and vision only needs the codes).
"""

from __future__ import annotations

RANKS = ("6", "7", "8", "9", "T", "J", "Q", "K", "A")
SUITS = ("C", "D", "H", "S")
JOKERS = ("BJ", "RJ")
UNKNOWN = "??"

COMPOSITIONS = ("32", "36", "36j")


def all_codes() -> tuple[str, ...]:
    """Every code a deck profile may contain, in standard order."""
    return tuple(r + s for s in SUITS for r in RANKS) + JOKERS


def is_card_code(code: str) -> bool:
    return code in all_codes()


def composition(name: str) -> list[str]:
    """Cards of a composition in standard order: suits C, D, H, S by ascending rank, then jokers."""
    if name not in COMPOSITIONS:
        raise ValueError(f"unknown composition {name!r}; choose one of {', '.join(COMPOSITIONS)}")
    ranks = RANKS[1:] if name == "32" else RANKS
    cards = [r + s for s in SUITS for r in ranks]
    if name == "36j":
        # The 36-card joker pack replaces the two black sixes with the jokers.
        cards = [c for c in cards if c not in ("6S", "6C")] + list(JOKERS)
    return cards


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
    twice = [c for c in codes if c in seen or seen.add(c)]
    if twice:
        raise ValueError(f"the card list names {', '.join(dict.fromkeys(twice))} more than once; "
                         f"every card of the deck must appear exactly once")
    if expected is not None and len(codes) != expected:
        raise ValueError(f"the card list has {len(codes)} cards but {what or 'the deck'} has "
                         f"{expected}")
    return codes
