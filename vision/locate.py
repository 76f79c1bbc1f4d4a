"""Deck-agnostic card geometry in one frame: where the card is across, and its leading edges.

Cards are bright; the shoe interior behind them is dark. Two thin strips just inside the card's
left and right edges are bright wherever a card covers them and dark at a card boundary, because
every card has rounded corners (and usually an outline) that let the dark interior show through
even when cards follow each other with no gap. A leading edge is where both strips turn dark
below a stretch of card.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

MIN_CONTRAST = 40.0  # grey levels between card and shoe interior before we believe a card is there
MIN_CARD_ROWS = 14  # a stretch of card this tall above an edge
MIN_GAP_ROWS = 3  # a boundary shows at least this many dark rows
LOCAL_WHITE_ROWS = 81  # rows around each row used to judge what white looks like there
SIDE_SLACK = 12  # px outside the frame-wide card extent a card may sit
SIDE_REACH = 30  # px inside it we look for the card's side
NOTCH = 0.01  # a row narrower than the card by this share of its width is at a corner


@dataclass(frozen=True)
class Geometry:
    left: int
    right: int
    edges: tuple[int, ...]  # rows where a card above ends (its leading edge starts to round off)
    covered: float  # fraction of strip rows showing card

    @property
    def width(self) -> int:
        return self.right - self.left


def locate(gray: np.ndarray, card_width: float | None = None) -> Geometry | None:
    """Card extent and leading edges in a greyscale frame, or None when no card is in view.

    With ``card_width`` known, a lit span wider than a card (a finger beside it) is narrowed to
    the card-wide stretch that is lit the most.
    """
    h = gray.shape[0]
    cols = gray[::8].mean(axis=0)
    lo, hi = float(cols.min()), float(cols.max())
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
    if right - left < 40:
        return None
    # Where each row's card starts and ends near the card's sides: at a boundary between two
    # cards the rounded corners pull both in (or the row is dark altogether), while cards that
    # sit a few pixels apart sideways keep their full width.
    lo_l, hi_l = max(0, left - SIDE_SLACK), min(right, left + SIDE_REACH)
    lo_r, hi_r = max(left, right - SIDE_REACH), min(gray.shape[1], right + SIDE_SLACK + 1)
    band_l, band_r = gray[:, lo_l:hi_l], gray[:, lo_r:hi_r]
    outside = np.concatenate([cols[: max(0, left - 6)], cols[right + 7:]])
    dark = float(np.median(outside)) if outside.size else lo
    # Judge each row against the card's white nearby, so dim corners of an unevenly lit window
    # do not look like gaps between cards.
    row_white = np.minimum(band_l.max(axis=1), band_r.max(axis=1)).astype(np.float32)
    white = cv2.dilate(row_white.reshape(-1, 1), np.ones((LOCAL_WHITE_ROWS, 1), np.uint8)).ravel()
    thr = (dark + 0.45 * (white - dark))[:, None]
    lit_l, lit_r = band_l > thr, band_r > thr
    has = lit_l.any(axis=1) & lit_r.any(axis=1)
    first = lo_l + np.argmax(lit_l, axis=1)
    last = hi_r - 1 - np.argmax(lit_r[:, ::-1], axis=1)
    widths = last - first
    full = float(np.median(widths[has])) if has.any() else 0.0
    card = has & (widths >= full - max(3.0, NOTCH * full)) & (white - dark >= MIN_CONTRAST)
    # Fill single-row dropouts from noise so one card is not split in two.
    card[1:-1] |= card[:-2] & card[2:]
    edges = []
    change = np.flatnonzero(card[1:] != card[:-1]) + 1
    starts = [0, *change.tolist()]
    ends = [*change.tolist(), h]
    for s, e in zip(starts, ends, strict=True):
        # A card stretch above, and a gap of a few rows below that is not just the frame's end.
        if card[s] and e - s >= MIN_CARD_ROWS and e <= h - MIN_GAP_ROWS and not card[e: e + MIN_GAP_ROWS].any():
            edges.append(e)
    return Geometry(left, right, tuple(edges), float(card.mean()))
