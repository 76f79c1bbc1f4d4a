"""Pictures of a deck profile: every learned index corner with its card code underneath (a turned
pass's corners marked so), and the learned shoe geometry drawn on a frame of the teaching pass
(for `cardtable deck show`)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.profile import DeckProfile


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


def geometry_picture(profile: DeckProfile) -> np.ndarray:
    """The learned shoe geometry drawn on a frame of the teaching pass: the travel direction,
    the strip the reader looks at, and the index box where it first comes fully into view."""
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
    cam_strip = geo.to_camera(strip).round().astype(np.int32)
    cam_box = geo.to_camera(box).round().astype(np.int32)
    cv2.polylines(out, [cam_strip], True, (255, 200, 0), 2, cv2.LINE_AA)
    cv2.polylines(out, [cam_box], True, (0, 220, 0), 2, cv2.LINE_AA)
    mid = (top + bottom) / 2
    arrow = geo.to_camera(np.array([[CANON_SIDE - 90, mid - 60], [CANON_SIDE - 90, mid + 60]],
                                   float)).round().astype(int)
    cv2.arrowedLine(out, tuple(map(int, arrow[0])), tuple(map(int, arrow[1])), (0, 140, 255), 3,
                    cv2.LINE_AA, tipLength=0.25)
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
