"""Cameras behind one interface: ``Camera.frames()`` yields ``(t_seconds, frame_bgr)``.

Why it exists: the shoe reader (``vision.reader.ShoeReader.feed``) and the footage archive need
timestamped BGR frames and do not care where they come from: the Pi camera (picamera2), a USB
camera (OpenCV's V4L2 capture) or recorded footage (a video file, at the recording's pace or as
fast as it decodes). A camera on a card table gets knocked, unplugged and starved of bandwidth;
none of that may stop the table. So every back-end runs its capture on its own thread and:

* counts what it delivered and what went wrong (``counters``: frames, dropped, stalls, lost,
  reopened, skipped),
* reports ``on_event(kind, detail)`` with kind ``"stalled"`` (no frame for ``stall_s`` past due),
  ``"lost"`` (the device or file went away, or cannot be opened) and ``"back"`` (frames again),
* reopens a lost device with backoff (0.2 s doubling to 5 s), forever for a device and for
  ``give_up_s`` for a file (a deleted file put back is picked up where it left off).

``on_event`` runs on the capture thread ("lost", "back" after a reopen) or on the thread iterating
``frames()`` ("stalled", "back" after a stall): keep it short and thread-safe.

Timestamps: files give the recording's clock (the ``<stem>.times.json`` sidecar, else frame/fps);
picamera2 gives the sensor timestamp; V4L2 the arrival time. Live clocks start near 0 when the
camera first delivers, on ``time.monotonic``'s scale, and keep running across reopens.

The picamera2 back-end is written to the Picamera2 manual but cannot be exercised off a Pi (no
picamera2, no libcamera here): it is small, imported only when chosen, and untested.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import logging
import math
import os
import queue
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import cv2
import numpy as np

if TYPE_CHECKING:
    from hardware.config import CameraConfig

log = logging.getLogger("cardtable.camera")

Frame = tuple[float, np.ndarray]
EventCallback = Callable[[str, str], None]
BACKOFF_MIN_S = 0.2
BACKOFF_MAX_S = 5.0
STARTUP_S = 2.0  # grace for the first frame after (re)opening
_END = object()
_SKIP = object()


class CameraError(RuntimeError):
    """The camera cannot be opened (or its footage's sidecar is unusable)."""


class CameraLost(RuntimeError):
    """The camera went away mid-stream; it may come back."""


class CameraEnded(RuntimeError):
    """The footage ended early (a truncated or damaged file); it will not come back."""


@dataclass
class Counters:
    frames: int = 0  # delivered by frames()
    dropped: int = 0  # lost to a slow consumer, or missing between a live camera's timestamps
    stalls: int = 0  # times no frame came for stall_s past due
    lost: int = 0  # times the device or file went away (or could not be opened)
    reopened: int = 0  # times it came back after being lost
    skipped: int = 0  # picamera2: full frames not made while nothing moved


class Camera:
    """Base of every back-end: the capture thread, the counters, stall and loss reports.

    A back-end implements ``_open()`` (raise CameraError), ``_read()`` (a Frame, None at the end
    of footage, or _SKIP; raise CameraLost / CameraEnded) and ``_release()``.
    """

    kind = "camera"
    start_frame = 0  # the number of the first frame delivered (a recorded session resumed later)
    live = True  # a live source drops frames a slow consumer misses; footage as fast as possible
    reopen_forever = True
    gaps_are_drops = True  # a gap between timestamps means frames were lost (not for footage)

    def __init__(self, name: str = "camera", *, fps: float = 30.0, stall_s: float = 1.0,
                 on_event: EventCallback | None = None, give_up_s: float | None = None,
                 queue_size: int = 2) -> None:
        self.name = name
        self.fps = fps
        self.stall_s = stall_s
        self.on_event = on_event
        self.give_up_s = give_up_s
        self.counters = Counters()
        self.events: list[tuple[float, str, str]] = []  # (monotonic time, kind, detail)
        self.state = "idle"  # idle, opening, streaming, lost, ended, closed
        self.last_error = ""
        self._queue: queue.Queue[Any] = queue.Queue(maxsize=max(1, queue_size))
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._due = math.inf  # monotonic time by which the next frame should have come
        self._stalled = False
        self._epoch: float | None = None
        self._last_t: float | None = None

    # ---------------------------------------------------------------------------- public
    def start(self) -> Camera:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name=f"camera {self.name}",
                                            daemon=True)
            self._thread.start()
        return self

    def frames(self, max_s: float | None = None) -> Iterator[Frame]:
        """``(t_seconds, frame_bgr)`` as they come; ends at the end of footage, on close(), or
        after ``max_s`` seconds. A lost or stalled camera yields nothing until it is back."""
        self.start()
        end = math.inf if max_s is None else time.monotonic() + max_s
        while not self._stop.is_set():
            now = time.monotonic()
            if now >= end:
                return
            try:
                item = self._queue.get(timeout=min(0.05, max(end - now, 0.001)))
            except queue.Empty:
                self._check_stall()
                continue
            if item is _END:
                with contextlib.suppress(queue.Full):
                    self._queue.put_nowait(_END)  # later frames() calls end too
                return
            if self._stalled:
                self._stalled = False
                self._emit("back", f"frames again after a stall of {self._stall_len():.1f} s")
            self.counters.frames += 1
            yield item
            self._taken()  # the consumer is back for the next frame: it is done with this one

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=2.0)
        if self._thread is None or not self._thread.is_alive():
            with contextlib.suppress(Exception):
                self._release()
        self.state = "closed"

    def __enter__(self) -> Camera:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def stats(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "state": self.state, **asdict(self.counters)}

    def describe(self) -> str:
        return self.name

    # ---------------------------------------------------------------------- back-end API
    def _open(self) -> None:
        raise NotImplementedError

    def _read(self) -> Any:
        raise NotImplementedError

    def _release(self) -> None:
        pass

    def _next_due(self) -> float:
        """When the frame after the one just delivered should come."""
        return time.monotonic() + 1 / self.fps

    def _taken(self) -> None:
        """Called on the consumer's thread when it asks for the frame after one it was given
        (a recorded session waits for this, so its cameras and inputs keep their order)."""

    # -------------------------------------------------------------------------- internals
    def _emit(self, kind: str, detail: str) -> None:
        with self._lock:
            self.events.append((time.monotonic(), kind, detail))
        (log.warning if kind != "back" else log.info)("camera %s %s: %s", self.name, kind, detail)
        if self.on_event is not None:
            try:
                self.on_event(kind, detail)
            except Exception:
                log.exception("camera %s: on_event failed", self.name)

    def _stall_len(self) -> float:
        return max(0.0, time.monotonic() - self._due)

    def _check_stall(self) -> None:
        if self.state == "streaming" and not self._stalled and \
                time.monotonic() > self._due + self.stall_s:
            self._stalled = True
            self.counters.stalls += 1
            self._emit("stalled", f"no frame for {self._stall_len():.1f} s")

    def _clock(self) -> float:
        """Seconds on the camera's own clock (live back-ends), from its first frame."""
        now = time.monotonic()
        if self._epoch is None:
            self._epoch = now
        return now - self._epoch

    def _run(self) -> None:
        delay = BACKOFF_MIN_S
        lost_at: float | None = None
        while not self._stop.is_set():
            self.state = "opening"
            try:
                self._open()
            except CameraError as exc:
                if lost_at is None:
                    lost_at = time.monotonic()
                    self._lost(str(exc))
                self.state = "lost"
                if not self.reopen_forever and (self.give_up_s is None or
                                                time.monotonic() - lost_at >= self.give_up_s):
                    break
                self._stop.wait(delay)
                delay = min(delay * 2, BACKOFF_MAX_S)
                continue
            if lost_at is not None:
                self.counters.reopened += 1
                self._emit("back", f"{self.describe()} reopened after "
                                   f"{time.monotonic() - lost_at:.1f} s")
                lost_at = None
            delay = BACKOFF_MIN_S
            self._last_t = None  # the time it was away is not dropped frames
            self._due = time.monotonic() + STARTUP_S
            self.state = "streaming"
            try:
                while not self._stop.is_set():
                    item = self._read()
                    if item is None:
                        self.state = "ended"
                        break
                    if item is _SKIP:
                        self._due = time.monotonic() + 1 / self.fps
                        continue
                    self._deliver(item)
            except CameraLost as exc:
                lost_at = time.monotonic()
                self.state = "lost"
                self._lost(str(exc))
            except CameraEnded as exc:
                self.state = "ended"
                self._lost(str(exc))
            except Exception as exc:  # a back-end bug must not kill the table either
                lost_at = time.monotonic()
                self.state = "lost"
                log.exception("camera %s failed", self.name)
                self._lost(f"capture failed: {exc}")
            finally:
                with contextlib.suppress(Exception):
                    self._release()
            if self.state == "ended":
                break
        self._put_end()

    def _lost(self, detail: str) -> None:
        self.counters.lost += 1
        self.last_error = detail
        self._emit("lost", detail)

    def _put_end(self) -> None:
        while not self._stop.is_set():  # behind the frames still queued
            try:
                self._queue.put(_END, timeout=0.05)
                return
            except queue.Full:
                continue

    def _deliver(self, item: Frame) -> None:
        t = item[0]
        if self.live and self.gaps_are_drops and self._last_t is not None:
            gap = t - self._last_t
            # frames missing between timestamps; a longer silence is a stall, not drops
            if 1.5 / self.fps < gap < self.stall_s:
                self.counters.dropped += round(gap * self.fps) - 1
        self._last_t = t
        if self.live:
            try:
                self._queue.put_nowait(item)
            except queue.Full:
                with contextlib.suppress(queue.Empty):
                    self._queue.get_nowait()
                    self.counters.dropped += 1
                with contextlib.suppress(queue.Full):
                    self._queue.put_nowait(item)
            self._due = self._next_due()
        else:
            while not self._stop.is_set():
                try:
                    self._queue.put(item, timeout=0.05)
                    break
                except queue.Full:
                    continue
            self._due = self._next_due()


