"""Shared set-up for the table camera tests: decks taught from real shoe passes and overhead
clips written as real MPEG-4, made once per test process (cached under pytest's base temp)."""

from __future__ import annotations

import os
from pathlib import Path

from synth.shoe import make_clip
from synth.table import TableSetup, TableTruth, make_table_clip, truth_path
from vision.cards import composition
from vision.profile import DeckProfile, save_profile
from vision.table.faces import Faces, load_faces
from vision.teach import teach_from_video

_CACHE: dict[object, object] = {}

# The table checks' set-up, unlike the bundled clips': 63 mm cards 95 px wide on a 36 cm play
# area (by hand, 95 / 63 = 1.51 px per mm in the image), a rim and things lying about; card
# positions (x mm, y mm, angle) in seat 1's and seat 2's zones, for a 50 cm area scaled by K
CLOSE = TableSetup.sized(1280, 720, 360, 95, 63, rim_mm=90, clutter=True)
K = CLOSE.scale
SEAT1, SEAT2 = (10 * K, 120 * K, 8.0), (-15 * K, -115 * K, -4.0)


def data_dir(base: Path) -> Path:
    return base / "table-kit" / "data"


def taught(base: Path, deck: str, comp: str, cards: list[str] | None = None
           ) -> tuple[DeckProfile, Faces]:
    """A deck taught from one easy shoe pass, and its table templates from that same pass
    (``cards``: a pass of just these cards instead of the composition)."""
    key = ("deck", deck)
    if key not in _CACHE:
        folder = base / "table-kit"
        folder.mkdir(parents=True, exist_ok=True)
        old = os.environ.get("CARDTABLE_DATA_DIR")
        os.environ["CARDTABLE_DATA_DIR"] = str(data_dir(base))
        try:
            path = folder / f"{deck}-pass.mp4"
            cards = cards or composition(comp)
            make_clip(path, deck, cards, "easy", seed=3)
            profile = teach_from_video(deck, path, cards)
            save_profile(profile)
            faces = load_faces(profile)
        finally:
            if old is None:
                del os.environ["CARDTABLE_DATA_DIR"]
            else:
                os.environ["CARDTABLE_DATA_DIR"] = old
        _CACHE[key] = (profile, faces)
    return _CACHE[key]  # type: ignore[return-value]


def table_clip(base: Path, deck: str, seats: int, cards: list[str], game: str, seed: int,
               face_down: int = 0, objects: int = 0) -> tuple[Path, TableTruth]:
    key = ("clip", deck, seats, tuple(cards), game, seed, face_down, objects)
    if key not in _CACHE:
        folder = base / "table-kit"
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{deck}-{game}{seats}-{seed}.mp4"
        make_table_clip(path, deck, seats, cards, game, "hard", seed=seed, face_down=face_down,
                        objects=objects)
        _CACHE[key] = (path, TableTruth.load(truth_path(path)))
    return _CACHE[key]  # type: ignore[return-value]
