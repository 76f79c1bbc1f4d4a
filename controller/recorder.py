"""Recording a table's games so that any evening can be replayed: both cameras' frames in which
something moved, with their times, per game, within a disk budget.

With recording on (``cardtable run --record``, or ``[record]`` in the table config) each camera
loop hands every frame to :meth:`Recorder.frame`. A :class:`MotionGate` per camera keeps the
frames in which something moved (compared with the last frame kept, on a small grey copy, so a
slow slide adds up), a still tail after each movement (the readers decide on still frames), the
first second of a camera (the table reader learns the empty table there) and one frame every half
minute; an idle table costs almost nothing. Kept frames are written with OpenCV's MPEG-4 (cheap
to encode live on a Pi, read by every OpenCV build) in segments of at most ``SEGMENT_FRAMES``,
each closed with its frame times (``<camera>-NNNN.mp4`` + ``.times.json``) under
``<root>/game-<id>/``; so a crash (``kill -9``, power) costs at most the open segment. The deck
the game is read with is kept beside (``deck.json``, and ``deck.table.npz`` for the overhead
camera's face strips), so a recording can be replayed on a machine that never saw that deck.

Times are the wall clock (``time.time``), the clock of the table log's entries: the players'
buttons and the organiser's corrections are taken from the log, not recorded twice
(``controller.export`` puts a game's recording and its log together into a bundle).

The disk is the log's first, with the footage archive's rules (``controller.archive``): footage
never takes the filesystem's last ``free_reserve`` bytes (the oldest other games' recordings go
first, then nothing is recorded until there is room), and past the budget the oldest games'
recordings are removed, never the game being recorded. A disk error costs footage, never the
game: it is counted in ``errors`` and logged.
"""

from __future__ import annotations

import contextlib
import json
import logging
import shutil
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from controller.archive import CHECK_EVERY, FREE_RESERVE, free_bytes, make_room

log = logging.getLogger("cardtable.recorder")

DEFAULT_BUDGET = 20 * 1024**3  # 20 GiB
SEGMENT_FRAMES = 900  # kept frames per segment (30 s of movement at 30 fps): what a crash costs
GATE_SIZE = (80, 60)  # the grey copy motion is looked for in
MOTION = 18  # grey levels of change at a pixel of that copy that count as movement
MOVED_SHARE = 0.002  # share of its pixels that must change (10 of 4,800)
LEAD_S = 1.0  # every frame of a camera's first second is kept (the empty table is learnt there)
TAIL_S = 1.0  # still frames kept after a movement
KEYFRAME_S = 30.0  # one frame at least this often, even of a still scene
CAMERAS = ("shoe", "table")


class MotionGate:
    """Whether a camera's frame is worth keeping (see the module's docstring)."""

    def __init__(self, *, lead_s: float = LEAD_S, tail_s: float = TAIL_S,
                 keyframe_s: float = KEYFRAME_S) -> None:
        self.lead_s, self.tail_s, self.keyframe_s = lead_s, tail_s, keyframe_s
        self._kept: np.ndarray | None = None  # the small grey copy of the last frame kept
        self._start = self._moved = self._kept_t = -1.0

    def keep(self, t: float, frame: np.ndarray) -> bool:
        grey = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame
        small = cv2.resize(grey, GATE_SIZE, interpolation=cv2.INTER_AREA)
        if self._kept is None:
            self._start = self._moved = t
            moved = True
        else:
            changed = np.count_nonzero(cv2.absdiff(small, self._kept) > MOTION)
            moved = bool(changed > MOVED_SHARE * small.size)
            if moved:
                self._moved = t
        keep = (moved or t - self._start < self.lead_s or t - self._moved <= self.tail_s
                or t - self._kept_t >= self.keyframe_s)
        if keep:
            self._kept, self._kept_t = small, t
        return keep


@dataclass
class _Segment:
    path: Path
    writer: cv2.VideoWriter
    times: list[float] = field(default_factory=list)


