"""Shoe geometry: how this shoe's camera sees the cards travel, so nothing about it is assumed.

Every shoe is described relative to one *canonical* shoe (the original generator's): a 640x480
window, cards 400 px wide sliding down it face up, the card's index side (right) at x = 520, so the
bottom-right index leads. A real shoe's camera sees that picture moved, turned (travel down, up,
left or right, plus a small tilt), scaled (cards from under half the frame to much larger than it)
and perhaps mirrored (the index on the other side of the travel). ``ShoeGeometry`` holds those
parameters; ``Normaliser`` warps the small strip of each camera frame that holds the index side of
the card into canonical orientation and scale, so the reader's per-frame work does not grow with
the card; ``learn_geometry`` finds the parameters from a teaching pass (card motion by phase
correlation, the card's stationary sides from where cards are lit over the pass).
"""

from __future__ import annotations

import base64
import itertools
import math
from collections.abc import Iterable
from typing import Literal

import cv2
import numpy as np
from pydantic import BaseModel, Field

CANON_W, CANON_H = 640, 480
CANON_CARD = 400.0  # canonical card width, px
CANON_SIDE = 520.0  # canonical x of the card's index side
CENTRE = np.array([CANON_W / 2, CANON_H / 2])
STRIP_IN = 150  # canonical px of card kept inside the index side...
STRIP_OUT = 40  # ...and of shoe interior outside it
STRIP_X0 = int(CANON_SIDE) - STRIP_IN
STRIP_W = STRIP_IN + STRIP_OUT
STRIP_MAX_H = 480  # canonical px along the travel kept (the entry side of the window)
STRIP_MIN_H = 220  # less than this along the travel and the index is never fully in view
DIRECTION_ANGLE = {"down": 0.0, "left": 90.0, "up": 180.0, "right": -90.0}
Direction = Literal["down", "up", "left", "right"]
SMALL = 4  # learning works on frames shrunk this many times
ASPECT = 1.5  # assumed card length / width when only one side of the card is ever in view
# ...and the longer proportions tried, in turn, where the strip at that scale leaves the frame
# (a 1.67:1 deck was learned 9% large at 1.5 and pushed the strip out of a huge card's window).
LONGER_ASPECTS = (1.6, 1.7, 1.8)
BELT_DEPTH = 40  # small px inside the side over which card-length bands may be tried...
BELT_CORNER = 0.08  # ...as far in as a card's rounded corner can reach (share of its length)
MERGED_PAIR = 0.04  # a run this close to twice an edge band's card length is two cards
# A one-sided shoe's card side is found where the face turns light; a face with a dark outline
# along its edge (swiss-xvii's is 2% of the card wide) puts that inside the card's edge. The
# outline is looked for outside the side found: up to OUTLINE_REACH small px of a brightness
# that differs from the shoe's beyond it by OUTLINE_CONTRAST grey levels or more.
OUTLINE_REACH = 8
OUTLINE_BACKGROUND = 4  # small px of shoe beyond the reach that give its brightness
OUTLINE_CONTRAST = 6.0
OUTLINE_MAX_CANON = 40.0


# Said where a teaching pass shows the signs of a deck whose index is at one end of the face only.
ONE_ENDED = ("a deck with no index (rank and suit together) in that end's corners cannot be read "
             "(docs/vision.md, Limits)")


class GeometryError(RuntimeError):
    """The teaching pass does not show a shoe geometry the reader can use."""


