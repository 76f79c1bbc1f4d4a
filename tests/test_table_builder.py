"""One table builder: the simulated table is a config whose devices are the recorded and simulated
back-ends, built by the same ``controller.live.build_table`` as a real table's config; the
recorded session's cameras go through the camera layer (``hardware.camera.Camera``) with its
stall and loss reports; one loader of frame times with one set of checks."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from cardtable.table_commands import SIM_CONFIG
from controller.config import ConfigError, load_config, parse_config
from controller.footage import BUNDLES, BundleError, load_bundle
from controller.live import Table, build_table
from controller.session import SessionPlayer
from controller.table_check import Refusal
from firmware_bridge.sim import SimTable
from hardware.camera import Camera, CameraError, FileCamera, load_times
from hardware.session import ReplayCamera, SessionFeed

ROOT = Path(__file__).resolve().parents[1]
DURAK = BUNDLES / "durak2"


def wait_for(check, timeout: float = 60.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return True
        time.sleep(0.05)
    return False


def test_the_simulated_table_is_its_config_built_like_any_other(make_controller) -> None:
    cfg = load_config(SIM_CONFIG)
    # the bundled config names the bundled recording, found beside it
    assert Path(cfg.session.bundle) == BUNDLES / "belot2"
    assert cfg.panels.backend == "sim" and cfg.gpio.factory == "mock"
    assert {name: c.kind for name, c in cfg.cameras.items()} == {"shoe": "session",
                                                                  "table": "session"}
    cfg = cfg.model_copy(update={"session": cfg.session.model_copy(
        update={"bundle": str(DURAK), "speed": 20.0, "once": True})})
    ctl = make_controller("durak2")
    bundle = load_bundle(cfg.session.bundle)
    world = SessionPlayer(ctl, bundle, speed=cfg.session.speed, once=True)
    table = build_table(ctl, cfg, world=world)
    assert isinstance(table, Table)
    table.start()
    try:
        # the devices are the simulated back-ends behind the real interfaces
        assert isinstance(table.panels.sim, SimTable)
        assert isinstance(table.dealer.panel.factory, MockFactory)
        assert wait_for(lambda: len(table._cameras) == 2, 20)
        assert all(isinstance(c, ReplayCamera) and isinstance(c, Camera) for c in table._cameras)
        # the recorded session reaches the log through them: the first deal read by the shoe
        # camera's reader, a player's press through the simulated panel on its pty
        def pressed() -> set:
            return {e.body.get("source") for e in ctl.log.entries(ctl.game_id, kinds=("input",))
                    if e.body.get("kind") == "button"}

        assert wait_for(lambda: "panel" in pressed())  # on a simulated panel, not straight in
        assert pressed() == {"panel"}
        logged = [str(e) for e in ctl.game.raw_log]
        assert len(logged) >= 14 and logged == bundle.events[: len(logged)]
        shoe = next(c for c in table._cameras if c.name == "shoe")
        assert shoe.counters.frames > 0 and shoe.state == "streaming"
        # the organiser's table check has nothing to check here: the camera shows a recording
        assert table.check is not None
        with pytest.raises(Refusal) as refused:
            table.check.start(["AS", "AH"])
        assert refused.value.id == "check-simulated" and "симулированный" in refused.value.ru
        assert table.check.status()["state"] == "idle"
    finally:
        table.stop()
    assert table.wait(0)  # stopped


def test_run_with_a_config_of_a_recorded_session_plays_it(tmp_path: Path) -> None:
    """`run --config` with a user's own session config goes the same way as `run`: its bundle
    path is taken from the config's folder, and the recorded game is played to its end."""
    folder = tmp_path / "conf"
    folder.mkdir()
    (folder / "durak2").symlink_to(DURAK, target_is_directory=True)
    for shared in ("deck.json", "deck.table.npz"):  # the deck the bundles share, beside them
        (folder / shared).symlink_to(BUNDLES / shared)
    text = SIM_CONFIG.read_text(encoding="utf-8").replace('bundle = "belot2"',
                                                            'bundle = "durak2"')
    text = text.replace("speed = 1.0", "speed = 40.0\nonce = true")
    text = text.replace('name = "sim"', f'name = "sim"\ndata_dir = "{tmp_path / "data"}"')
    (folder / "table.toml").write_text(text, encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "cardtable", "run", "--config",
                          str(folder / "table.toml"), "--no-web", "--footage-budget", "0"],
                         capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    assert "Traceback" not in out.stderr
    assert "simulated table replaying durak2" in out.stdout
    from controller.log import GameLog

    log = GameLog(tmp_path / "data" / "table.sqlite", readonly=True)
    (game,) = log.games()
    truth = json.loads((DURAK / "game.json").read_text(encoding="utf-8"))
    assert game.status == "finished" and log.event_texts(game.id) == truth["events"]
    log.close()


