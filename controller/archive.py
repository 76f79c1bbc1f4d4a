"""The footage archive for disputes: each deal's shoe-camera frames, kept on disk within a budget.

Every logged input from a camera carries the camera's frame number; the archive keeps, per game
and deal, a clip of the frames as received (re-encoded with OpenCV's MPEG-4, the codec every
OpenCV build can write) plus an index of the frame numbers and times it holds. So a score-sheet
line → its deal → the clip and the exact frames that decided each card. When the archive grows
past its budget the oldest clips go first; a clip being written is never removed.

The disk is the log's first: footage never takes the last ``free_reserve`` bytes of the
filesystem (200 MB by default). Before a clip opens, and every second of frames while it is
written, the archive looks at the free space; below the reserve it removes its oldest clips,
and if that is not enough it stops the clip and writes no footage until the space is back (the
next deal tries again). The table log is never touched.
"""

from __future__ import annotations

import contextlib
import json
import logging
import shutil
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import cv2
import numpy as np

log = logging.getLogger("cardtable.archive")

DEFAULT_BUDGET = 2 * 1024**3  # 2 GiB: about 4 hours of frames with cards moving at 640x480
FREE_RESERVE = 200 * 1024**2  # bytes of the filesystem footage leaves to the log (and others)
CHECK_EVERY = 30  # frames between looks at the free space while a clip is written


def free_bytes(root: Path) -> int:
    """Free bytes on the filesystem ``root`` is on (or will be made on); 0 if it cannot be
    read, which counts as no room."""
    try:
        return shutil.disk_usage(root if root.exists() else root.parent).free
    except OSError:
        return 0


T = TypeVar("T")


def make_room(free: Callable[[], int], reserve: int, oldest_first: Iterable[T],
              remove: Callable[[T], object]) -> bool:
    """Whether ``reserve`` bytes are free, after removing the oldest items one by one if need
    be (the footage archive's clips, the recorder's games: the one disk rule of both)."""
    if free() >= reserve:
        return True
    for item in oldest_first:
        remove(item)
        if free() >= reserve:
            return True
    return False


@dataclass
class ClipInfo:
    game_id: int
    deal: int
    path: Path
    first_frame: int
    last_frame: int
    first_t: float
    last_t: float

    @property
    def index_path(self) -> Path:
        return self.path.with_suffix(".json")


