"""Real card artwork for the footage generator: Debian's gnome-cards-data and KDE's card decks.

gnome-cards-data decks are one SVG sheet in a 13 x 5 grid; KDE's (kdegames-card-data-kf5, named
``kde-<deck>`` here) are one SVG with an element per card (``king_club``, ``1_heart``...). Both
are rasterised with ``rsvg-convert`` (librsvg2-bin) and cached as PNGs, so tests and clip
generation pay the rendering cost only on the first run.
"""

from __future__ import annotations

import gzip
import os
import re
import shutil
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np
import platformdirs

from vision.cards import RANKS, SUITS

ART_DIRS = (Path("/usr/share/aisleriot/cards"), Path("/usr/share/gnome-games-common/cards"))
KDE_DIR = Path("/usr/share/carddecks")  # kdegames-card-data-kf5: one folder per deck
KDE_PREFIX = "kde-"
KDE_WIDTHS = (120, 160, 200, 250, 320, 400, 500, 640, 800, 1000, 1280, 1600)  # rendered widths
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


# KDE decks name each card's element: rank (1 for the ace) and suit; jokers, where a deck has
# them, are black_joker/red_joker or one "joker" for both.
_KDE_RANK = {"A": "1", "6": "6", "7": "7", "8": "8", "9": "9", "T": "10", "J": "jack",
             "Q": "queen", "K": "king"}
_KDE_SUIT = {"C": "club", "D": "diamond", "H": "heart", "S": "spade"}
_KDE_JOKER = {"BJ": ("black_joker", "joker"), "RJ": ("red_joker", "joker")}


def available_decks() -> dict[str, Path]:
    decks: dict[str, Path] = {}
    for folder in ART_DIRS:
        if folder.is_dir():
            for path in sorted(folder.glob("*.svg*")):
                decks.setdefault(path.name.split(".")[0], path)
    if KDE_DIR.is_dir():
        for folder in sorted(KDE_DIR.glob("svg-*")):
            svg = _kde_svg(folder)
            if svg is not None:
                decks.setdefault(KDE_PREFIX + folder.name[len("svg-"):], svg)
    return decks


def _kde_svg(folder: Path) -> Path | None:
    """The SVG a KDE deck folder's index.desktop names (``SVG=...``), if it is there."""
    try:
        text = (folder / "index.desktop").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    found = re.search(r"^SVG=(.+)$", text, re.MULTILINE)
    path = folder / found.group(1).strip() if found else None
    return path if path is not None and path.is_file() else None


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


def _rsvg() -> str:
    exe = shutil.which("rsvg-convert")
    if exe is None:
        raise ArtworkError("rsvg-convert not found: install librsvg2-bin (scripts/setup does this)")
    return exe


def _svg_bytes(svg: Path) -> bytes:
    """The SVG's text, gunzipped if it is an .svgz."""
    data = svg.read_bytes()
    if data[:2] == b"\x1f\x8b":
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as exc:
            raise ArtworkError(f"{svg} is not a readable SVG: {exc}") from None
    return data


def _plain_svg(svg: Path, folder: Path) -> Path:
    """``svg`` uncompressed into ``folder`` (rsvg-convert reads .svgz too, but not every build)."""
    src = folder / "deck.svg"
    src.write_bytes(_svg_bytes(svg))
    return src


def _rasterise(args: list[str], out: Path, what: str) -> np.ndarray:
    try:
        subprocess.run([_rsvg(), *args, "-o", str(out)], check=True, capture_output=True,
                       timeout=120)
    except subprocess.CalledProcessError as exc:
        why = (exc.stderr or b"").decode(errors="replace").strip() or f"exit {exc.returncode}"
        raise ArtworkError(f"could not rasterise {what}: rsvg-convert says {why!r}") from None
    except subprocess.TimeoutExpired:
        raise ArtworkError(f"could not rasterise {what}: rsvg-convert took over 120 s") from None
    image = cv2.imread(str(out), cv2.IMREAD_UNCHANGED)
    if image is None or image.ndim != 3 or image.shape[2] != 4:
        raise ArtworkError(f"could not rasterise {what}")
    return image


def _render_sheet(svg: Path, width: int) -> np.ndarray:
    with tempfile.TemporaryDirectory() as tmp:
        src = _plain_svg(svg, Path(tmp))
        return _rasterise(["-w", str(width), str(src)], Path(tmp) / "sheet.png", str(svg))


