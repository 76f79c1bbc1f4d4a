"""Whole-face templates for the table reader, made from the same shoe pass that taught the deck.

The shoe profile keeps only the index corner at shoe scale. On the table a card is small (about
70 px wide at 720p) and lies at any angle, so the table reader matches most of the face instead:
pips, court figures and both indices. The shoe pass holds that too — each card slides the whole
window's height past the camera — so we run the pass again, follow every card's leading edge as
teaching does (``vision.locate`` and ``vision.track``), and stitch the rows above the edge from
every frame of that card into one strip: the face from the leading edge up as far as the window
showed it (about 80% of the card). The median over frames drops the shoe's LED glare, which sits
at a different place on the card in each frame. The strips are kept in a sidecar file next to the
profile (``NAME.table.npz``); the profile itself is not touched.

A deck taught from still images (``deck teach --images``) gets its strips from those images.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from vision.locate import locate
from vision.profile import DeckProfile, profiles_dir
from vision.track import EdgeTracker

STORE_W = 96  # width the strips are stored at
MIN_ROWS = 0.9  # a strip must reach at least this far above the leading edge (x card width)
FACES_VERSION = 1


class FacesError(RuntimeError):
    """The table templates cannot be made from this deck's teaching source."""


@dataclass
class Faces:
    codes: list[str]
    strips: np.ndarray  # (n, rows, STORE_W, 3) uint8: row -1 is just above the leading edge

    @property
    def rows(self) -> int:
        return int(self.strips.shape[1])


def faces_path(name: str) -> Path:
    return profiles_dir() / f"{name}.table.npz"


def _views_from_video(path: Path) -> list[list[tuple[int, np.ndarray]]]:
    from vision.video import frames

    tracker: EdgeTracker | None = None
    views: dict[int, list[tuple[int, np.ndarray]]] = {}
    for frame in frames(path):
        if tracker is None:
            tracker = EdgeTracker(frame.shape[0])
        geo = locate(frame[:, :, 1])
        _, track = tracker.update(0, geo.edges if geo else ())
        if track is None or geo is None or geo.width < 40:
            continue
        e = track.edge
        s = STORE_W / geo.width
        crop = frame[:e, geo.left:geo.right + 1]
        if crop.shape[0] < 8:
            continue
        rows = max(1, round(crop.shape[0] * s))
        views.setdefault(track.number, []).append(
            (rows, cv2.resize(crop, (STORE_W, rows), interpolation=cv2.INTER_AREA)))
    if tracker is None:
        raise FacesError(f"video {path} has no frames")
    return [views[n] for n in sorted(views)]


def _stitch(views: list[tuple[int, np.ndarray]], rows: int) -> np.ndarray:
    """Median of the views, each aligned on the leading edge (its bottom row)."""
    stack = np.full((len(views), rows, STORE_W, 3), np.nan, np.float32)
    for k, (n, img) in enumerate(views):
        take = min(n, rows)
        stack[k, rows - take:] = img[n - take:]
    with np.errstate(all="ignore"):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            med = np.nanmedian(stack, axis=0)
    return np.nan_to_num(med, nan=0.0).astype(np.uint8)


def build_faces(profile: DeckProfile, source: Path | None = None) -> Faces:
    """Strips for every card of ``profile`` from its teaching pass (or ``source``)."""
    codes = [c.code for c in profile.cards]
    kind, _, where = profile.source.partition(":")
    path = Path(source) if source is not None else Path(where)
    if source is None and kind not in ("video", "images"):
        raise FacesError(f"deck {profile.name!r} was taught from {profile.source!r}; give the "
                         f"teaching pass with --video")
    if path.is_dir():
        return _from_images(path, codes)
    geometry: Any = getattr(profile, "geometry", None)
    is_default = getattr(geometry, "is_default", None)  # shoes of other geometries: see profile
    if source is None and is_default is not None and not (is_default() and not geometry.one_side):
        raise FacesError(f"deck {profile.name!r} was taught in a shoe whose window shows only part "
                         f"of each card; the table reader needs a pass through the classic window "
                         f"or still images (`cardtable table faces {profile.name} --video PASS`)")
    if not path.is_file():
        raise FacesError(f"the teaching pass of deck {profile.name!r} ({path}) is gone; give it "
                         f"again with `cardtable table faces {profile.name} --video PASS.mp4`")
    views = _views_from_video(path)
    if len(views) != len(codes):
        raise FacesError(f"saw {len(views)} cards in {path} but deck {profile.name!r} has "
                         f"{len(codes)}; is this the pass the deck was taught from?")
    reach = [max(n for n, _ in v) for v in views]
    rows = min(reach)
    if rows < MIN_ROWS * STORE_W:
        raise FacesError(f"the shoe window showed only {rows / STORE_W:.2f} card widths of a card "
                         f"in {path}; the table reader needs {MIN_ROWS}")
    return Faces(codes, np.stack([_stitch(v, rows) for v in views]))


def _from_images(folder: Path, codes: list[str]) -> Faces:
    files = {p.stem.upper(): p for p in folder.iterdir()
             if p.suffix.lower() in (".png", ".jpg", ".jpeg", ".bmp", ".webp")}
    strips = []
    rows = round(1.2 * STORE_W)
    for code in codes:
        img = cv2.imread(str(files.get(code, folder / "missing")), cv2.IMREAD_COLOR)
        if img is None:
            raise FacesError(f"cannot read the image of {code} in {folder}")
        h = round(img.shape[0] * STORE_W / img.shape[1])
        img = cv2.resize(img, (STORE_W, h), interpolation=cv2.INTER_AREA)
        edge = h - round(0.03 * STORE_W)  # where the shoe would see the leading edge
        strips.append(img[edge - rows: edge])
    return Faces(codes, np.stack(strips))


def _stamp(profile: DeckProfile) -> str:
    """Which teaching of the deck the strips belong to (a deck taught again gets new ones)."""
    return f"{profile.created} {profile.source}"


def save_faces(name: str, faces: Faces, profile: DeckProfile | None = None,
               path: Path | None = None) -> Path:
    """Into the deck's sidecar (``faces_path(name)``), or ``path`` (a recorded session's)."""
    path = Path(path) if path is not None else faces_path(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp.npz")
    np.savez_compressed(tmp, version=FACES_VERSION, codes=np.array(faces.codes), strips=faces.strips,
                        stamp=np.array(_stamp(profile) if profile is not None else ""))
    tmp.replace(path)
    return path


def read_faces(path: Path, profile: DeckProfile) -> Faces:
    """The strips in ``path``, if they are this teaching's of this deck; else a FacesError."""
    codes = [c.code for c in profile.cards]
    try:
        with np.load(path) as data:
            if int(data["version"]) != FACES_VERSION or list(data["codes"]) != codes:
                raise FacesError(f"{path} holds strips of another deck or version")
            if str(data["stamp"]) not in ("", _stamp(profile)):
                raise FacesError(f"{path} holds strips of another teaching of the deck")
            return Faces(codes, data["strips"])
    except (OSError, ValueError, KeyError) as exc:
        raise FacesError(f"{path} is unreadable: {exc}") from None


def load_faces(profile: DeckProfile, build: bool = True) -> Faces:
    """The deck's table templates: from the sidecar, else made from the pass (and saved)."""
    path = faces_path(profile.name)
    if path.is_file():
        try:
            return read_faces(path, profile)
        except FacesError:
            pass  # stale or damaged: make it again
    if not build:
        raise FacesError(f"no table templates for deck {profile.name!r}")
    faces = build_faces(profile)
    save_faces(profile.name, faces, profile)
    return faces