def test_a_session_option_without_a_session_is_refused(tmp_path: Path) -> None:
    cfg = tmp_path / "table.toml"
    cfg.write_text('[gpio]\nfactory = "mock"\n', encoding="utf-8")
    out = subprocess.run([sys.executable, "-m", "cardtable", "run", "--config", str(cfg),
                          "--bundle", str(DURAK), "--no-web"],
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        f"error: --bundle is for a recorded session (the simulated table); the config {cfg} "
        "has no [session]"]


def test_a_session_camera_needs_a_session() -> None:
    with pytest.raises(ConfigError) as err:
        parse_config('[cameras.shoe]\nkind = "session"\n', "t.toml")
    assert "a session camera shows a recorded session: add [session]" in " ".join(err.value.errors)


# ------------------------------------------------------------------ the replay camera itself
def consume(camera: Camera, seen: list, hold_s: float = 0.0) -> threading.Thread:
    def run() -> None:
        for t, _frame in camera.frames():
            seen.append(("got", t))
            time.sleep(hold_s)
            seen.append(("done", t))

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_push_returns_once_the_table_is_done_with_the_frame() -> None:
    feed = SessionFeed()
    camera = ReplayCamera("shoe", feed, stall_s=5.0)
    seen: list = []
    stop = threading.Event()
    thread = consume(camera, seen, hold_s=0.2)
    frame = np.zeros((4, 4, 3), np.uint8)
    for t in (0.0, 0.1):
        now = time.monotonic()
        assert camera.push(t, frame, due=now, next_due=now + 0.1, stop=stop)
        assert seen[-1] == ("done", t)  # the consumer finished before the next push
    camera.end()
    thread.join(5)
    assert not thread.is_alive() and camera.state == "ended"
    assert feed.camera("shoe", timeout=0) is camera


def test_a_replay_falling_behind_is_a_stall_and_a_failure_is_lost() -> None:
    events: list[tuple[str, str]] = []
    feed = SessionFeed()
    camera = ReplayCamera("shoe", feed, stall_s=0.2,
                          on_event=lambda kind, detail: events.append((kind, detail)))
    seen: list = []
    stop = threading.Event()
    thread = consume(camera, seen)
    frame = np.zeros((4, 4, 3), np.uint8)
    now = time.monotonic()
    assert camera.push(0.0, frame, due=now, next_due=now + 0.05, stop=stop)
    time.sleep(0.6)  # the next frame is late by far more than stall_s
    assert [k for k, _ in events] == ["stalled"]
    assert camera.push(0.05, frame, due=now + 0.05, next_due=now + 60, stop=stop)
    assert [k for k, _ in events] == ["stalled", "back"]
    time.sleep(0.5)  # the next frame is not due yet: no stall
    assert [k for k, _ in events] == ["stalled", "back"]
    camera.fail("video shoe.mp4 ends after 2 of the 40 frames its timestamps list")
    thread.join(5)
    assert events[-1] == ("lost", "video shoe.mp4 ends after 2 of the 40 frames its timestamps "
                                  "list")
    assert camera.state == "ended"


# ------------------------------------------------------------------ one loader of frame times
@pytest.mark.parametrize(("times", "why"), [
    ([0.0, 0.5, 0.4], "the times go backwards"),
    ([0.0, -1.0], "a time is negative or not finite"),
    ("[0.0, NaN]", "a time is negative or not finite"),
])
def test_frame_times_are_checked_the_same_by_the_camera_and_the_bundle(
        tmp_path: Path, times, why: str) -> None:
    bundle = tmp_path / "b"
    bundle.mkdir()
    for name in ("game.json", "inputs.jsonl", "shoe.mp4"):
        (bundle / name).write_bytes((DURAK / name).read_bytes())
    text = times if isinstance(times, str) else json.dumps(times)
    (bundle / "shoe.times.json").write_text(text, encoding="utf-8")
    with pytest.raises(CameraError) as cam:
        load_times(bundle / "shoe.mp4")
    with pytest.raises(BundleError) as bun:
        load_bundle(bundle)
    assert why in str(cam.value) and str(cam.value) == str(bun.value)
    with pytest.raises(CameraError):
        FileCamera(bundle / "shoe.mp4")
