"""Decoding a clip's frames ahead of the reader, in a background thread.

Read in turn, a clip costs its decode plus its reading, on one core. OpenCV's
``VideoCapture.read`` releases the GIL, so a thread decoding the next few frames while the
reader works on the current one overlaps the two on a machine with more than one core (the
Raspberry Pi 4/5 has four): `cardtable read` then takes about as long as the slower of the two.

Frames come out in order, the same pixels as ``vision.reader.frames`` gives, each its own array
(frames waiting in the queue cannot share one decode buffer). The thread ends with the clip, as
soon as the consumer stops early (a loop broken off, an exception in it, the generator closed),
and on a decode error, which the consumer gets as a ``VideoError``. A file that is no video fails
with a ``VideoError`` before any thread starts.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Iterator
from pathlib import Path

import cv2
import numpy as np

from vision.reader import VideoError, open_video

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
