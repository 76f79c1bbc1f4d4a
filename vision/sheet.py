"""Contact sheet of a deck profile: every learned index corner with its card code underneath."""

from __future__ import annotations

import cv2
import numpy as np

from vision.profile import DeckProfile


def contact_sheet(profile: DeckProfile, columns: int = 9, zoom: float = 1.5) -> np.ndarray:
    templates = profile.templates()
    tiles = []
    for code, img in templates.items():
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
    title = f"{profile.name}: {len(tiles)} cards, card width {profile.card_width:.0f}px"
    cv2.putText(sheet, title, (6, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 1, cv2.LINE_AA)
    for i, t in enumerate(tiles):
        r, c = divmod(i, columns)
        sheet[30 + r * th: 30 + r * th + t.shape[0], c * tw: c * tw + t.shape[1]] = t
    return sheet
