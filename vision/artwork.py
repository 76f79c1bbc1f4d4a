"""Real card artwork for the footage generator: Debian's gnome-cards-data SVG decks.

The SVGs are rasterised once with ``rsvg-convert`` (librsvg2-bin) and cached as PNGs, so tests
and clip generation pay the rendering cost only on the first run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

import cv2
import numpy as np
import platformdirs

from vision.cards import RANKS, SUITS

ART_DIRS = (Path("/usr/share/aisleriot/cards"), Path("/usr/share/gnome-games-common/cards"))
BACK = "back"

# aisleriot decks are a 13 x 5 grid: one row per suit (clubs, diamonds, hearts, spades) from ace
# to king, then black joker, red joker and the back.
_GRID_COLS, _GRID_ROWS = 13, 5
_COL_OF_RANK = {"A": 0, "6": 5, "7": 6, "8": 7, "9": 8, "T": 9, "J": 10, "Q": 11, "K": 12}
_ROW_OF_SUIT = {s: i for i, s in enumerate(SUITS)}


class ArtworkError(RuntimeError):
    """Deck artwork is missing or cannot be rendered."""


def cache_dir() -> Path:
    override = os.environ.get("CARDTABLE_CACHE_DIR")
    return Path(override) if override else Path(platformdirs.user_cache_dir("cardtable"))


def available_decks() -> dict[str, Path]:
    decks: dict[str, Path] = {}
    for folder in ART_DIRS:
        if folder.is_dir():
            for path in sorted(folder.glob("*.svg*")):
                decks.setdefault(path.name.split(".")[0], path)
    return decks


def deck_path(name: str) -> Path:
    decks = available_decks()
    if name in decks:
        return decks[name]
    path = Path(name)
    if path.is_file():
        return path
    hint = ", ".join(decks) or "none found (install gnome-cards-data)"
    raise ArtworkError(f"no card artwork called {name!r}; available: {hint}")


def _cell(code: str) -> tuple[int, int]:
    if code == "BJ":
        return 4, 0
    if code == "RJ":
        return 4, 1
    if code == BACK:
        return 4, 2
    return _ROW_OF_SUIT[code[1]], _COL_OF_RANK[code[0]]


def _render_sheet(svg: Path, width: int) -> np.ndarray:
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise ArtworkError("rsvg-convert not found: install librsvg2-bin (scripts/setup does this)")
    with tempfile.TemporaryDirectory() as tmp:
        src = Path(tmp) / "deck.svg"
        data = svg.read_bytes()
        if data[:2] == b"\x1f\x8b":
            import gzip

            data = gzip.decompress(data)
        src.write_bytes(data)
        out = Path(tmp) / "sheet.png"
        subprocess.run([exe, "-w", str(width), "-o", str(out), str(src)], check=True,
                       capture_output=True, timeout=120)
        sheet = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
    if sheet is None or sheet.ndim != 3 or sheet.shape[2] != 4:
        raise ArtworkError(f"could not rasterise {svg}")
    return sheet


def _crop_card(cell: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(cell[:, :, 3] > 128)
    if len(xs) == 0:
        raise ArtworkError("empty card cell in the artwork grid")
    return cell[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]


def card_images(deck: str, width: int = 400) -> dict[str, np.ndarray]:
    """BGRA face images (and ``back``) of a deck, ``width`` pixels wide, rendered once and cached."""
    svg = deck_path(deck)
    codes = [r + s for s in SUITS for r in RANKS] + ["BJ", "RJ", BACK]
    folder = cache_dir() / "art" / f"{svg.name.split('.')[0]}-{width}"
    if not all((folder / f"{c}.png").is_file() for c in codes):
        sheet = _render_sheet(svg, int(width * _GRID_COLS * 1.02))
        h, w = sheet.shape[:2]
        folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=folder.parent))
        crops = {}
        for code in codes:
            row, col = _cell(code)
            cell = sheet[row * h // _GRID_ROWS:(row + 1) * h // _GRID_ROWS,
                         col * w // _GRID_COLS:(col + 1) * w // _GRID_COLS]
            crops[code] = _crop_card(cell)
        # One size for the whole deck: crops differ by a pixel or so from rounding.
        aspect = float(np.median([c.shape[0] / c.shape[1] for c in crops.values()]))
        height = round(width * aspect)
        for code, card in crops.items():
            card = cv2.resize(card, (width, height), interpolation=cv2.INTER_AREA)
            cv2.imwrite(str(tmp / f"{code}.png"), card)
        # Publish the whole deck at once so parallel workers never see half a cache; if another
        # worker got there first, its copy is as good as ours.
        try:
            tmp.rename(folder)
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
    images = {}
    for code in codes:
        img = cv2.imread(str(folder / f"{code}.png"), cv2.IMREAD_UNCHANGED)
        if img is None:
            raise ArtworkError(f"cached card image {folder / code}.png is unreadable")
        images[code] = img
    return images


def add_border(images: dict[str, np.ndarray], thickness: float, colour: tuple[int, int, int]
               ) -> dict[str, np.ndarray]:
    """Faces with a border ``thickness`` (fraction of the card width) of ``colour`` (BGR) drawn
    inside each card's outline, following its rounded corners (the back is left as it is).

    Some real decks have a thick dark border all round the face (gnome-cards ``paris``); this
    gives any deck one, so the reader can be tried on bordered versions of every design.
    """
    out = {}
    for code, img in images.items():
        if code == BACK:
            out[code] = img
            continue
        # Distance of each pixel inside the card to its outline (the image edge counts as
        # outside: the artwork is cropped to the card).
        inside = cv2.copyMakeBorder((img[:, :, 3] >= 128).astype(np.uint8), 1, 1, 1, 1,
                                    cv2.BORDER_CONSTANT, value=0)
        dist = cv2.distanceTransform(inside, cv2.DIST_L2, cv2.DIST_MASK_PRECISE)[1:-1, 1:-1]
        # A pixel centre lies dist - 0.5 px inside the outline; cover it by how much of it is
        # within the border, so the border's inner edge is antialiased like the artwork.
        cover = np.clip(thickness * img.shape[1] + 1.0 - dist, 0.0, 1.0)[:, :, None]
        face = img.copy()
        face[:, :, :3] = np.round(img[:, :, :3] * (1.0 - cover)
                                  + np.array(colour, np.float32) * cover).astype(np.uint8)
        out[code] = face
    return out
