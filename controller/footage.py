"""Recorded table sessions ("bundles"): a shoe clip with its frame clock and what people did.

A bundle is what a real table records and what the simulated table replays:

* ``shoe.mp4`` — the shoe camera's frames. Like a real shoe camera it records only while cards
  move, so ``shoe.times.json`` gives each frame's timestamp (seconds, the session's clock from 0);
* ``inputs.jsonl`` — everything else, one JSON object per line with ``t`` on the same clock:
  panel buttons ``{"t", "seat", "button"}`` (the documented BUTTONS.jsonl shape), and, until the
  table camera lands, its events ``{"t", "kind": "placed", "seat", "card", "covers"?}`` and
  ``{"t", "kind": "removed"}``, plus the organiser's corrections ``{"t", "kind": "admin", ...}``;
* ``deck.json`` — the deck profile taught from one teaching pass of the same deck;
* ``game.json`` — game, options, player names, and the truth: every shoe card in order and the
  engine log the session produced (tests compare a replay against it).

This module reads them (``load_bundle``, every file checked, a clear ``BundleError`` naming the
file otherwise); ``synth.bundles.record_session`` makes them from seeded games for the simulated
table and the tests.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from pydantic import BaseModel, Field, ValidationError

from controller.inputs import parse_input
from engine.errors import EngineError
from engine.game import Game
from engine.registry import game_class
from hardware.camera import FrameTimesError
from hardware.camera import read_frame_times as hardware_frame_times
from vision.profile import DeckProfile, read_profile
from vision.table.faces import Faces, FacesError, read_faces, save_faces
from vision.video import VideoError, frame_count
from vision.video import frames as video_frames

BUNDLES = Path(__file__).parent / "data"
DEFAULT_BUNDLE = BUNDLES / "belot2"
FPS = 30.0  # a clip without its frame times is taken at this rate

class BundleError(RuntimeError):
    """A bundle is missing, incomplete or malformed."""


@dataclass
class Bundle:
    path: Path
    game: str
    options: dict[str, Any]
    names: list[str]
    shoe_cards: list[str]
    events: list[str]
    inputs: list[tuple[float, dict[str, Any]]] = field(default_factory=list)
    times: list[float] = field(default_factory=list)
    table_times: list[float] = field(default_factory=list)
    table_meta: dict[str, Any] = field(default_factory=dict)

    @property
    def shoe(self) -> Path:
        return self.path / "shoe.mp4"

    @property
    def table(self) -> Path | None:
        """The overhead camera's clip, when the session was filmed from above."""
        return self.path / "table.mp4" if self.table_times else None

    def faces(self) -> Faces:
        """The table reader's face strips of the bundle's deck (``deck.table.npz`` beside the
        profile it uses)."""
        path = self.path / "deck.table.npz"
        if not path.is_file():
            path = self.path.parent / "deck.table.npz"
        try:
            return read_faces(path, self.profile())
        except FacesError as exc:
            raise BundleError(f"the table reader's faces of bundle {self.path} are unusable: "
                              f"{exc}") from None

    def profile(self) -> DeckProfile:
        """The bundle's own ``deck.json``, else the one its folder's parent shares."""
        path = self.path / "deck.json"
        if not path.is_file():
            path = self.path.parent / "deck.json"
        if not path.is_file():
            raise BundleError(f"{self.path / 'deck.json'} is missing (nor is there one in its "
                              "folder): the recording does not carry the deck it was read with")
        return read_profile(path)

    def new_game(self) -> Game:
        return game_class(self.game)(self.options)

    @property
    def duration(self) -> float:
        last_input = self.inputs[-1][0] if self.inputs else 0.0
        return max(last_input, self.times[-1] if self.times else 0.0,
                   self.table_times[-1] if self.table_times else 0.0)


