"""A recorded session replayed on its clock: the cameras' back-end for the simulated table.

Why it exists: the simulated table must be built exactly as a real one (the same camera layer
with its stall, lost and end reports, the same camera loops, the same panels and GPIO), yet a
recorded session is one stream in time order — a shoe frame, a table frame, a button press — and
replaying it in that order is what makes the replay reproduce the recorded game. So the session's
player (``controller.session``) holds the clock and walks the recording; each camera of the table
config with ``kind = "session"`` is a :class:`ReplayCamera` that delivers only what the player
hands it. :meth:`ReplayCamera.push` returns once the table's camera loop has finished with the
frame (it has asked for the next one): the cameras and the inputs reach the table in recorded
order at any speed, as they did when the session was filmed.

Everything else is the :class:`hardware.camera.Camera` base: a frame later than due by
``stall_s`` is reported "stalled" (a machine too slow for the replay's speed), a failure the
player reports (:meth:`ReplayCamera.fail`, e.g. a clip that stops decoding) is "lost" for good,
and the end of the recording ends ``frames()``.
"""

from __future__ import annotations

import math
import queue
import threading
import time
from typing import Any

import numpy as np

from hardware.camera import Camera, CameraEnded, CameraError

_END = object()


class SessionFeed:
    """Where a recorded session's player finds the cameras the table opened (by name)."""

    def __init__(self) -> None:
        self._cameras: dict[str, ReplayCamera] = {}
        self._changed = threading.Condition()
        self.closed = False

    def add(self, camera: ReplayCamera) -> None:
        with self._changed:
            self._cameras[camera.name] = camera
            self._changed.notify_all()

    def camera(self, name: str, timeout: float = 10.0,
               stop: threading.Event | None = None) -> ReplayCamera | None:
        """The camera ``name`` the table has opened since the last :meth:`clear` (waits up to
        ``timeout`` s for it; None if it never came or ``stop`` was set)."""
        deadline = time.monotonic() + timeout
        with self._changed:
            while name not in self._cameras:
                left = deadline - time.monotonic()
                if left <= 0 or (stop is not None and stop.is_set()):
                    return None
                self._changed.wait(min(left, 0.05))
            return self._cameras[name]

    def clear(self) -> None:
        """Forget the cameras of a finished pass (the table opens new ones for the next)."""
        with self._changed:
            self._cameras.clear()

    def end_all(self) -> None:
        """The recording is over for every camera the table opened."""
        with self._changed:
            cameras = list(self._cameras.values())
        for camera in cameras:
            camera.end()

    def close(self) -> None:
        self.closed = True
        self.end_all()


class ReplayCamera(Camera):
    """A camera whose frames a recorded session's player hands it, one at a time."""

    kind = "session"
    live = False  # a slow consumer holds the session up; it never loses a frame
    reopen_forever = False
    gaps_are_drops = False

    def __init__(self, name: str, feed: SessionFeed, **kwargs: Any) -> None:
        super().__init__(name, queue_size=1, give_up_s=0.0, **kwargs)
        self.feed = feed
        self._inbox: queue.Queue[Any] = queue.Queue(maxsize=1)
        self._given = threading.Event()  # the consumer is done with the frame last pushed
        self._given.set()
        self._next = math.inf  # monotonic time the next frame is due (the player knows it)
        feed.add(self)

    def describe(self) -> str:
        return f"recorded session ({self.name})"

    # -- the player's side ------------------------------------------------------------------
    def push(self, t: float, frame: np.ndarray, *, due: float, next_due: float,
             stop: threading.Event) -> bool:
        """Deliver frame (``t``, ``frame``), due at monotonic ``due``, the next one at
        ``next_due`` (inf: none); return once the consumer is done with it. False if the camera
        was closed or ``stop`` set first."""
        self._due = due
        self._next = next_due
        self._given.clear()
        while not self._put((t, frame), stop):
            if self._stop.is_set() or stop.is_set():
                return False
        while not self._given.wait(0.05):
            if self._stop.is_set() or stop.is_set() or self.state in ("closed", "ended", "lost"):
                return False
        return True

    def end(self) -> None:
        """The recording is over: ``frames()`` ends once the frames handed over are taken."""
        self._put(_END, None)

    def fail(self, detail: str) -> None:
        """The recording cannot go on (``detail`` says why): the camera is lost for good."""
        self._put(detail, None)

    def _put(self, item: Any, stop: threading.Event | None) -> bool:
        while not self._stop.is_set():
            try:
                self._inbox.put(item, timeout=0.05)
                return True
            except queue.Full:
                if stop is None or stop.is_set():
                    return False
        return False

    # -- the camera's side ------------------------------------------------------------------
    def _open(self) -> None:
        if self.feed.closed:
            raise CameraError("the recorded session is over")

    def _read(self) -> Any:
        while not self._stop.is_set():
            try:
                item = self._inbox.get(timeout=0.05)
            except queue.Empty:
                continue
            if item is _END:
                return None
            if isinstance(item, str):
                raise CameraEnded(item)
            return item
        return None

    def _next_due(self) -> float:
        return self._next

    def _taken(self) -> None:
        self._given.set()