class ShoeGeometry(BaseModel):
    """Where the canonical shoe's picture lands in this camera's frame."""

    direction: Direction = "down"
    mirror: bool = Field(False, description="index on the travel's other side (mirror optics)")
    scale: float = Field(1.0, gt=0.2, lt=6.0, description="card width / 400 px")
    tilt: float = Field(0.0, ge=-10.0, le=10.0, description="degrees beyond the direction")
    offset: tuple[float, float] = Field((0.0, 0.0), description="px the canonical centre moved")
    frame: tuple[int, int] = (CANON_W, CANON_H)
    one_side: bool = Field(False, description="only the index side of the card is ever in view")
    inset: float = Field(0.0, ge=0.0, le=OUTLINE_MAX_CANON,
                         description="canonical px between the card's edge and where its face "
                                     "turns light (a dark outline along the edge)")
    preview: str | None = Field(None, description="base64 JPEG of a teaching frame")

    def is_default(self) -> bool:
        """The canonical shoe itself: read full frames exactly as version-1 profiles were."""
        return (self.direction == "down" and not self.mirror and self.scale == 1.0
                and self.tilt == 0.0 and tuple(self.offset) == (0.0, 0.0)
                and tuple(self.frame) == (CANON_W, CANON_H))

    def linear(self) -> np.ndarray:
        a = math.radians(DIRECTION_ANGLE[self.direction] + self.tilt)
        rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        flip = np.diag([-1.0 if self.mirror else 1.0, 1.0])
        return self.scale * rot @ flip

    def matrix(self) -> np.ndarray:
        """2x3 affine map from canonical to camera pixels."""
        lin = self.linear()
        centre = np.array(self.frame, float) / 2 + np.array(self.offset, float)
        return np.hstack([lin, (centre - lin @ CENTRE)[:, None]])

    def to_camera(self, points: np.ndarray) -> np.ndarray:
        m = self.matrix()
        return np.asarray(points, float) @ m[:, :2].T + m[:, 2]

    def describe(self) -> str:
        side = "left" if self.mirror else "right"
        return (f"cards travel {self.direction}, tilt {self.tilt:+.1f} deg, card width "
                f"{CANON_CARD * self.scale:.0f} px, index on the travel's {side}-hand side, "
                f"offset ({self.offset[0]:+.0f}, {self.offset[1]:+.0f}) px"
                + (", only the index side in view" if self.one_side else ""))

    def close_to(self, other: ShoeGeometry, scale: float = 0.05, offset: float = 8.0,
                 tilt: float = 1.0) -> bool:
        return (self.direction == other.direction and self.mirror == other.mirror
                and abs(self.scale / other.scale - 1) <= scale
                and abs(self.tilt - other.tilt) <= tilt
                and math.dist(self.offset, other.offset) <= offset)


DEFAULT_GEOMETRY = ShoeGeometry()


def encode_preview(frame: np.ndarray) -> str:
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 70])
    return base64.b64encode(buf.tobytes()).decode("ascii") if ok else ""


def decode_preview(text: str | None) -> np.ndarray | None:
    if not text:
        return None
    try:
        img = cv2.imdecode(np.frombuffer(base64.b64decode(text), np.uint8), cv2.IMREAD_COLOR)
    except ValueError:
        return None
    return img