def _grid_crops(svg: Path, width: int, codes: list[str]) -> dict[str, np.ndarray]:
    """Cards cut from a gnome-cards sheet: one grid cell each, cropped to the card."""
    sheet = _render_sheet(svg, int(width * _GRID_COLS * 1.02))
    h, w = sheet.shape[:2]
    crops = {}
    for code in codes:
        row, col = _cell(code)
        cell = sheet[row * h // _GRID_ROWS:(row + 1) * h // _GRID_ROWS,
                     col * w // _GRID_COLS:(col + 1) * w // _GRID_COLS]
        crops[code] = _crop_card(cell)
    return crops


def _kde_ids(svg: Path) -> set[str]:
    return {x.decode() for x in re.findall(rb'\bid="([A-Za-z0-9_]+)"', _svg_bytes(svg))}


def _kde_crops(svg: Path, width: int, codes: list[str]) -> dict[str, np.ndarray]:
    """Cards of a KDE deck: each card's element rendered on its own (``rsvg-convert -i``) at a
    zoom that makes the card ``width`` px wide, cropped to the card. A deck without jokers
    gives none."""
    ids = _kde_ids(svg)
    names: dict[str, str] = {}
    for code in codes:
        if code == BACK:
            wanted: tuple[str, ...] = ("back",)
        elif code in _KDE_JOKER:
            wanted = _KDE_JOKER[code]
        else:
            wanted = (f"{_KDE_RANK[code[0]]}_{_KDE_SUIT[code[1]]}",)
        found = next((name for name in wanted if name in ids), None)
        if found is not None:
            names[code] = found
        elif code not in _KDE_JOKER:
            raise ArtworkError(f"{svg} has no element {wanted[0]!r}: not a KDE card deck")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        src = _plain_svg(svg, folder)

        def render(item: tuple[str, str], zoom: float) -> tuple[str, np.ndarray]:
            code, name = item
            image = _rasterise(["-i", name, "-z", f"{zoom:.4f}", str(src)],
                               folder / f"{code}-{zoom:.4f}.png", f"{name} of {svg}")
            return code, _crop_card(image)

        # The document's own size gives the zoom: one card at zoom 1 shows how wide a card is.
        _, probe = render((BACK, names[BACK]), 1.0)
        zoom = width * 1.02 / max(1, probe.shape[1])
        with ThreadPoolExecutor(max(1, min(4, os.cpu_count() or 1))) as pool:
            return dict(pool.map(lambda item: render(item, zoom), names.items()))


def _crop_card(cell: np.ndarray) -> np.ndarray:
    ys, xs = np.nonzero(cell[:, :, 3] > 128)
    if len(xs) == 0:
        raise ArtworkError("empty card cell in the artwork grid")
    return cell[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1]


def card_images(deck: str, width: int = 400) -> dict[str, np.ndarray]:
    """BGRA face images (and ``back``) of a deck, ``width`` pixels wide, rendered once and cached.
    A KDE deck that has no jokers gives no ``BJ``/``RJ``."""
    svg = deck_path(deck)
    codes = [r + s for s in SUITS for r in RANKS] + ["BJ", "RJ", BACK]
    kde = svg.is_relative_to(KDE_DIR)  # every kde-<deck> name resolves there
    stem = (KDE_PREFIX + svg.parent.name[len("svg-"):]) if kde else svg.name.split(".")[0]
    folder = cache_dir() / "art" / f"{stem}-{width}"
    done = folder / "deck.done"  # written last: a KDE deck may lack the jokers' files
    if not (done.is_file() if kde else all((folder / f"{c}.png").is_file() for c in codes)):
        if kde:
            # Each card is a render of its own, so every new width costs seconds per card: a
            # width between the steps is cut down from the next step up, rendered once.
            step = next((s for s in KDE_WIDTHS if s >= width), width)
            crops = (_kde_crops(svg, width, codes) if step == width
                     else card_images(deck, step))
        else:
            crops = _grid_crops(svg, width, codes)
        folder.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(dir=folder.parent))
        # One size for the whole deck: crops differ by a pixel or so from rounding.
        aspect = float(np.median([c.shape[0] / c.shape[1] for c in crops.values()]))
        height = round(width * aspect)
        for code, card in crops.items():
            card = cv2.resize(card, (width, height), interpolation=cv2.INTER_AREA)
            cv2.imwrite(str(tmp / f"{code}.png"), card)
        (tmp / "deck.done").write_text(" ".join(crops))
        # Publish the whole deck at once so parallel workers never see half a cache; if another
        # worker got there first, its copy is as good as ours.
        try:
            tmp.rename(folder)
        except OSError:
            shutil.rmtree(tmp, ignore_errors=True)
    images = {}
    for code in codes:
        if kde and not (folder / f"{code}.png").is_file() and code in _KDE_JOKER:
            continue
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