class FootageArchive:
    def __init__(self, root: Path, budget_bytes: int = DEFAULT_BUDGET, fps: float = 30.0,
                 free_reserve: int = FREE_RESERVE) -> None:
        self.root = Path(root)
        self.budget = budget_bytes
        self.fps = fps
        self.free_reserve = free_reserve
        self._writer: cv2.VideoWriter | None = None
        self._current: ClipInfo | None = None
        self._frames = 0
        self._skip: tuple[int, int] | None = None  # a deal whose footage found no room
        self.errors = 0
        self.starved = 0  # clips stopped or not started for want of free space

    def clip_path(self, game_id: int, deal: int) -> Path:
        return self.root / f"game-{game_id}" / f"deal-{deal}.mp4"

    def add(self, game_id: int, deal: int, frame_no: int, t: float, frame: np.ndarray) -> None:
        """Keep one frame of ``deal``; a new deal closes the previous clip. A disk that is full
        or a process out of file handles costs footage, never the game: it is counted in
        ``errors``, logged, and tried again with the next clip."""
        try:
            self._add(game_id, deal, frame_no, t, frame)
        except (OSError, cv2.error) as exc:
            self._failed(exc)

    def _failed(self, exc: BaseException) -> None:
        self.errors += 1
        log.warning("footage archive: %s", exc)
        if self._writer is not None:
            with contextlib.suppress(cv2.error):
                self._writer.release()
        self._writer = None  # this clip stops here; the next deal starts a new one

    def _add(self, game_id: int, deal: int, frame_no: int, t: float, frame: np.ndarray) -> None:
        if (game_id, deal) == self._skip:
            return  # no room for this deal's footage; the next deal tries again
        cur = self._current
        if cur is None or (cur.game_id, cur.deal) != (game_id, deal):
            self.close()
            self._open(game_id, deal, frame_no, t, frame)
            cur = self._current
            if cur is None:
                self._skip = (game_id, deal)
        if self._writer is None or cur is None:
            return
        self._frames += 1
        if self._frames % CHECK_EVERY == 0 and not self._room():
            self._skip = (game_id, deal)
            self.close()  # keeps what was written; the next deal tries again
            return
        self._writer.write(frame)
        cur.last_frame, cur.last_t = frame_no, t

    def free(self) -> int:
        """Free bytes on the archive's filesystem (0 if it cannot be read)."""
        return free_bytes(self.root)

    def _room(self) -> bool:
        """Whether footage may use the disk now: above the reserve, after removing the oldest
        clips if need be."""
        current = self._current.path if self._current is not None else None
        if make_room(self.free, self.free_reserve,
                     (c for c in self._oldest_first() if c.path != current), self._remove):
            return True
        self.starved += 1
        log.warning("footage archive: less than %d MB free on the disk; no footage until "
                    "there is (the table log keeps the space)", self.free_reserve // 1024**2)
        return False

    def _open(self, game_id: int, deal: int, frame_no: int, t: float, frame: np.ndarray) -> None:
        if not self._room():
            return
        path = self.clip_path(game_id, deal)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            self.errors += 1
            log.warning("footage archive unavailable: %s", exc)
            return
        if path.exists():  # the same deal again after a restart: keep both parts
            n = 2
            while path.with_name(f"deal-{deal}.part{n}.mp4").exists():
                n += 1
            path = path.with_name(f"deal-{deal}.part{n}.mp4")
        h, w = frame.shape[:2]
        writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), self.fps, (w, h))
        if not writer.isOpened():
            self.errors += 1
            log.warning("cannot write footage clip %s", path)
            return
        self._writer = writer
        self._current = ClipInfo(game_id, deal, path, frame_no, frame_no, t, t)

    def close(self) -> None:
        try:
            self._close()
        except (OSError, cv2.error) as exc:
            self._failed(exc)
            self._writer, self._current = None, None

    def _close(self) -> None:
        self._frames = 0
        if self._writer is not None and self._current is not None:
            self._writer.release()
            cur = self._current
            cur.index_path.write_text(json.dumps({
                "game_id": cur.game_id, "deal": cur.deal, "first_frame": cur.first_frame,
                "last_frame": cur.last_frame, "first_t": cur.first_t, "last_t": cur.last_t}),
                encoding="utf-8")
        self._writer, self._current = None, None
        self._enforce_budget()

    def clips(self, game_id: int | None = None) -> list[ClipInfo]:
        out = []
        for index in sorted(self.root.glob("game-*/deal-*.json")):
            try:
                d = json.loads(index.read_text(encoding="utf-8"))
                out.append(ClipInfo(d["game_id"], d["deal"], index.with_suffix(".mp4"),
                                    d["first_frame"], d["last_frame"], d["first_t"], d["last_t"]))
            except (OSError, ValueError, KeyError):
                continue
        return [c for c in out if game_id is None or c.game_id == game_id]

    def find(self, game_id: int, deal: int) -> list[ClipInfo]:
        return [c for c in self.clips(game_id) if c.deal == deal and c.path.is_file()]

    def size(self) -> int:
        return sum(p.stat().st_size for p in self.root.glob("game-*/*.mp4") if p.is_file())

    def _oldest_first(self) -> list[ClipInfo]:
        def age(c: ClipInfo) -> float:
            try:
                return c.path.stat().st_mtime
            except OSError:
                return 0.0
        return sorted(self.clips(), key=age)

    @staticmethod
    def _remove(clip: ClipInfo) -> int:
        """Remove a clip and its index; the bytes it freed."""
        try:
            size = clip.path.stat().st_size
            clip.path.unlink()
            clip.index_path.unlink(missing_ok=True)
            return size
        except OSError:
            return 0

    def _enforce_budget(self) -> None:
        if not self.root.is_dir():
            return
        total = self.size()
        for clip in self._oldest_first():
            if total <= self.budget:
                break
            total -= self._remove(clip)
        for folder in self.root.glob("game-*"):
            if folder.is_dir() and not any(folder.iterdir()):
                shutil.rmtree(folder, ignore_errors=True)