class Normaliser:
    """Warps the index-side strip of a camera frame into canonical orientation and scale."""

    def __init__(self, geometry: ShoeGeometry) -> None:
        self.geometry = geometry
        m = geometry.matrix()
        w, h = geometry.frame
        # Canonical rows along which the card part of the strip is wholly inside the frame.
        ys = np.arange(-4000, 4000, 1.0)
        xs = np.linspace(STRIP_X0, CANON_SIDE - 4, 12)
        px = m[0, 0] * xs[None, :] + m[0, 1] * ys[:, None] + m[0, 2]
        py = m[1, 0] * xs[None, :] + m[1, 1] * ys[:, None] + m[1, 2]
        inside = ((px >= 0) & (px <= w - 1) & (py >= 0) & (py <= h - 1)).all(axis=1)
        rows = np.flatnonzero(inside)
        if rows.size == 0 or rows[-1] - rows[0] < STRIP_MIN_H:
            seen = 0 if rows.size == 0 else int(rows[-1] - rows[0])
            raise GeometryError(f"the window shows only {seen} px of the card's travel at the "
                                f"index side (at least {STRIP_MIN_H} needed)")
        self.top = float(ys[rows[0]])
        self.height = int(min(rows[-1] - rows[0], STRIP_MAX_H))
        self.width = STRIP_W
        # Where the card's side shows in the strip: where its face turns light.
        self.side_x = float(STRIP_IN) - geometry.inset
        shift = np.array([[1.0, 0.0, STRIP_X0], [0.0, 1.0, self.top], [0.0, 0.0, 1.0]])
        self.warp = (np.vstack([m, [0, 0, 1]]) @ shift)[:2].astype(np.float64)
        # Shrinking more than 1.5x with bilinear sampling aliases; a cheap pre-blur in the
        # camera frame keeps teaching and reading views alike and smooth.
        self.preblur = max(1, round(geometry.scale / 1.5)) if geometry.scale > 1.5 else 0
        # Per frame size and aim: the whole strip's warp and camera box, and (no pre-blur) a
        # channel plane kept from frame to frame (see ``green``).
        self._plan: tuple | None = None
        self._plane: np.ndarray | None = None

    def __call__(self, frame: np.ndarray) -> np.ndarray:
        return self._sample(frame)

    def green(self, frame: np.ndarray) -> np.ndarray:
        """The strip's green channel alone, exactly as in ``self(frame)`` (every step works per
        channel): enough to find cards, at a third of the warp; the reader warps the colour
        strip only in frames where an index is in view."""
        # ``_sample`` step for step, but for what it works out afresh in every frame.
        warp, (x0, y0, x1, y1), cut = self._whole(frame.shape)
        if x1 <= x0 or y1 <= y0 or frame.dtype != np.uint8 or frame.ndim != 3:
            return self._sample(frame, channel=1)  # no strip in the frame, or no BGR frame
        if self.preblur:
            k = 2 * self.preblur + 1
            part = cv2.blur(cv2.extractChannel(frame[y0:y1, x0:x1], 1), (k, k))
            return cv2.warpAffine(part, cut, (self.width, self.height),
                                  flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                  borderMode=cv2.BORDER_CONSTANT, borderValue=0)
        # Without a pre-blur the warp reads only camera pixels inside the strip's camera box
        # (its corners' extent padded by 4 px; bilinear taps lie within 1 px of it), so only
        # those are copied out of the frame, into a full-frame plane kept from call to call:
        # the warp itself (matrix, source size, border) is exactly the one ``_sample`` makes.
        plane = self._plane
        if plane is None or plane.shape != frame.shape[:2]:
            plane = self._plane = np.zeros(frame.shape[:2], np.uint8)
        cv2.extractChannel(frame[y0:y1, x0:x1], 1, dst=plane[y0:y1, x0:x1])
        return cv2.warpAffine(plane, warp, (self.width, self.height),
                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=0)

    def _whole(self, shape: tuple[int, ...]
               ) -> tuple[np.ndarray, tuple[int, int, int, int], np.ndarray]:
        """The whole strip's warp, its camera box and the warp from that box, for frames of
        ``shape``, as ``_sample`` computes them; kept until the frame size or the aim
        (``self.warp``) changes."""
        key = (shape, self.warp.tobytes())
        if self._plan is None or self._plan[0] != key:
            # The whole strip starts at strip px (0, 0): ``_sample``'s shift is the identity.
            warp = self.warp.copy()
            x0, y0, x1, y1 = self.camera_box(shape)
            cut = warp.copy()
            cut[:, 2] -= (x0, y0)
            self._plan = (key, warp, (x0, y0, x1, y1), cut)
        return self._plan[1:]

    def _sample(self, frame: np.ndarray, part: tuple[int, int, int, int] | None = None,
                channel: int | None = None) -> np.ndarray:
        """The strip (or its rows r0:r1, columns c0:c1: ``part``; or one ``channel`` of it),
        pre-blurred on just the camera pixels it samples when the card is shrunk."""
        r0, r1, c0, c1 = part if part is not None else (0, self.height, 0, self.width)
        shift = np.array([[1.0, 0.0, c0], [0.0, 1.0, r0], [0.0, 0.0, 1.0]])
        warp = (np.vstack([self.warp, [0, 0, 1]]) @ shift)[:2]
        if self.preblur:
            x0, y0, x1, y1 = self.camera_box(frame.shape, part)
            warp[:, 2] -= (x0, y0)
            frame = frame[y0:y1, x0:x1]
        if channel is not None:
            frame = cv2.extractChannel(frame, channel)
        if self.preblur:
            k = 2 * self.preblur + 1
            frame = cv2.blur(frame, (k, k))
        return cv2.warpAffine(frame, warp, (max(0, c1 - c0), max(0, r1 - r0)),
                              flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                              borderMode=cv2.BORDER_CONSTANT,
                              borderValue=0 if channel is not None else (0, 0, 0))

    def adjust(self, dx: float, slope: float, centre_y: float) -> None:
        """Re-aim the strip for a shoe set up a little differently from the taught one: the
        card's side was seen at ``side_x + dx`` at strip row ``centre_y``, running ``slope``
        px across per px along; turn and shift the strip so it runs upright at ``side_x``."""
        a = math.atan(slope)
        c, s = math.cos(a), math.sin(a)
        cx, cy = self.side_x, float(centre_y)
        # new strip px -> old strip px: turn about (cx, cy), then shift across by dx
        corr = np.array([[c, s, cx - c * cx - s * cy + dx],
                         [-s, c, cy + s * cx - c * cy],
                         [0.0, 0.0, 1.0]])
        self.warp = (np.vstack([self.warp, [0, 0, 1]]) @ corr)[:2]

    def strip_corners(self) -> np.ndarray:
        """The strip's corners in camera pixels (for drawing)."""
        pts = np.array([[0, 0], [self.width, 0], [self.width, self.height], [0, self.height]],
                       float)
        return pts @ self.warp[:, :2].T + self.warp[:, 2]

    def to_camera(self, points: Iterable) -> np.ndarray:
        pts = np.asarray(list(points), float)
        return pts @ self.warp[:, :2].T + self.warp[:, 2]

    def part(self, frame: np.ndarray, rows: tuple[int, int], cols: tuple[int, int]
             ) -> np.ndarray:
        """``self(frame)[r0:r1, c0:c1]`` warped on its own (a look needs an eighth of the
        strip). Equal to the cut of the whole strip but for a rare 1-level rounding step."""
        return self._sample(frame, (*rows, *cols))

    def camera_box(self, shape: tuple[int, ...], part: tuple[int, int, int, int] | None = None
                   ) -> tuple[int, int, int, int]:
        """Camera pixels the strip (or its rows r0:r1, columns c0:c1) is sampled from."""
        if part is None:
            c = self.strip_corners()
        else:
            r0, r1, c0, c1 = part
            c = self.to_camera([(c0, r0), (c1, r0), (c1, r1), (c0, r1)])
        pad = 4 + 2 * self.preblur
        h, w = shape[:2]
        x0, y0 = np.floor(c.min(axis=0)).astype(int) - pad
        x1, y1 = np.ceil(c.max(axis=0)).astype(int) + pad
        return max(0, x0), max(0, y0), min(w, x1), min(h, y1)


