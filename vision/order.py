"""Is a teaching pass in the order the user gave? What teaching says when it is not.

Teaching names each card of the pass by the order given (``--cards``, or a composition's
standard order), so a pass dealt in another order would be taught mislabelled, and read
confidently wrong ever after. Two checks look at the taught corners before anything is saved:

- *Kin* (relational, any deck). Cards of one rank share the rank glyph, cards of one suit the
  suit mark, so under the order given a card's kin (same rank or same suit) must look closer to
  it than the cards that share neither (``kin_fit``). Passes in their order fitted 0.20
  (swiss-xvii) to 0.45; the same corners dealt rank by rank where the order says suit by suit
  fitted -0.02 to 0.19 as given and 0.20 to 0.45 read rank by rank; shuffled, -0.03 to 0.02.
  So a plausible other order fitting clearly better is named, and a whole deck fitting under
  KIN_FLOOR is refused. The check cannot see what keeps every kin group together: whole suit
  blocks permuted, the pass reversed, aces dealt low.
- *Suit marks* (absolute, French suits). The mark every card of a declared suit shares is cut
  out and compared with drawn suit shapes: a diamond is the only mark that looks the same
  upside down, a heart has its own outline. When exactly one declared suit shows the heart (or
  the diamond) and it is not the hearts (diamonds) given, which look unlike it, the order is
  wrong. Clubs and spades are told apart only by details that vary between designs, so those
  two swapped are not seen; marks of other suit systems (German, Swiss) mostly match neither
  shape and give no verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations

import cv2
import numpy as np

from vision.cards import JOKERS, RANKS, SUITS
from vision.reader import corner_distances

MIN_CARDS = 12  # fewer cards than this (jokers aside) and the kin check says nothing
# A pass of FULL cards or more (jokers aside) whose kin fit is under KIN_FLOOR does not look to be
# in the order given: passes in their order fit 0.20 (swiss-xvii) to 0.45, shuffled ones -0.03
# to 0.02 (77 passes of 37 designs). Smaller passes are noisier (12 cards of swiss-xvii in their
# order: 0.05), so there only another order fitting better counts.
FULL = 24
KIN_FLOOR = 0.1
# A plausible other order (rank by rank, suit by suit, reversed) fitting this much better than
# the order given, and KIN_FLOOR at least, is the order the pass was dealt in.
OTHER_LEAD = 0.1
SHARED = 0.8  # a declared suit's mark: ink in this share of its cards
MIN_SUIT_CARDS = 4  # cards of each suit the suit-mark check needs
MARK_PX = 32  # side of the square a mark is compared at
MIN_MARK_AREA = 12  # px of mark (in the corner) below which a suit gives no verdict
# The heart: correlation with the drawn heart, the way up the marks fit best. French hearts
# scored 0.74 to 0.99, other suits' marks 0.56 at most (77 passes of 37 designs, docs/vision.md):
# a suit is taken as hearts at HEART or more, and the hearts given are refused only under
# NOT_HEART (a heart cut badly, guyenne-classic's 0.47, is then no verdict, not a refusal).
HEART, NOT_HEART = 0.67, 0.6
# The diamond: overlap of the mark with itself upside down. Diamonds 0.87 to 0.99 and others
# 0.76 at most on the first passes; then a held-out pass showed a spade at 0.82, and diamonds cut
# badly came out at 0.63 to 0.75: a suit is taken as diamonds at DIAMOND or more, and the
# diamonds given are refused only under NOT_DIAMOND.
DIAMOND, NOT_DIAMOND = 0.85, 0.72
SUIT_NAMES = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}


def kin_fit(distances: np.ndarray, codes: list[str]) -> float | None:
    """How well the corners group by the order given: over the cards, the mean of (distance to
    cards sharing neither rank nor suit - distance to cards sharing one) / the former. None
    when the pass has too few cards to say."""
    suits = [c[1] if c not in JOKERS else "" for c in codes]
    ranks = [c[0] if c not in JOKERS else "" for c in codes]
    real = np.array([bool(s) for s in suits])
    if real.sum() < MIN_CARDS:
        return None
    same_rank = np.array(ranks)[:, None] == np.array(ranks)[None, :]
    same_suit = np.array(suits)[:, None] == np.array(suits)[None, :]
    valid = real[:, None] & real[None, :] & ~np.eye(len(codes), dtype=bool)
    kin = valid & (same_rank | same_suit)
    other = valid & ~(same_rank | same_suit)
    fits = []
    for i in np.flatnonzero(real):
        if kin[i].any() and other[i].any():
            far = float(distances[i][other[i]].mean())
            if far > 0:
                fits.append((far - float(distances[i][kin[i]].mean())) / far)
    return float(np.mean(fits)) if fits else None


def other_orders(codes: list[str]) -> dict[str, list[str]]:
    """Orders a user may have dealt the same cards in, instead of ``codes``, by name."""
    cards = [c for c in codes if c not in JOKERS]
    jokers = [c for c in codes if c in JOKERS]
    suit_order = list(dict.fromkeys(c[1] for c in cards))
    by_rank = sorted(cards, key=lambda c: (RANKS.index(c[0]), suit_order.index(c[1])))
    by_suit = sorted(cards, key=lambda c: (suit_order.index(c[1]), RANKS.index(c[0])))
    orders = {
        "rank by rank (" + " ".join(by_rank[:5]) + " ...)": by_rank + jokers,
        "suit by suit (" + " ".join(by_suit[:5]) + " ...)": by_suit + jokers,
        "in reverse": list(reversed(codes)),
    }
    return {name: order for name, order in orders.items() if order != codes}


def _square(mask: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(mask)
    cut = mask[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1].astype(np.float32)
    return cv2.resize(cut, (MARK_PX, MARK_PX), interpolation=cv2.INTER_AREA)


def _drawn_suits() -> dict[str, np.ndarray]:
    """The four French suit marks, upright, drawn (no font or artwork needed)."""
    size = 240

    def pts(*xy: tuple[float, float]) -> np.ndarray:
        return np.array([(round(x * size), round(y * size)) for x, y in xy], np.int32)

    def disc(img: np.ndarray, x: float, y: float, r: float) -> None:
        cv2.circle(img, (round(x * size), round(y * size)), round(r * size), 1, -1, cv2.LINE_AA)

    heart, spade, diamond, club = (np.zeros((size, size), np.uint8) for _ in range(4))
    disc(heart, 0.28, 0.30, 0.23)
    disc(heart, 0.72, 0.30, 0.23)
    cv2.fillPoly(heart, [pts((0.06, 0.38), (0.94, 0.38), (0.5, 0.97))], 1)
    disc(spade, 0.28, 0.60, 0.21)
    disc(spade, 0.72, 0.60, 0.21)
    cv2.fillPoly(spade, [pts((0.08, 0.54), (0.92, 0.54), (0.5, 0.03))], 1)
    cv2.fillPoly(spade, [pts((0.5, 0.62), (0.36, 0.97), (0.64, 0.97))], 1)
    cv2.fillPoly(diamond, [pts((0.5, 0.02), (0.86, 0.5), (0.5, 0.98), (0.14, 0.5))], 1)
    disc(club, 0.5, 0.25, 0.21)
    disc(club, 0.25, 0.58, 0.21)
    disc(club, 0.75, 0.58, 0.21)
    cv2.fillPoly(club, [pts((0.42, 0.4), (0.58, 0.4), (0.58, 0.6), (0.42, 0.6))], 1)
    cv2.fillPoly(club, [pts((0.5, 0.55), (0.35, 0.97), (0.65, 0.97))], 1)
    return {"C": club, "D": diamond, "H": heart, "S": spade}


_DRAWN = _drawn_suits()
_PERMUTATIONS = list(permutations(range(len(SUITS))))


def _correlation(a: np.ndarray, b: np.ndarray) -> float:
    a, b = a - a.mean(), b - b.mean()
    norm = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum()) / norm if norm > 0 else 0.0


def suit_marks(inks: list[np.ndarray], codes: list[str], box: np.ndarray
               ) -> dict[str, np.ndarray] | None:
    """Each declared suit's mark: the ink at least SHARED of its cards have, the blob of it
    most inside the index ``box`` (a mask over the corner). None when a suit has too few cards
    or no such mark."""
    marks = {}
    for suit in SUITS:
        mine = [i for i, c in enumerate(codes) if c not in JOKERS and c[1] == suit]
        if len(mine) < MIN_SUIT_CARDS:
            return None
        shared = (np.mean([inks[i] for i in mine], axis=0) >= SHARED).astype(np.uint8)
        count, labels = cv2.connectedComponents(shared)
        inside = [int(((labels == k) & box).sum()) for k in range(1, count)]
        if not inside or max(inside) < MIN_MARK_AREA:
            return None
        marks[suit] = labels == 1 + int(np.argmax(inside))
    return marks


def _where(suit: str, codes: list[str]) -> str:
    """Where the cards given as ``suit`` are in the pass: "cards 10-18" (from 1)."""
    at = [i + 1 for i, c in enumerate(codes) if c not in JOKERS and c[1] == suit]
    if at == list(range(at[0], at[-1] + 1)):
        return f"cards {at[0]}-{at[-1]}"
    return f"{len(at)} cards"


def suit_problem(marks: dict[str, np.ndarray], codes: list[str]) -> str | None:
    """Which suits given (``codes``: the pass's order) show another suit's mark (hearts and
    diamonds only), in words, or None. The marks are taken the way up (a pass shows most
    decks' index turned round) in which the four fit the four drawn suits best, whichever suit
    each is."""
    square = {s: _square(m) for s, m in marks.items()}

    def fit(turned: bool) -> tuple[float, dict[str, float]]:
        drawn = {s: _square(d[::-1, ::-1] if turned else d) for s, d in _DRAWN.items()}
        scores = np.array([[_correlation(square[a], drawn[b]) for b in SUITS] for a in SUITS])
        best = max(sum(scores[i, p[i]] for i in range(4)) for p in _PERMUTATIONS)
        return best, {s: float(scores[i, SUITS.index("H")]) for i, s in enumerate(SUITS)}

    hearts = max((fit(True), fit(False)), key=lambda f: f[0])[1]
    # A diamond looks the same upside down: overlap of the mark and its turned self.
    diamonds = {}
    for suit, sq in square.items():
        on, turned = sq > 0.5, sq[::-1, ::-1] > 0.5
        diamonds[suit] = float((on & turned).sum()) / max(1, int((on | turned).sum()))
    wrong = []
    for mark, score, alike, unlike in (("H", hearts, HEART, NOT_HEART),
                                       ("D", diamonds, DIAMOND, NOT_DIAMOND)):
        showing = [s for s in SUITS if score[s] >= alike]
        if len(showing) == 1 and showing[0] != mark and score[mark] < unlike:
            wrong.append(f"the cards given as {SUIT_NAMES[showing[0]]} "
                         f"({_where(showing[0], codes)}) show the {SUIT_NAMES[mark][:-1]} mark")
    return "; ".join(wrong) or None


HOW = ("deal the deck in the order given (`cardtable deck teach --help`), or give the order "
       "it was dealt in with --cards")


def order_problem(templates: list[np.ndarray], codes: list[str],
                  marks: Callable[[], dict[str, np.ndarray] | None]) -> str | None:
    """Why the pass does not look to be in the order ``codes`` (its taught index corners in
    pass order, and a way to get each declared suit's mark), or None when nothing says so."""
    distances = corner_distances(templates)
    fit = kin_fit(distances, codes)
    if fit is not None:
        others = [(f, name) for name, order in other_orders(codes).items()
                  if (f := kin_fit(distances, order)) is not None]
        best, name = max(others, default=(None, ""))
        if best is not None and best >= max(KIN_FLOOR, fit + OTHER_LEAD):
            return (f"the cards do not look to be in the order given: they look dealt {name}; "
                    f"{HOW}")
        real = sum(c not in JOKERS for c in codes)
        if real >= FULL and fit < KIN_FLOOR:
            return (f"the cards do not look to be in the order given (cards of one rank or suit "
                    f"look no more alike than any two); {HOW}")
    found = marks()
    problem = suit_problem(found, codes) if found is not None else None
    if problem:
        return (f"the pass is not in the order given: {problem} (suits stacked in another order, "
                f"or the deck dealt from its other end?); {HOW}")
    return None
