"""Pictures of a deck profile: every learned index corner with its card code underneath (a turned
pass's corners marked so), and the learned shoe geometry drawn on a frame of the teaching pass
(for `cardtable deck show`).

``look_picture`` runs the reader over the profile's own teaching pass and draws, on the camera
frame where it first named a card, what it really used there: the card's outline as found, the
strip it reads and the index box it cut, all mapped to the camera by the reader's own
``Normaliser``. ``geometry_picture`` is the picture for a profile whose pass is gone: the same
geometry drawn on the frame kept in the profile at teaching (or a blank one), with a caption.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from vision.profile import DeckProfile

if TYPE_CHECKING:  # the reader is imported where a picture needs it (start-up time)
    from vision.reader import LookPlace

CARD_COLOUR = (0, 220, 255)  # BGR: yellow
STRIP_COLOUR = (255, 200, 0)  # blue
INDEX_COLOUR = (0, 220, 0)  # green
TRAVEL_COLOUR = (0, 140, 255)  # orange
LEGEND = "card as found: yellow; strip read: blue; index box looked at: green; travel: orange"


def contact_sheet(profile: DeckProfile, columns: int = 9, zoom: float = 1.5) -> np.ndarray:
    tiles = []
    upright = len(profile.cards)
    for n, (code, img) in enumerate(profile.views()):
        code = code if n < upright else f"{code} turned"  # a turned pass's corner (see teach)
        img = cv2.resize(img, None, fx=zoom, fy=zoom, interpolation=cv2.INTER_LINEAR)
        h, w = img.shape[:2]
        tile = np.full((h + 28, max(w, 48) + 8, 3), 255, np.uint8)
        tile[4: 4 + h, 4: 4 + w] = img
        cv2.putText(tile, code, (4, h + 22), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (0, 0, 0), 1,
                    cv2.LINE_AA)
        tiles.append(tile)
    th = max(t.shape[0] for t in tiles)
    tw = max(t.shape[1] for t in tiles)
    rows = -(-len(tiles) // columns)
    sheet = np.full((rows * th + 30, columns * tw, 3), 235, np.uint8)
    turned = f" (+{len(profile.turned)} turned corners)" if profile.turned else ""
    title = f"{profile.name}: {upright} cards{turned}, card width {profile.card_width:.0f}px"
    cv2.putText(sheet, title, (6, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 1, cv2.LINE_AA)
    for i, t in enumerate(tiles):
        r, c = divmod(i, columns)
        sheet[30 + r * th: 30 + r * th + t.shape[0], c * tw: c * tw + t.shape[1]] = t
    return sheet


def _travel_arrow(out: np.ndarray, profile: DeckProfile, top: float, bottom: float) -> None:
    from vision.geometry import CANON_SIDE

    mid = (top + bottom) / 2
    arrow = profile.geometry.to_camera(
        np.array([[CANON_SIDE - 90, mid - 60], [CANON_SIDE - 90, mid + 60]], float))
    start, end = arrow.round().astype(int)
    cv2.arrowedLine(out, (int(start[0]), int(start[1])), (int(end[0]), int(end[1])),
                    TRAVEL_COLOUR, 3, cv2.LINE_AA, tipLength=0.25)


def _outline(out: np.ndarray, corners: np.ndarray, colour: tuple[int, int, int]) -> None:
    cv2.polylines(out, [corners.round().astype(np.int32)], True, colour, 2, cv2.LINE_AA)


@dataclass
class LookPicture:
    """A frame of the teaching pass with what the reader used there drawn on it."""

    image: np.ndarray  # the camera frame, its own size, with the drawing
    frame: int  # its number in the clip, from 0
    card: str  # the card the reader named from that look


def teaching_clip(profile: DeckProfile) -> Path | None:
    """The clip the profile was taught from, as its source records it (None: stills)."""
    kind, _, where = profile.source.partition(":")
    return Path(where) if kind == "video" and where else None


def look_picture(profile: DeckProfile, path: Path) -> LookPicture | None:
    """The reader run over ``path`` (the teaching pass) until it names a card; that card's last
    look drawn on its camera frame. None when no card is named in the whole clip. A clip that
    cannot be read raises ``VideoError``; one whose frames are not the taught camera's size
    raises ``ValueError``."""
    from vision.cards import UNKNOWN
    from vision.reader import ShoeReader
    from vision.video import frames

    reader = ShoeReader(profile)
    looked: dict[int, tuple[LookPlace, np.ndarray]] = {}
    want = tuple(profile.geometry.frame)
    for frame in frames(path):
        if (frame.shape[1], frame.shape[0]) != want:
            raise ValueError(f"its frames are {frame.shape[1]}x{frame.shape[0]}, the taught "
                             f"camera's {want[0]}x{want[1]}")
        events = reader.feed(frame)
        place = reader.last_look()
        if place is not None and place.frame == reader.frame_no:
            looked[place.frame] = (place, frame.copy())
        for event in events:
            if event.card == UNKNOWN or event.looked_at < 0:
                continue
            mine = [n for n in looked if event.looked_at <= n <= event.frame]
            if mine:
                place, image = looked[max(mine)]
                return LookPicture(_draw_look(profile, image, place), place.frame, event.card)
        for n in [n for n in looked if n < reader.frame_no - 8]:
            del looked[n]  # older than any card still being decided
    return None


def _draw_look(profile: DeckProfile, image: np.ndarray, place: LookPlace) -> np.ndarray:
    from vision.geometry import CANON_H, Normaliser

    out = image.copy()
    _outline(out, place.card, CARD_COLOUR)
    strip = place.strip
    h, w = out.shape[:2]
    if strip is None:  # the classic shoe reads the whole frame
        strip = np.array([[1, 1], [w - 2, 1], [w - 2, h - 2], [1, h - 2]], float)
        top, bottom = 0.0, float(CANON_H)
    else:
        norm = Normaliser(profile.geometry)
        top, bottom = norm.top, norm.top + norm.height
    _outline(out, strip, STRIP_COLOUR)
    _outline(out, place.index_box, INDEX_COLOUR)
    _travel_arrow(out, profile, top, bottom)
    return out


def geometry_picture(profile: DeckProfile) -> np.ndarray:
    """The learned shoe geometry drawn on the frame kept in the profile at teaching (a blank one
    if it has none): the travel direction, the strip the reader looks at, and the index box
    where it first comes fully into view, with a caption below. For a profile whose teaching
    pass can no longer be read (``look_picture`` draws on the pass itself)."""
    from vision.geometry import (
        CANON_CARD,
        CANON_H,
        CANON_SIDE,
        STRIP_W,
        STRIP_X0,
        Normaliser,
        decode_preview,
    )

    geo = profile.geometry
    w, h = geo.frame
    frame = decode_preview(geo.preview)
    if frame is None or frame.shape[:2] != (h, w):
        frame = np.full((h, w, 3), 40, np.uint8)
    out = (frame.astype(np.float32) * 0.8).astype(np.uint8)
    x0, y0, x1, y1 = profile.roi
    if geo.is_default():  # the classic shoe reads whole frames
        top, bottom, k, sx0, sx1 = 0.0, float(CANON_H), CANON_CARD / profile.card_width, 0, w
    else:
        norm = Normaliser(geo)
        top, bottom, k = norm.top, norm.top + norm.height, 1.0
        sx0, sx1 = STRIP_X0, STRIP_X0 + STRIP_W
    strip = np.array([[sx0, top], [sx1, top], [sx1, bottom], [sx0, bottom]], float)
    edge = top - y0 * k
    box = np.array([[CANON_SIDE + x0 * k, edge + y0 * k], [CANON_SIDE + x1 * k, edge + y0 * k],
                    [CANON_SIDE + x1 * k, edge + y1 * k], [CANON_SIDE + x0 * k, edge + y1 * k]])
    _outline(out, geo.to_camera(strip), STRIP_COLOUR)
    _outline(out, geo.to_camera(box), INDEX_COLOUR)
    _travel_arrow(out, profile, top, bottom)
    lines = [f"{profile.name}: {geo.direction}, tilt {geo.tilt:+.1f} deg, card "
             f"{CANON_CARD * geo.scale:.0f} px, index {'left' if geo.mirror else 'right'} of travel",
             "blue: strip read; green: index when first fully in view; orange: travel"]
    # Caption below the frame, so it hides nothing drawn on it.
    caption = np.zeros((14 + 20 * len(lines), w, 3), np.uint8)
    for i, text in enumerate(lines):
        cv2.putText(caption, text, (8, 20 + 20 * i), cv2.FONT_HERSHEY_SIMPLEX, 0.5,
                    (255, 255, 255), 1, cv2.LINE_AA)
    out = np.vstack([out, caption])
    return out