# -- learning ---------------------------------------------------------------------------------
def _shrink(frame: np.ndarray) -> np.ndarray:
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    return cv2.resize(gray, None, fx=1 / SMALL, fy=1 / SMALL, interpolation=cv2.INTER_AREA)


def _highpass(img: np.ndarray) -> np.ndarray:
    f = img.astype(np.float32)
    return f - cv2.GaussianBlur(f, (0, 0), 3)


class _Pass:
    """What one look over a teaching pass gathered: shrunk frames and frame-to-frame motion."""

    def __init__(self, source: Iterable[np.ndarray]) -> None:
        self.small: list[np.ndarray] = []
        self.motion: list[tuple[int, float, float]] = []
        self.frame_shape: tuple[int, int] | None = None
        self.preview: np.ndarray | None = None
        prev = None
        window = None
        for i, frame in enumerate(source):
            if self.frame_shape is None:
                self.frame_shape = frame.shape[:2]
            s = _shrink(frame)
            self.small.append(s)
            hp = _highpass(s)
            if window is None:
                window = cv2.createHanningWindow(hp.shape[::-1], cv2.CV_32F)
            if prev is not None:
                (dx, dy), resp = cv2.phaseCorrelate(prev, hp, window)
                if resp > 0.08 and math.hypot(dx, dy) > 1.0:
                    self.motion.append((i, dx * SMALL, dy * SMALL))
            prev = hp
        if not self.small:
            raise GeometryError("the teaching pass has no frames")


def _direction(angle: float) -> tuple[str, float]:
    """Nearest of the four directions to a travel angle (degrees, ours), and the rest (tilt)."""
    best = min(DIRECTION_ANGLE, key=lambda d: abs(_wrap(angle - DIRECTION_ANGLE[d])))
    return best, _wrap(angle - DIRECTION_ANGLE[best])


def _wrap(a: float) -> float:
    return (a + 180.0) % 360.0 - 180.0


def _travel_angle(vx: float, vy: float) -> float:
    # camera travel = R(theta) (0, 1) = (-sin theta, cos theta)
    return math.degrees(math.atan2(-vx, vy))


