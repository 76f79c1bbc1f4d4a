"""vision.video.frames_ahead: the same frames as a plain decode, and a decode thread that always
ends (clip over, consumer stopped early or failing, decode error, file that is no video)."""

from __future__ import annotations

import threading

import cv2
import numpy as np
import pytest

import vision.video
from synth.shoe import make_clip
from vision.video import VideoError, frames, frames_ahead

HANG = 10.0  # s: a decode thread still alive after this is hung (never reached when all is well)


@pytest.fixture(scope="module")
def clip(tmp_path_factory):
    path = tmp_path_factory.mktemp("decode") / "clip.mp4"
    make_clip(path, "anglo", ["7C", "KS", "AH"], "easy", seed=2)
    return path


def decode_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name.startswith("decode-ahead")]


def finish(thread: threading.Thread) -> None:
    thread.join(HANG)
    assert not thread.is_alive(), "the consumer hung"
    assert decode_threads() == [], "a decode thread outlived its generator"


def in_thread(work) -> tuple[threading.Thread, dict]:
    """Run ``work`` in a thread of its own, so a hang fails the test instead of stalling it."""
    out: dict = {}

    def run() -> None:
        try:
            out["value"] = work()
        except BaseException as exc:
            out["error"] = exc

    thread = threading.Thread(target=run)
    thread.start()
    return thread, out


def test_same_frames_as_a_plain_decode_each_its_own_array(clip):
    plain = [f.copy() for f in frames(clip)]
    ahead = list(frames_ahead(clip, depth=2))
    assert len(ahead) == len(plain) > 30
    assert all(np.array_equal(a, p) for a, p in zip(ahead, plain, strict=True))
    assert not np.shares_memory(ahead[0], ahead[1])
    assert decode_threads() == []


def test_loop_broken_early_stops_the_thread(clip):
    def work():
        got = []
        for frame in frames_ahead(clip, depth=2):  # the thread is blocked on a full queue
            got.append(frame)
            if len(got) == 3:
                break
        return len(got)

    thread, out = in_thread(work)
    finish(thread)
    assert out == {"value": 3}


def test_generator_closed_stops_the_thread(clip):
    source = frames_ahead(clip, depth=1)
    next(source)
    assert len(decode_threads()) == 1
    source.close()
    assert decode_threads() == []


def test_consumer_exception_stops_the_thread_and_propagates(clip):
    def work():
        for n, _ in enumerate(frames_ahead(clip)):
            if n == 5:
                raise KeyError("consumer failed")

    thread, out = in_thread(work)
    finish(thread)
    assert isinstance(out.get("error"), KeyError)


def test_decode_error_reaches_the_consumer_as_video_error(clip, monkeypatch):
    real_open = vision.video.open_video

    class Failing:  # the real capture, failing at its fourth frame
        def __init__(self, path):
            self.cap, self.reads = real_open(path), 0

        def read(self):
            self.reads += 1
            if self.reads == 4:
                raise cv2.error("corrupt packet")
            return self.cap.read()

        def release(self):
            self.cap.release()

    monkeypatch.setattr(vision.video, "open_video", Failing)
    got: list = []
    thread, out = in_thread(lambda: got.extend(frames_ahead(clip)))
    finish(thread)
    assert len(got) == 3
    assert isinstance(out.get("error"), VideoError)
    assert "corrupt packet" in str(out["error"])


def test_truncated_clip_gives_what_a_plain_decode_gives(clip, tmp_path):
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(clip.read_bytes()[: clip.stat().st_size * 2 // 3])
    try:
        plain = [f.copy() for f in frames(cut)]
    except VideoError:
        with pytest.raises(VideoError):
            list(frames_ahead(cut))
    else:
        ahead = list(frames_ahead(cut))
        assert len(ahead) == len(plain)
        assert all(np.array_equal(a, p) for a, p in zip(ahead, plain, strict=True))
    assert decode_threads() == []


@pytest.mark.parametrize("content", [b"", b"this is not a video at all" * 100])
def test_file_that_is_no_video_is_a_clear_error_and_starts_no_thread(tmp_path, content):
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(content)
    with pytest.raises(VideoError):
        list(frames_ahead(junk))
    with pytest.raises(VideoError, match="no such video"):
        list(frames_ahead(tmp_path / "missing.mp4"))
    assert decode_threads() == []