def _one_line(exc: Exception) -> str:
    """A validation error as one line: the first problem, where it is."""
    if isinstance(exc, ValidationError):
        err = exc.errors()[0]
        where = ".".join(str(p) for p in err.get("loc", ()))
        more = f" (and {exc.error_count() - 1} more)" if exc.error_count() > 1 else ""
        return f"{where}: {err['msg']}{more}" if where else f"{err['msg']}{more}"
    return str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as exc:
        raise BundleError(f"cannot read {path}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise BundleError(f"{path} is not UTF-8 text") from None


def load_inputs(path: Path) -> list[tuple[float, dict[str, Any]]]:
    """Read an inputs/BUTTONS JSONL file; every line is checked, errors name the line."""
    out: list[tuple[float, dict[str, Any]]] = []
    for number, line in enumerate(_read_text(path).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            if not isinstance(obj, dict):
                raise ValueError("not a JSON object")
            if "t" not in obj:
                raise ValueError("no time 't'")
            t = float(obj.pop("t"))
            if not math.isfinite(t) or t < 0:
                raise ValueError(f"time {t} is not a time on the clips' clock")
            if "kind" not in obj and "button" in obj:
                obj["kind"] = "button"
            parse_input(obj)  # validate now, not halfway through a game
        except (ValueError, TypeError) as exc:
            raise BundleError(f"{path}:{number}: bad input line ({_one_line(exc)})") from None
        out.append((t, obj))
    out.sort(key=lambda item: item[0])
    return out


class _Meta(BaseModel):
    game: str
    options: dict[str, Any] = Field(default_factory=dict)
    names: list[str] = Field(default_factory=list)
    shoe_cards: list[str] = Field(default_factory=list)
    events: list[str] = Field(default_factory=list)
    table: dict[str, Any] = Field(default_factory=dict)  # the overhead footage's seats and truth


def load_bundle(path: str | Path) -> Bundle:
    """Load and check a recorded session; anything wrong is a BundleError naming the file."""
    path = Path(path)
    if not path.is_dir():
        raise BundleError(f"{path} is not a recorded session folder")
    for name in ("game.json", "shoe.times.json", "inputs.jsonl", "shoe.mp4"):
        if not (path / name).is_file():
            raise BundleError(f"{path} is not a complete recorded session: {name} is missing")
    try:
        meta = _Meta.model_validate_json(_read_text(path / "game.json"))
    except ValidationError as exc:
        raise BundleError(f"{path / 'game.json'}: {_one_line(exc)}") from None
    try:
        game_class(meta.game)(meta.options)
    except EngineError as exc:
        raise BundleError(f"{path / 'game.json'}: {exc}") from None
    dealt = [e.split(" ", 1)[1] for e in meta.events if e.startswith("shoe ")]
    if meta.shoe_cards and meta.shoe_cards != dealt:
        first = next((i for i, (a, b) in enumerate(zip(meta.shoe_cards, dealt, strict=False))
                      if a != b), min(len(dealt), len(meta.shoe_cards)))
        raise BundleError(f"{path / 'game.json'}: the recorded game cannot be replayed as it is: "
                          f"its shoe cards disagree with its own events from card {first + 1} on "
                          f"({len(meta.shoe_cards)} shoe cards, {len(dealt)} dealt in the events)")
    inputs = load_inputs(path / "inputs.jsonl")  # a bad line is named before any video is read
    times = _clip_times(path, "shoe")
    table_times: list[float] = []
    table_meta: dict[str, Any] = {}
    if (path / "table.mp4").is_file() or (path / "table.times.json").is_file():
        for name in ("table.mp4", "table.times.json"):
            if not (path / name).is_file():
                raise BundleError(f"{path} has table footage but {name} is missing")
        table_times = _clip_times(path, "table")
        table_meta = meta.table
        if table_meta.get("seats") not in (2, 4):
            raise BundleError(f"{path / 'game.json'}: the table footage needs 'table': "
                              f"{{'seats': 2 or 4, ...}}")
    return Bundle(path=path, game=meta.game, options=meta.options, names=meta.names,
                  shoe_cards=meta.shoe_cards, events=meta.events,
                  inputs=inputs, times=times, table_times=table_times, table_meta=table_meta)


def read_frame_times(stamps: Path) -> list[float]:
    """A ``CLIP.times.json``: each frame's time (``hardware.camera.read_frame_times``, the one
    loader and its checks), a BundleError naming the file otherwise."""
    try:
        return hardware_frame_times(stamps)
    except FrameTimesError as exc:
        raise BundleError(str(exc)) from None


def _clip_times(path: Path, camera: str) -> list[float]:
    """A camera's frame times (``CAMERA.times.json``), checked against its clip's frames."""
    stamps, clip = path / f"{camera}.times.json", path / f"{camera}.mp4"
    times = read_frame_times(stamps)
    try:
        frames = frame_count(clip)
    except VideoError as exc:
        raise BundleError(str(exc)) from None
    if frames and len(times) != frames:
        raise BundleError(f"{stamps} has {len(times)} frame times but {clip} has {frames} frames")
    return times


TRUNCATED_SLACK = 2  # frames a clip may lack against its timestamps (an encoder's last ones)


def timed_frames(video: Path, times: list[float] | None = None,
                 fps: float = FPS) -> Iterator[tuple[float, np.ndarray]]:
    """(timestamp, frame) pairs of a clip: from its timestamps file, else frame / fps. A clip
    that ends well before its timestamps do (a truncated file) is a VideoError, not a short
    game: more than ``TRUNCATED_SLACK`` frames missing."""
    n = -1
    for n, frame in enumerate(video_frames(video)):
        yield (times[n] if times is not None and n < len(times) else n / fps), frame
    if times is not None and len(times) - (n + 1) > TRUNCATED_SLACK:
        from vision.video import VideoError

        raise VideoError(f"video {video} ends after {n + 1} of the {len(times)} frames its "
                         "timestamps list: the file is cut short")


# ------------------------------------------------------------------------------- recording
def save_table_faces(path: Path, faces: Faces) -> None:
    """A bundle's face strips, in the sidecar format of ``vision.table.faces``."""
    save_faces("", faces, path=path)