def _sides(lit: np.ndarray, valid: np.ndarray) -> tuple[np.ndarray | None, np.ndarray | None]:
    """Per row of an upright map (cards moving down): fitted (a, b) of x = a + b*y for the left
    and right card sides, or None where that side never shows (the card runs out of view)."""
    h = lit.shape[0]
    rows_l, xl, rows_r, xr = [], [], [], []
    for y in range(h):
        ok = np.flatnonzero(valid[y])
        if ok.size < 8:
            continue
        row = lit[y, ok[0]: ok[-1] + 1]
        on = np.flatnonzero(row > 0.5)
        if on.size == 0:
            continue
        a, b = on[0], on[-1]
        if a > 1 and _sharp(row, a, -1):
            # sub-pixel crossing
            f0, f1 = row[a - 1], row[a]
            rows_l.append(y)
            xl.append(ok[0] + a - 1 + (0.5 - f0) / max(f1 - f0, 1e-3))
        if b < row.size - 2 and _sharp(row, b, 1):
            f0, f1 = row[b], row[b + 1]
            rows_r.append(y)
            xr.append(ok[0] + b + (f0 - 0.5) / max(f0 - f1, 1e-3))

    def fit(rows: list[int], xs: list[float]) -> np.ndarray | None:
        if len(rows) < 0.5 * h:
            return None
        r, x = np.array(rows, float), np.array(xs, float)
        coef = np.polyfit(r, x, 1)
        keep = np.abs(np.polyval(coef, r) - x) < 1.5
        if keep.sum() < 0.4 * h:
            return None
        return np.polyfit(r[keep], x[keep], 1)[::-1]

    return fit(rows_l, xl), fit(rows_r, xr)


def _sharp(row: np.ndarray, at: int, out: int) -> bool:
    """A card side is lit in most busy frames just inside it and in almost none just outside;
    where a deck's artwork is dark near the frame's edge the lit share only dips (no side)."""
    n = row.size - 1
    return float(row[min(max(at - 2 * out, 0), n)] - row[min(max(at + 3 * out, 0), n)]) > 0.4


def _lit_fraction(small: list[np.ndarray]) -> tuple[np.ndarray, float]:
    stack = np.stack(small)
    dark = float(np.percentile(stack, 2))
    bright = float(np.percentile(stack, 98))
    if bright - dark < 40:
        raise GeometryError(f"no cards seen: every frame is nearly uniform "
                            f"(brightness {dark:.0f}..{bright:.0f} of 255); is the lens covered?")
    thr = dark + 0.35 * (bright - dark)
    lit = stack > thr
    busy = lit.mean(axis=(1, 2)) > 0.02
    if busy.sum() < 3:
        raise GeometryError("no cards seen: nothing bright moves through the window")
    return lit[busy].mean(axis=0).astype(np.float32), thr


