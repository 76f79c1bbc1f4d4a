"""The shoe reader: turns frames into one card event per physical card, causally.

``ShoeReader.feed(frame)`` is all a live camera loop needs; ``read_video`` drives the same class
from a file. For each card the reader follows the leading edge, and in each frame where the
learned index region is in view it scores that region against every taught card with normalised
cross-correlation (robust to lighting, colour cast and glare-free contrast changes). It answers as
soon as the evidence is clear, and at the latest two frames after the index came into view
(67 ms at 30 fps). When the best card does not beat the runner-up by a safe margin it answers
``??`` with its candidates instead of guessing.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

import cv2
import numpy as np

from vision.cards import UNKNOWN, ReaderFlag
from vision.geometry import ASPECT, CANON_CARD, Normaliser
from vision.locate import Geometry, locate
from vision.profile import DeckProfile
from vision.track import EdgeTracker, Track
from vision.video import frame_count, frames_ahead

COARSE = 0.5  # the index is first found at half resolution in grey...
COARSE_BLUR = 3  # ...with this much vertical blur on both sides (hides motion-blur differences)
FINE = 0.7  # resolution at which cards are finally scored (enough for the glyphs, half the cost)
FINE_BLUR = 4  # the same blur there
SHORTLIST = 8  # cards scored finely in each look
REFINE = 1  # px around the found index where every card is scored at full resolution
MIN_SCORE = 0.45  # best correlation below this is not a card face we know
SPOILED = 0.2  # in a learned geometry, a look this far below the track's best one is dropped
ANSWER_BY = 2  # frames after a card's first look by which a learned geometry's reader answers
# Two taught corners closer than this (1 - correlation) cannot be told apart: neither is named.
MIN_DISTINCT = 0.012
# Lead over every other card, as a share of how different the two taught corners are (1 = the
# view is exactly the best card's corner, 0 = halfway between the two):
SURE_LEAD = 0.25  # needed to name a card from two or more looks
QUICK_LEAD = 0.5  # ... from one look while more may come (classic shoe only: see _decide)
LAST_LEAD = 0.35  # ... from the only look a card gave before it left
DISAGREE = 0.25  # a look leading another card by this much vetoes naming the best one
VETO_GAP = 0.1  # a look whose best score is this far below the track's clearest cannot veto
UNSURE_CAP = 0.89  # highest confidence reported with a "??"
MAX_LOOKS = 3  # frames of index evidence before the reader must answer
# In a learned geometry's strip the index can be in view one frame longer and still be answered
# within 100 ms of showing (the strip is cut to the window's entry side).
STRIP_LOOKS = 3
WIDTH_SAMPLES = 5  # card edges seen before a stills-taught profile fixes the card size
WIDTH_TOLERANCE = 0.12  # lit object this much narrower/wider than a card is not a card
# A view must also match its best card everywhere, not just overall: the largest local residual
# (see _Bank.residuals, in units of the template's own contrast) must stay under this, or the
# card is one we were never taught (a six where only 7..A were taught, another deck's design).
MAX_RESIDUAL = 4.6
# In a learned geometry a session whose mounting or light the templates fit less well raises
# every card's residual alike; a stroke the view has and its best card lacks stands out against
# that level. So once this session has named RESIDUAL_SAMPLES cards, the bar is RESIDUAL_RATIO
# times the median residual of the last RESIDUAL_WINDOW named cards, never below MAX_RESIDUAL
# nor above RESIDUAL_CAP. Only named cards count, so a deal in which nothing fits (the camera
# knocked, another deck's design) does not raise the bar by its own residuals.
RESIDUAL_RATIO = 1.6
RESIDUAL_CAP = 6.2
RESIDUAL_SAMPLES = 8
RESIDUAL_WINDOW = 24
RESIDUAL_BLUR = 3  # px (at FINE) the residual is smoothed over
RESIDUAL_BORDER = 2  # px at the window's rim left out (the leading edge blurs into it)
# Shoe geometry check (profiles taught in a shoe other than the classic one): the card's index
# side must be where teaching found it, within mounting tolerance.
SIDE_TOLERANCE = 14  # canonical px
BAD_CARDS = 3  # cards in a row that did not fit the geometry before the reader says so
MISFIT_FRAMES = 12  # frames showing something bright that is not a card where one should be
SESSION_SIDES = 4  # fitting frames' card sides that give this session's level...
SESSION_DRIFT = 1.5  # ...which may lie this many SIDE_TOLERANCEs from the taught side at most
GEOMETRY_CHANGED = ReaderFlag.GEOMETRY_CHANGED
# The same shoe set up again sits a little differently: the reader tries the templates at these
# scales and turns over its first looks and keeps the one that fits best. The scales reach 9%
# either way: the taught scale is itself measured (a percent or two off) and the mounting adds a
# few percent; a grid that stopped at 6% fitted such a session at its last step, with no
# neighbour to refine it by (docs/vision.md, round VIII).
SCALES = (0.91, 0.94, 0.97, 1.0, 1.03, 1.06, 1.09)
POSES = [(k, d) for k in SCALES for d in (-1.0, 0.0, 1.0)]
# Two cards whose corners are this alike (1 - correlation) are compared again on the part where
# they differ, that part aligned on its own (PAIR_REACH px at FINE either way).
PAIR_DISTANCE = 0.3
PAIR_REACH = 2
PAIR_LEAD = 0.15  # mean lead on the differing part that settles the pair...
PAIR_MIN = 0.5  # ...when every look's lead has that sign and at least half that size
PAIR_LOOKS = 2  # ...from this many looks
PAIR_RIVALS = 2  # a look compares its best card so with this many of the next (when alike)
POSE_STEPS = (0.03, 1.0)  # the grid's steps in scale and in degrees
CALIBRATE_LOOKS = 8
POSE_MARGIN = (6, 12)  # canonical px added to the search margin in a learned geometry
CALIBRATE_REACH = 3  # px (at FINE) searched around the coarse find while calibrating
# The strip is re-aimed from the card's side as seen in this session (the shoe set up again
# sits a little turned and shifted): from this many frames showing the side over at least half
# the strip, when the side runs more than AIM_SLOPE off upright or AIM_SHIFT px off its place.
AIM_FRAMES = 16
AIM_SLOPE = 0.004  # px across per px along (0.23 deg)
AIM_SHIFT = 2.0
AIM_ROUNDS = 3


class Refusal(StrEnum):
    """Why the reader answered ``??``: the named check that refused (stable ids)."""

    INDEX_NOT_SEEN = "index-not-seen"  # the card passed with its index never in view
    NO_MATCH = "no-match"  # the view matches no taught corner well
    MISMATCH = "mismatch"  # it matches one overall but not everywhere (an untaught face)
    INDISTINCT = "indistinct"  # the best card's taught corner is another's twin
    LOOKS_DISAGREE = "looks-disagree"  # one look clearly favours another card
    LOOK_ALIKE = "look-alike"  # a look-alike's pair tests put it ahead
    NARROW_LEAD = "narrow-lead"  # the best card does not lead its rivals by enough


# These refusals mean "not a known card face" (the event's flag says so too).
UNKNOWN_FACE_REFUSALS = frozenset({Refusal.NO_MATCH, Refusal.MISMATCH, Refusal.INDISTINCT})


@dataclass
class CardEvent:
    frame: int
    card: str
    confidence: float
    candidates: list[tuple[str, float]] = field(default_factory=list)
    seen_twice: bool = False
    flag: str | None = None
    reason: Refusal | None = None  # the check that refused to name the card (``??`` only)
    looked_at: int = -1  # frame of the reader's first look at the card's index (-1: none)
    looks: int = 0  # frames in which the reader looked at the index

    def to_json(self) -> dict:
        out: dict = {"frame": self.frame, "card": self.card, "confidence": self.confidence}
        if self.card == UNKNOWN:
            out["candidates"] = [{"card": c, "score": s} for c, s in self.candidates]
        if self.seen_twice:
            out["seen_twice"] = True
        if self.flag:
            out["flag"] = self.flag
        if self.reason:
            out["reason"] = str(self.reason)
        return out


@dataclass(frozen=True)
class LookPlace:
    """Where the reader took a look at a card's index, in camera pixels (for `cardtable deck
    show`): each a 4 x 2 array of corners."""

    frame: int
    index_box: np.ndarray  # the index box the look cut (at the poses being tried)
    card: np.ndarray  # the card: its sides and leading edge as found, its far end at 2:3
    strip: np.ndarray | None  # the strip read in a learned geometry (None: the whole frame)


def confidence_of(lead: float) -> float:
    """Map the relative lead onto 0..1 so that SURE_LEAD maps to 0.9."""
    return round(min(0.999, 1.0 - math.exp(-max(lead, 0.0) * math.log(10) / SURE_LEAD)), 3)


class ShoeReader:
    """Reads cards frame by frame. One instance per camera; call ``new_deal`` between deals."""

    def __init__(self, profile: DeckProfile, frame_size: tuple[int, int] | None = None) -> None:
        self.profile = profile
        geometry = profile.geometry
        # The classic shoe reads whole frames, as before geometry was learned; any other shoe
        # reads the canonical strip at the index side (constant cost, whatever the card size).
        self._norm = None if geometry.is_default() else Normaliser(geometry)
        # A shoe set up again sits a few *camera* pixels off; where the card is small (a
        # canonical pixel is less than a camera one) that is more canonical pixels.
        self._side_tolerance = SIDE_TOLERANCE * max(1.0, 1.0 / geometry.scale)
        self._bad_cards = 0
        self._misfits = 0
        self._sides: deque[float] = deque(maxlen=SESSION_SIDES * 4)  # sides of fitting frames
        self._pose: tuple[float, float] | None = None
        self._pose_banks: dict[tuple[tuple[float, float], bool], _Bank] = {}
        self._pose_sums: dict[tuple[float, float], float] = {}
        self._look_scores: dict[tuple[float, float], float] = {}
        self._pose_looks = 0
        self._aim: list[tuple[float, float]] = []
        self._aim_rounds = 0
        # One entry per taught corner: every card's, then any turned corners (a card dealt
        # turned round shows its other corner). Two entries of one card are never rivals.
        views = profile.views()
        self.codes = [code for code, _ in views]
        self._raw = [img for _, img in views]
        entry_codes = np.array(self.codes)
        self._same = entry_codes[:, None] == entry_codes[None, :]
        self._scale = 0.0
        self._tracker: EdgeTracker | None = None
        self._frame_size = frame_size
        self.frame_no = -1
        self._seen: set[str] = set()
        self._odd_frames = 0
        self._obstruction_reported = False
        # A profile taught from this shoe's video knows the card size; one from stills does not.
        self._fixed_width: float | None = (
            profile.card_width if profile.source.startswith("video") else None)
        if self._norm is not None:
            self._fixed_width = self._norm.side_x  # the part of the card the strip holds
        self._widths: list[int] = []
        self._named_residuals: deque[float] = deque(maxlen=RESIDUAL_WINDOW)
        self._look_box: tuple[int, int, int, int] = (0, 0, 0, 0)
        self._last_look: tuple | None = None

    # -- public -------------------------------------------------------------------------------
    def new_deal(self) -> None:
        self._seen.clear()

    def feed(self, frame: np.ndarray) -> list[CardEvent]:
        """Process the next frame; return the events decided at this frame (usually none)."""
        self.frame_no += 1
        if frame is None or frame.ndim != 3 or frame.shape[2] != 3:
            raise ValueError("frames must be BGR images")
        if self._norm is not None:
            # Cards are found on the strip's green channel; the colour strip is warped only
            # when a look needs it (most frames show no index in view).
            green = self._norm.green(frame)
            frame = _ColourStrip(self._norm, frame)  # type: ignore[assignment]
        else:
            # The green channel is brightness enough to find cards, and costs no conversion.
            green = frame[:, :, 1]
        if self._tracker is None:
            self._tracker = EdgeTracker(frame.shape[0])
            if self._norm is not None:  # templates every calibrating look needs: now, not at a card
                self._prepare(round(self.profile.card_width))
                for k in SCALES:  # these find the index meanwhile (every card of them)
                    if k != 1.0:
                        self._pose_bank((k, 0.0), coarse=True).rows()
                # (The poses' fine templates are made as looks shortlist their cards.)
        geo = locate(green, self._expected_width(), one_side=self._norm is not None)
        events: list[CardEvent] = []
        if self._norm is not None:
            self._aim_strip(geo, frame.shape[0])
            geo, changed = self._fits(green, geo)
            events += changed
        if geo is not None and not self._card_sized(geo):
            events += self._obstruction(geo)
            geo = None
        else:
            self._odd_frames = 0
            self._obstruction_reported = False
            if geo is not None:
                self._learn_width(geo)
        ended, track = self._tracker.update(self.frame_no, geo.edges if geo else ())
        if ended is not None and not ended.done:
            answered = self._answer(ended, final=True)
            if answered is not None:
                events.append(answered)
        looked = False
        if track is not None and geo is not None and not track.done:
            scores = self._look(frame, geo, track.edge)
            if scores is not None:
                looked = True
                self._last_look = (self.frame_no, geo, track.edge, self._look_box,
                                   None if self._norm is None else self._norm.warp.copy())
                track.observations.append(scores)
                track.residuals.append(self._residuals)
                track.pairs.append(self._pairs)
                if len(track.observations) == 1:
                    track.first_look = self.frame_no
        live = self._tracker.active
        if live is not None and not live.done and live.observations:
            most = MAX_LOOKS if self._norm is None else STRIP_LOOKS
            # In a learned geometry a card is answered by ANSWER_BY frames after its index was
            # first seen, even when the frames in between gave no look (the edge was missed).
            due = (self._norm is not None and live.first_look >= 0
                   and self.frame_no - live.first_look >= ANSWER_BY)
            if looked or due:
                event = self._answer(live, final=len(live.observations) >= most or due)
                if event is not None:
                    events.append(event)
        return [e for e in events if e is not None]

    def last_look(self) -> LookPlace | None:
        """Where the reader's latest look was (None before the first), mapped to the camera
        frame through the strip's aim at that look."""
        if self._last_look is None:
            return None
        frame_no, geo, edge, (left, top, right, bottom), warp = self._last_look
        box = np.array([[left, top], [right, top], [right, bottom], [left, bottom]], float)
        if warp is None:  # the classic shoe reads whole frames: its pixels are the camera's
            far = edge - ASPECT * geo.width
            card = np.array([[geo.right, far], [geo.right, edge], [geo.left, edge],
                             [geo.left, far]], float)
            return LookPlace(frame_no, box, card, None)
        # The strip is at canonical scale: the card is CANON_CARD wide, its edge ``inset``
        # outside where its face turns light (the side found).
        inset = self.profile.geometry.inset
        far = edge - ASPECT * CANON_CARD
        near_x, far_x = geo.side_at(edge) + inset, geo.side_at(far) + inset
        card = np.array([[far_x, far], [near_x, edge], [near_x - CANON_CARD, edge],
                         [far_x - CANON_CARD, far]], float)
        assert self._norm is not None
        h, w = self._norm.height, self._norm.width
        strip = np.array([[0, 0], [w, 0], [w, h], [0, h]], float)

        def camera(points: np.ndarray) -> np.ndarray:
            return points @ warp[:, :2].T + warp[:, 2]

        return LookPlace(frame_no, camera(box), camera(card), camera(strip))

    def finish(self) -> list[CardEvent]:
        """End of stream: answer for a card still in view."""
        if self._tracker is None:
            return []
        ended = self._tracker.close()
        if ended is not None and not ended.done:
            event = self._answer(ended, final=True)
            return [] if event is None else [event]
        return []

    # -- internals ----------------------------------------------------------------------------
    def _answer(self, track: Track, final: bool) -> CardEvent | None:
        event = self._decide(track, final)
        if event is None or self._norm is None:
            return event
        # Cards that fit no taught face one after another, in a shoe whose geometry was learned:
        # the camera has most likely moved. Say so rather than guess.
        if event.card == UNKNOWN:
            self._bad_cards += 1
            if self._bad_cards >= BAD_CARDS:
                event.flag = GEOMETRY_CHANGED
        else:
            self._bad_cards = 0
            self._misfits = 0
        return event

    def _aim_strip(self, geo: Geometry | None, height: int) -> None:
        """Collect how the card's side runs in the strip; once the evidence is in, turn and
        shift the strip so the side runs upright where teaching saw it."""
        if self._aim_rounds >= AIM_ROUNDS or geo is None or geo.line is None or geo.covered < 0.5:
            return
        assert self._norm is not None  # only a learned geometry's strip is aimed
        side_x = self._norm.side_x
        dx = geo.side_at(height / 2) - side_x
        if abs(dx) > self._side_tolerance or abs(geo.line[1]) > 0.05:
            return  # not this shoe's card side (the camera-knocked check deals with it)
        self._aim.append((geo.line[1], geo.line[0] + geo.line[1] * height / 2 - side_x))
        if len(self._aim) < AIM_FRAMES:
            return
        slope, shift = (float(v) for v in np.median(np.array(self._aim), axis=0))
        self._aim = []
        self._aim_rounds += 1
        if abs(slope) <= AIM_SLOPE and abs(shift) <= AIM_SHIFT:
            self._aim_rounds = AIM_ROUNDS  # aimed well enough
            return
        self._norm.adjust(shift, slope, height / 2)
        # Templates' poses were judged through the old aim: judge them again.
        self._pose, self._pose_sums, self._pose_looks = None, {}, 0

    def _fits(self, view: np.ndarray, geo: Geometry | None
              ) -> tuple[Geometry | None, list[CardEvent]]:
        """In the canonical strip (``view``: its green channel) the card's index side sits at
        the strip's ``side_x``; a card elsewhere (or a bright strip with no card in it) means
        the shoe no longer has the taught geometry."""
        misfit = False
        if geo is not None and self._norm is not None:
            side = geo.side_at(view.shape[0] / 2)
            if (abs(side - self._norm.side_x) > self._side_tolerance
                    and not self._near_session_sides(side)):
                misfit, geo = True, None
            else:
                self._sides.append(side)
        elif geo is None and float((view[::8, ::8] > 120).mean()) > 0.3:
            misfit = True
        if not misfit:
            return geo, []
        self._misfits += 1
        if self._misfits == MISFIT_FRAMES:
            return geo, [CardEvent(self.frame_no, UNKNOWN, 0.0, [], flag=GEOMETRY_CHANGED)]
        return geo, []

    def _near_session_sides(self, side: float) -> bool:
        """A card side a little further from the taught place than SIDE_TOLERANCE, where this
        session's cards have been sitting: the mounting tolerance (a few percent of scale, a
        few pixels, under a degree) and the cards' play in the guide add up to more than the
        tolerance in some shoes (16 px in down-mirror-mid-centre, where the first cards of a
        deal were refused as a moved camera). The session's level itself must stay within
        SESSION_DRIFT tolerances of the taught place: a knocked camera is still reported."""
        if len(self._sides) < SESSION_SIDES:
            return False
        level = float(np.median(self._sides))
        assert self._norm is not None
        return (abs(side - level) <= self._side_tolerance
                and abs(level - self._norm.side_x) <= SESSION_DRIFT * self._side_tolerance
                and abs(side - self._norm.side_x) <= SESSION_DRIFT * self._side_tolerance)

    def _card_sized(self, geo: Geometry) -> bool:
        if self._norm is not None:
            return True  # the strip cuts through the card; _fits checks where its side is
        expected = self._expected_width()
        return expected is None or abs(geo.width - expected) <= WIDTH_TOLERANCE * expected

    def _expected_width(self) -> float | None:
        if self._fixed_width:
            return self._fixed_width
        # A profile taught from stills does not know how big cards look in this shoe: take the
        # median width of the first few card edges seen, then keep it.
        return float(np.median(self._widths)) if self._widths else None

    def _learn_width(self, geo: Geometry) -> None:
        if self._fixed_width is None and geo.edges:
            self._widths.append(geo.width)
            if len(self._widths) >= WIDTH_SAMPLES:
                self._fixed_width = float(np.median(self._widths))

    def _obstruction(self, geo: Geometry) -> list[CardEvent]:
        self._odd_frames += 1
        if self._odd_frames >= 2 and not self._obstruction_reported:
            self._obstruction_reported = True
            return [CardEvent(self.frame_no, UNKNOWN, 0.0, [], flag=ReaderFlag.OBSTRUCTION)]
        return []

    def _prepare(self, width: int) -> None:
        scale = width / self.profile.card_width
        if self._scale and abs(scale / self._scale - 1) < 0.03:
            return
        self._scale = scale
        self._coarse = _Bank(self._raw, scale * COARSE, COARSE_BLUR, gray=True)
        self._fine = _Bank(self._raw, scale * FINE, FINE_BLUR)
        # How far apart each pair of taught corners is (1 - correlation), so a lead can be judged
        # against what separates the two. Taught corners are registered alike, so no shifts.
        # Two corners of one card are infinitely far apart: never compared, never rivals.
        twins = self._same & ~np.eye(len(self.codes), dtype=bool)
        self._distance = np.where(twins, np.inf, _distances(self._fine.vectors))
        self._indistinct = nearest_distance(self._fine.vectors, self._same) < MIN_DISTINCT
        self._coarse_distance = np.where(twins, np.inf, _distances(self._coarse.vectors))

    def _look(self, frame: np.ndarray, geo: Geometry, edge: int) -> np.ndarray | None:
        """Scores of every taught card for the index above ``edge``, or None if not in view.

        Coarse to fine: at half resolution every card is tried over the whole search area to
        find where the index is; at full resolution every card is scored right around there.
        """
        self._prepare(round(self.profile.card_width) if self._norm is not None
                      else round(self._expected_width() or geo.width))
        s = self._scale
        roi: tuple[float, float, float, float] = self.profile.roi
        if self._norm is not None:
            # The index at this session's pose (scaled about the card's corner), or at any pose
            # while the pose is being fitted: cut around the taught index only, a larger one
            # ran past the cut and was found at its edge, the same place for every card.
            ks = SCALES if self._pose is None else (self._pose[0],)
            roi = (min(k * roi[0] for k in ks), min(k * roi[1] for k in ks),
                   max(k * roi[2] for k in ks), max(k * roi[3] for k in ks))
        x0, y0, x1, y1 = (round(v * s) for v in roi)
        mx, my = (round(v * s) for v in self.profile.search)
        h, w = frame.shape[:2]
        top, bottom = edge + y0, edge + y1
        side = geo.side_at(edge)
        left, right = side + x0, side + x1
        if top < 0 or bottom > h or left < 0 or right > w:
            return None
        self._look_box = (left, top, right, bottom)
        # The fine pass may try templates at another pose (a little larger, starting further
        # from the corner), so it gets a wider cut; the coarse search stays as narrow as ever.
        px, py = POSE_MARGIN if self._norm is not None else (0, 0)
        fy0, fx0 = max(0, top - my - py), max(0, left - mx - px)
        wide = frame[fy0: min(h, bottom + my + py), fx0: min(w, right + mx + px)]
        dy, dx = max(0, top - my) - fy0, max(0, left - mx) - fx0
        region = wide[dy: min(h, bottom + my) - fy0, dx: min(w, right + mx) - fx0]
        small = self._coarse.prepare(
            cv2.resize(region, None, fx=COARSE, fy=COARSE, interpolation=cv2.INTER_AREA))
        # Once this session's pose is fitted, the index is found with templates at that pose: a
        # template of the taught size over a larger index settles between its corner and its
        # middle, further off than the fine search reaches.
        coarse_bank = (self._coarse if self._pose is None
                       else self._pose_bank(self._pose, coarse=True))
        found_at = _coarse_find(coarse_bank, small, (dy, dx))
        if found_at is None:
            return None
        coarse, (cy, cx) = found_at
        full = self._fine.prepare(wide if FINE == 1 else cv2.resize(
            wide, None, fx=FINE, fy=FINE, interpolation=cv2.INTER_AREA))
        # Only the cards the coarse pass ranks highest are scored finely; the rest keep their
        # coarse score and must lose clearly there too (see _decide).
        best_coarse = coarse.max(axis=0)
        shortlist = np.argsort(best_coarse)[-SHORTLIST:]
        fine = np.full(len(best_coarse), np.nan, np.float32)
        if self._norm is not None and self._pose is None:
            found = self._calibrating_look(full, small, (dy, dx), found_at, shortlist)
            if found is None:
                return None
            bank, near, scores = found
        else:
            bank = self._fine if self._pose is None else self._pose_bank(self._pose)
            found_near = self._near(full, bank, cy, cx, REFINE)
            if found_near is None:
                return None
            near = found_near
            scores = bank.correlate(near, shortlist)
        fine[shortlist] = scores.max(axis=0)
        self._residuals = bank.residuals(near, shortlist, scores.argmax(axis=0))
        self._pairs = {}
        if self._norm is not None:
            self._pairs = self._pair_tests(full, near, bank, shortlist, scores)
        return np.stack([best_coarse, fine])

    def _pair_tests(self, full: np.ndarray, near: np.ndarray, bank: _Bank, shortlist: np.ndarray,
                    scores: np.ndarray) -> dict[tuple[int, int], float]:
        """The best card of a look and each of the next PAIR_RIVALS, when their corners are much
        alike (7C and 7S differ only in the suit mark, 8S and JS in a few strokes of the rank),
        compared again on the part where their templates differ, that part aligned on its own:
        a small error of pose shifts the suit mark against the rank, and over the whole corner
        the rank outweighs it. Returns {(a, b): lead of a over b}."""
        ranked = np.argsort(scores.max(axis=0))[::-1]
        top = int(shortlist[ranked[0]])  # its other corners are not rivals to test
        best = [ranked[0], *(k for k in ranked[1:]
                             if not self._same[top, int(shortlist[k])])][:1 + PAIR_RIVALS]
        out: dict[tuple[int, int], float] = {}
        if len(best) < 2:
            return out
        px = near.shape[1] - bank.tw + 1
        oy, ox = divmod(int(scores[:, best[0]].argmax()), px)
        ny, nx = self._near_origin
        i = int(shortlist[best[0]])
        for k in best[1:]:
            j = int(shortlist[k])
            if self._distance[i, j] > PAIR_DISTANCE:
                continue
            lead = self._pair_test(full, bank, i, j, ny + oy, nx + ox)
            if lead is not None:
                out[(i, j)], out[(j, i)] = lead, -lead
        return out

    def _pair_test(self, full: np.ndarray, bank: _Bank, i: int, j: int, oy: int, ox: int
                   ) -> float | None:
        """Lead of card ``i`` over ``j`` on the part where their templates differ, the
        templates' corner at (``oy``, ``ox``) in ``full``."""
        part = bank.pair_part(i, j)
        if part is None:
            return None
        y0, x0, ti, tj, apart = part
        top, left = oy + y0 - PAIR_REACH, ox + x0 - PAIR_REACH
        if top < 0 or left < 0:
            return None
        region = full[top: top + ti.shape[0] + 2 * PAIR_REACH,
                      left: left + ti.shape[1] + 2 * PAIR_REACH]
        if region.shape[0] < ti.shape[0] + 2 * PAIR_REACH or region.shape[1] < ti.shape[1] + 2 * PAIR_REACH:
            return None
        region = np.ascontiguousarray(region, np.float32)
        si = float(cv2.matchTemplate(region, ti, cv2.TM_CCOEFF_NORMED).max())
        sj = float(cv2.matchTemplate(region, tj, cv2.TM_CCOEFF_NORMED).max())
        return (si - sj) / max(apart, 0.05)

    # -- mounting tolerance ---------------------------------------------------------------------
    def _near(self, full: np.ndarray, bank: _Bank, cy: int, cx: int, r: int
              ) -> np.ndarray | None:
        """The part of the view within ``r`` px of where ``bank``'s templates were found."""
        cy, cx = max(0, cy), max(0, cx)
        near = full[max(0, cy - r): cy + r + bank.th, max(0, cx - r): cx + r + bank.tw]
        if near.shape[0] < bank.th or near.shape[1] < bank.tw:
            return None
        self._near_origin = (max(0, cy - r), max(0, cx - r))
        return near

    def _pose_bank(self, pose: tuple[float, float], coarse: bool = False) -> _Bank:
        """Fine (or coarse) templates as a shoe mounted at ``pose`` (scale, degrees) off the
        taught one sees them: scaled and turned about the card's corner."""
        if (pose, coarse) not in self._pose_banks:
            k, deg = pose
            x0, y0, x1, y1 = self.profile.roi
            size = (max(4, round(k * (x1 - x0))), max(4, round(k * (y1 - y0))))
            a = math.radians(deg)
            rot = np.array([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]]) / k
            # template px of posed pixel (u, v): rot @ ((u, v) + k * (x0, y0)) - (x0, y0)
            m = np.hstack([rot, (rot @ (k * np.array([x0, y0], float))
                                 - np.array([x0, y0], float))[:, None]])

            def posed(t: np.ndarray) -> np.ndarray:
                return cv2.warpAffine(t, m, size, flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                      borderMode=cv2.BORDER_REPLICATE)

            self._pose_banks[pose, coarse] = (
                _Bank(self._raw, COARSE, COARSE_BLUR, gray=True, transform=posed) if coarse
                else _Bank(self._raw, FINE, FINE_BLUR, transform=posed))
        return self._pose_banks[pose, coarse]

    def _refined_pose(self) -> tuple[float, float]:
        """The best pose of the grid, moved to the peak of a parabola through it and its
        neighbours in scale and in turn (the grid's steps are coarser than the fit needs)."""
        sums = self._pose_sums
        k, d = max(sums, key=lambda pose: sums[pose])
        out = [k, d]
        for axis, step in ((0, POSE_STEPS[0]), (1, POSE_STEPS[1])):
            lo, hi = list((k, d)), list((k, d))
            lo[axis] = round(lo[axis] - step, 3)
            hi[axis] = round(hi[axis] + step, 3)
            below, above = (lo[0], lo[1]), (hi[0], hi[1])
            if below in sums and above in sums:
                a, b, c = sums[below], sums[(k, d)], sums[above]
                curve = a - 2 * b + c
                if curve < 0:
                    out[axis] += float(np.clip(0.5 * (a - c) / curve, -0.5, 0.5)) * step
        return round(out[0], 3), round(out[1], 2)

    def _calibrating_look(self, full: np.ndarray, small: np.ndarray, offset: tuple[int, int],
                          taught: tuple[np.ndarray, tuple[int, int]], shortlist: np.ndarray
                          ) -> tuple[_Bank, np.ndarray, np.ndarray] | None:
        """Score the shortlist at every pose within the mounting tolerance; the pose that fits
        best over the first looks is kept for the session (the camera sits a little differently
        each time the shoe is set up).

        Each scale finds the index anew in the coarse view (``small``, cut ``offset`` px into
        the fine one) with its own templates (``taught`` is that find at the taught scale), and
        its poses are scored within a few pixels of that find. Found with the taught templates
        instead, a larger or smaller index is placed off by more than those pixels, so every
        pose but the taught one scores low and the fit falls short of the session's scale.
        """
        best = None
        for k in SCALES:
            found_at = taught if k == 1.0 else _coarse_find(
                self._pose_bank((k, 0.0), coarse=True), small, offset)
            if found_at is None:
                continue
            # The poses of one scale (its turns) are the same size: cut their windows once.
            level = self._pose_bank((k, 0.0))
            near = self._near(full, level, *found_at[1], CALIBRATE_REACH)
            if near is None:
                continue
            origin = self._near_origin
            rows, norms = level.windows(near)
            poses = [p for p in POSES if p[0] == k]
            banks = [self._pose_bank(pose) for pose in poses]
            # All turns of the scale in one product (one pass over the windows, not three).
            every = (rows @ np.vstack([b.rows(shortlist) for b in banks]).T) / norms[:, None]
            for n, (pose, bank) in enumerate(zip(poses, banks, strict=True)):
                scores = every[:, n * len(shortlist):(n + 1) * len(shortlist)]
                top = float(scores.max())
                self._look_scores[pose] = top
                prior = self._pose_sums.get(pose, 0.0)
                if best is None or top + prior > best[0]:
                    best = (top + prior, bank, near, scores, origin)
        if best is None:
            return None
        if max(self._look_scores.values()) >= MIN_SCORE + 0.15:
            for pose, top in self._look_scores.items():
                self._pose_sums[pose] = self._pose_sums.get(pose, 0.0) + top
            self._pose_looks += 1
            if self._pose_looks >= CALIBRATE_LOOKS:
                self._pose = self._refined_pose()
        self._look_scores = {}
        self._near_origin = best[4]
        return best[1], best[2], best[3]

    @property
    def residual_bar(self) -> float:
        """The largest residual a view may leave against its best card and still be named:
        MAX_RESIDUAL, or in a learned geometry this session's level (see RESIDUAL_RATIO)."""
        if len(self._named_residuals) < RESIDUAL_SAMPLES:
            return MAX_RESIDUAL
        level = RESIDUAL_RATIO * float(np.median(self._named_residuals))
        return min(RESIDUAL_CAP, max(MAX_RESIDUAL, level))

    def _decide(self, track: Track, final: bool) -> CardEvent | None:
        """The card a track shows, ``??`` with the reason when a check refuses, or None to
        wait for more looks (only while ``final`` is false)."""
        if not track.observations:
            if not final:
                return None
            track.done = True
            return CardEvent(self.frame_no, UNKNOWN, 0.0, [], flag=ReaderFlag.INDEX_NOT_SEEN,
                             reason=Refusal.INDEX_NOT_SEEN)
        if not final and len(track.observations) < 2 and self._norm is not None \
                and self._pose is not None:
            return None  # one look names no card while more may come (see ``_lead_clear``)
        ev = self._evidence(track, final)
        refusal = next((r for check in self.checks if (r := check(self, ev)) is not None), None)
        if refusal is not None and not final:
            return None
        track.done = True
        listed: dict[str, float] = {}  # a card's best corner only, the best three cards
        for i in ev.order:
            if len(listed) == 3 or not np.isfinite(ev.mean[i]):
                break
            listed.setdefault(self.codes[i], round(float(ev.mean[i]), 3))
        candidates = list(listed.items())
        if refusal is not None:
            flag = ReaderFlag.UNKNOWN_FACE if refusal in UNKNOWN_FACE_REFUSALS else None
            # Named cards are always at 0.9 or above; an unsure answer stays below that.
            return CardEvent(self.frame_no, UNKNOWN, min(confidence_of(ev.lead), UNSURE_CAP),
                             candidates, flag=flag, reason=refusal, looked_at=track.first_look,
                             looks=len(track.observations))
        code = self.codes[ev.best]
        twice = code in self._seen
        self._seen.add(code)
        if self._norm is not None:
            self._named_residuals.append(ev.residual)
        return CardEvent(self.frame_no, code, confidence_of(ev.lead), candidates, seen_twice=twice,
                         looked_at=track.first_look, looks=len(track.observations))

    def _evidence(self, track: Track, final: bool) -> _Evidence:
        """What a track's looks say: the best card, its lead over every rival, and what the
        checks below weigh."""
        # A look spoiled by glare or a mislocated edge matches nothing; let the good looks speak.
        looks_all = list(zip(track.observations, track.residuals, strict=True))
        floor = MIN_SCORE
        if self._norm is not None:
            # ... and a look far below the track's best one (its edge was placed wrongly as the
            # card came in, say) would only blur what the good ones say.
            floor = max(floor, max(float(np.nanmax(o[1])) for o, _ in looks_all) - SPOILED)
        kept = [k for k, x in enumerate(looks_all) if np.nanmax(x[0][1]) >= floor] or list(
            range(len(looks_all)))
        good_looks = [looks_all[k] for k in kept]
        good_pairs = [track.pairs[k] for k in kept]
        good = [o for o, _ in good_looks]
        coarse = np.mean([o[0] for o in good], axis=0)
        fine_looks = np.stack([o[1] for o in good])
        scored = np.isfinite(fine_looks)
        counts = scored.sum(axis=0)
        # A card left off a look's shortlist ranked below every shortlisted card at coarse
        # level; in that look it is given the shortlist's lowest fine score (generous to it)
        # rather than left out, or a card scored finely only in the clearest look would outrank
        # one scored (and leading) in every look.
        # (The classic shoe keeps its round-I decision: mean over the looks that scored it.)
        if self._norm is not None:
            floor_scores = np.nanmin(fine_looks, axis=1, keepdims=True)
            filled = np.where(scored, fine_looks, floor_scores)
            mean = np.where(counts > 0, filled.mean(axis=0), -np.inf)
        else:
            mean = np.where(counts > 0, np.where(scored, fine_looks, 0).sum(axis=0)
                            / np.maximum(counts, 1), -np.inf)
        order = [int(i) for i in np.argsort(mean)[::-1]]
        # The best card's other corner (turned) is not its rival.
        order = order[:1] + [i for i in order[1:] if not self._same[order[0], i]]

        b = order[0]
        # The two best much alike (7C and 7S): their comparison on the part where they differ
        # (each look's pair test) settles which of the two it is, when the looks agree.
        settled: set[int] = set()
        start = 1
        if len(order) > 1 and np.isfinite(mean[order[1]]):
            winner = _pair_verdict(track, b, order[1])
            if winner is not None:
                loser = order[1] if winner == b else b
                # The loser is settled with every corner of it; the winner's other corners are
                # not its rivals.
                b, settled, start = winner, {int(i) for i in np.flatnonzero(self._same[loser])}, 2
                order = [b, loser, *(i for i in order[2:]
                                     if not self._same[b, i] and i not in settled)]
        # ... and so do their comparisons of the best card with the next rivals (8S with JS
        # when 8C was the runner-up): a rival the pair tests put behind it is settled too.
        for r in order[start:1 + PAIR_RIVALS]:
            if np.isfinite(mean[r]) and _pair_verdict(track, b, r) == b:
                settled.add(r)
        best = float(mean[b])
        rivals = np.isfinite(mean) & ~self._same[b]
        leads = [1.0]
        if rivals.any():
            with np.errstate(invalid="ignore"):  # a twin's inf over inf: not a rival anyway
                rival_leads = (best - mean) / self._distance[b]
            for r in settled:
                rival_leads[r] = max(float(rival_leads[r]), SURE_LEAD)
            leads.append(float(np.min(rival_leads[rivals])))
        # Cards never scored finely must trail the best one clearly at coarse level as well.
        unscored = ~np.isfinite(mean) & ~self._same[b]
        if unscored.any():
            leads.append(float(np.min((coarse[b] - coarse[unscored])
                                      / self._coarse_distance[b, unscored])))
        maps = [r[b] for _, r in good_looks if b in r]
        # While calibrating, looks may come from templates at different poses (sizes).
        maps = [m for m in maps if m.shape == maps[-1].shape]
        residual = float(np.abs(np.mean(maps, axis=0)).max()) if maps else math.inf
        return _Evidence(best=b, score=best, mean=mean, order=order, settled=settled,
                         lead=min(leads), looks=len(good), residual=residual, good=good,
                         good_pairs=good_pairs, final=final)

    # -- the checks a card must pass to be named (each returns why not, or None) ---------------
    def _face_known(self, ev: _Evidence) -> Refusal | None:
        """The view matches a taught corner well overall and everywhere (a card never taught, or
        another deck's design, matches none)."""
        if ev.score < MIN_SCORE:
            return Refusal.NO_MATCH
        if ev.residual > self.residual_bar:
            return Refusal.MISMATCH
        return None

    def _corner_distinct(self, ev: _Evidence) -> Refusal | None:
        """The best card's taught corner is not a twin of another card's (teaching would have
        refused such a deck; a turned corner can be one)."""
        return Refusal.INDISTINCT if self._indistinct[ev.best] else None

    def _looks_agree(self, ev: _Evidence) -> Refusal | None:
        """No look clearly favours another card: a track may hold two physical cards (an edge
        taken for the next card's), or the view is unsteady. A look well below the track's
        clearest one (glare washing out the suit mark, motion blur) still counts in the mean
        but cannot veto on its own."""
        gap = VETO_GAP if self._norm is not None else math.inf
        clearest = max(float(np.nanmax(o[1])) for o in ev.good)
        excused = ev.settled | {int(i) for i in np.flatnonzero(self._same[ev.best]) if i != ev.best}
        agree = all(_agrees(o[1], ev.best, self._distance, excused, pairs)
                    for o, pairs in zip(ev.good, ev.good_pairs, strict=True)
                    if float(np.nanmax(o[1])) >= clearest - gap)
        return None if agree else Refusal.LOOKS_DISAGREE

    def _look_alike_beaten(self, ev: _Evidence) -> Refusal | None:
        """A look-alike rival the whole corners put behind, but the looks' pair tests (the part
        where the two differ) on average put ahead, is not beaten: TC read as TS at 0.96 to 0.90
        while its pair tests gave TC 0.06."""
        contested = any(_pair_mean(ev.good_pairs, ev.best, r) < 0
                        for r in ev.order[1:1 + PAIR_RIVALS] if r not in ev.settled)
        return Refusal.LOOK_ALIKE if contested else None

    def _lead_clear(self, ev: _Evidence) -> Refusal | None:
        """The best card leads every rival by enough for the looks there are: SURE_LEAD from two
        looks or more, QUICK_LEAD from one while more may come, LAST_LEAD from the only look a
        card gave before it left. In a learned geometry the first look may catch the index as it
        comes in, blurred at the window's edge (9C scored as 9S): once the pose is calibrated,
        one look names a card only when the reader must answer (the card left, or ANSWER_BY
        frames passed), never while more looks may come. (While calibrating, a card named from
        one look leaves the next looks to other cards: a pose judged on fewer cards read
        bellot's AC as AS.)"""
        quick = QUICK_LEAD if self._norm is None or self._pose is None else math.inf
        if ((ev.lead >= SURE_LEAD and ev.looks >= 2) or ev.lead >= quick
                or (ev.final and ev.lead >= LAST_LEAD)):
            return None
        return Refusal.NARROW_LEAD

    # In this order: the first that refuses is the reason an event gives.
    checks: tuple[Callable[[ShoeReader, _Evidence], Refusal | None], ...] = (
        _face_known, _corner_distinct, _looks_agree, _look_alike_beaten, _lead_clear)


@dataclass
class _Evidence:
    """What one track's looks say, for the checks (``ShoeReader._evidence``)."""

    best: int  # the best taught corner
    score: float  # its mean score
    mean: np.ndarray  # every corner's mean score (-inf: never scored finely)
    order: list[int]  # corners best first, the best card's other corners left out
    settled: set[int]  # rivals the pair tests put behind the best
    lead: float  # the best card's smallest lead over a rival (share of what separates them)
    looks: int  # looks that count
    residual: float  # the largest local misfit of the view against the best corner
    good: list  # the looks that count: (coarse, fine) scores
    good_pairs: list[dict[tuple[int, int], float]]  # their pair tests
    final: bool  # the reader must answer now


class _ColourStrip:
    """A camera frame's colour strip, warped only where it is cut (``strip[rows, cols]``), so
    frames in which no index is in view cost only the green warp that finding cards needs, and
    a look costs the warp of the part around the index."""

    def __init__(self, norm: Normaliser, camera: np.ndarray) -> None:
        self._norm, self._camera = norm, camera
        self.shape = (norm.height, norm.width, 3)

    def __getitem__(self, key: tuple[slice, slice]) -> np.ndarray:
        rows, cols = key  # a look asks for one cut of the strip: only that part is warped
        h, w = self.shape[:2]
        r0, r1, _ = rows.indices(h)
        c0, c1, _ = cols.indices(w)
        return self._norm.part(self._camera, (r0, r1), (c0, c1))


def _pair_verdict(track: Track, a: int, b: int) -> int | None:
    """Which of two much-alike cards the track's pair tests name: the looks that compared them
    (at least PAIR_LOOKS) all favour the same one, on average by PAIR_LEAD or more."""
    tests = _pair_leads(track.pairs, a, b)
    if len(tests) < PAIR_LOOKS:
        return None
    mean = float(np.mean(tests))
    if abs(mean) < PAIR_LEAD or not all(t * math.copysign(1.0, mean) >= PAIR_MIN * abs(mean)
                                           for t in tests):
        return None
    return a if mean > 0 else b


def _pair_leads(pairs: list[dict[tuple[int, int], float]], a: int, b: int) -> list[float]:
    """The lead of ``a`` over ``b`` in each look that pair-tested them."""
    return [p[(a, b)] for p in pairs if (a, b) in p]


def _pair_mean(pairs: list[dict[tuple[int, int], float]], a: int, b: int) -> float:
    """The mean lead of ``a`` over ``b`` in the looks that pair-tested them (0 when none did)."""
    tests = _pair_leads(pairs, a, b)
    return float(np.mean(tests)) if tests else 0.0


def _agrees(fine: np.ndarray, best: int, distance: np.ndarray, excused: Iterable[int] = (),
            pairs: dict | None = None) -> bool:
    """One look does not clearly favour another card over ``best`` (by DISAGREE of what
    separates the two taught corners); ``excused`` are rivals the pair tests have ruled out, and
    a rival this look's own pair test (on the part where the two differ) puts behind ``best``
    does not count either."""
    scores = np.where(np.isfinite(fine), fine, -np.inf)
    excused = set(excused)
    for r in excused:
        scores[r] = -np.inf
    # The look's own pair test (the part where the two differ, aligned on its own) putting a
    # rival decisively ahead of ``best`` is a clear disagreement, however close the whole
    # corners score, and even when they still rank ``best`` first (6C scored under 6S, its pair
    # test for 6C).
    if pairs and any(a == best and r not in excused and lead <= -PAIR_LEAD
                     for (a, r), lead in pairs.items()):
        return False
    other = int(np.argmax(scores))
    if other == best or not np.isfinite(scores[best]):
        return True
    test = pairs.get((best, other)) if pairs else None
    if test is not None and test > 0:
        return True
    return bool((scores[other] - scores[best]) / distance[best, other] < DISAGREE)


def nearest_distance(vectors: np.ndarray, same: np.ndarray | None = None) -> np.ndarray:
    """Per taught corner, 1 - correlation with the most alike corner of another card (``same``:
    which corners are of one card; by default each corner is its own card's only one)."""
    d = 1.0 - vectors @ vectors.T
    np.fill_diagonal(d, np.inf)
    if same is not None:
        d[same] = np.inf
    return d.min(axis=1)


def corner_distances(templates) -> np.ndarray:
    """1 - correlation between every two taught corners, scored as the reader scores them (at
    FINE resolution, blurred alike); the diagonal is infinite."""
    vectors = _Bank(list(templates), FINE, FINE_BLUR).vectors
    d = 1.0 - vectors @ vectors.T
    np.fill_diagonal(d, np.inf)
    return d


def distinctness(templates) -> tuple[float, int, int]:
    """How well taught corners tell cards apart: the smallest distance between two of them
    (at the resolution the reader scores at), and which two."""
    d = corner_distances(templates)
    i, j = divmod(int(np.argmin(d)), d.shape[1])
    return float(d[i, j]), i, j


def _distances(vectors: np.ndarray) -> np.ndarray:
    """1 - correlation between every pair of taught corners (registered alike, so no shifts)."""
    sim = vectors @ vectors.T
    return np.maximum(1.0 - np.maximum(sim, sim.T), 0.02)


def _unit(template: np.ndarray) -> np.ndarray:
    """Template as a zero-mean (per channel), unit-length vector."""
    # cv2.mean: the per-channel means in one pass (numpy's strided mean over channels took
    # three quarters of this function's time; it sums in float32, cv2 in double).
    mean = np.array(cv2.mean(template)[:template.shape[2]], np.float32)
    v = (template - mean).reshape(-1).astype(np.float32, copy=False)
    return v / max(float(np.linalg.norm(v)), 1e-6)


class _Residuals(Mapping):
    """One look's residual maps ({card: map}), each worked out when first asked for: the
    decision only ever needs the best card's."""

    def __init__(self, bank: _Bank, image: np.ndarray, offsets: dict[int, int]) -> None:
        self._bank, self._image, self._offsets = bank, image, offsets
        self._maps: dict[int, np.ndarray] = {}

    def __getitem__(self, card: int) -> np.ndarray:
        if card not in self._maps:
            self._maps[card] = self._bank.residual(self._image, card, self._offsets[card])
        return self._maps[card]

    def __iter__(self):
        return iter(self._offsets)

    def __len__(self) -> int:
        return len(self._offsets)


def _coarse_find(bank: _Bank, small: np.ndarray, offset: tuple[int, int]
                 ) -> tuple[np.ndarray, tuple[int, int]] | None:
    """Every card's coarse scores over ``small`` (a coarse view cut ``offset`` px into the
    uncut one), and where in the uncut view at FINE the best card's template sits; None when
    ``small`` is smaller than the templates."""
    if small.shape[0] < bank.th or small.shape[1] < bank.tw:
        return None
    coarse = bank.correlate(small)
    oy, ox = divmod(int(np.argmax(coarse.max(axis=1))), small.shape[1] - bank.tw + 1)
    dy, dx = offset
    return coarse, (round((oy / COARSE + dy) * FINE), round((ox / COARSE + dx) * FINE))


class _Bank:
    """All taught corners at one scale, as rows of a matrix for one-product matching.

    A card's row is made when first asked for: a pose's bank (see ShoeReader._pose_bank) is
    scored on each look's shortlist only, so a card no look shortlists is never made (780 of
    the 1,584 fine rows of up-big x kde-ancient-egyptians' 22 banks in a deal). Made up front,
    the 21 poses' banks of a 72-corner deck took 2 s before the first frame, and reading one
    deal of it peaked at 414 MB instead of 236 MB (docs/vision.md, round XII)."""

    def __init__(self, templates: Sequence[np.ndarray], scale: float, blur: int,
                 gray: bool = False,
                 transform: Callable[[np.ndarray], np.ndarray] | None = None) -> None:
        self.blur = blur
        self.gray = gray
        self._templates, self._scale, self._transform = list(templates), scale, transform
        first = self._image(0)
        self.th, self.tw = first.shape[:2]
        self._size = first.size
        # Pages of rows never made are never touched, so they take no memory.
        self._vectors = np.empty((len(self._templates), first.size), np.float32)
        self._made = np.zeros(len(self._templates), bool)
        self._vectors[0], self._made[0] = _unit(first), True
        self._parts: dict[tuple[int, int], tuple | None] = {}

    def _image(self, card: int) -> np.ndarray:
        t = self._templates[card]
        if self._transform is not None:
            t = self._transform(t)
        s = self._scale
        return self.prepare(cv2.resize(t, (max(4, round(t.shape[1] * s)),
                                           max(4, round(t.shape[0] * s))),
                                       interpolation=cv2.INTER_AREA))

    def rows(self, subset: np.ndarray | None = None) -> np.ndarray:
        """The unit vectors of the cards of ``subset`` (every card by default), one per row."""
        cards = np.arange(len(self._made)) if subset is None else np.asarray(subset)
        for card in cards[~self._made[cards]]:
            self._vectors[card] = _unit(self._image(int(card)))
            self._made[card] = True
        return self._vectors if subset is None else self._vectors[cards]

    @property
    def vectors(self) -> np.ndarray:
        return self.rows()

    def unit(self, card: int) -> np.ndarray:
        """Card's template, zero-mean and scaled to unit variance per pixel (th, tw, channels)."""
        return self.rows(np.array([card]))[0].reshape(self.th, self.tw, -1) * math.sqrt(
            self._size)

    def pair_part(self, i: int, j: int) -> tuple | None:
        """Where the templates of cards ``i`` and ``j`` differ (see ShoeReader._pair_test): its
        top-left corner, both templates cut to it and how far apart the two cuts are; None when
        they differ in too few pixels. The same for every look, so worked out once."""
        if (i, j) not in self._parts:
            ui, uj = self.unit(i), self.unit(j)
            diff = cv2.blur(np.abs(ui - uj).sum(axis=2), (5, 5))
            ys, xs = np.nonzero(diff > 0.5 * float(diff.max()))
            part = None
            if ys.size >= 12:
                y0, y1 = max(0, ys.min() - 2), min(self.th, ys.max() + 3)
                x0, x1 = max(0, xs.min() - 2), min(self.tw, xs.max() + 3)
                ti = np.ascontiguousarray(ui[y0:y1, x0:x1], np.float32)
                tj = np.ascontiguousarray(uj[y0:y1, x0:x1], np.float32)
                apart = 1.0 - float(cv2.matchTemplate(ti, tj, cv2.TM_CCOEFF_NORMED)[0, 0])
                part = (int(y0), int(x0), ti, tj, apart)
            self._parts[i, j] = part
        return self._parts[i, j]

    def residuals(self, image: np.ndarray, subset: np.ndarray, offsets: np.ndarray
                  ) -> _Residuals:
        """Per card of ``subset``: the view minus the template where it matched best (``offsets``
        index ``correlate``'s offsets), both zero-mean and scaled to unit variance per pixel,
        summed over channels and smoothed over a few pixels.

        Noise, blur and a slight misalignment leave small residuals of both signs side by side,
        which the smoothing cancels; a stroke that one glyph has and the other lacks (a six seen
        against an eight) leaves a blob that stays.
        """
        return _Residuals(self, image, {int(c): int(o) for c, o in zip(subset, offsets,
                                                                       strict=True)})

    def residual(self, image: np.ndarray, card: int, offset: int) -> np.ndarray:
        y, x = divmod(offset, image.shape[1] - self.tw + 1)
        window = image[y:y + self.th, x:x + self.tw]
        view = _unit(window).reshape(window.shape) * math.sqrt(window.size)
        diff = (view - self.unit(card)).sum(axis=2)
        b = RESIDUAL_BORDER
        return cv2.blur(diff, (RESIDUAL_BLUR, RESIDUAL_BLUR))[b:-b, b:-b]

    def prepare(self, image: np.ndarray) -> np.ndarray:
        if self.gray:
            image = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
        image = image.astype(np.float32)
        if self.blur > 1:
            image = cv2.blur(image, (1, self.blur))
        return image if image.ndim == 3 else image[:, :, None]

    def correlate(self, image: np.ndarray, subset: np.ndarray | None = None) -> np.ndarray:
        """Zero-mean normalised correlation of every template at every offset in ``image``.

        Returns (offsets, templates). One matrix product for all templates and offsets instead
        of a matchTemplate call per template: per-call overhead dominated at these sizes.
        """
        rows, norms = self.windows(image)
        return self.score(rows, norms, subset)

    def score(self, rows: np.ndarray, norms: np.ndarray, subset: np.ndarray | None = None
              ) -> np.ndarray:
        """``correlate`` on windows already cut (``windows``) by a bank of the same size."""
        dots = rows @ self.rows(subset).T  # templates are zero-mean, so window means drop out
        return dots / norms[:, None]

    def windows(self, image: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Every template-sized window of ``image`` as a row, and each window's energy about
        its own per-channel mean (square-rooted): what ``score`` divides by."""
        th, tw = self.th, self.tw
        win = np.lib.stride_tricks.sliding_window_view(image, (th, tw), axis=(0, 1))
        # win: (py, px, channels, th, tw) -> one row per offset, pixels in template order
        rows = np.ascontiguousarray(win.transpose(0, 1, 3, 4, 2)).reshape(
            -1, th * tw * image.shape[2])
        # Window energy about its own per-channel mean, from integral images.
        total, squares = cv2.integral2(image if image.shape[2] > 1 else image[:, :, 0])
        if total.ndim == 2:
            total, squares = total[:, :, None], squares[:, :, None]
        py, px = image.shape[0] - th + 1, image.shape[1] - tw + 1

        def box(a: np.ndarray) -> np.ndarray:
            return a[th:th + py, tw:tw + px] - a[:py, tw:tw + px] - a[th:th + py, :px] + a[:py, :px]

        sums = box(total).reshape(py * px, -1)
        energy = box(squares).reshape(py * px, -1).sum(axis=1) - (sums * sums).sum(axis=1) / (th * tw)
        return rows, np.sqrt(np.maximum(energy, 1e-3))


def read_frames(source: Iterable[np.ndarray], profile: DeckProfile) -> Iterator[CardEvent]:
    """Card events from any frame source (a file, or a camera's capture loop), as they happen."""
    reader = ShoeReader(profile)
    for frame in source:
        yield from reader.feed(frame)
    yield from reader.finish()


def read_video(path: Path, profile: DeckProfile, progress: bool = False) -> Iterator[CardEvent]:
    """Card events of a clip, in order, exactly as a live reader would have emitted them.

    The clip is decoded a few frames ahead in a thread of its own (``vision.video``), so decoding
    and reading overlap on a machine with a core to spare."""
    source: Iterable[np.ndarray] = frames_ahead(path)
    if progress:
        from tqdm import tqdm

        source = tqdm(source, total=frame_count(path) or None, unit="frame", desc="reading",
                      leave=False)
    yield from read_frames(source, profile)