class _Camera:
    """One camera's recording of one game: its gate and its open segment."""

    def __init__(self, folder: Path, name: str) -> None:
        self.folder, self.name = folder, name
        self.gate = MotionGate()
        self.segment: _Segment | None = None
        self.seen = self.kept = 0

    def next_path(self) -> Path:
        n = 1 + max((int(p.stem.rsplit("-", 1)[1]) for p in self.folder.glob(f"{self.name}-*.mp4")
                     if p.stem.rsplit("-", 1)[1].isdigit()), default=0)
        return self.folder / f"{self.name}-{n:04d}.mp4"


@dataclass(frozen=True)
class Segment:
    """A closed segment of a recording: its clip and its frames' times (wall clock)."""

    camera: str
    path: Path
    times: list[float]


class Recorder:
    """Keeps each game's camera frames under ``root``; thread-safe (one thread per camera)."""

    def __init__(self, root: Path, *, budget_bytes: int = DEFAULT_BUDGET,
                 free_reserve: int = FREE_RESERVE, fps: float = 30.0,
                 deck: Callable[[Path], None] | None = None,
                 clock: Callable[[], float] = time.time) -> None:
        """``deck(folder)`` writes the deck the table reads with into a new game's folder."""
        self.root = Path(root)
        self.budget = budget_bytes
        self.free_reserve = free_reserve
        self.fps = fps
        self.deck = deck
        self.clock = clock
        self.errors = 0
        self.starved = 0  # frames not kept for want of free space
        self._lock = threading.Lock()
        self._game: int | None = None
        self._cameras: dict[str, _Camera] = {}
        self._no_room = False

    def folder(self, game_id: int) -> Path:
        return self.root / f"game-{game_id}"

    # -- recording -----------------------------------------------------------------------------
    def frame(self, camera: str, game_id: int | None, frame: np.ndarray,
              t: float | None = None) -> None:
        """A frame of ``camera`` while game ``game_id`` is played (None: no game, nothing kept)."""
        if game_id is None:
            return
        t = self.clock() if t is None else t
        with self._lock:
            try:
                self._frame(camera, game_id, frame, t)
            except (OSError, cv2.error) as exc:
                self._failed(camera, exc)

    def _frame(self, camera: str, game_id: int, frame: np.ndarray, t: float) -> None:
        if game_id != self._game:
            self._close_all()
            self._game = game_id
            self._start_game(game_id)
        cam = self._cameras.get(camera)
        if cam is None:
            cam = self._cameras[camera] = _Camera(self.folder(game_id), camera)
        cam.seen += 1
        if not cam.gate.keep(t, frame):
            return
        if (cam.segment is None or cam.seen % CHECK_EVERY == 0) and not self._room():
            self.starved += 1
            self._close(cam)
            return
        if cam.segment is None:
            path = cam.next_path()
            h, w = frame.shape[:2]
            writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), self.fps, (w, h))
            if not writer.isOpened():
                raise OSError(f"cannot write {path}")
            cam.segment = _Segment(path, writer)
        cam.segment.writer.write(frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR))
        cam.segment.times.append(t)
        cam.kept += 1
        if len(cam.segment.times) >= SEGMENT_FRAMES:
            self._close(cam)
            self._enforce_budget()

    def _start_game(self, game_id: int) -> None:
        folder = self.folder(game_id)
        folder.mkdir(parents=True, exist_ok=True)
        if self.deck is not None and not (folder / "deck.json").is_file():
            try:
                self.deck(folder)
            except Exception as exc:  # a recording without its deck still has its frames
                self.errors += 1
                log.warning("recording of game %s: cannot keep its deck: %s", game_id, exc)
        self._enforce_budget()

    def _close(self, cam: _Camera) -> None:
        seg, cam.segment = cam.segment, None
        if seg is None:
            return
        seg.writer.release()
        if seg.times:
            seg.path.with_suffix(".times.json").write_text(json.dumps(seg.times), encoding="utf-8")
        else:
            seg.path.unlink(missing_ok=True)

    def _close_all(self) -> None:
        for cam in self._cameras.values():
            try:
                self._close(cam)
            except (OSError, cv2.error) as exc:
                self._failed(cam.name, exc)
        self._cameras = {}

    def _failed(self, camera: str, exc: BaseException) -> None:
        self.errors += 1
        log.warning("recording (%s camera): %s", camera, exc)
        cam = self._cameras.get(camera)
        if cam is not None and cam.segment is not None:
            with contextlib.suppress(cv2.error, OSError):
                cam.segment.writer.release()
            cam.segment = None  # this segment stops here; the next kept frame opens another

    def close(self) -> None:
        with self._lock:
            self._close_all()
            self._game = None

    # -- the disk ------------------------------------------------------------------------------
    def free(self) -> int:
        return free_bytes(self.root)

    def _room(self) -> bool:
        """Whether a frame may be kept: the free space above the reserve, after removing the
        oldest other games' recordings if need be."""
        if make_room(self.free, self.free_reserve,
                     (g for g in self.games() if g != self._game), self._remove):
            if self._no_room:
                log.warning("recording: there is room again")
            self._no_room = False
            return True
        if not self._no_room:
            log.warning("recording: less than %d MB free on the disk; nothing is recorded until "
                        "there is (the table log keeps the space)", self.free_reserve // 1024**2)
        self._no_room = True
        return False

    def _enforce_budget(self) -> None:
        total = self.size()
        for game_id in self.games():
            if total <= self.budget:
                break
            if game_id != self._game:
                total -= self._remove(game_id)

    def _remove(self, game_id: int) -> int:
        folder = self.folder(game_id)
        size = _size(folder)
        shutil.rmtree(folder, ignore_errors=True)
        log.info("recording of game %s removed (disk budget)", game_id)
        return size

    # -- reading -------------------------------------------------------------------------------
    def games(self) -> list[int]:
        """The games recorded, oldest first."""
        ids = [int(p.name.split("-", 1)[1]) for p in self.root.glob("game-*")
               if p.is_dir() and p.name.split("-", 1)[1].isdigit()]
        return sorted(ids)

    def size(self, game_id: int | None = None) -> int:
        return _size(self.root if game_id is None else self.folder(game_id))

    def segments(self, game_id: int, camera: str) -> tuple[list[Segment], list[Path]]:
        """A camera's closed segments of a game, in order, and the clips without frame times
        (open when the table stopped short, e.g. ``kill -9``); the one being written is neither."""
        good: list[Segment] = []
        broken: list[Path] = []
        with self._lock:
            open_now = {c.segment.path for c in self._cameras.values() if c.segment is not None}
        for clip in sorted(self.folder(game_id).glob(f"{camera}-*.mp4")):
            if clip in open_now:
                continue
            stamps = clip.with_suffix(".times.json")
            try:
                times = json.loads(stamps.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                broken.append(clip)
                continue
            good.append(Segment(camera, clip, [float(t) for t in times]))
        return good, broken


def _size(folder: Path) -> int:
    total = 0
    for p in folder.rglob("*"):
        with contextlib.suppress(OSError):
            if p.is_file():
                total += p.stat().st_size
    return total


def deck_keeper(profile: Any, faces: Callable[[], Any] | None) -> Callable[[Path], None]:
    """What :class:`Recorder` calls to keep a game's deck: the profile as ``deck.json`` and, with
    an overhead camera, its face strips as ``deck.table.npz``."""
    def keep(folder: Path) -> None:
        (folder / "deck.json").write_text(profile.model_dump_json(), encoding="utf-8")
        if faces is not None:
            from controller.footage import save_table_faces

            save_table_faces(folder / "deck.table.npz", faces())
    return keep