def _upright(img: np.ndarray, angle: float) -> tuple[np.ndarray, np.ndarray]:
    """Rotate a small map so that travel at ``angle`` points down; also the valid mask."""
    h, w = img.shape
    # dst(g) = src(R(angle) (g - c) + c): the inverse map of a turn by ``angle``.
    a = math.radians(angle)
    lin = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    c = np.array([w / 2 - 0.5, h / 2 - 0.5])
    m = np.hstack([lin, (c - lin @ c)[:, None]])
    out = cv2.warpAffine(img, m, (w, h), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                         borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    inside = cv2.warpAffine(np.ones_like(img, np.uint8), m, (w, h),
                            flags=cv2.INTER_NEAREST | cv2.WARP_INVERSE_MAP,
                            borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    return out, cv2.erode(inside, np.ones((3, 3), np.uint8)) > 0


def _dominant(motion: list[tuple[int, float, float]], what: str) -> tuple[float, float]:
    """Median travel vector; a clear error when cards travel two ways."""
    if len(motion) < 3:
        raise GeometryError(f"{what}: too few frames with moving cards to tell which way "
                            f"they travel ({len(motion)})")
    names = [_direction(_travel_angle(dx, dy))[0] for _, dx, dy in motion]
    counts = {d: names.count(d) for d in set(names)}
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    if len(ranked) > 1 and ranked[1][1] >= max(6, 0.2 * len(motion)):
        raise GeometryError(f"{what}: cards travel in two directions ({ranked[0][0]} in "
                            f"{ranked[0][1]} frames, {ranked[1][0]} in {ranked[1][1]}); "
                            f"teach from one pass through one shoe")
    main = [(dx, dy) for (_, dx, dy), n in zip(motion, names, strict=True) if n == ranked[0][0]]
    arr = np.array(main)
    return float(np.median(arr[:, 0])), float(np.median(arr[:, 1]))


def _belt_length(p: _Pass, angle: float, side_x: float, thr: float, mirror_left: bool) -> float:
    """Card length along the travel (small px), from lit runs on the belt inside the side (the
    frames laid on the belt by the measured motion, so each card passes as one run)."""
    speeds = {i: (dx * -math.sin(math.radians(angle)) + dy * math.cos(math.radians(angle)))
              / SMALL for i, dx, dy in p.motion}
    # Bands of 3 columns at several depths inside the side. Ink on the card (index, pips, the
    # thin frame lines of some designs) can only cut a card's lit run short, never lengthen it,
    # and it sits at different depths on different cards; the rounded corners shorten runs at
    # the very edge. So the card's length is the longest run that recurs over the cards, at the
    # depth where it is longest. Back-to-back cards leave a notch only near the edge; deeper in
    # they merge into one run, so no depth may claim much more than the edge band does.
    inward = 1 if mirror_left else -1
    cols = np.array([round(side_x + inward * k) for k in range(1, BELT_DEPTH + 3)])
    pos = np.cumsum([speeds.get(i, 0.0) for i in range(len(p.small))])
    h = p.small[0].shape[0]
    k0 = int(np.floor(-pos.max())) - 1
    size = int(np.ceil(h - pos.min())) - k0 + 2
    votes = np.zeros((size, cols.size), np.float32)
    seen = np.zeros((size, cols.size), np.float32)
    for s, at in zip(p.small, pos, strict=True):
        up, valid = _upright((s > thr).astype(np.float32), angle)
        inside = (cols >= 0) & (cols < up.shape[1])
        if not inside[:3].all():
            break
        c = cols[inside]
        keys = np.round(np.arange(h) - at).astype(int) - k0
        votes[keys[:, None], np.flatnonzero(inside)[None, :]] += up[:, c] * valid[:, c]
        seen[keys[:, None], np.flatnonzero(inside)[None, :]] += valid[:, c]
    if not seen[:, :3].any():
        raise GeometryError("cannot follow the cards along the travel")
    lit = np.where(seen > 0, votes / np.maximum(seen, 1), np.nan)
    edge = 0.0  # the longest run the edge bands saw, recurring or not
    singles: list[float] = []  # the edge bands' recurring runs: one card each
    best = 0.0
    for d in range(BELT_DEPTH):
        if d >= 3 and d > max(12, BELT_CORNER * edge):
            break
        band = lit[:, d: d + 3]
        ok = ~np.isnan(band).any(axis=1)
        if ok.sum() < 20:
            continue
        runs = _lit_runs((band[ok] > 0.5).mean(axis=1) > 0.5)
        run = _recurring_longest(runs)
        if d < 3:
            edge = max([edge, *runs])
            if run is not None:
                singles.append(run)
        if run is None or run >= 1.3 * edge:  # longer: back-to-back cards merged
            continue
        # On a small card the corners' notch is only a band or two deep: a third band in,
        # back-to-back pairs already merge, so the edge bands themselves can hold a merged run
        # (224 px cards: pairs of 84 small px ran as 168, recurring from 2 small px in).
        if any(abs(run - 2 * one) <= MERGED_PAIR * run for one in singles):
            continue
        best = max(best, run)
    if best <= 0:
        raise GeometryError("cannot measure the card's length along the travel")
    return best


def _lit_runs(on: np.ndarray) -> list[int]:
    change = np.flatnonzero(np.diff(on.astype(np.int8)))
    return [int(b - a) for a, b in itertools.pairwise(change) if on[a + 1] and b - a > 10]


def _recurring_longest(runs: list[int]) -> float | None:
    """The longest run length that at least 3 runs share (2 in a very short pass): a card's
    whole length, where runs cut short by ink differ from card to card."""
    need = 3 if len(runs) >= 6 else 2
    arr = np.sort(np.array(runs, float))[::-1]
    for r in arr:
        near = arr[np.abs(arr - r) <= max(2.0, 0.015 * r)]
        if near.size >= need:
            return float(np.median(near))
    return None


def learn_geometry(source: Iterable[np.ndarray], what: str = "teaching pass"
                   ) -> list[ShoeGeometry]:
    """Candidate geometries of the shoe a teaching pass was dealt through.

    One candidate when the index side is clear (only one card side ever in view); two when both
    sides show (the caller decides which side holds the index from the ink it finds there).
    """
    p = _Pass(source)
    fh, fw = p.frame_shape or (CANON_H, CANON_W)
    lit, thr = _lit_fraction(p.small)
    vx, vy = _dominant(p.motion, what)
    angle = _travel_angle(vx, vy)
    left = right = None
    for _ in range(3):  # refine the tilt from the card sides, which are straighter than motion
        up, valid = _upright(lit, angle)
        left, right = _sides(up, valid)
        slopes = [c[1] for c in (left, right) if c is not None]
        if not slopes:
            break
        angle -= math.degrees(math.atan(float(np.mean(slopes))))
    if left is None and right is None:
        raise GeometryError(f"{what}: no card side stays in view while the cards pass; the "
                            f"camera must see the side of the card next to its index")
    # Geometry changing mid-pass: the halves of the pass must agree on where the sides are.
    _check_steady(p, thr, angle, left, right, what)
    direction, tilt = _direction(angle)
    if abs(tilt) > 8:
        raise GeometryError(f"{what}: cards travel {tilt:+.0f} deg off the window's axes; "
                            f"mount the camera square to the shoe (within a few degrees)")
    sh, sw = p.small[0].shape
    cy = sh / 2 - 0.5
    if left is not None and right is not None:
        width = float(np.polyval(right[::-1], cy) - np.polyval(left[::-1], cy)) * SMALL
        scale = width / CANON_CARD
        one_side = False
    else:
        side = right if right is not None else left
        assert side is not None  # one of the two sides shows (checked above)
        length = _belt_length(p, angle, float(np.polyval(side[::-1], cy)), thr, right is None)
        scale = length * SMALL / ASPECT / CANON_CARD
        one_side = True
    if not 0.25 < scale < 5.0:
        raise GeometryError(f"{what}: the cards look {scale * CANON_CARD:.0f} px wide, which is "
                            f"not a card seen whole or in part; is something else in view?")

    def place(left, right, inset: float) -> list[ShoeGeometry]:
        candidates = []
        for coef, mirror in ((right, False), (left, True)):
            if coef is None:
                continue
            g = np.array([np.polyval(coef[::-1], cy), cy])
            c = np.array([sw / 2 - 0.5, sh / 2 - 0.5])
            a = math.radians(angle)
            lin = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
            q = (lin @ (g - c) + c) * SMALL + (SMALL - 1) / 2  # the side point in camera px
            geo = ShoeGeometry(direction=direction, mirror=mirror, scale=round(scale, 4),
                               tilt=round(tilt, 3), frame=(fw, fh), one_side=one_side,
                               inset=round(inset, 2))
            off = (q - np.array([fw, fh]) / 2
                   - geo.linear() @ np.array([CANON_SIDE - CENTRE[0], 0]))
            # Along the travel the offset means nothing (cards run through); keep only across.
            travel = geo.linear() @ np.array([0.0, 1.0])
            travel /= np.linalg.norm(travel)
            off = off - travel * float(off @ travel)
            candidates.append(geo.model_copy(update={"offset": (round(float(off[0]), 2),
                                                                round(float(off[1]), 2))}))
        return candidates

    candidates = place(left, right, 0.0)
    if not one_side or _fits_frame(candidates[0]):
        return candidates
    # The strip, placed from where the face turns light, leaves the frame: a dark outline along
    # the face's edge may put that inside the card's edge (swiss-xvii in left-huge). Only then
    # is the side moved out to the outline's edge: moved wherever an outline was found, it cost
    # a wrong card and a refused pass among the shoes that fitted (berlin and orell in
    # right-mirror-huge, rheinland in left-huge).
    side = right if right is not None else left
    assert side is not None
    outline = _outline(p, thr, angle, side, right is not None)
    outline_px = outline * SMALL  # camera px, whatever scale is assumed below
    if outline > 0:
        out = 1.0 if right is not None else -1.0
        side = np.array([side[0] + out * outline, side[1]])
        candidates = _one_sided(place, side, right is not None, outline_px / scale)
    # Still out of the frame: the card may be longer for its width than the one-sided scale
    # assumes (tarocco, 1.67:1, in left-huge). The scale is only the canonical frame's unit,
    # shared by teaching and reading, so the first longer proportion whose strip fits is kept.
    if not _fits_frame(candidates[0]):
        for aspect in LONGER_ASPECTS:
            scale = length * SMALL / aspect / CANON_CARD
            tried = _one_sided(place, side, right is not None, outline_px / scale)
            if _fits_frame(tried[0]):
                candidates = tried
                break
    return candidates


def _one_sided(place, side: np.ndarray, index_right: bool, inset: float) -> list[ShoeGeometry]:
    """``place`` for the one side in view (an outline's ``inset`` canonical px at most
    OUTLINE_MAX_CANON)."""
    inset = min(OUTLINE_MAX_CANON, inset) if inset > 0 else 0.0
    return place(None, side, inset) if index_right else place(side, None, inset)


def _fits_frame(geo: ShoeGeometry) -> bool:
    try:
        Normaliser(geo)
    except GeometryError:
        return False
    return True


def _outline(p: _Pass, thr: float, angle: float, side: np.ndarray, outward_right: bool) -> float:
    """How far (small px) outside the side found the card's edge lies: the width of a band,
    just outside it, whose mean brightness over the pass differs from the shoe's beyond it (a
    dark outline along the face's edge, seen on the cards as they pass); 0 if there is none."""
    stack = np.stack(p.small).astype(np.float32)
    busy = (stack > thr).mean(axis=(1, 2)) > 0.02
    up, valid = _upright(stack[busy].mean(axis=0), angle)
    out = 1 if outward_right else -1
    h, w = up.shape
    ks = np.arange(1, OUTLINE_REACH + OUTLINE_BACKGROUND + 1)
    profile = []
    for reach in ks:  # median over the rows of the brightness this far outside the side
        xs = np.round(side[0] + side[1] * np.arange(h) + out * reach).astype(int)
        ok = (xs >= 0) & (xs < w)
        rows = np.flatnonzero(ok)
        rows = rows[valid[rows, xs[ok]]]
        if rows.size < 0.5 * h:
            return 0.0  # the frame ends too close outside the side to tell
        profile.append(float(np.median(up[rows, xs[rows]])))
    prof = np.array(profile)
    shoe = float(np.median(prof[OUTLINE_REACH:]))
    dev = np.abs(prof[:OUTLINE_REACH] - shoe)
    # k = 1 holds the blur of the face's light edge itself: the outline is judged from k = 2.
    peak = int(np.argmax(dev[1:])) + 1
    if dev[peak] < OUTLINE_CONTRAST or dev[OUTLINE_REACH - 1] >= 0.5 * dev[peak]:
        return 0.0  # no band, or one that does not end within reach (shading, not an outline)
    half = 0.5 * float(dev[peak])
    for k in range(peak, OUTLINE_REACH - 1):
        if dev[k + 1] < half:  # the band ends between k and k+1 (indices; ks are one more)
            frac = (float(dev[k]) - half) / max(float(dev[k] - dev[k + 1]), 1e-6)
            return float(ks[k] + frac)
    return 0.0


def _check_steady(p: _Pass, thr: float, angle: float, left, right, what: str) -> None:
    n = len(p.small)
    if n < 20:
        return
    halves = (p.small[: n // 2], p.small[n // 2:])
    found = []
    for part in halves:
        try:
            lit, _ = _lit_fraction(part)
        except GeometryError:
            return
        up, valid = _upright(lit, angle)
        found.append(_sides(up, valid))
    cy = p.small[0].shape[0] / 2
    for k, whole in enumerate((left, right)):
        a, b = found[0][k], found[1][k]
        if whole is None:
            continue
        if a is None or b is None:
            # A side that shows in one half only. Either the camera moved, or the faces'
            # artwork runs into the card's edge at the end leading out of the shoe (big pips or
            # figures cut by the edge: gnome-cards tango_nuevo), hiding the side on many cards.
            shown = "first" if a is not None else "second"
            raise GeometryError(
                f"{what}: the card's side shows in the {shown} half of the pass only. Either "
                f"the camera moved (keep it still and teach again), or the faces' artwork runs "
                f"into the card's edge at the end leading out of the shoe; {ONE_ENDED}")
        if abs(np.polyval(a[::-1], cy) - np.polyval(b[::-1], cy)) > 3 \
                or abs(math.degrees(math.atan(a[1]) - math.atan(b[1]))) > 1.5:
            raise GeometryError(f"{what}: the shoe geometry changed during the pass (the card's "
                                f"side moved); keep the camera still and teach again")
    first = [m for m in p.motion if m[0] < n // 2]
    second = [m for m in p.motion if m[0] >= n // 2]
    if len(first) >= 3 and len(second) >= 3:
        d1 = _direction(_travel_angle(*_dominant(first, what)))[0]
        d2 = _direction(_travel_angle(*_dominant(second, what)))[0]
        if d1 != d2:
            raise GeometryError(f"{what}: cards travel {d1} in the first half of the pass and "
                                f"{d2} in the second; teach from one pass through one shoe")
