"""Learning a deck profile from one pass of the deck through the shoe (or from still images).

Nothing about the deck's look is assumed: the reader finds each card's leading edge with the same
deck-agnostic geometry it uses when reading, cuts out a generous corner above it, and learns where
the index is from ink that most cards share in that corner, grown towards where cards that still
look alike differ (the suit mark or the rank that shared ink missed). The taught corner images
become the templates. A pass that does not give its count of cards is looked at again following
each card as it moves, so that court artwork dark up to the face's side is not taken for the gap
between two cards (``CardFollower``). A pass that does not look to be in the order given is
refused with what probably went wrong (``vision.order``), as is one of another count of cards.

A deck whose two index corners differ (single-headed court cards show a figure's feet where a
turned card leads) is taught from a second pass with the deck turned round: its corners are kept
where they differ from the first pass's (``turned``).
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

import cv2
import numpy as np

from vision.cards import JOKERS, check_card_list, is_card_code
from vision.geometry import (
    CANON_CARD,
    DEFAULT_GEOMETRY,
    ONE_ENDED,
    GeometryError,
    Normaliser,
    ShoeGeometry,
    encode_preview,
    learn_geometry,
)
from vision.locate import CardFollower, locate
from vision.order import order_problem, suit_marks
from vision.profile import CardTemplate, DeckProfile
from vision.reader import (
    MIN_DISTINCT,
    SIDE_TOLERANCE,
    corner_distances,
    distinctness,
)
from vision.track import BACKSLIP, MAX_STEP, EdgeTracker
from vision.video import frames, open_video

CORNER_W = 0.32  # corner searched for the index, as a fraction of card width
CORNER_H = 0.50
BELOW = 0.04  # corner also extends this far below the edge (the rounded tip)
WEAK_INK = 0.15
REACH = 0.1  # how far weak ink may extend the index box, fraction of card width
SHARED_INK = 0.4  # a pixel belongs to the index if this share of the cards has ink there
PAD = 5
STILL_CORNER = 0.03  # stills: where the strip meets the rounded corner, fraction of width
ALIGN = 6  # px of slack kept around each view of a corner for aligning views
CORNER_ROOM = 48  # canonical px of travel over which a card's whole corner is in view, at least
MIN_CORNER_H = 0.3  # the corner is never cut shorter than this share of the card's width
VIDEO_SEARCH = (4, 8)
STILL_SEARCH = (5, 16)
# A box in which two cards are closer than this (1 - correlation, as the reader scores) is grown
# towards where such cards differ (see _grow_roi); every deck that taught before round III sits
# above it (closest pairs 0.031 and up over 30 shoe x deck passes): their boxes stay as they were.
GROW_BELOW = 0.03
DIFFER = 0.5  # share of the largest difference that marks where two kinds of card differ
GROW_ROUNDS = 4
# A grown box's far end (away from the leading edge) decides when the whole index is in view,
# and a tall box has few frames in view in a fast shoe: it is trimmed back while its closest two
# cards stay this close to as far apart as in the untrimmed box.
TRIM_KEEP = 0.9
TRIM_STEP = 2
# A turned pass's corner is kept where it differs from the card's upright corner by more than
# this (1 - correlation, as the reader scores): a symmetric index differs by noise alone (up to
# about 0.045 in rheinland's pass). Pip cards' turned corners also differ (0.05 to 0.23, pips
# beside the index point the other way) and are kept too: keeping only those far from their
# upright corner read 8 fewer of swiss-xvii's 144 cards in up-small-steep; keeping them all
# read 1 to 2 fewer of rheinland's and tarocco's (more rivals) than one pass does.
TURNED_APART = 0.05
# A turned pass dealt in the order given shows most cards' own index (any symmetric index
# corner): fewer than this share of cards nearest their own corner means another order.
TURNED_OWN = 0.25
# A pass counted more than this many times the cards dealt: rows inside the faces were taken for
# the gap between two cards (paris's dark courts counted 47 of 36 before ``follow``; tango_nuevo's
# big pips running off the edge, 59 and 82 in two passes through down-huge).
SPLIT = 1.25
# A turned pass of a deck whose turned corners look like no upright one is in the order given if
# this share of its cards are red where the upright pass's are; red and black ink must differ in
# redness (red minus the larger of green and blue, grey levels) by this much at least.
TURNED_COLOURS = 0.9
RED_GAP = 30.0


class TeachError(RuntimeError):
    """The pass does not match the cards it should contain; nothing was saved."""


class MissedCards(TeachError):
    """Some cards of the pass gave no view of their index corner (``missing``: their numbers
    in the pass, from 1, of ``count`` cards seen)."""

    def __init__(self, message: str, missing: list[int], count: int) -> None:
        super().__init__(message)
        self.missing, self.count = missing, count


def _corner_height(width: float, room: int | None = None) -> int:
    """Rows of corner cut above the leading edge: CORNER_H of the card, but in a short strip
    (a camera close to a big card sees little of its travel) no taller than leaves the edge
    CORNER_ROOM rows in which the whole corner is in view, or no card would give a view."""
    rows = round(CORNER_H * width)
    if room is not None:
        rows = min(rows, room - round(BELOW * width) - 2 * ALIGN - CORNER_ROOM)
    return max(rows, round(MIN_CORNER_H * width))


def _corner(img: np.ndarray, right: int, edge: int, width: float, margin: int = 0,
            height: int | None = None) -> np.ndarray | None:
    x0, x1 = right - round(CORNER_W * width) - margin, right + 1 + margin
    up = round(CORNER_H * width) if height is None else height
    y0, y1 = edge - up - margin, edge + round(BELOW * width) + margin
    h, w = img.shape[:2]
    if x0 < 0 or y0 < 0 or x1 > w or y1 > h:
        return None
    return img[y0:y1, x0:x1]


def _corners_of_pass(path: Path, norm: Normaliser | None, count: int
                     ) -> tuple[list[np.ndarray], float]:
    """``_corners_from_video``; when the pass does not give ``count`` cards, again following
    each card as it moves (court artwork dark right up to the face's side, gnome-cards paris,
    makes rows inside a card look like the gap between two cards: a pass of 36 found 47). A
    pass that gives its count as it is is taken as it is, exactly as before."""
    missed: MissedCards | None = None
    found = None
    try:
        found = _corners_from_video(path, norm)
        if len(found[0]) == count:
            return found
    except MissedCards as exc:
        missed = exc
    try:
        again = _corners_from_video(path, norm, follow=True)
        if len(again[0]) == count:
            return again
    except TeachError:
        pass
    if missed is not None:
        raise missed
    assert found is not None
    return found


def _merge_views(views: list[np.ndarray], shape: tuple[int, int]) -> np.ndarray:
    """One clean corner from several views of it: align each to the first, take the median.

    The LED glare and noise sit in different places of the corner in each view, so the median
    keeps the card and drops them.
    """
    h, w = shape
    views = [v if v.shape[:2] == (h + 2 * ALIGN, w + 2 * ALIGN)
             else cv2.resize(v, (w + 2 * ALIGN, h + 2 * ALIGN)) for v in views]
    ref = views[0][ALIGN:ALIGN + h, ALIGN:ALIGN + w]
    inner = ref[ALIGN:-ALIGN, ALIGN:-ALIGN].astype(np.float32)
    aligned = [ref]
    for v in views[1:]:
        score = cv2.matchTemplate(v.astype(np.float32), inner, cv2.TM_CCOEFF_NORMED)
        _, best, _, (dx, dy) = cv2.minMaxLoc(score)
        x, y = dx - ALIGN, dy - ALIGN  # where ``ref`` starts in this view
        if best < 0.6 or not (0 <= x <= 2 * ALIGN and 0 <= y <= 2 * ALIGN):
            continue  # a view spoiled beyond use
        aligned.append(v[y:y + h, x:x + w])
    return np.median(np.stack(aligned), axis=0).astype(np.uint8)


def _corners_from_video(path: Path, norm: Normaliser | None = None, follow: bool = False
                        ) -> tuple[list[np.ndarray], float]:
    """Merged corner views per card; with ``norm``, of the canonical strip of each frame. With
    ``follow``, edges found inside the card in view (``CardFollower``) are not new cards."""
    tracker: EdgeTracker | None = None
    follower = CardFollower(BACKSLIP, MAX_STEP) if follow else None
    views: dict[int, list[tuple[int, np.ndarray]]] = {}
    widths: list[int] = []
    for frame in frames(path):
        if norm is not None:
            frame = norm(frame)
        if tracker is None:
            tracker = EdgeTracker(frame.shape[0])
        green = frame[:, :, 1]
        geo = locate(green, one_side=norm is not None)
        if (geo is not None and norm is not None
                and abs(geo.side_at(frame.shape[0] / 2) - norm.side_x) > SIDE_TOLERANCE):
            geo = None  # not the card's side where the geometry puts it
        edges = geo.edges if geo else ()
        if follower is not None:
            edges = follower.update(green, edges,
                                    CANON_CARD if norm is not None or geo is None else geo.width)
        _, track = tracker.update(0, edges)
        if track is None or geo is None:
            continue
        widths.append(geo.width)
        # In the canonical strip the card's width is the canonical one (only a part shows).
        patch = _corner(frame, geo.side_at(track.edge), track.edge,
                        geo.width if norm is None else CANON_CARD, ALIGN,
                        None if norm is None else _corner_height(CANON_CARD, frame.shape[0]))
        if patch is not None:
            views.setdefault(track.number, []).append((track.edge, patch.copy()))
    if tracker is None:
        raise TeachError(f"video {path} has no frames")
    if tracker.count == 0:
        raise TeachError(f"no cards seen in {path}")
    width = float(np.median(widths)) if norm is None else CANON_CARD
    missing = [n for n in range(1, tracker.count + 1) if n not in views]
    if missing:
        raise MissedCards(f"{len(missing)} card(s) passed too fast to see their index "
                          f"(cards no. {', '.join(map(str, missing[:5]))}); deal more slowly",
                          missing, tracker.count)
    up = round(CORNER_H * width) if norm is None else _corner_height(width, norm.height)
    shape = (up + round(BELOW * width), round(CORNER_W * width) + 1)
    corners = []
    for n in sorted(views):
        # Reference: the view with the edge lowest in the window, the corner's fullest view.
        ordered = [p for _, p in sorted(views[n], key=lambda v: -v[0])]
        corners.append(_merge_views(ordered, shape))
    return corners, width


def _ink(patch: np.ndarray) -> np.ndarray:
    gray = cv2.cvtColor(patch, cv2.COLOR_BGR2GRAY).astype(np.float32)
    white = float(np.percentile(gray, 95))
    chroma = patch.max(axis=2).astype(np.int16) - patch.min(axis=2)
    return (gray < 0.65 * white) | (chroma > 60)


Box = tuple[int, int, int, int]


def _index_box(corners: list[np.ndarray], width: float) -> tuple[Box, bool]:
    """Index box relative to (right edge, leading edge) from ink shared across the cards, and
    whether it took in ink beyond the marks joined to the shared ones, towards the leading edge.

    Shared ink near the corner is the index; big corner pips of the number cards are shared too,
    so of the shared blobs we keep the one reaching furthest into the corner.
    """
    h, w = corners[0].shape[:2]
    frac = np.mean([_ink(c) for c in corners], axis=0)
    below = round(BELOW * width)
    top = h - below  # row of the leading edge within the corner patch
    inside = np.zeros((h, w), bool)
    inside[: top - 2, : w - 8] = True  # skip the outline, the rounded tip and the next card
    strong = ((frac >= SHARED_INK) & inside).astype(np.uint8)
    # Rank and suit marks are stacked along the card's length; join them that way.
    kernel = np.ones((round(0.03 * width) | 1, 3), np.uint8)
    count, labels, stats, _ = cv2.connectedComponentsWithStats(cv2.dilate(strong, kernel))
    blobs = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= 0.0005 * width * width]
    if not blobs:
        raise TeachError("found no index marks shared by the cards; is the deck face up? nothing saved")
    pick = max(blobs, key=lambda i: stats[i, cv2.CC_STAT_LEFT] + stats[i, cv2.CC_STAT_WIDTH])
    ys, xs = np.nonzero((labels == pick) & (strong > 0))
    # Suit marks differ in shape, so each is shared by fewer cards: take in weaker ink that is
    # joined to the strong marks, but only a little way beyond them (not court-card frames) —
    # except towards the leading edge: the rank sits in the corner, and rank glyphs share
    # little ink, so a box cut short there would hold only a sliver of the rank (a 6 and an 8
    # would then look alike; seen on the neoclassical and plastic decks).
    reach_y, reach_x = round(REACH * width), round(0.02 * width)
    near = np.zeros((h, w), bool)
    near[max(0, ys.min() - reach_y): max(ys.max() + reach_y + 1, top),
         max(0, xs.min() - reach_x): xs.max() + reach_x + 1] = True
    weak = ((frac >= WEAK_INK) & inside & near).astype(np.uint8)
    marks = weak | strong
    count, labels, parts, _ = cv2.connectedComponentsWithStats(cv2.dilate(marks, kernel))
    joined = np.unique(labels[ys, xs])
    # Between the marks and the leading edge is the index's own place, joined or not: a rank
    # set further below its suit mark than the join reaches (ancient-egyptians: 20 px of
    # ground between the two) would be left out, and the box would hold the suit alone. Ink
    # wholly between the joined marks and the edge is taken in too.
    bottom = int(max(parts[i, cv2.CC_STAT_TOP] + parts[i, cv2.CC_STAT_HEIGHT] for i in joined))
    beyond = [i for i in range(1, count) if parts[i, cv2.CC_STAT_TOP] >= bottom]
    keep = np.isin(labels, [*joined, *beyond])
    ink = near & (marks > 0)
    extended = bool((np.isin(labels, beyond) & ink).any())
    ys, xs = np.nonzero(keep & ink)
    x0, x1 = max(0, xs.min() - PAD), min(w - 1, xs.max() + PAD + 1)
    y0, y1 = max(0, ys.min() - PAD), min(top, ys.max() + PAD + 1)
    return (int(x0 - (w - 1)), int(y0 - top), int(x1 - (w - 1)), int(y1 - top)), extended


def _cut(corners: list[np.ndarray], box: Box, width: float) -> list[np.ndarray]:
    """The index box of each corner (``box`` relative to the right edge and leading edge)."""
    x0, y0, x1, y1 = box
    h, w = corners[0].shape[:2]
    top = h - round(BELOW * width)
    return [c[top + y0: top + y1, (w - 1) + x0: (w - 1) + x1].copy() for c in corners]


def _grow_roi(box: Box, corners: list[np.ndarray], codes: list[str], width: float) -> Box:
    """Grow the index box until it tells the cards apart, towards where alike cards differ.

    Shared ink finds the marks most cards have in common, which is not always the whole index:
    a big suit symbol shared by a quarter of the cards each (and overlapping across suits) can
    outweigh rank glyphs that share little (tango), and a small suit mark beside or under the
    rank can share too little to join it (bellot). Then the box holds only one half of the
    index, and cards that differ only in the other half look alike. Which half is missing
    shows in which cards are alike: cards of one rank (the suit mark is missing) or of one suit
    (the rank is). Where cards of that kind differ, over all such pairs in the pass, is the
    missing half; the box takes in the nearest region of it, and is checked again.
    """
    d = corner_distances(_cut(corners, box, width))
    if d.min() >= GROW_BELOW:
        return box
    h, w = corners[0].shape[:2]
    top = h - round(BELOW * width)
    inside = np.zeros((h, w), bool)
    inside[: top - 2, : w - 8] = True  # as in _index_box
    soft = [cv2.blur(_ink(c).astype(np.float32), (5, 5)) for c in corners]
    cards = [(i, c[0], c[1]) for i, c in enumerate(codes) if c not in JOKERS]
    kinds: dict[str, np.ndarray] = {}

    def differ(kind: str) -> np.ndarray:
        if kind not in kinds:
            k = 1 if kind == "suit" else 2  # pairs alike in rank differ in suit, and back
            pairs = [(a, b) for a, *ka in cards for b, *kb in cards
                     if a < b and ka[k - 1] == kb[k - 1]]
            kinds[kind] = (np.mean([np.abs(soft[a] - soft[b]) for a, b in pairs], axis=0)
                           if pairs else np.zeros((h, w), np.float32))
        return kinds[kind]

    best, best_gap = box, float(d.min())
    for _ in range(GROW_ROUNDS):
        need = set()
        for i, j in zip(*np.nonzero(d < GROW_BELOW), strict=True):
            ci, cj = codes[i], codes[j]
            if ci in JOKERS or cj in JOKERS:
                need |= {"suit", "rank"}
            elif ci[0] == cj[0]:
                need.add("suit")
            elif ci[1] == cj[1]:
                need.add("rank")
            else:
                need |= {"suit", "rank"}
        diff = np.max([differ(k) for k in sorted(need)], axis=0) * inside
        if diff.max() <= 0:
            break
        mask = (diff >= DIFFER * diff.max()).astype(np.uint8)
        count, _, stats, _ = cv2.connectedComponentsWithStats(mask)
        x0, y0, x1, y1 = box[0] + (w - 1), box[1] + top, box[2] + (w - 1), box[3] + top
        regions = []
        for n in range(1, count):
            bx, by, bw, bh, area = stats[n]
            if area < 0.0005 * width * width:
                continue
            if bx >= x0 and by >= y0 and bx + bw <= x1 and by + bh <= y1:
                continue  # already in the box
            gap = max(x0 - (bx + bw), bx - x1, 0) + max(y0 - (by + bh), by - y1, 0)
            regions.append((gap, bx, by, bx + bw, by + bh))
        if not regions:
            break
        _, bx0, by0, bx1, by1 = min(regions)
        x0, y0 = max(0, min(x0, bx0 - PAD)), max(0, min(y0, by0 - PAD))
        x1, y1 = min(w - 1, max(x1, bx1 + PAD)), min(top, max(y1, by1 + PAD))
        box = (x0 - (w - 1), y0 - top, x1 - (w - 1), y1 - top)
        d = corner_distances(_cut(corners, box, width))
        if d.min() > best_gap:
            best, best_gap = box, float(d.min())
        if best_gap >= GROW_BELOW:
            break
    return _trim(best, corners, width, best_gap) if best_gap >= GROW_BELOW else best


def _trim(box: Box, corners: list[np.ndarray], width: float, gap: float) -> Box:
    """The grown box with its far end brought in while the cards stay about as distinct."""
    x0, y0, x1, y1 = box
    while y1 - (y0 + TRIM_STEP) >= 0.05 * width:
        d = corner_distances(_cut(corners, (x0, y0 + TRIM_STEP, x1, y1), width))
        if d.min() < max(GROW_BELOW, TRIM_KEEP * gap):
            break
        y0 += TRIM_STEP
    return x0, y0, x1, y1


def _build(name: str, source: str, codes: list[str], corners: list[np.ndarray], width: float,
           search: tuple[int, int], geometry: ShoeGeometry | None = None) -> DeckProfile:
    shape = corners[0].shape
    corners = [c if c.shape == shape else cv2.resize(c, (shape[1], shape[0])) for c in corners]
    found, extended = _index_box(corners, width)
    box = _grow_roi(found, corners, codes, width)
    if extended and box == found:
        # Ink taken in beyond the joined marks makes a box as tall as a grown one (ornamental's
        # rank below a suit mark far from the edge): its far end is brought in the same way.
        gap = float(corner_distances(_cut(corners, box, width)).min())
        if gap >= GROW_BELOW:
            box = _trim(box, corners, width, gap)
    x0, y0, x1, y1 = box
    templates = dict(zip(codes, _cut(corners, box, width), strict=True))
    return DeckProfile.build(name, source, width, (x0, y0, x1, y1), search, templates,
                             geometry=geometry)


def _index_evidence(corners: list[np.ndarray], width: float) -> float:
    """How much ink the cards share in this corner: the index corner has by far the most."""
    shape = corners[0].shape
    corners = [c if c.shape == shape else cv2.resize(c, (shape[1], shape[0])) for c in corners]
    frac = np.mean([_ink(c) for c in corners], axis=0)
    top = shape[0] - round(BELOW * width)
    return float((frac[: top - 2, : shape[1] - 8] >= SHARED_INK).mean())


def _snap(geo: ShoeGeometry) -> ShoeGeometry:
    """A pass through the classic shoe (within mounting tolerance) reads full frames, exactly
    as profiles taught before geometry was learned."""
    if not geo.one_side and tuple(geo.frame) == tuple(DEFAULT_GEOMETRY.frame) and geo.close_to(
            DEFAULT_GEOMETRY, scale=0.04, offset=6.0, tilt=0.5):
        return DEFAULT_GEOMETRY
    return geo


def _preview(path: Path) -> np.ndarray | None:
    """The frame of the pass showing the most card, for drawing the geometry on."""
    best, most = None, -1.0
    for i, frame in enumerate(frames(path)):
        if i % 3:
            continue
        lit = float((frame[::8, ::8, 1] > 110).mean())
        if lit > most:
            best, most = frame.copy(), lit
    return best


def _miscount(seen: int, expected: int) -> str:
    """What a pass showing ``seen`` cards where ``expected`` were given probably went through."""
    n = abs(seen - expected)
    cards = "one card" if n == 1 else f"{n} cards"
    if seen < expected:
        return (f"{cards} fewer than the order given (a card missed, or two that went through "
                f"together?)")
    return (f"{cards} more than the order given (a card dealt twice, or one card's artwork taken "
            f"for the gap between two cards?)")


def _check_codes(codes: list[str]) -> None:
    try:
        check_card_list(list(codes))
    except ValueError as exc:
        raise TeachError(f"{exc}; nothing saved") from None


def teach_from_video(name: str, path: Path, codes: list[str], turned: Path | None = None
                     ) -> DeckProfile:
    """Learn the shoe's geometry and the deck's index corners from one pass of the deck; with
    ``turned``, also the corners of the deck dealt turned round, in the same order."""
    _check_codes(codes)
    path = Path(path)
    if turned is not None:
        open_video(Path(turned)).release()  # an unreadable second pass fails before the first
    try:
        candidates = [_snap(g) for g in learn_geometry(frames(path), f"teaching pass {path}")]
        norms = [None if g.is_default() else Normaliser(g) for g in candidates]
    except GeometryError as exc:
        raise TeachError(f"{exc}; nothing saved") from None
    tried = []
    failure: TeachError | None = None
    for geo, norm in zip(candidates, norms, strict=True):
        try:
            corners, width = _corners_of_pass(path, norm, len(codes))
        except TeachError as exc:  # this side of the card is not the index side
            failure = exc
            continue
        if len(corners) != len(codes):
            tried.append((geo, corners, width, -1.0))
            continue
        tried.append((geo, corners, width, _index_evidence(corners, width)))
    # Both sides in view: each side's corner was cut and its index box learned; the index side
    # is the one whose boxes tell the cards apart best (the other side's leading corner holds
    # at most big pips, the same on many cards). Ink alone can favour big pips.
    if sum(t[3] >= 0 for t in tried) > 1:
        ranked = []
        for geo, corners, width, evidence in tried:
            if evidence < 0:
                continue
            try:
                built = _build(name, "", codes, corners, width, VIDEO_SEARCH, geo)
            except (TeachError, ValueError):
                continue
            ranked.append((geo, corners, width, distinctness(built.templates().values())[0]))
        tried = ranked or tried
    if not tried and isinstance(failure, MissedCards) and len(failure.missing) <= len(codes) // 4:
        # Most cards gave their index: the cards are face up and the geometry is right; name
        # the few that did not (by code when the pass held the cards it should).
        named = [f"no. {n}" + (f" ({codes[n - 1]})" if failure.count == len(codes) else "")
                 for n in failure.missing[:5]]
        raise TeachError(f"{len(failure.missing)} of {failure.count} cards passed without a "
                         f"clear view of their index ({', '.join(named)}); deal the pass again "
                         f"more slowly. If the same cards fail again, their artwork hides the "
                         f"edge between cards (docs/vision.md, Limits); nothing saved")
    if not tried and isinstance(failure, MissedCards) and failure.count > SPLIT * len(codes):
        # Far more cards than were dealt, many without an index: rows inside the faces look
        # like the gap between two cards, at the end that leads out of the shoe.
        raise TeachError(f"saw {failure.count} cards pass in a pass of {len(codes)}, "
                         f"{len(failure.missing)} of them with no index in view: the faces' "
                         f"artwork at the end leading out of the shoe looks like the gap between "
                         f"two cards (big pips or figures running into the card's edge?); "
                         f"{ONE_ENDED}; nothing saved")
    if not tried:
        seen = candidates[0].describe().split(",")[0]  # "cards travel down"
        raise TeachError(f"{failure or 'no cards seen'}: something bright passes the window "
                         f"({seen.replace('cards ', '')}) but no card face edges or index marks "
                         f"were found; are the cards face down (shoe upside down)? nothing saved")
    geo, corners, width, _ = max(tried, key=lambda t: (t[3], -abs(len(t[1]) - len(codes))))
    if len(corners) != len(codes):
        raise TeachError(f"saw {len(corners)} cards in {path} but expected {len(codes)}: "
                         f"{_miscount(len(corners), len(codes))}; nothing saved. Check the card "
                         f"list or deal the pass again (shoe: {geo.describe()})")
    preview = _preview(path)
    if not geo.is_default() or preview is not None:
        geo = geo.model_copy(update={"preview": encode_preview(preview)}) \
            if preview is not None else geo
    built = _build(name, f"video:{path.resolve()}", codes, corners, width, VIDEO_SEARCH, geo)
    # A pass dealt in another order than the one given would be taught mislabelled: say so.
    # Where its corners do not even tell the cards apart, the index box may simply not have been
    # found (their order then says nothing), and the refusal names both.
    problem = order_problem(list(built.templates().values()), codes,
                            lambda: _suit_marks(corners, codes, built.roi, width))
    if problem is not None and distinctness(built.templates().values())[0] >= MIN_DISTINCT:
        raise TeachError(f"{problem}; nothing saved")
    profile = _distinct(built) if problem is None else _distinct(
        built, "in this pass, or the pass is not in the order given (`cardtable deck teach "
               "--help`). Deal it again, slowly, with the cards face up")
    if turned is not None:
        profile = _add_turned(profile, Path(turned), codes, corners[0].shape[:2], width)
    return profile


def _add_turned(profile: DeckProfile, path: Path, codes: list[str], shape: tuple[int, ...],
                width: float) -> DeckProfile:
    """The profile with the corners of a pass of the deck turned round (same shoe, same order)
    where they differ from the upright ones."""
    geo = profile.geometry
    try:
        found, _ = _corners_of_pass(path, None if geo.is_default() else Normaliser(geo),
                                    len(codes))
    except TeachError as exc:
        raise TeachError(f"turned pass: {str(exc).removesuffix('; nothing saved')}; "
                         f"nothing saved") from None
    if len(found) != len(codes):
        raise TeachError(f"saw {len(found)} cards in the turned pass {path} but expected "
                         f"{len(codes)}: {_miscount(len(found), len(codes))}; nothing saved. "
                         f"Deal the deck turned round in the same order as the first pass")
    found = [c if c.shape[:2] == shape else cv2.resize(c, (shape[1], shape[0])) for c in found]
    views = _cut(found, profile.roi, width)
    upright = list(profile.templates().values())
    n = len(upright)
    full = corner_distances([*upright, *views])  # each corner is scored on its own
    d, between = full[n:, :n], full[n:, n:]  # turned against upright, and against turned
    own = d[np.arange(n), np.arange(n)]
    nearest_own = int((d.argmin(axis=1) == np.arange(n)).sum())
    if nearest_own < TURNED_OWN * n and not _same_colours(upright, views):
        raise TeachError(f"the turned pass {path} does not show the cards in the order given "
                         f"(only {nearest_own} of {n} look like their own corner); deal the deck "
                         f"turned round in the same order as the first pass; nothing saved")
    keep: dict[int, np.ndarray] = {}
    for i in np.flatnonzero(own > TURNED_APART):
        # A turned corner as alike another turned one as two cards may be (two figures' feet)
        # tells nothing: that card's turned view stays unread rather than blur the other. One as
        # alike another card's *upright* corner is kept: left out, the card dealt turned would
        # be read as that other card (a turned 6D of a deck whose two indexes are drawn the same
        # way up is an upright 9D, pixel for pixel). Kept, the reader sees the two alike and
        # names neither.
        if float(np.delete(d[i], i).min()) < MIN_DISTINCT or all(
                between[i, k] >= MIN_DISTINCT for k in keep):
            keep[int(i)] = views[i]
    turned = [CardTemplate.from_image(codes[i], img) for i, img in keep.items()]
    return DeckProfile.model_validate({**profile.model_dump(), "turned": turned})


def _redness(corner: np.ndarray) -> float:
    """How red a corner's ink is: red minus the larger of green and blue, over its ink."""
    ink = _ink(corner)
    if not ink.any():
        return 0.0
    px = corner[ink].astype(np.float32)
    return float(np.mean(px[:, 2] - np.maximum(px[:, 0], px[:, 1])))


