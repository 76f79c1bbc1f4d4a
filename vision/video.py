"""Video files in: opening a clip, its frames, and its frames decoded ahead in a thread.

``frames`` decodes a clip in the caller's thread. ``frames_ahead`` decodes it a few frames ahead
in a thread of its own: read in turn, a clip costs its decode plus its reading on one core, but
OpenCV's ``VideoCapture.read`` releases the GIL, so on a machine with a core to spare (the
Raspberry Pi 4/5 has four) `cardtable read` takes about as long as the slower of the two.

``ClipWriter`` writes a clip: H.264 through PyAV when it is installed (5-10x smaller than
OpenCV's MPEG-4 for table footage), else OpenCV's MPEG-4, which every OpenCV build writes and
reads.

``frames_ahead`` gives the same pixels as ``frames``, in order, each its own array (frames
waiting in the queue cannot share one decode buffer). Its thread ends with the clip, as soon as
the consumer stops early (a loop broken off, an exception in it, the generator closed), and on a
decode error, which the consumer gets as a ``VideoError``. A file that is no video fails with a
``VideoError`` before any thread starts. Nothing here knows about cards.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np


class VideoError(RuntimeError):
    """The video cannot be opened or holds no frames."""


def open_video(path: Path) -> cv2.VideoCapture:
    path = Path(path)
    if not path.is_file():
        raise VideoError(f"no such video: {path}")
    # One decoding thread: FFmpeg's default (one per core) decoded these clips no faster
    # (MPEG-4 at 640x480: 1.11 s with two threads, 1.14 s with one, 1.44 and 1.27 s of CPU)
    # and took the core that reading needs: `cardtable read` 1.63 -> 1.20 s on left-big.
    cap = cv2.VideoCapture(str(path), cv2.CAP_ANY, [cv2.CAP_PROP_N_THREADS, 1])
    if not cap.isOpened():
        raise VideoError(f"cannot read video {path}: not a video file OpenCV can decode")
    return cap


def frames(path: Path, reuse_buffer: bool = False) -> Iterator[np.ndarray]:
    """Decoded frames of a video file. With ``reuse_buffer`` every frame is decoded into the same
    array (saves an allocation per frame): only for consumers that keep nothing of a frame once
    they move on, as the reader."""
    cap = open_video(path)
    buffer, count = None, 0
    try:
        while True:
            ok, frame = cap.read(buffer)
            if not ok:
                break
            if reuse_buffer:
                buffer = frame
            count += 1
            yield frame
    finally:
        cap.release()
    if count == 0:
        raise VideoError(f"video {path} has no frames")


def frame_count(path: Path) -> int:
    cap = open_video(path)
    n = int(cap.get(cv2.CAP_PROP_FRAME_COUNT))
    cap.release()
    return max(n, 0)


DEPTH = 4  # frames decoded ahead (one 640x480 frame is 0.9 MB)
_POLL = 0.05  # s between the decode thread's looks at the stop flag while the queue is full


class _Failed:
    def __init__(self, error: BaseException) -> None:
        self.error = error


def frames_ahead(path: Path, depth: int = DEPTH) -> Iterator[np.ndarray]:
    """Decoded frames of a video file, decoded up to ``depth`` frames ahead in a thread."""
    path = Path(path)
    cap = open_video(path)
    slots: queue.Queue[np.ndarray | _Failed | None] = queue.Queue(maxsize=max(1, depth))
    stop = threading.Event()

    def put(item: np.ndarray | _Failed | None) -> bool:
        while not stop.is_set():
            try:
                slots.put(item, timeout=_POLL)
                return True
            except queue.Full:
                pass
        return False

    def decode() -> None:
        try:
            while not stop.is_set():
                ok, frame = cap.read()
                if not ok:
                    break
                if not put(frame):
                    return
            put(None)  # the clip's end
        except BaseException as exc:  # handed to the consumer, which raises it
            put(_Failed(exc))
        finally:
            cap.release()

    thread = threading.Thread(target=decode, name=f"decode-ahead {path.name}", daemon=True)
    thread.start()
    count = 0
    try:
        while True:
            item = slots.get()
            if item is None:
                break
            if isinstance(item, _Failed):
                if isinstance(item.error, cv2.error):
                    raise VideoError(f"cannot decode video {path}: {item.error}") from item.error
                raise item.error
            count += 1
            yield item
    finally:
        stop.set()
        while True:  # free a slot so a thread blocked on a full queue sees the flag at once
            try:
                slots.get_nowait()
            except queue.Empty:
                break
        thread.join()
    if count == 0:
        raise VideoError(f"video {path} has no frames")


class ClipWriter:
    """A clip being written, frame by frame (BGR): H.264 through PyAV when installed (5-10x
    smaller than OpenCV's MPEG-4), else MPEG-4 (``h264=False`` asks for MPEG-4 outright: cheap
    enough to encode live on a Pi). Both decode with any OpenCV build."""

    def __init__(self, path: Path, size: tuple[int, int], *, fps: float = 30.0, crf: int = 28,
                 h264: bool = True) -> None:
        self.path = Path(path)
        self.frames = 0
        av: Any = None
        if h264:
            try:
                import av
            except ImportError:
                av = None
        self._av = av
        if av is not None:
            self._out = av.open(str(path), "w")
            self._stream = self._out.add_stream("libx264", rate=max(1, round(fps)))
            self._stream.width, self._stream.height = size
            self._stream.pix_fmt = "yuv420p"
            self._stream.options = {"crf": str(crf), "preset": "medium"}
        else:
            self._writer = cv2.VideoWriter(str(path), cv2.VideoWriter.fourcc(*"mp4v"), fps, size)
            if not self._writer.isOpened():
                raise VideoError(f"cannot write video {path}")

    def write(self, frame: np.ndarray) -> None:
        if self._av is not None:
            vf = self._av.VideoFrame.from_ndarray(frame, format="bgr24")
            for packet in self._stream.encode(vf):
                self._out.mux(packet)
        else:
            self._writer.write(frame)
        self.frames += 1

    def close(self) -> None:
        if self._av is not None:
            for packet in self._stream.encode():
                self._out.mux(packet)
            self._out.close()
        else:
            self._writer.release()
