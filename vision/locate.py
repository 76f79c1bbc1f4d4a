"""Deck-agnostic card geometry in one frame: where the card is across, and its leading edges.

Cards are bright; the shoe interior behind them is dark. Near each side of the card we find, row
by row, where the card starts and ends. At a boundary between two cards the rounded corners (and
usually an outline) let the dark interior show through, so those rows are narrower than a card or
dark altogether, even when cards follow each other with no gap; cards that sit a few pixels apart
sideways keep their full width. A leading edge is where such a boundary starts below a stretch of
card.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

MIN_CONTRAST = 40.0  # grey levels between card and shoe interior before we believe a card is there
MIN_CARD_ROWS = 14  # a stretch of card this tall above an edge
MIN_GAP_ROWS = 3  # a boundary shows at least this many dark rows
ROW_STEP = 2  # rows sampled for boundaries
WHITE_BLOCK = 8  # sampled rows; white is judged from the blocks around each row...
WHITE_REACH = 2  # ...this many blocks either side
SIDE_SLACK = 12  # px outside the frame-wide card extent a card may sit
SIDE_REACH = 30  # px inside it we look for the card's side
NOTCH = 0.01  # a row narrower than the card by this share of its width is at a corner
MIN_SPAN = 40  # px of lit columns before we believe a card is there...
# ...but in a one-sided strip the strip's inner border cuts through the card, and a court card's
# robe can be dark (in green) over all of it but the white rim at the side (guyenne-classic's QH).
MIN_SPAN_ONE_SIDE = 12
# Following the card in view (CardFollower; teaching uses it only on a pass that does not give
# its count of cards without it). Cards are longer than wide: an edge found less than this many
# card widths behind the leading edge of the card in view is artwork inside that card (a court
# card's robe dark up to its side), never the next card. The squattest deck seen is tango
# (1.35), and in a one-sided strip every card is 1.5 to 1.8 by its scale (geometry.ASPECT, or
# one of LONGER_ASPECTS).
MIN_LENGTH = 1.25
EDGE_MATCH = 12  # px from where the followed edge has moved to: that edge
MIN_MOVE_MATCH = 0.5  # row profiles of two frames correlate this well, or the move is not trusted
PROFILE_SMOOTH = 6.0  # sigma (rows) taken off the row profile (its slow light falloff)


@dataclass(frozen=True)
class Geometry:
    left: int
    right: int
    edges: tuple[int, ...]  # rows where a card above ends (its leading edge starts to round off)
    covered: float  # fraction of rows showing card
    # One-sided strips only: the card's side as a line x = a + b * y (frame px), fitted row by
    # row, so a side slanted by a shoe set up a little off the taught tilt is followed exactly.
    line: tuple[float, float] | None = None

    @property
    def width(self) -> int:
        return self.right - self.left

    def side_at(self, y: float) -> int:
        """Column of the card's (right, index) side at row ``y``."""
        if self.line is None:
            return self.right
        return round(self.line[0] + self.line[1] * y)