def _same_colours(upright: list[np.ndarray], turned: list[np.ndarray]) -> bool:
    """Whether a turned pass shows red and black cards where the upright pass did, card for
    card: the order check for a deck whose turned corners do not look like the upright ones
    (its two indexes are not turned copies of each other). A pass in another order matches
    about half the colours; this asks for TURNED_COLOURS of them, with both colours well
    represented and clearly apart."""
    up = np.array([_redness(c) for c in upright])
    down = np.array([_redness(c) for c in turned])
    ranked = np.sort(up)
    gaps = np.diff(ranked)
    if gaps.size == 0 or float(gaps.max()) < RED_GAP:
        return False  # not two colours: nothing to check the order by
    k = int(gaps.argmax())
    cut = float(ranked[k] + ranked[k + 1]) / 2
    red = up > cut
    if min(red.mean(), 1 - red.mean()) < 0.25:
        return False
    return float(((down > cut) == red).mean()) >= TURNED_COLOURS


def _suit_marks(corners: list[np.ndarray], codes: list[str], box: Box, width: float
                ) -> dict[str, np.ndarray] | None:
    """Each declared suit's mark in the corners (``vision.order.suit_marks``), near the index
    ``box``."""
    h, w = corners[0].shape[:2]
    top = h - round(BELOW * width)
    x0, y0, x1, y1 = box
    near = np.zeros((h, w), bool)
    near[top + y0: top + y1, (w - 1) + x0: (w - 1) + x1] = True
    return suit_marks([_ink(c if c.shape[:2] == (h, w) else cv2.resize(c, (w, h)))
                       for c in corners], codes, near)


