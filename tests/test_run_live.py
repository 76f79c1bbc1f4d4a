"""`cardtable run --config` on real devices as far as they exist here: the shoe and overhead
cameras are recorded files read by the camera layer, the seat panels are simulated firmware on real ptys found
by discovery, GPIO is gpiozero's mock factory; the web display is served. The cards dealt reach the
log, a button press on a panel reaches the controller, and SIGTERM stops the table cleanly."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from firmware_bridge.sim import SimTable
from table_ui.testing import free_port
from vision.profile import DeckProfile, save_profile

ROOT = Path(__file__).resolve().parents[1]
DURAK = ROOT / "controller" / "data" / "durak2"


def q(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def test_run_with_a_config_uses_the_configured_devices(tmp_path: Path) -> None:
    env = {**os.environ, "CARDTABLE_DATA_DIR": str(tmp_path / "data")}
    os.environ["CARDTABLE_DATA_DIR"] = env["CARDTABLE_DATA_DIR"]
    try:
        profile = DeckProfile.model_validate_json((ROOT / "controller/data/deck.json").read_bytes())
        save_profile(profile.model_copy(update={"name": "club-deck"}))
        # the table reader's face strips of that deck, as `cardtable table faces` would save them
        from vision.table.faces import faces_path

        faces_path("club-deck").write_bytes((ROOT / "controller/data/deck.table.npz").read_bytes())
    finally:
        del os.environ["CARDTABLE_DATA_DIR"]
    port = free_port()
    truth = json.loads((DURAK / "game.json").read_text(encoding="utf-8"))
    with SimTable({"sim-seat-0": 0, "sim-seat-1": 1}, with_bridge=False) as panels:
        cfg = tmp_path / "table.toml"
        cfg.write_text(f"""
[table]
name = "Стол 7"
deck = "club-deck"
data_dir = {q(str(tmp_path / "table"))}
footage_budget_mb = 16

[game]
default = "durak2"
names = ["Аня", "Боря"]

[panels]
seats_from = 0
by_id_dirs = [{q(str(panels.by_id))}]
port_globs = ["*"]
use_list_ports = false
scan_interval_s = 0.1
[[panels.seats]]
seat = 0
panel_id = "sim-seat-0"
[[panels.seats]]
seat = 1
panel_id = "sim-seat-1"

[gpio]
factory = "mock"

[cameras.shoe]
kind = "file"
path = {q(str(DURAK / "shoe.mp4"))}
realtime = false

[cameras.table]
kind = "file"
path = {q(str(DURAK / "table.mp4"))}
realtime = false
width = 1280
height = 720

[web]
host = "127.0.0.1"
port = {port}
""", encoding="utf-8")
        proc = subprocess.Popen([sys.executable, "-m", "cardtable", "run", "--config", str(cfg)],
                                cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        try:
            state: dict = {}
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2) as r:
                        state = json.loads(r.read())
                except OSError:
                    state = {}
                view = state.get("view") or {}
                if view and not view.get("expects_shoe") and view.get("events", 0) >= 12:
                    break
                time.sleep(0.3)
            view = state["view"]
            assert view["game"] == "durak2" and state["names"] == ["Аня", "Боря"]
            # the first deal out of the recorded shoe, read live through the camera layer
            dealt = view["events"]
            assert dealt >= 12 and not view["expects_shoe"]
            to_act = view["to_act"]
            # a press on a seat panel reaches the controller (a refusal is logged all the same)
            seq = state["seq"]
            panels[to_act].tap("take")
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/state", timeout=2) as r:
                    after = json.loads(r.read())
                if after["seq"] > seq:
                    break
                time.sleep(0.1)
            assert after["seq"] > seq
            assert any(k.startswith("panel ") for k in after["devices"])
        finally:
            proc.send_signal(signal.SIGTERM)
            out, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err
        assert "Traceback" not in err
        assert "Стол 7" in out
    status = subprocess.run([sys.executable, "-m", "cardtable", "status", "--json", "--db",
                             str(tmp_path / "table" / "table.sqlite")], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert status.returncode == 0, status.stderr
    logged = json.loads(status.stdout)
    assert logged["view"]["events"] >= dealt
    from controller.log import GameLog

    log = GameLog(tmp_path / "table" / "table.sqlite", readonly=True)
    events = log.event_texts(logged["game_id"])
    inputs = [e.body for e in log.entries(logged["game_id"], kinds=("input",))]
    pressed = [b for b in inputs if b.get("kind") == "button" and b.get("source") == "panel"]
    placed = [b for b in inputs if b.get("kind") == "placed"]
    log.close()
    # the overhead camera's first card, read by the table reader: the session's first attack
    # (taken or, put down before the shoe had dealt, refused and logged all the same)
    first_play = next(e for e in truth["events"] if " play " in e)
    assert placed and f"{placed[0]['seat']} play {placed[0]['card']}" == first_play
    assert placed[0]["frame"] is not None
    assert events[:12] == truth["events"][:12]  # the recorded session's first deal
    # the panel at config seat N is engine seat N: no offset between the config and the log
    assert [(b["seat"], b["button"]) for b in pressed] == [(to_act, "take")]