# ------------------------------------------------------------------------------- files
class FrameTimesError(ValueError):
    """A ``CLIP.times.json`` that is not a list of frame times."""


def read_frame_times(stamps: Path) -> list[float]:
    """The one loader of a ``CLIP.times.json`` (recorded footage, bundles, the replay): each
    frame's time in seconds, finite, from 0 up, never going backwards. FrameTimesError (naming
    the file) otherwise."""
    try:
        times = [float(t) for t in json.loads(stamps.read_text(encoding="utf-8"))]
        if not all(math.isfinite(t) and t >= 0 for t in times):
            raise ValueError("a time is negative or not finite")
        if any(b < a for a, b in itertools.pairwise(times)):
            raise ValueError("the times go backwards")
    except OSError as exc:
        raise FrameTimesError(f"cannot read {stamps}: {exc.strerror or exc}") from None
    except UnicodeDecodeError:
        raise FrameTimesError(f"{stamps} is not UTF-8 text") from None
    except (ValueError, TypeError) as exc:
        first = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        raise FrameTimesError(f"{stamps}: not a list of frame times ({first})") from None
    return times


def load_times(video: Path) -> list[float] | None:
    """The per-frame times of ``<stem>.times.json`` beside ``video`` (None if there is none)."""
    sidecar = video.with_name(video.stem + ".times.json")
    if not sidecar.is_file():
        return None
    try:
        return read_frame_times(sidecar)
    except FrameTimesError as exc:
        raise CameraError(str(exc)) from None


