"""The table reader: which seat played which card, from the overhead camera, causally.

``TableReader.feed(frame)`` is all a live loop needs; ``read_frames``/``read_table_video`` drive
the same class from a file. Per frame the reader does only cheap work on a small top-down view
of the table (the calibration's homography, 352x352 px): what moved since the last frame, what
differs from the empty table, and which of that is an arm (it reaches in over the table's edge).
Like the overhead chess trackers, it decides only when the scene has settled: a new bright
card-sized patch that has been still for a few frames with no hand near it is cut out of the full
resolution frame, warped upright, and matched both ways up against the deck's face strips
(``vision.table.faces``). Cards that vanish (gathered) are reported as removed.

With candidates (``set_candidates``: the cards still in each hand) the reader picks among them,
and the seat follows from whose hand the card was in; a view that matches a card outside them
better is answered ``??``. When the best card does not clearly beat the runner-up it answers
``??`` with its candidates rather than guess.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import cast

import cv2
import numpy as np

from vision.cards import UNKNOWN, ReaderFlag
from vision.profile import DeckProfile
from vision.table.calibrate import (
    MARGIN,
    MARKER_MM,
    PLANE,
    Calibration,
    CalibrationError,
    MarkerWatch,
    calibrate_image,
    detect_markers,
    seat_of,
)
from vision.table.faces import STORE_W, Faces

# The top-down view is drawn at a fixed scale, so a card is about the same size in it on any
# table (about 31 x 45 px): the play area's side in mm, from the calibration, sets its size.
PLANE_PX_MM = PLANE / 500.0  # px of the view per mm of the table
CARD_MM = (60.0, 87.5)  # a card's width and height before `table check` measured it (57-63 mm wide)
STILL_FRAMES = 3  # frames a new card's patch must be still before it is read
SETTLE_FRAMES = 45  # frames a still non-card thing must lie before it counts as an object
MOTION = 18  # grey levels between frames that count as movement
FG = 38  # colour difference from the empty table that counts as something on it
FAINT = 18  # ... and the fainter difference a hand near the table's colour makes, next to an arm
WHITE_LIFT = 45  # a card face is this much brighter than the table under it, and grey (or half
# of what the table leaves below the paper's white, on a light table)
NOTCH = 0.2  # share of a card's rectangle missing (not under a card) that means a hand lies on it
HAND_GAP = 5  # px of the top-down view a hand must keep from a card before it is read
CARD_W = 64  # canonical card width the faces are matched at
PAD = 5  # px of slack around the warped card
MIN_SCORE = 0.5  # best correlation below this is no card face we know
FLOOR = 0.42  # ... below this it is not a face at all (a back, an object): say nothing
# Lead needed to name a card, over every rival, as a share of how different the two faces are
# (1: the view is the best card's face exactly, 0: it is halfway between the two).
SURE_MARGIN = 0.2
TURN_RETRY = 0.6  # degrees: an unsure reading is tried again turned this much either way
TWIN = 0.8  # faces this alike are told apart where they differ...
CLOSE_TWIN = 0.95  # ...and these always (their whole-face lead is mostly noise)
OUTSIDE_LEAD = 0.1  # a card outside the candidates this much more alike makes the answer ??
UNSURE_CAP = 0.89
MARKER_EVERY = 10  # frames between looks for the markers
FIT_PX = 12.0  # a given calibration's markers must be found within this of their place
JUMP = 0.15  # share of a marker's patch changing in one frame that makes the reader look at once
FACE_DOWN = "face-down"
DARK, GLARE = 14.0, 0.6  # mean grey of a black frame; share of blown-out pixels of a glare frame


@dataclass
class Placed:
    frame: int
    seat: int
    card: str
    confidence: float
    covers: str | None = None
    candidates: list[tuple[str, float]] = field(default_factory=list)
    flag: str | None = None
    event: str = "placed"

    def to_json(self) -> dict:
        out: dict = {"frame": self.frame, "event": "placed", "seat": self.seat, "card": self.card,
                     "confidence": self.confidence}
        if self.covers:
            out["covers"] = self.covers
        if self.card == UNKNOWN:
            out["candidates"] = [{"card": c, "score": s} for c, s in self.candidates]
        if self.flag:
            out["flag"] = self.flag
        return out


@dataclass
class Removed:
    frame: int
    cards: list[str]
    flag: str | None = None
    event: str = "removed"

    def to_json(self) -> dict:
        out: dict = {"frame": self.frame, "event": "removed", "cards": self.cards}
        if self.flag:
            out["flag"] = self.flag
        return out


@dataclass
class Flag:
    """Something the table should be told about that is not a card move."""

    frame: int
    flag: str
    card: str | None = None
    event: str = "flag"

    def to_json(self) -> dict:
        out: dict = {"frame": self.frame, "event": "flag", "flag": self.flag}
        if self.card:
            out["card"] = self.card
        return out


TableEvent = Placed | Removed | Flag


class Unread(StrEnum):
    """Something settled on the table and gave no event: what the reader says when it has been
    silent while hands were busy over the table (``TableReader.silence``)."""

    SIZE = "size"  # white and card-like, but not the size a card is here
    DULL = "dull"  # settled, not white: an object, or cards that do not stand out from the cloth
    NO_FACE = "no-face"  # card-sized and white, unlike every face of the deck


class Silence(StrEnum):
    """Why the table camera read nothing while hands were busy over the table: the stable ids
    of ``TableReader.silence`` (the display words them, ``table_ui/rule_texts.py``)."""

    CAMERA_MOVED = "silent-camera-moved"  # the markers are off their place
    BAD_FRAME = "silent-bad-frame"  # black or blown-out frames
    SIZE = "silent-size"  # white card-like things settle, not the size a card is here
    NO_FACE = "silent-no-face"  # card-sized, unlike every face of the deck
    DULL = "silent-dull"  # things settle, not white: the cloth or the light
    HANDS = "silent-hands"  # hands over the table, nothing settled


@dataclass
class SilenceNote:
    kind: Silence
    text: str  # the line for the log, in English
    params: dict[str, str] = field(default_factory=dict)  # SIZE: seen and size, "12×18" cm


@dataclass
class Settled:
    frame: int
    kind: Unread
    size_mm: tuple[float, float]  # short, long side on the table


@dataclass(eq=False)
class _OnTable:
    card: str
    seat: int
    mask: np.ndarray  # filled quad in the top-down view (uint8 0/1)
    frame: int
    white: float = 1.0  # share of the quad that looked like card face when it was placed
    covers: _OnTable | None = None  # the card it was laid overlapping (Durak)
    wh: tuple[float, float] = (0.0, 0.0)  # short, long side of its outline in the view, px


def _chan_max(img: np.ndarray) -> np.ndarray:
    b, g, r = cv2.split(img)
    return cv2.max(cv2.max(b, g), r)


def _chroma(img: np.ndarray) -> np.ndarray:
    b, g, r = cv2.split(img)
    return cv2.subtract(cv2.max(cv2.max(b, g), r), cv2.min(cv2.min(b, g), r))


def _confidence(margin: float) -> float:
    return round(min(0.999, 1.0 - math.exp(-max(margin, 0.0) * math.log(10) / SURE_MARGIN)), 3)


class _Matcher:
    """Face strips at the canonical card width, matched against an upright card both ways."""

    def __init__(self, faces: Faces) -> None:
        self.codes = list(faces.codes)
        rows = round(faces.rows * CARD_W / STORE_W)
        self.templates = []
        for strip in faces.strips:
            t = cv2.resize(strip, (CARD_W, rows), interpolation=cv2.INTER_AREA)
            t = cv2.GaussianBlur(t, (0, 0), 0.8)
            self.templates.append(np.ascontiguousarray(t[: rows - 2, 3: CARD_W - 3]))
        self.rows = rows
        # How alike every two templates are (1 = the same picture): a lead between two cards is
        # judged against how different they can look at all (an ace of hearts and of diamonds
        # differ in one small pip, a seven and a king everywhere).
        vecs = []
        for t in self.templates:
            v = t.astype(np.float32) - t.reshape(-1, 3).mean(axis=0)
            vecs.append(v.ravel() / (np.linalg.norm(v) or 1.0))
        m = np.stack(vecs)
        self.alike = np.clip(m @ m.T, -1.0, 1.0)
        self._pairs: dict[tuple[int, int], tuple | None] = {}
        self.views: list[np.ndarray] = []

    def scores(self, upright: np.ndarray, height: int) -> np.ndarray:
        """Best correlation of every card with the card image (``height`` its card height)."""
        img = cv2.GaussianBlur(upright, (0, 0), 0.8)
        bottom = PAD + height - 1
        top = max(0, bottom - self.rows - 7)
        views = [img[top: bottom + 4], cv2.rotate(img, cv2.ROTATE_180)[top: bottom + 4]]
        out = np.full(len(self.codes), -1.0, np.float32)
        th, tw = self.templates[0].shape[:2]
        self.views = [v for v in views if v.shape[0] >= th and v.shape[1] >= tw]
        for v in self.views:
            for k, t in enumerate(self.templates):
                out[k] = max(out[k], float(cv2.matchTemplate(v, t, cv2.TM_CCOEFF_NORMED).max()))
        return out

    def duel(self, a: int, b: int) -> float:
        """Lead of card ``a`` over its near twin ``b`` (kings of clubs and spades with the same
        figure), judged only where their faces differ, after ``scores`` saw the card.

        The card is aligned on what the two faces share (their mean, so neither is favoured),
        its brightness and colour fitted to that, and then projected on the difference of the
        two faces where they differ: 1 is the view exactly ``a``, -1 exactly ``b``, 0 halfway
        (the same scale as the lead over the whole face). A pixel of slack either way is allowed
        (the shift that the a-b line explains best)."""
        if not self.views:
            return 0.0
        key = (a, b) if a < b else (b, a)
        if key not in self._pairs:
            self._pairs[key] = self._pair(*key)
        pair = self._pairs[key]
        if pair is None:
            return 0.0
        mean, diff, mask, shared = pair
        th, tw = mean.shape[:2]
        best = None
        for v in self.views:
            r = cv2.matchTemplate(v, shared, cv2.TM_CCOEFF_NORMED)
            _, mx, _, loc = cv2.minMaxLoc(r)
            if best is None or mx > best[0]:
                best = (mx, v, loc)
        assert best is not None  # self.views is not empty
        _, v, (x0, y0) = best
        sel = mask > 0
        same = cv2.dilate(mask, np.ones((5, 5), np.uint8)) == 0
        d = diff[sel]
        dd = float((d * d).sum())
        if dd < 1e-3:
            return 0.0
        out, fit = 0.0, None
        for dy in (-1, 0, 1):
            for dx in (-1, 0, 1):
                x, y = x0 + dx, y0 + dy
                if x < 0 or y < 0 or y + th > v.shape[0] or x + tw > v.shape[1]:
                    continue
                patch = v[y: y + th, x: x + tw].astype(np.float32)
                # brightness and colour: per channel gain and offset fitted where the two faces
                # agree (fitting where they differ would fit away the difference)
                p, m = patch[same], mean[same]
                pm, mm = p.mean(axis=0), m.mean(axis=0)
                mc = m - mm
                var = (mc * mc).sum(axis=0)
                gain = np.where(var > 25.0 * len(m),
                                (mc * (p - pm)).sum(axis=0) / np.maximum(var, 1e-3), 1.0)
                gain = np.clip(gain, 0.3, 3.0)
                q = (patch - pm) / gain + mm
                e = q[sel] - mean[sel]
                t = float((e * d).sum()) / (dd / 2)
                res = float(((e - t * d / 2) ** 2).sum())
                if fit is None or res < fit:
                    fit, out = res, t
        return out if a < b else -out

    def _pair(self, a: int, b: int) -> tuple | None:
        ta = self.templates[a].astype(np.float32)
        tb = self.templates[b].astype(np.float32)
        diff = ta - tb
        mag = cv2.GaussianBlur(np.abs(diff).max(axis=2), (0, 0), 1.0)
        top = float(mag.max())
        if top < 8.0:
            return None
        mask = (mag > 0.35 * top).astype(np.uint8)
        if mask.sum() < 12:
            return None
        mean = (ta + tb) / 2
        return mean, diff, mask, np.ascontiguousarray(mean.round().astype(np.uint8))

class TableReader:
    """Reads the cards played onto the table, frame by frame. One instance per camera."""

    def __init__(self, profile: DeckProfile, calibration: Calibration | None = None,
                 seats: int = 2, faces: Faces | None = None, fps: float = 30.0,
                 marker_mm: float = MARKER_MM) -> None:
        from vision.table.faces import load_faces

        if seats not in (2, 4):
            raise ValueError("seats must be 2 or 4")
        self.profile = profile
        self.seats = seats
        self.fps = fps
        self.faces = faces if faces is not None else load_faces(profile)
        self.matcher = _Matcher(self.faces)
        self.cal = calibration
        self.marker_mm = marker_mm
        self.frame_no = -1
        self.candidates: dict[int, list[str]] | None = None
        self.trick_complete: Callable[[list[str]], bool] | None = None
        self.on_table: list[_OnTable] = []
        # what settled without an event, and the frames with an arm over the table: why silent
        self.unread: deque[Settled] = deque(maxlen=32)
        self.busy_frames = 0
        self._setup_done = False
        self._bad_frame: str | None = None
        self._paused = False
        self._card_area: float | None = None
        self._card_wh: np.ndarray | None = None  # short, long side of a card in the view
        self._removal_pending: list[_OnTable] = []
        self.notch_log: list | None = None
        self.debug: list | None = None  # (frame, rect, upright card) of every read, when a list

    # -- public -------------------------------------------------------------------------------
    def set_candidates(self, candidates: dict[int, list[str]] | None) -> None:
        """Cards still in each seat's hand (from the engine), or None to read against the deck."""
        if candidates is None:
            self.candidates = None
            return
        known = set(self.matcher.codes)
        self.candidates = {int(s): [c for c in cs if c in known] for s, cs in candidates.items()}

    def set_trick_hook(self, hook: Callable[[list[str]], bool] | None) -> None:
        """``hook(cards)`` says whether taking these cards off the table is allowed now; a removal
        it refuses is flagged "removed before the trick was complete"."""
        self.trick_complete = hook

    def feed(self, frame: np.ndarray) -> list[TableEvent]:
        self.frame_no += 1
        if frame is None or frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError("frames must be BGR images")
        if not self._setup_done:
            self._setup(frame)
        small = (cv2.resize(frame, (frame.shape[1] // 2, frame.shape[0] // 2),
                            interpolation=cv2.INTER_AREA) if self._halve else frame)
        side = self.side
        plane = cv2.warpPerspective(small, self._h_small, (side, side), flags=cv2.INTER_LINEAR)
        if self._gains is not None:
            plane = cast(np.ndarray, cv2.multiply(plane, self._gains, dtype=cv2.CV_8U))
        self.view = plane  # the top-down view of this frame (``table check`` looks at it)
        gray = cv2.cvtColor(plane, cv2.COLOR_BGR2GRAY)
        events: list[TableEvent] = []
        bad = self._bad(gray)
        if bad != self._bad_frame:
            if bad:
                events.append(Flag(self.frame_no, bad))
            self._bad_frame = bad
        if bad:
            self._resume()  # a card put down meanwhile is looked for afresh afterwards
            return events
        blur = cv2.blur(gray, (3, 3))
        moving = (None if self._prev is None else
                  cv2.compare(cv2.absdiff(blur, self._prev), MOTION, cv2.CMP_GT))  # type: ignore[call-overload]
        jump = moving is not None and any(
            cv2.countNonZero(moving[y0:y1, x0:x1]) > JUMP * (y1 - y0) * (x1 - x0)
            for y0, y1, x0, x1 in self._marker_patches)
        if self._watch is not None:
            periodic = self.frame_no % MARKER_EVERY == 0
            if periodic or jump or self._watch.suspect:
                # every 10th frame, and at once when most of the picture changed (a knock) or a
                # marker was last seen off its place (until that is settled either way)
                ok = self._watch.look(frame, count_missing=periodic)
                if not ok and not self._paused:
                    self._paused = True
                    events.append(Flag(self.frame_no, ReaderFlag.CAMERA_MOVED))
                elif ok and self._paused and all(n == 0 for n in self._watch.missing.values()):
                    # back where it was: compare with the scene as it was before the knock, so
                    # cards put down meanwhile are read now
                    self._paused = False
                    self._resume()
                    events.append(Flag(self.frame_no, ReaderFlag.CAMERA_BACK))
            if self._watch.suspect and not self._paused:
                # a marker off its place once: hold the frame until the next look says whether
                # the camera moved, so a shifted picture never gets into the settled scene
                self._resume()
                return events
        if self._paused:
            return events
        events += self._step(frame, plane, gray, blur, moving)
        return events

    def _resume(self) -> None:
        """Start the motion history afresh (after frames that were skipped)."""
        self._prev: np.ndarray | None = None
        if self._setup_done and self._bg is not None:
            self._still[:] = 0
            self._quiet = 0

    def finish(self) -> list[TableEvent]:
        return []

    # -- set-up -------------------------------------------------------------------------------
    def _setup(self, frame: np.ndarray) -> None:
        if self.cal is None:
            try:
                self.cal = calibrate_image(frame, self.marker_mm)
            except CalibrationError as exc:
                raise CalibrationError(f"no calibration given and the first frame cannot be "
                                       f"calibrated: {exc}") from None
        else:
            self.cal.check_frame(frame.shape)
            self._check_fits(frame)
        cal = self.cal
        self.plane = max(64, round(cal.area_mm * PLANE_PX_MM))
        self.margin = round(self.plane * MARGIN / PLANE)
        self.side = side = self.plane + 2 * self.margin
        self.card_mm = cal.card_mm or CARD_MM
        h = cal.to_plane(self.plane, self.margin)
        self._h_full = h
        self._h_full_inv = np.linalg.inv(h)
        # the view is drawn from the half-size frame when that still has more than enough pixels
        self._halve = cal.image_px_per_mm() >= 1.8 * PLANE_PX_MM
        self._h_small = h @ np.diag([2.0, 2.0, 1.0]) if self._halve else h
        # the light's colour, from the markers' white cells: a white card looks grey in the view
        self._gains: tuple[float, ...] | None = None
        self._paper = 250.0
        if cal.white is not None:
            top = max(cal.white)
            self._gains = (*(min(1.6, top / max(v, 1.0)) for v in cal.white), 1.0)
            self._paper = min(255.0, top)
        self._watch = MarkerWatch(self.cal) if self.cal.markers else None
        # the markers' patches of the view: a knock moves them all at once
        r = 16
        m, p = self.margin, self.plane
        self._marker_patches = [(int(y) - r, int(y) + r, int(x) - r, int(x) + r)
                                for x, y in ((m, m + p), (m, m), (m + p, m), (m + p, m + p))]
        self._bg: np.ndarray | None = None
        self._ref: np.ndarray | None = None
        self._prev = None
        self._still: np.ndarray = np.zeros((side, side), np.uint8)
        self._quiet = 0
        # Arms reach in over the edge of what the camera sees (or of the view, if that is less).
        k = 2 if self._halve else 1
        h_img, w_img = frame.shape[0] // k, frame.shape[1] // k
        seen = cv2.warpPerspective(np.full((h_img, w_img), 255, np.uint8), self._h_small,
                                   (side, side), flags=cv2.INTER_NEAREST)
        seen = cv2.copyMakeBorder(seen[3:-3, 3:-3], 3, 3, 3, 3, cv2.BORDER_CONSTANT, value=0)
        self._border = ((seen > 0) & (cv2.erode(seen, np.ones((7, 7), np.uint8)) == 0)).astype(np.uint8)
        self._setup_done = True

    def _check_fits(self, frame: np.ndarray) -> None:
        """A calibration given for this camera must fit what it sees: markers found in the first
        frame far from where the calibration has them mean another camera (or this one moved
        since). Markers not seen (a hand over them) cannot tell; the watch does it later."""
        assert self.cal is not None
        found = detect_markers(frame)
        want = self.cal.marker_centres()
        off = {i: float(np.hypot(*(found[i].mean(axis=0) - want[i])))
               for i in found if i in want}
        far = {i: d for i, d in off.items() if d > FIT_PX}
        if far and (len(far) >= 2 or len(off) == 1):
            i, d = max(far.items(), key=lambda kv: kv[1])
            raise CalibrationError(f"the calibration does not fit this camera: marker {i} is "
                                   f"{d:.0f} px from where the calibration has it; calibrate "
                                   f"this camera again (`cardtable table calibrate`)")

    def _bad(self, gray: np.ndarray) -> str | None:
        mean = float(gray.mean())
        if mean < DARK:
            return ReaderFlag.BLACK_FRAME
        if float((gray > 245).mean()) > GLARE:
            return ReaderFlag.GLARE
        return None

    # -- per frame ------------------------------------------------------------------------------
    def _step(self, frame: np.ndarray, plane: np.ndarray, gray: np.ndarray,
              blur: np.ndarray, moving: np.ndarray | None) -> list[TableEvent]:
        if self._bg is None:
            self._bg = plane.copy()
            self._bg_gray = gray.copy()
            # a card is WHITE_LIFT brighter than the table, or on a light table half of what
            # the table leaves below the paper's white
            room = np.clip((self._paper - gray.astype(np.float32)) * 0.5, 12, WHITE_LIFT)
            self._lift = room.astype(np.uint8)
            self._ref = plane.copy()
            self._prev = blur
            return []
        if moving is None:
            moving = np.zeros_like(blur)
        self._prev = blur
        # frames each pixel has been still for (saturating at 255)
        self._still = cv2.add(self._still, 1)
        self._still[moving > 0] = 0
        if cv2.countNonZero(moving) > 0:
            self._quiet = 0
        else:
            self._quiet += 1
        if self._quiet > STILL_FRAMES + 2 and not self._removal_pending:
            return []  # nothing has moved for a while: nothing new can have settled
        diff_bg = _chan_max(cv2.absdiff(plane, self._bg))
        fg = cv2.compare(diff_bg, FG, cv2.CMP_GT) // 255  # type: ignore[call-overload]
        fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        hand = self._hands(fg)
        if hand.any():
            self.busy_frames += 1
            # a hand whose skin is near the table's colour (brown skin on wood) is only faintly
            # different from the table: grow the arm into faint change joined to it, so a hand
            # resting on a card keeps the card from being read until it leaves
            faint = cv2.compare(diff_bg, FAINT, cv2.CMP_GT) // 255  # type: ignore[call-overload]
            faint = cv2.morphologyEx(faint, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8)) | hand
            _, labels = cv2.connectedComponents(faint)
            ids = np.unique(labels[hand > 0])
            hand = np.isin(labels, ids[ids > 0]).astype(np.uint8)
        events: list[TableEvent] = []
        white = self._whiteness(plane, gray)
        events += self._removals(plane, diff_bg, hand, white)
        events += self._arrivals(frame, plane, white, hand, diff_bg)
        return events

    def _hands(self, fg: np.ndarray) -> np.ndarray:
        """Whatever reaches in over the edge of the view: arms, hands, sleeves."""
        _, labels = cv2.connectedComponents(fg)
        touching = np.unique(labels[self._border > 0])
        touching = touching[touching > 0]
        if not len(touching):
            return np.zeros_like(fg)
        return np.isin(labels, touching).astype(np.uint8)

    def _whiteness(self, plane: np.ndarray, gray: np.ndarray) -> np.ndarray:
        lift = cv2.subtract(gray, self._bg_gray)
        b, g, r = cv2.split(plane)
        top = cv2.max(cv2.max(b, g), r)
        chroma = cv2.subtract(top, cv2.min(cv2.min(b, g), r))
        # grey: colour under a fifth of the brightness (a colour cast stays under that; skin not)
        grey = cv2.compare(cv2.multiply(chroma, 5), top, cv2.CMP_LT)
        return (cv2.compare(lift, self._lift, cv2.CMP_GT) & grey) // 255  # type: ignore[operator]

    def _arrivals(self, frame: np.ndarray, plane: np.ndarray, white: np.ndarray,
                  hand: np.ndarray, diff_bg: np.ndarray) -> list[TableEvent]:
        assert self._ref is not None
        change = cv2.compare(_chan_max(cv2.absdiff(plane, self._ref)), FG, cv2.CMP_GT) // 255  # type: ignore[call-overload]
        card_area = self._card_area or 0.29 * self._prior_area()
        new = change & white & (1 - hand)
        new = cv2.morphologyEx(new, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
        # a card's own pictures (court figures, pips) are inside its white outline
        filled = np.zeros_like(new)
        contours, _ = cv2.findContours(new, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        cv2.drawContours(filled, contours, -1, 1, -1)
        new = filled
        blockers = self._blockers(plane, change & (1 - white) & (1 - hand) & (1 - filled),
                                  card_area, cv2.dilate(filled, np.ones((5, 5), np.uint8)),
                                  diff_bg)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(new)
        gap = np.ones((2 * HAND_GAP + 1, 2 * HAND_GAP + 1), np.uint8)
        near_hand = cv2.dilate(hand, gap)
        near_block = cv2.dilate(blockers, gap)
        block_labels = None
        min_area = 0.35 * card_area
        found: list[tuple[np.ndarray, tuple, tuple]] = []
        for i in range(1, count):
            if stats[i, cv2.CC_STAT_AREA] < min_area:
                continue
            x, y, w, h = stats[i, :4]
            comp = (labels[y:y + h, x:x + w] == i)
            x0, y0 = max(0, x - 3), max(0, y - 3)
            x1, y1 = min(self.side, x + w + 3), min(self.side, y + h + 3)
            if near_hand[y0:y1, x0:x1].any():
                continue  # a hand is still over or beside it
            if self._still[y0:y1, x0:x1].min() < STILL_FRAMES:
                continue  # still settling
            pts = np.ascontiguousarray(np.argwhere(comp)[:, ::-1] + (x, y), np.float32)
            rect = cv2.minAreaRect(pts)
            if near_block[y0:y1, x0:x1].any():
                # a non-card change beside it may be a hand on its own; but one lying wholly
                # inside the card's outline is the card's own picture (a covering card's figure
                # that the white-on-white overlap cut off from its outline)
                if block_labels is None:
                    block_labels = cv2.connectedComponents(blockers)[1]
                card_still = int(self._still[y:y + h, x:x + w][comp].min())
                if not self._harmless(block_labels, rect, (x0, y0, x1, y1), card_still):
                    continue
            if not self._card_sized(rect):
                # a card with a hand or another card against it: wait, or after a long still
                # spell take it as an object
                if self._still[y0:y1, x0:x1].min() >= SETTLE_FRAMES:
                    roi = self._ref[y:y + h, x:x + w]
                    roi[comp] = plane[y:y + h, x:x + w][comp]
                    self._note(Unread.SIZE, rect)
                continue
            if self._notched(comp, (x, y), rect) > NOTCH:
                continue  # a bite out of its outline: a hand the table's colour lies on it
            found.append((comp, (x, y, w, h), rect))
        events: list[TableEvent] = []
        placed_now: list[Placed] = []
        for comp, (x, y, w, h), rect in found:
            quad = np.zeros((self.side, self.side), np.uint8)
            cv2.fillConvexPoly(quad, cv2.boxPoints(rect).astype(np.int32), 1)
            cov = self._covered(quad)
            event = self._read(frame, rect, covering=cov is not None)
            # whatever it was, it is now part of the settled scene
            region: np.ndarray = np.zeros((self.side, self.side), np.uint8)
            region[y:y + h, x:x + w] = comp
            region = cv2.dilate(region, np.ones((5, 5), np.uint8))
            self._ref[region > 0] = plane[region > 0]
            if event is None:
                self._note(Unread.NO_FACE, rect)
                continue
            if isinstance(event, Placed):
                if cov is not None:
                    event.covers = cov.card
                    if self.candidates is None and self.seats == 2:
                        event.seat = 1 - cov.seat
                share = float((white & quad).sum()) / max(1.0, float(quad.sum()))
                short, long = sorted(rect[1])
                self.on_table.append(_OnTable(event.card, event.seat, quad, self.frame_no, share,
                                              cov, (float(short), float(long))))
                self._learn_size(rect, comp)
                placed_now.append(event)
            events.append(event)
        seats = [e.seat for e in placed_now]
        for e in placed_now:
            if seats.count(e.seat) > 1:
                e.flag = e.flag or ReaderFlag.TWO_AT_ONCE
        return events

    def _blockers(self, plane: np.ndarray, other: np.ndarray, card_area: float,
                  beside: np.ndarray, diff_bg: np.ndarray) -> np.ndarray:
        """Non-card changes that may be a hand (its arm may match the table's colour).

        A card-shaped one that has settled is a face-down card and one that has lain still a
        long time is an object: both become part of the settled scene. The rest block reading
        near them."""
        assert self._ref is not None
        other = cv2.morphologyEx(other, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(other)
        out = np.zeros_like(other)
        for i in range(1, count):
            area = stats[i, cv2.CC_STAT_AREA]
            if area < 0.12 * card_area:
                continue
            x, y, w, h = stats[i, :4]
            comp = labels[y:y + h, x:x + w] == i
            still = int(self._still[y:y + h, x:x + w][comp].min())
            rect = cv2.minAreaRect(np.ascontiguousarray(np.argwhere(comp)[:, ::-1] + (x, y),
                                                        np.float32))
            (rw, rh) = sorted(rect[1])
            card_like = (self._card_wh is not None and area >= 0.85 * rw * rh
                         and abs(rw / self._card_wh[0] - 1) < 0.15
                         and abs(rh / self._card_wh[1] - 1) < 0.15
                         and not beside[y:y + h, x:x + w][comp].any())
            bare = float((diff_bg[y:y + h, x:x + w][comp] < FG).mean())
            if ((card_like or bare > 0.8) and still >= STILL_FRAMES) or still >= SETTLE_FRAMES:
                roi = self._ref[y:y + h, x:x + w]
                roi[comp] = plane[y:y + h, x:x + w][comp]
                if card_like and bare < 0.5:  # a face-down card: it hides what is under it
                    quad = np.zeros_like(other)
                    cv2.fillConvexPoly(quad, cv2.boxPoints(rect).astype(np.int32), 1)
                    self.on_table.append(_OnTable(FACE_DOWN, -1, quad, self.frame_no, 0.0))
                elif bare < 0.5:
                    self._note(Unread.DULL, rect)
                continue
            out[y:y + h, x:x + w][comp] = 1
        return out

    def _harmless(self, block_labels: np.ndarray, rect: tuple, box: tuple,
                  card_still: int) -> bool:
        """Every blocker near the card is its own picture (wholly inside its outline: a covering
        card's figure that the white-on-white overlap cut off from its outline) or has lain
        still since before the card came to rest (an object it was put on or beside, not the
        hand that brought it)."""
        x0, y0, x1, y1 = box
        g = HAND_GAP
        win = block_labels[max(0, y0 - g): y1 + g, max(0, x0 - g): x1 + g]
        ids = np.unique(win[win > 0])
        if not len(ids):
            return True
        quad: np.ndarray = np.zeros((self.side, self.side), np.uint8)
        cv2.fillConvexPoly(quad, cv2.boxPoints(rect).astype(np.int32), 1)
        quad = cv2.dilate(quad, np.ones((5, 5), np.uint8))
        for i in ids:
            where = block_labels == i
            if quad[where].all():
                continue
            if int(self._still[where].min()) >= card_still + 2 * STILL_FRAMES:
                continue
            return False
        return True

    def _notched(self, comp: np.ndarray, at: tuple[int, int], rect: tuple) -> float:
        """Share of the card's rectangle that is not card, leaving out the cards it lies on."""
        quad: np.ndarray = np.zeros((self.side, self.side), np.uint8)
        cv2.fillConvexPoly(quad, cv2.boxPoints(rect).astype(np.int32), 1)
        quad = cast(np.ndarray, cv2.erode(quad, np.ones((3, 3), np.uint8)))  # the outline's own rounding
        x, y = at
        h, w = comp.shape
        quad[y:y + h, x:x + w][comp] = 0
        for t in self.on_table:
            quad &= 1 - t.mask
        share = float(quad.sum()) / max(1.0, float(rect[1][0] * rect[1][1]))
        if self.notch_log is not None:
            self.notch_log.append((self.frame_no, rect[0], share))
        return share

    def _note(self, kind: Unread, rect: tuple) -> None:
        short, long = sorted(rect[1])
        self.unread.append(Settled(self.frame_no, kind,
                                   (float(short) / PLANE_PX_MM, float(long) / PLANE_PX_MM)))

    def silence(self, since_frame: int) -> SilenceNote:
        """Why no card was read since ``since_frame`` although arms were over the table, from
        what settled meanwhile: a stable id, its figures, and a line for the log (at most 80
        characters)."""
        if self._paused:
            return SilenceNote(Silence.CAMERA_MOVED,
                               "no card read: the camera moved (markers off their place)")
        if self._bad_frame:
            return SilenceNote(Silence.BAD_FRAME, f"no card read: {self._bad_frame}"[:80])
        recent = [u for u in self.unread if u.frame > since_frame]
        w, h = (self.card_mm if self._card_wh is None
                else (float(self._card_wh[0]) / PLANE_PX_MM, float(self._card_wh[1]) / PLANE_PX_MM))
        sized = [u for u in recent if u.kind == Unread.SIZE]
        if sized:
            a, b = (float(np.median([u.size_mm[i] for u in sized])) / 10 for i in (0, 1))
            seen, size = f"{a:.0f}×{b:.0f}", f"{w / 10:.0f}×{h / 10:.0f}"
            return SilenceNote(Silence.SIZE,
                               (f"no card read: white {a:.0f}x{b:.0f} cm things settle, cards "
                                f"here are {w / 10:.0f}x{h / 10:.0f}: marker size?")[:80],
                               {"seen": seen, "size": size})
        if any(u.kind == Unread.NO_FACE for u in recent):
            return SilenceNote(Silence.NO_FACE, "no card read: cards seen, unlike every face of "
                                                "the deck: deck taught?")
        if any(u.kind == Unread.DULL for u in recent):
            return SilenceNote(Silence.DULL, "no card read: things settle but are not white: "
                                             "cloth or light? table check")
        return SilenceNote(Silence.HANDS,
                           "no card read although hands are over the table: run table check")

    def _card_sized(self, rect: tuple) -> bool:
        short, long = sorted(rect[1])
        if self._card_wh is None:  # nothing learned yet: a card of the size measured or assumed
            area = short * long
            prior = self._prior_area()
            return 0.6 * prior <= area <= 1.4 * prior and 1.2 <= long / max(short, 1e-3) <= 1.8
        cw, ch = self._card_wh
        return abs(short / cw - 1) < 0.2 and abs(long / ch - 1) < 0.2

    def _prior_area(self) -> float:
        """A card's area in the view before any card was read here (px)."""
        return self.card_mm[0] * self.card_mm[1] * PLANE_PX_MM ** 2

    def _covered(self, quad: np.ndarray) -> _OnTable | None:
        """The card a new card was laid overlapping. One laid over two (Durak's pairs lie close)
        covers the one not yet beaten: a card that neither covers nor is covered."""
        area = float(quad.sum()) or 1.0
        busy = {id(t.covers) for t in self.on_table if t.covers is not None}
        best, key = None, (False, 0.12)
        for t in self.on_table:
            if t.card == FACE_DOWN:
                continue
            s = float((t.mask & quad).sum()) / area
            if s <= 0.12:
                continue
            k = (t.covers is None and id(t) not in busy, s)
            if k > key:
                best, key = t, k
        return best

    def _learn_size(self, rect: tuple, comp: np.ndarray) -> None:
        (_, _), (w, h) = rect[0], rect[1]
        area = w * h
        if area <= 0 or comp.sum() / area < 0.85:
            return
        aspect = max(w, h) / max(1e-3, min(w, h))
        if 1.2 < aspect < 1.75:
            self._card_area = area if self._card_area is None else 0.8 * self._card_area + 0.2 * area
            wh = np.array(sorted((w, h)), np.float64)
            self._card_wh = wh if self._card_wh is None else 0.8 * self._card_wh + 0.2 * wh

    def _removals(self, plane: np.ndarray, diff_bg: np.ndarray, hand: np.ndarray,
                  white: np.ndarray) -> list[TableEvent]:
        if not self.on_table:
            return []
        gone_now: list[_OnTable] = []
        cover = np.zeros((self.side, self.side), np.uint8)
        for t in reversed(self.on_table):  # latest on top
            exposed = t.mask & (1 - cover) & (1 - hand)
            cover |= t.mask
            n = int(exposed.sum())
            if n < 0.25 * t.mask.sum():
                continue  # mostly hidden (by a hand or a later card): cannot tell
            bare = float(((diff_bg < FG) & (exposed > 0)).sum()) / n
            # the table shows again, or (something lay under the card) the card's white is gone
            whiteness = float((white & exposed).sum()) / n
            if bare > 0.7 or (t.card != FACE_DOWN and whiteness < 0.25 * t.white):
                gone_now.append(t)
        for t in gone_now:
            if t not in self._removal_pending:
                self._removal_pending.append(t)
        if not self._removal_pending or hand.any() or self._quiet < 2:
            return []  # wait for the sweeping hand to leave so a trick comes out as one event
        gone = self._removal_pending
        self._removal_pending = []
        before = [t.card for t in self.on_table if t.card != FACE_DOWN]
        self.on_table = [t for t in self.on_table if t not in gone]
        assert self._ref is not None and self._bg is not None
        for t in gone:  # the scene is still and clear of hands: what shows now is settled
            self._ref[t.mask > 0] = plane[t.mask > 0]
        cards = [t.card for t in gone if t.card != FACE_DOWN]
        if not cards:
            return []
        flag = None
        if self.trick_complete is not None and not self.trick_complete(before):
            flag = ReaderFlag.REMOVED_EARLY
        elif self.trick_complete is None and any(t.card != FACE_DOWN for t in self.on_table):
            flag = ReaderFlag.PARTLY_TAKEN
        return [Removed(self.frame_no, cards, flag)]

    # -- reading one card -------------------------------------------------------------------------
    def _upright(self, frame: np.ndarray, rect: tuple) -> tuple[np.ndarray, int] | None:
        box = cv2.boxPoints(rect).astype(np.float64)
        img = cv2.perspectiveTransform(box.reshape(-1, 1, 2), self._h_full_inv).reshape(4, 2)
        # order: short side first, clockwise in the image (y down)
        if cv2.contourArea(img.astype(np.float32), oriented=True) < 0:
            img = img[::-1]
        if np.linalg.norm(img[0] - img[1]) > np.linalg.norm(img[1] - img[2]):
            img = np.roll(img, -1, axis=0)
        short = np.linalg.norm(img[0] - img[1])
        long = np.linalg.norm(img[1] - img[2])
        if short < 10:
            return None
        height = round(CARD_W * long / short)
        # the card upright at CARD_W wide, with PAD px of slack all round
        dst = np.array([[PAD, PAD], [PAD + CARD_W, PAD], [PAD + CARD_W, PAD + height],
                        [PAD, PAD + height]], np.float32)
        m = cv2.getPerspectiveTransform(img.astype(np.float32), dst)
        up = cv2.warpPerspective(frame, m, (CARD_W + 2 * PAD, height + 2 * PAD),
                                 flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return up, height

    def _margin(self, pool: list[int], scores: np.ndarray) -> tuple[int, float]:
        """The pick among ``pool`` (best first) and its lead over every rival, as a share of how
        far apart the two cards' faces are; near twins are judged where they differ."""
        alike = self.matcher.alike
        for _ in range(2):
            a = pool[0]
            rivals = [k for k in pool if k != a]
            if not rivals:
                return a, 1.0
            leads = (scores[a] - scores[rivals]) / np.maximum(1.0 - alike[a, rivals], 0.05)
            # near twins always duel: their faces are too alike for the lead over the whole face
            # to mean much (0.01 of correlation is noise, yet a large share of their distance)
            weak = [(r, float(lead)) for r, lead in zip(rivals, leads, strict=True)
                    if lead < SURE_MARGIN or alike[a, r] >= CLOSE_TWIN]
            if not weak or any(alike[a, r] < TWIN for r, _ in weak):
                return a, float(leads.min())
            # judged where the two faces differ (a club and a spade court of one figure differ
            # only in their pips); the closest twins must win twice as clearly
            duels = [(r, self.matcher.duel(a, r) / (2.0 if alike[a, r] >= CLOSE_TWIN else 1.0))
                     for r, _ in weak]
            loser = min(duels, key=lambda d: d[1])
            if loser[1] <= -SURE_MARGIN:  # the twin is clearly the card: judge from its side
                pool = [loser[0]] + [k for k in pool if k != loser[0]]
                continue
            others = [float(lead) for r, lead in zip(rivals, leads, strict=True)
                      if r not in {w for w, _ in weak}]
            return a, min([d for _, d in duels] + others)
        return pool[0], 0.0

    def _read(self, frame: np.ndarray, rect: tuple, covering: bool = False) -> TableEvent | None:
        event = self._read_with(frame, rect, None)
        if (isinstance(event, Placed) and event.card == UNKNOWN and event.candidates
                and event.flag is None):
            # A small card's outline is a few dozen pixels: its angle is uncertain by about half
            # a degree, which is enough to blur a pip. Read again turned either way; taken only
            # if both agree or just one is sure, and it was one of the two closest (never over
            # a warning such as "looks like a card no seat holds").
            tries = [self._read_with(frame, (rect[0], rect[1], rect[2] + d), None)
                     for d in (-TURN_RETRY, TURN_RETRY)]
            sure = {t.card for t in tries if isinstance(t, Placed) and t.card != UNKNOWN}
            close = {c for c, _ in event.candidates[:2]}
            if len(sure) == 1 and sure <= close:
                event = max((t for t in tries if isinstance(t, Placed) and t.card in sure),
                            key=lambda t: t.confidence)
        if (isinstance(event, Placed) and event.card == UNKNOWN and event.flag is None
                and not covering and self.candidates is not None):
            # Unsure among all hands: a card lying on its own in front of a seat was played by
            # that seat, so its hand alone may settle it (two near-identical faces in two hands).
            (cx, cy) = rect[0]
            zone = seat_of((cx - self.margin) / self.plane, (cy - self.margin) / self.plane, self.seats)
            if zone is not None and self.candidates.get(zone):
                again = self._read_with(frame, rect, zone)
                if isinstance(again, Placed) and again.card != UNKNOWN:
                    return again
        return event

    def _read_with(self, frame: np.ndarray, rect: tuple, only: int | None) -> TableEvent | None:
        got = self._upright(frame, rect)
        if got is None:
            return None
        up, height = got
        if self._gains is not None:  # faces matched in the paper's white, as they were taught
            up = cast(np.ndarray, cv2.multiply(up, self._gains, dtype=cv2.CV_8U))
        if self.debug is not None:
            self.debug.append((self.frame_no, rect, up))
        scores = self.matcher.scores(up, height)
        codes = self.matcher.codes
        (cx, cy) = rect[0]
        zone = seat_of((cx - self.margin) / self.plane, (cy - self.margin) / self.plane, self.seats)
        order = np.argsort(-scores)
        top = float(scores[order[0]])
        if top < FLOOR:
            return None  # a back, an object: not a face at all
        allowed = None
        if self.candidates is not None:
            allowed = {c for s, cs in self.candidates.items() if only is None or s == only
                       for c in cs}
        pool = [k for k in order if allowed is None or codes[k] in allowed]
        ranked = [(codes[k], round(float(scores[k]), 3)) for k in pool[:5]]
        seat = zone if zone is not None else 0
        if not pool:
            return Placed(self.frame_no, seat, UNKNOWN, 0.0, candidates=ranked,
                          flag=ReaderFlag.NO_CANDIDATES)
        pick, margin = self._margin(pool, scores)
        best = float(scores[pick])
        card = codes[pick]
        pool = [pick] + [k for k in pool if k != pick]
        ranked = [(codes[k], round(float(scores[k]), 3)) for k in pool[:5]]
        flag = None
        if allowed is not None:
            assert self.candidates is not None  # allowed is only set from the candidates
            owner = [s for s, cs in self.candidates.items() if card in cs]
            if owner:
                seat = owner[0]
            # The candidates are wrong if the view, read against the whole deck, names a card in
            # no hand (or is clearly more like one): never pick a confident wrong card then.
            k_top = int(order[0])
            alike = float(self.matcher.alike[k_top, pick])
            outside = (self.matcher.duel(k_top, pick) if alike >= TWIN and k_top != pick
                       else (top - best) / max(1.0 - alike, 0.05))
            deck_pick, deck_margin = self._margin([int(k) for k in order], scores)
            if ((codes[k_top] not in allowed and outside > OUTSIDE_LEAD)
                    or (codes[deck_pick] not in allowed and deck_margin >= SURE_MARGIN)):
                seen = [(codes[deck_pick], round(float(scores[deck_pick]), 3))]
                return Placed(self.frame_no, seat, UNKNOWN, min(UNSURE_CAP, _confidence(margin)),
                              candidates=seen + [r for r in ranked if r[0] != seen[0][0]][:4],
                              flag=ReaderFlag.HELD_BY_NONE)
        if best < MIN_SCORE:
            return Placed(self.frame_no, seat, UNKNOWN, 0.0, candidates=ranked,
                          flag=ReaderFlag.UNKNOWN_FACE)
        if margin < SURE_MARGIN:
            return Placed(self.frame_no, seat, UNKNOWN, min(UNSURE_CAP, _confidence(margin)),
                          candidates=ranked)
        if zone is None:
            return Flag(self.frame_no, ReaderFlag.OUTSIDE_ZONES, card)
        return Placed(self.frame_no, seat, card, _confidence(margin), flag=flag)


def read_frames(source: Iterable[np.ndarray], reader: TableReader) -> Iterator[TableEvent]:
    for frame in source:
        yield from reader.feed(frame)
    yield from reader.finish()


def read_table_video(path: Path, profile: DeckProfile, calibration: Calibration | None = None,
                     seats: int = 2, candidates: dict[int, list[str]] | None = None
                     ) -> Iterator[TableEvent]:
    from vision.video import frames

    reader = TableReader(profile, calibration, seats)
    if candidates is not None:
        reader.set_candidates(candidates)
    yield from read_frames(frames(Path(path), reuse_buffer=True), reader)