def _distinct(profile: DeckProfile, retry: str = "in this pass. Deal it again, slowly, with "
              "the cards face up") -> DeckProfile:
    """Refuse a profile in which two cards' index corners look the same."""
    gap, i, j = distinctness(profile.templates().values())
    if gap < MIN_DISTINCT:
        a, b = profile.cards[i].code, profile.cards[j].code
        raise TeachError(f"the learned index corners of {a} and {b} look the same (difference "
                         f"{gap:.3f}); the index was not found {retry}; nothing saved")
    return profile


def teach_from_images(name: str, folder: Path, codes: Iterable[str] | None = None) -> DeckProfile:
    folder = Path(folder)
    if not folder.is_dir():
        raise TeachError(f"no such folder: {folder}")
    files = {p.stem.upper(): p for p in sorted(folder.iterdir())
             if p.suffix.lower() in (".png", ".jpg", ".jpeg", ".bmp", ".webp")}
    wanted = list(codes) if codes is not None else [c for c in files if is_card_code(c)]
    _check_codes(wanted)
    missing = [c for c in wanted if c not in files]
    if missing or not wanted:
        raise TeachError(f"missing images for {', '.join(missing) or 'every card'} in {folder} "
                         f"(name them by card code, e.g. QS.png); nothing saved")
    width = 400.0
    corners = []
    for code in wanted:
        img = cv2.imread(str(files[code]), cv2.IMREAD_COLOR)
        if img is None:
            raise TeachError(f"cannot read image {files[code]}; nothing saved")
        img = cv2.resize(img, (round(width), round(img.shape[0] * width / img.shape[1])),
                         interpolation=cv2.INTER_AREA)
        pad = cv2.copyMakeBorder(img, 40, 40, 4, 4, cv2.BORDER_CONSTANT, value=(0, 0, 0))
        edge = 40 + img.shape[0] - round(STILL_CORNER * width)
        corner = _corner(pad, 4 + img.shape[1] - 1, edge, width)
        if corner is None:
            raise TeachError(f"image {files[code]} is too small")
        corners.append(corner)
    # Stills are refused like a pass when two corners look alike (they were saved before).
    return _distinct(_build(name, f"images:{folder}", wanted, corners, width, STILL_SEARCH),
                     f"in the images in {folder}; check they are face images of this deck")