def _local_max(values: np.ndarray) -> np.ndarray:
    """Maximum over the neighbouring blocks of rows, for every row (a cheap running maximum)."""
    n = len(values)
    blocks = -(-n // WHITE_BLOCK)
    padded = np.zeros(blocks * WHITE_BLOCK, np.float32)
    padded[:n] = values
    block_max = padded.reshape(blocks, WHITE_BLOCK).max(axis=1)
    spread = block_max.copy()
    for k in range(1, WHITE_REACH + 1):
        spread[k:] = np.maximum(spread[k:], block_max[:-k])
        spread[:-k] = np.maximum(spread[:-k], block_max[k:])
    return np.repeat(spread, WHITE_BLOCK)[:n]


def _median(values: np.ndarray) -> float:
    """``np.median`` of a non-empty 1-D array without NaN, to the bit (a tenth of its cost):
    the middle value, or the mean of the middle two (summed in float64, halved)."""
    s = np.sort(values)
    n = s.size
    if n % 2:
        return float(s[n // 2])
    return (float(s[n // 2 - 1]) + float(s[n // 2])) / 2


def _side_line(widths: np.ndarray, has: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per row, where a straight card side runs (a robust line fit of the side positions; rows
    at corners and boundaries sit inside it and are left out of the fit), and the fit (slope,
    intercept) per sampled row."""
    rows = np.flatnonzero(has).astype(np.float64)  # the sampled rows, as the fit takes them
    pos = widths[has].astype(np.float64)
    mid = _median(pos)
    keep = pos >= mid - 6
    line = np.array([0.0, mid])
    for _ in range(2):
        if np.count_nonzero(keep) < 8:
            break
        line = _fit(rows[keep], pos[keep])
        keep = np.abs(pos - (line[0] * rows + line[1])) <= 3
    return (line[0] * np.arange(len(widths)) + line[1]).astype(np.float32), line


def _fit(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least-squares line y = a x + b, as (a, b) (closed form: np.polyfit costs 10x more)."""
    # x.sum() / n is what x.mean() computes (the same pairwise sum), without its overhead.
    mx, my = x.sum() / x.size, y.sum() / y.size
    dx = x - mx
    a = float(dx @ (y - my)) / max(float(dx @ dx), 1e-9)
    return np.array([a, my - a * mx])


def locate(gray: np.ndarray, card_width: float | None = None, one_side: bool = False
           ) -> Geometry | None:
    """Card extent and leading edges in a one-channel frame, or None when no card is in view.

    With ``card_width`` known, a lit span wider than a card (a finger beside it) is narrowed to
    the card-wide stretch that is lit the most. With ``one_side`` the frame is a strip cut
    through the card (the canonical strip at the index side): its left border is not the card's
    side, so only the right side is looked at.
    """
    h, w = gray.shape
    rows8 = gray[::8] if gray.strides[1] == 1 else np.ascontiguousarray(gray[::8])
    cols = cv2.reduce(rows8, 0, cv2.REDUCE_AVG, dtype=cv2.CV_32F)[0]
    lo, hi = cv2.minMaxLoc(cols)[:2]
    if hi - lo < MIN_CONTRAST:
        return None
    thr = (lo + hi) / 2
    lit = np.flatnonzero(cols > thr)
    left, right = int(lit[0]), int(lit[-1])
    if card_width and right - left > card_width * 1.04:
        span = round(card_width)
        gain = np.concatenate([[0.0], np.cumsum(cols - thr)])
        sums = gain[span + 1:] - gain[: len(gain) - span - 1]
        left = int(np.argmax(sums))
        right = left + span
    if right - left < (MIN_SPAN_ONE_SIDE if one_side else MIN_SPAN):
        return None
    outside = np.concatenate([cols[: max(0, left - 6)], cols[right + 7:]])
    if one_side and outside.size:
        # A strip at the camera frame's edge is filled from beyond it with exact zeros (the
        # warp's border), darker than any shoe interior: judged against that, the shoe's own
        # dark in a long gap between cards passes for card (left-huge; a pass of 36 gave 38).
        # Where every outside column is fill (the frame's edge within a few px of the card's
        # side) no shoe is left to judge by, and the fill stays the reference.
        most = rows8.shape[0] // 4
        blank = np.concatenate([np.count_nonzero(part == 0, axis=0) > most for part in (
            rows8[:, : max(0, left - 6)], rows8[:, right + 7:])])
        if blank.any() and not blank.all():
            outside = outside[~blank]
    dark = float(np.partition(outside, outside.size // 2)[outside.size // 2]) if outside.size else lo

    lo_l, hi_l = max(0, left - SIDE_SLACK), min(right, left + SIDE_REACH)
    lo_r, hi_r = max(left, right - SIDE_REACH), min(w, right + SIDE_SLACK + 1)
    # Every other row is enough: boundaries are several rows tall and the matcher searches
    # a few pixels around the edge anyway.
    band_r = np.ascontiguousarray(gray[::ROW_STEP, lo_r:hi_r][:, ::-1])  # outermost first
    h = band_r.shape[0]
    # Judge each row against the card's white nearby, so dim corners of an unevenly lit window
    # do not look like gaps between cards.
    top_r = band_r.max(axis=1)
    if one_side:
        white = _local_max(top_r)
    else:
        band_l = np.ascontiguousarray(gray[::ROW_STEP, lo_l:hi_l])
        top_l = band_l.max(axis=1)
        white = _local_max(np.minimum(top_l, top_r))
    thr_rows = (dark + 0.45 * (white - dark)).astype(np.float32, copy=False)[:, None]
    lit_r = band_r > thr_rows
    # A row's first lit column (argmax) is lit just when the row's brightest pixel is (else
    # argmax gives column 0, unlit); one-sided, every column of the left band counts as lit.
    first_r, has = lit_r.argmax(axis=1), top_r > thr_rows[:, 0]
    if one_side:
        first_l = 0
    else:
        first_l = (band_l > thr_rows).argmax(axis=1)
        has &= top_l > thr_rows[:, 0]
    widths = (hi_r - 1 - first_r) - (lo_l + first_l)
    full: float | np.ndarray = _median(widths[has]) if has.any() else 0.0
    line = None
    strong = white - dark >= MIN_CONTRAST
    bright = has & strong
    if one_side and np.count_nonzero(bright) >= 8:
        # In a strip the side need not be upright: the shoe set up again may sit up to a
        # degree or so off the taught tilt, which slants the side by several px over the strip.
        # Judge each row against a straight line fitted to the side, not against one width.
        full, fit = _side_line(widths, bright)
        line = (float(lo_l + fit[1]), float(fit[0]) / ROW_STEP)
    most = full if isinstance(full, float) else full.max()
    card = has & (widths >= full - max(3.0, NOTCH * most)) & strong
    # Fill single-row dropouts from noise so one card is not split in two.
    card[1:-1] |= card[:-2] & card[2:]
    edges = []
    change = np.flatnonzero(card[1:] != card[:-1]) + 1
    starts = [0, *change.tolist()]
    ends = [*change.tolist(), h]
    min_card, min_gap = MIN_CARD_ROWS // ROW_STEP, -(-MIN_GAP_ROWS // ROW_STEP)
    for s, e in zip(starts, ends, strict=True):
        # A card stretch above, then a gap of a few rows that is not just the frame's end.
        if (card[s] and e - s >= min_card and e <= h - min_gap
                and not card[e: e + min_gap].any()):
            edges.append(e * ROW_STEP)
    return Geometry(left, right, tuple(edges), int(np.count_nonzero(card)) / card.size, line)


def row_profile(gray: np.ndarray) -> np.ndarray:
    """Mean of each row, less its slow trend: what shifts rigidly as the belt moves."""
    p = cv2.reduce(np.ascontiguousarray(gray), 1, cv2.REDUCE_AVG, dtype=cv2.CV_32F)
    return (p - cv2.GaussianBlur(p, (1, 0), PROFILE_SMOOTH))[:, 0]


def belt_move(prev: np.ndarray, cur: np.ndarray, back: int, most: int) -> tuple[int, float]:
    """Rows the picture moved down from ``prev`` to ``cur`` (row profiles), between ``-back``
    and ``most``, and how well the profiles agree there: their correlation over the rows both
    show, scaled by the share of the rows that is (a short overlap agrees easily by chance)."""
    h = len(cur)
    a, b = prev.astype(np.float64), cur.astype(np.float64)
    raw = np.correlate(b, a, "full")  # lag s (cur[k + s] against prev[k]) at h - 1 + s
    a2 = np.concatenate([[0.0], np.cumsum(a * a)])
    b2 = np.concatenate([[0.0], np.cumsum(b * b)])
    lags = np.arange(max(-back, -(h - h // 3)), min(most, h - h // 3) + 1)
    k0, k1 = np.maximum(0, -lags), np.minimum(h, h - lags)
    norm = np.sqrt((a2[k1] - a2[k0]) * (b2[k1 + lags] - b2[k0 + lags]))
    score = np.where(norm > 1e-6, raw[h - 1 + lags] / np.maximum(norm, 1e-6), -1.0)
    score *= np.sqrt((k1 - k0) / h)
    best = int(np.argmax(score))
    return int(lags[best]), float(score[best])


class CardFollower:
    """Follows the leading edges of the cards in view as the picture moves, so edges that
    artwork makes inside a card are not taken for the next card.

    Court cards whose robes are dark right up to the face's side (gnome-cards ``paris``) have
    rows that look like the gap between two cards, each a leading edge to ``locate``. A card
    moves as one, and the next card can follow no closer than a card's length: an edge less
    than ``MIN_LENGTH`` card widths behind a followed leading edge is inside that card. The
    move between frames comes from the row profile, so a leading edge is followed after it has
    left the frame (or while artwork hides it); when the move is not clear, nothing is followed
    (and nothing dropped) until the next edge is found.

    It can go wrong the other way: after a frame whose move is not clear, an edge that artwork
    makes low on a card can be taken for a leading edge and hide the next card's real one (seen
    on Атласные with a dark border in the classic shoe: 37 cards of 38). Hence teaching only
    follows a pass that does not give its count without following.
    """

    def __init__(self, back: int, most: int) -> None:
        self.back, self.most = back, most
        self.leads: list[float] = []
        self._profile: np.ndarray | None = None
        self.dropped = 0

    def update(self, gray: np.ndarray, edges: tuple[int, ...], width: float) -> tuple[int, ...]:
        """The edges of this frame that can be a card's leading edge (in order)."""
        profile = row_profile(gray)
        reach = MIN_LENGTH * width
        if self.leads and self._profile is not None:
            moved, match = belt_move(self._profile, profile, self.back, self.most)
            self.leads = ([x + moved for x in self.leads if x + moved < len(profile) + reach]
                          if match >= MIN_MOVE_MATCH else [])
        self._profile = profile
        keep = []
        for e in sorted(edges, reverse=True):  # lowest first: the card furthest on leads
            same = [x for x in self.leads if abs(x - e) <= EDGE_MATCH]
            if any(e + EDGE_MATCH < x < e + reach for x in self.leads):
                self.dropped += 1  # inside a card further on (a lead here was artwork too)
                self.leads = [x for x in self.leads if x not in same]
                continue
            self.leads = [x for x in self.leads if x not in same] + [float(e)]
            keep.append(e)
        return tuple(sorted(keep))
