"""Camera back-ends on real video: footage files, a stream through a pipe, a missing device."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import shutil
import threading
import time
from pathlib import Path

import cv2
import pytest

from hardware.camera import Camera, CameraError, FileCamera, V4L2Camera, open_camera
from hardware.config import CameraConfig
from vision.reader import ShoeReader
from vision.video import frames

DURAK = Path(__file__).resolve().parents[1] / "controller" / "data" / "durak2"


@pytest.fixture(scope="session")
def clip(tmp_path_factory) -> Path:
    from synth.shoe import make_clip

    path = tmp_path_factory.mktemp("clip") / "pass.mp4"
    make_clip(path, "Атласные", ["7C", "8C", "9C"], "easy", seed=1)
    return path


@pytest.fixture(scope="session")
def clip_frames(clip: Path) -> list:
    return list(frames(clip))


def recorder(cam: Camera) -> list[tuple[str, str]]:
    events: list[tuple[str, str]] = []
    cam.on_event = lambda kind, detail: events.append((kind, detail))
    return events


def test_footage_as_fast_as_it_decodes(clip: Path, clip_frames: list) -> None:
    cam = FileCamera(clip, realtime=False)
    events = recorder(cam)
    with cam:
        got = list(cam.frames())
    assert len(got) == len(clip_frames) == cam.counters.frames
    assert [t for t, _ in got][:3] == pytest.approx([0, 1 / 30, 2 / 30])
    assert all((a == b).all() for (_, a), b in zip(got, clip_frames, strict=True))
    assert events == [] and cam.counters.dropped == cam.counters.stalls == 0


def test_footage_in_real_time_with_its_sidecar(tmp_path: Path, clip: Path) -> None:
    video = tmp_path / "shoe.mp4"
    shutil.copy(clip, video)
    n = len(list(frames(clip)))
    times = [i * 0.02 for i in range(n)]
    times[20:] = [t + 0.5 for t in times[20:]]  # the recording paused: no stall, no drops
    (tmp_path / "shoe.times.json").write_text(json.dumps(times))
    cam = FileCamera(video, realtime=True, speed=1.0, stall_s=0.3)
    events = recorder(cam)
    start = time.monotonic()
    with cam:
        got = [(t, time.monotonic() - start) for t, _ in cam.frames()]
    assert [t for t, _ in got] == pytest.approx(times)
    assert got[-1][1] == pytest.approx(times[-1], abs=0.25)  # paced like the recording
    assert got[20][1] - got[19][1] > 0.4
    assert events == [] and cam.counters.stalls == 0 and cam.counters.dropped == 0


def test_real_time_footage_drops_what_a_slow_reader_misses(clip: Path) -> None:
    cam = FileCamera(clip, realtime=True, speed=4.0)
    with cam:
        got = 0
        for _ in cam.frames():
            got += 1
            time.sleep(0.05)  # a consumer slower than 120 fps
    c = cam.counters
    assert c.dropped > 0 and got + c.dropped == 49


def test_the_reader_reads_cards_from_a_camera() -> None:
    """frames() feeds the shoe reader just as the simulated table does."""
    from controller.footage import load_bundle

    bundle = load_bundle(DURAK)
    reader = ShoeReader(bundle.profile())
    cam = FileCamera(DURAK / "shoe.mp4", realtime=False)
    recorded = len(json.loads((DURAK / "shoe.times.json").read_text(encoding="utf-8")))
    assert cam.times is not None and len(cam.times) == recorded
    cards = []
    with cam:
        for _t, frame in cam.frames():
            cards += [e.card for e in reader.feed(frame)]
    cards += [e.card for e in reader.finish()]
    assert len(cards) >= 30 and cam.counters.frames == recorded


def test_truncated_footage_is_lost_not_fatal(tmp_path: Path, clip_frames: list) -> None:
    full = tmp_path / "clip.avi"
    w = cv2.VideoWriter(str(full), cv2.VideoWriter.fourcc(*"MJPG"), 30, (640, 480))
    for f in clip_frames:
        w.write(f)
    w.release()
    cut = tmp_path / "cut.avi"
    cut.write_bytes(full.read_bytes()[: full.stat().st_size // 2])
    cam = FileCamera(cut, realtime=False)
    events = recorder(cam)
    with cam:
        got = list(cam.frames())
    assert 0 < len(got) < len(clip_frames)
    assert [k for k, _ in events] == ["lost"] and "truncated" in events[0][1]
    assert f"after {len(got)} of {len(clip_frames)} frames" in events[0][1]
    assert cam.counters.lost == 1


def test_unreadable_footage_is_lost(tmp_path: Path, clip: Path) -> None:
    cut = tmp_path / "cut.mp4"  # an MP4 cut short has no index at all
    cut.write_bytes(clip.read_bytes()[:100_000])
    cam = FileCamera(cut, realtime=False, give_up_s=0.3)
    events = recorder(cam)
    with cam:
        assert list(cam.frames()) == []
    assert events[0][0] == "lost" and "not a video OpenCV can decode" in events[0][1]
    assert cam.counters.lost == 1  # retried until give_up_s, reported once


def test_footage_moved_away_and_back_resumes_where_it_was(tmp_path: Path, clip: Path,
                                                          clip_frames: list) -> None:
    video = tmp_path / "live.mp4"
    shutil.copy(clip, video)
    cam = FileCamera(video, realtime=False, give_up_s=5.0)
    events = recorder(cam)
    got = []
    with cam:
        for _t, frame in cam.frames():
            got.append(frame)
            if len(got) == 10:
                video.rename(tmp_path / "away.mp4")
                threading.Timer(0.6, (tmp_path / "away.mp4").rename, [video]).start()
    assert [k for k, _ in events] == ["lost", "back"], events
    assert "disappeared" in events[0][1]
    assert len(got) == len(clip_frames)  # nothing lost, nothing repeated
    assert all((a == b).all() for a, b in zip(got, clip_frames, strict=True))
    assert cam.counters.lost == 1 and cam.counters.reopened == 1


def test_footage_deleted_for_good_ends_after_give_up(tmp_path: Path, clip: Path) -> None:
    video = tmp_path / "gone.mp4"
    shutil.copy(clip, video)
    cam = FileCamera(video, realtime=False, give_up_s=0.5)
    events = recorder(cam)
    n = 0
    with cam:
        for _ in cam.frames():
            n += 1
            if n == 5:
                video.unlink()  # OpenCV still holds the file open: the camera must notice
    assert n < 49 and [k for k, _ in events] == ["lost"]


def test_a_missing_device_is_reported_and_retried(tmp_path: Path) -> None:
    cam = V4L2Camera("/dev/video9", stall_s=0.2)
    events = recorder(cam)
    with cam:
        assert list(cam.frames(max_s=0.8)) == []
        assert cam.state == "lost"
    assert events == [("lost", "/dev/video9 does not exist (not plugged in?)")]
    assert cam.counters.lost == 1 and cam.counters.stalls == 0


def _stream(fifo: Path, jpegs: list[bytes], pause_after: int, pause_s: float,
            close_after: int | None = None) -> None:
    """An MJPEG camera on the far end of a named pipe: pauses (a stall), or hangs up."""
    with open(fifo, "wb") as out:
        for i, j in enumerate(jpegs):
            try:
                out.write(j)
                out.flush()
            except BrokenPipeError:
                return
            time.sleep(1 / 30)
            if i == pause_after:
                time.sleep(pause_s)
            if close_after is not None and i == close_after:
                return


@pytest.fixture
def pipe_camera(tmp_path: Path, monkeypatch, clip_frames: list):
    # FFmpeg would otherwise read seconds of the stream before it opens
    monkeypatch.setenv("OPENCV_FFMPEG_CAPTURE_OPTIONS",
                       "probesize;32|analyzeduration;0|fpsprobesize;0|f;mjpeg")
    fifo = tmp_path / "camera.mjpeg"
    os.mkfifo(fifo)
    jpegs = [cv2.imencode(".jpg", f)[1].tobytes() for f in clip_frames]
    yield fifo, jpegs
    # A camera left reopening the pipe blocks in open() (and FFmpeg's open holds a global lock):
    # connect and hang up so it fails and sees it is closed.
    deadline = time.monotonic() + 1.0
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError):
            os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
        time.sleep(0.05)


def test_a_stalled_stream_is_reported_and_picked_up(pipe_camera) -> None:
    fifo, jpegs = pipe_camera
    writer = threading.Thread(target=_stream, args=(fifo, jpegs[:40], 15, 1.2), daemon=True)
    writer.start()
    cam = V4L2Camera(str(fifo), fps=30, stall_s=0.5)
    events = recorder(cam)
    got: list[float] = []
    with cam:
        for t, _ in cam.frames(max_s=8):
            got.append(t)
            if len(got) == 40:
                break
        writer.join(2)
        deadline = time.monotonic() + 3
        while len(events) < 3 and time.monotonic() < deadline:
            time.sleep(0.02)
    kinds = [k for k, _ in events]
    assert kinds == ["stalled", "back", "lost"], events  # and it hung up at the end
    assert cam.counters.stalls == 1  # (dropped: arrival-time jitter on a loaded machine)
    gaps = [b - a for a, b in itertools.pairwise(got)]
    assert max(gaps) > 1.0  # the stall, on the camera's clock


def test_a_vanished_stream_is_reopened(pipe_camera) -> None:
    fifo, jpegs = pipe_camera

    def two_sessions() -> None:
        _stream(fifo, jpegs[:20], -1, 0, close_after=9)  # hangs up after 10 frames
        time.sleep(0.5)
        _stream(fifo, jpegs[:20], -1, 0)  # and comes back

    writer = threading.Thread(target=two_sessions, daemon=True)
    writer.start()
    cam = V4L2Camera(str(fifo), fps=30, stall_s=2.0)
    events = recorder(cam)
    got = 0
    with cam:
        for _ in cam.frames(max_s=10):
            got += 1
            if got >= 25:
                break
    writer.join(2)
    kinds = [k for k, _ in events]
    assert kinds[:2] == ["lost", "back"], events
    assert cam.counters.reopened >= 1 and got >= 25


def test_cameras_from_config(tmp_path: Path, clip: Path) -> None:
    cam = open_camera(CameraConfig(kind="file", path=str(clip), realtime=False), "shoe")
    assert isinstance(cam, FileCamera) and cam.name == "shoe"
    cam = open_camera(CameraConfig(kind="v4l2", device="/dev/video9", fps=15), "table")
    assert isinstance(cam, V4L2Camera) and cam.fps == 15
    bad = tmp_path / "bad.mp4"
    shutil.copy(clip, bad)
    (tmp_path / "bad.times.json").write_text("[0, 1, \"x\"]")
    with pytest.raises(CameraError, match="frame times"):
        FileCamera(bad)


def test_picamera2_absent_is_a_lost_camera_not_a_crash() -> None:
    try:
        import picamera2  # noqa: F401
        pytest.skip("picamera2 is installed: this is a Pi")
    except ImportError:
        pass
    cam = open_camera(CameraConfig(kind="picamera2"), "shoe")
    events = recorder(cam)
    with cam:
        assert list(cam.frames(max_s=0.3)) == []
    assert events and events[0][0] == "lost" and "python3-picamera2" in events[0][1]


def test_synthetic_camera_renders_a_scripted_deal_the_reader_reads():
    """kind = "synthetic": the footage generator renders the cards; the shoe reader reads them."""
    from synth.camera import SyntheticCamera, shoe_order
    from vision.profile import DeckProfile
    from vision.reader import ShoeReader

    root = Path(__file__).resolve().parents[1]
    profile = DeckProfile.model_validate_json((root / "controller/data/deck.json").read_bytes())
    script = ["7C", "QS", "AH", "TD", "6S"]
    with SyntheticCamera(cards=script, seed=4, realtime=False) as cam:
        reader = ShoeReader(profile)
        read = [ev.card for _t, frame in cam.frames() for ev in reader.feed(frame)]
        read += [ev.card for ev in reader.finish()]
    assert read == script
    order = shoe_order("durak2", seed=3)
    assert len(order) == 36 and len(set(order)) == 36  # one Durak game deals the whole deck


def test_synthetic_camera_from_the_config(monkeypatch):
    import hardware.camera
    from controller.config import parse_config
    from hardware.camera import CameraError, open_camera
    from synth.camera import SyntheticCamera, register

    cfg = parse_config('[cameras.shoe]\nkind = "synthetic"\ncards = ["7C", "8C"]\n'
                       'realtime = false\n')
    # hardware/ cannot render footage itself: the command line plugs the generator in
    monkeypatch.setattr(hardware.camera, "_KINDS", {})
    with pytest.raises(CameraError, match="synth/"):
        open_camera(cfg.cameras["shoe"])
    register()
    cam = open_camera(cfg.cameras["shoe"])
    try:
        assert isinstance(cam, SyntheticCamera) and cam.cards == ["7C", "8C"]
        assert sum(1 for _ in cam.frames()) > 5
    finally:
        cam.close()