class FileCamera(Camera):
    """Recorded footage as a camera: at the recording's pace (``realtime``, ``speed`` times
    faster) or as fast as it decodes. A file that disappears mid-stream is "lost" and picked up
    again at the same frame if it is back within ``give_up_s``; a file that ends before the
    frames its header (or sidecar) promises is "lost" for good (truncated)."""

    kind = "file"
    reopen_forever = False
    gaps_are_drops = False

    def __init__(self, path: str | Path, *, realtime: bool = True, speed: float = 1.0,
                 fps: float = 30.0, name: str | None = None, give_up_s: float | None = 2.0,
                 **kwargs: Any) -> None:
        self.path = Path(path)
        super().__init__(name or self.path.name, fps=fps, give_up_s=give_up_s, **kwargs)
        self.live = realtime
        self.speed = speed
        self.times = load_times(self.path)
        self.expected: int | None = None
        self._cap: cv2.VideoCapture | None = None
        self._pos = 0  # frames of the file delivered so far
        self._pace_t0: float | None = None  # monotonic time of t = 0 at this speed

    def describe(self) -> str:
        return str(self.path)

    def _open(self) -> None:
        if not self.path.is_file():
            raise CameraError(f"footage {self.path} is not there")
        # One decoding thread, as vision.video: FFmpeg's one per core decoded no faster and
        # took CPU from the readers.
        cap = cv2.VideoCapture(str(self.path), cv2.CAP_ANY, [cv2.CAP_PROP_N_THREADS, 1])
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"footage {self.path} is not a video OpenCV can decode "
                              "(truncated or damaged?)")
        count = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
        self.expected = len(self.times) if self.times else (count if count > 0 else None)
        for _ in range(self._pos):  # back where we were: decode and discard (exact, unlike seeks)
            if not cap.grab():
                break
        self._cap = cap
        self._pace_t0 = None

    def _read(self) -> Any:
        cap = self._cap
        assert cap is not None
        if not self.path.exists():
            raise CameraLost(f"footage {self.path} disappeared after {self._pos} frames")
        ok, frame = cap.read()
        if not ok:
            if self.expected is not None and self._pos < self.expected:
                raise CameraEnded(f"footage {self.path} ends after {self._pos} of "
                                  f"{self.expected} frames (truncated or damaged)")
            return None
        n = self._pos
        self._pos += 1
        t = self.times[n] if self.times is not None and n < len(self.times) else n / self.fps
        if self.live:
            now = time.monotonic()
            if self._pace_t0 is None:
                self._pace_t0 = now - t / self.speed
            due = self._pace_t0 + t / self.speed
            self._due = due
            if due > now and self._stop.wait(due - now):
                return None
        return t, frame

    def _next_due(self) -> float:
        n = self._pos
        if self._pace_t0 is not None and self.times is not None and n < len(self.times):
            return self._pace_t0 + self.times[n] / self.speed
        return time.monotonic() + 1 / (self.fps * self.speed)

    def _release(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


# ------------------------------------------------------------------------- USB (V4L2)
class V4L2Camera(Camera):
    """A USB camera through OpenCV's V4L2 capture (``device``: ``/dev/video0`` or an index); any
    other string is opened through FFmpeg (a network stream, a pipe). Resolution, fps, exposure
    (microseconds, or "auto") and focus ("auto" or focus_absolute) are asked of the driver; what
    it refused is in ``refused``. A device that vanishes is reopened with backoff."""

    kind = "v4l2"

    def __init__(self, device: str | int, *, width: int = 640, height: int = 480,
                 fps: float = 30.0, exposure: str | int = "auto", focus: str | float = "auto",
                 name: str | None = None, **kwargs: Any) -> None:
        self.device = device
        super().__init__(name or str(device), fps=fps, **kwargs)
        self.width, self.height = width, height
        self.exposure, self.focus = exposure, focus
        self.refused: list[str] = []
        self._cap: cv2.VideoCapture | None = None

    def describe(self) -> str:
        return str(self.device)

    def _is_v4l2(self) -> bool:
        return isinstance(self.device, int) or str(self.device).startswith("/dev/")

    def _open(self) -> None:
        dev = self.device
        if self._is_v4l2():
            if isinstance(dev, str) and not os.path.exists(dev):
                raise CameraError(f"{dev} does not exist (not plugged in?)")
            cap = cv2.VideoCapture(dev, cv2.CAP_V4L2)
        else:
            cap = cv2.VideoCapture(str(dev), cv2.CAP_FFMPEG)
        if not cap.isOpened():
            cap.release()
            raise CameraError(f"{dev} cannot be opened as a camera")
        if self._is_v4l2():
            self.refused = self._configure(cap)
        self._cap = cap

    def _configure(self, cap: cv2.VideoCapture) -> list[str]:
        wanted: list[tuple[str, int, float]] = [
            ("fourcc MJPG", cv2.CAP_PROP_FOURCC, float(cv2.VideoWriter.fourcc(*"MJPG"))),
            ("width", cv2.CAP_PROP_FRAME_WIDTH, self.width),
            ("height", cv2.CAP_PROP_FRAME_HEIGHT, self.height),
            ("fps", cv2.CAP_PROP_FPS, self.fps),
            ("buffer", cv2.CAP_PROP_BUFFERSIZE, 1),
        ]
        if self.exposure == "auto":
            wanted.append(("auto exposure", cv2.CAP_PROP_AUTO_EXPOSURE, 3))  # aperture priority
        else:
            wanted.append(("manual exposure", cv2.CAP_PROP_AUTO_EXPOSURE, 1))
            wanted.append(("exposure", cv2.CAP_PROP_EXPOSURE, int(self.exposure) / 100))  # 100 µs
        if self.focus == "auto":
            wanted.append(("autofocus", cv2.CAP_PROP_AUTOFOCUS, 1))
        else:
            wanted.append(("manual focus", cv2.CAP_PROP_AUTOFOCUS, 0))
            wanted.append(("focus", cv2.CAP_PROP_FOCUS, float(self.focus)))
        refused = [label for label, prop, value in wanted if not cap.set(prop, value)]
        if refused:
            log.warning("camera %s refused: %s", self.name, ", ".join(refused))
        return refused

    def _read(self) -> Any:
        cap = self._cap
        assert cap is not None
        if isinstance(self.device, str) and self._is_v4l2() and not os.path.exists(self.device):
            raise CameraLost(f"{self.device} disappeared (unplugged?)")
        ok, frame = cap.read()
        if not ok or frame is None:
            raise CameraLost(f"{self.device} stopped delivering frames (unplugged?)")
        return self._clock(), frame

    def _release(self) -> None:
        if self._cap is not None:
            self._cap.release()
            self._cap = None


# ------------------------------------------------------------------------- Pi camera
class Picamera2Camera(Camera):
    """The Pi camera through picamera2 (import only when opened). Full-resolution BGR frames
    with the sensor's timestamps; a low-resolution stream watches for motion and, once nothing
    has moved for ``idle_frames`` frames, full frames are not made (``counters.skipped``) until
    something moves. Untested off a Pi."""

    kind = "picamera2"
    MOTION_LEVEL = 2.0  # mean absolute grey difference of the low-res stream that is motion
    IDLE_FRAMES = 15

    def __init__(self, number: int = 0, *, width: int = 640, height: int = 480,
                 fps: float = 30.0, exposure: str | int = "auto", focus: str | float = "auto",
                 motion_width: int = 320, name: str | None = None, **kwargs: Any) -> None:
        self.number = number
        super().__init__(name or f"picamera2:{number}", fps=fps, **kwargs)
        self.width, self.height, self.motion_width = width, height, motion_width
        self.exposure, self.focus = exposure, focus
        self._cam: Any = None
        self._prev: np.ndarray | None = None
        self._still = 0
        self._ts0: int | None = None

    def describe(self) -> str:
        return f"Pi camera {self.number}"

    def _open(self) -> None:
        try:
            from picamera2 import Picamera2
        except ImportError as exc:
            raise CameraError("picamera2 is not installed: apt install python3-picamera2 and make "
                              "the venv with --system-site-packages") from exc
        try:
            cam = Picamera2(self.number)
            lw = self.motion_width // 2 * 2
            lh = max(2, round(lw * self.height / self.width) // 2 * 2)
            frame_us = int(1_000_000 / self.fps)
            controls: dict[str, Any] = {"FrameDurationLimits": (frame_us, frame_us)}
            if self.exposure != "auto":
                controls.update(AeEnable=False, ExposureTime=int(self.exposure))
            if "AfMode" in cam.camera_controls:
                if self.focus == "auto":
                    controls["AfMode"] = 2  # continuous
                else:
                    controls.update(AfMode=0, LensPosition=float(self.focus))
            # "RGB888" is B, G, R in memory: OpenCV's order
            config = cam.create_video_configuration(
                main={"size": (self.width, self.height), "format": "RGB888"},
                lores={"size": (lw, lh), "format": "YUV420"}, controls=controls)
            cam.configure(config)
            cam.start()
        except Exception as exc:
            raise CameraError(f"Pi camera {self.number} cannot be started: {exc}") from exc
        self._cam = cam
        self._lores_h = lh

    def _read(self) -> Any:
        try:
            request = self._cam.capture_request()
        except Exception as exc:
            raise CameraLost(f"Pi camera {self.number}: {exc}") from exc
        try:
            ts = int(request.get_metadata().get("SensorTimestamp", 0))
            grey = request.make_array("lores")[: self._lores_h]
            moving = self._prev is None or float(
                cv2.absdiff(grey, self._prev).mean()) >= self.MOTION_LEVEL
            self._prev = grey.copy()
            self._still = 0 if moving else self._still + 1
            if self._still > self.IDLE_FRAMES:
                self.counters.skipped += 1
                return _SKIP
            frame = request.make_array("main")
        finally:
            request.release()
        if not ts:
            return self._clock(), frame
        if self._ts0 is None:
            self._ts0 = ts - int(self._clock() * 1e9)
        return (ts - self._ts0) / 1e9, frame

    def _release(self) -> None:
        if self._cam is not None:
            with contextlib.suppress(Exception):
                self._cam.stop()
            with contextlib.suppress(Exception):
                self._cam.close()
            self._cam = None


# ----------------------------------------------------------------------------- config
# Camera kinds whose back-end lives outside hardware/ (the synthetic camera renders footage
# with synth/, which hardware/ must not import): kind -> factory(cfg, **common keywords)
_KINDS: dict[str, Callable[..., Camera]] = {}


def register_kind(kind: str, factory: Callable[..., Camera]) -> None:
    """Plug in the back-end of a camera kind made outside ``hardware/`` (``"synthetic"``)."""
    _KINDS[kind] = factory


def open_camera(cfg: CameraConfig, name: str = "shoe", *,
                on_event: EventCallback | None = None, **kwargs: Any) -> Camera:
    """The camera a ``[cameras.NAME]`` table describes (not started: iterate ``frames()``)."""
    common: dict[str, Any] = {"name": name, "fps": cfg.fps, "stall_s": cfg.stall_s,
                              "on_event": on_event, **kwargs}
    if cfg.kind == "session":
        from hardware.session import ReplayCamera

        feed = common.pop("feed", None)
        del common["name"]
        if feed is None:
            raise CameraError(f"camera {name}: a session camera needs a recorded session "
                              "([session] in the table config)")
        return ReplayCamera(name, feed, **common)
    if cfg.kind == "file":
        assert cfg.path is not None
        return FileCamera(cfg.path, realtime=cfg.realtime, speed=cfg.speed, **common)
    if cfg.kind == "synthetic":
        factory = _KINDS.get("synthetic")
        if factory is None:
            raise CameraError(f"camera {name}: kind = \"synthetic\" renders its footage with the "
                              "footage generator (synth/), which this program has not loaded: "
                              "`cardtable run` and `cardtable doctor` load it")
        return factory(cfg, **common)
    if cfg.kind == "v4l2":
        assert cfg.device is not None
        return V4L2Camera(cfg.device, width=cfg.width, height=cfg.height, exposure=cfg.exposure,
                          focus=cfg.focus, **common)
    return Picamera2Camera(int(cfg.device or 0), width=cfg.width, height=cfg.height,
                           exposure=cfg.exposure, focus=cfg.focus,
                           motion_width=cfg.motion_width, **common)
