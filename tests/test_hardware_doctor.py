"""`cardtable doctor` against a simulated table: mock GPIO, panels on ptys, a file camera."""

from __future__ import annotations

import json
import socket
from pathlib import Path

import cv2
import pytest

from cardtable.cli import main
from firmware_bridge.config import PanelConfig
from firmware_bridge.sim import SIM_FIRMWARE, SimTable

DURAK = Path(__file__).resolve().parents[1] / "controller" / "data" / "durak2"


def toml_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def write_config(path: Path, panels: PanelConfig, *, factory: str = "mock",
                 camera: str = f'kind = "file"\npath = {toml_str(str(DURAK / "shoe.mp4"))}',
                 data_dir: Path, port: int, extra_seat: bool = False) -> Path:
    seats = "".join(f"\n[[panels.seats]]\nseat = {s.seat}\npanel_id = {toml_str(s.panel_id)}\n"
                    for s in panels.seats)
    if extra_seat:
        seats += '\n[[panels.seats]]\nseat = 5\npanel_id = "panel-missing"\n'
    path.write_text(f"""
[table]
name = "test"
data_dir = {toml_str(str(data_dir))}
footage_budget_mb = 1

[panels]
seats_from = 0
by_id_dirs = [{", ".join(toml_str(d) for d in panels.by_id_dirs)}]
port_globs = ["*"]
use_list_ports = false
scan_interval_s = 0.1
{seats}
[gpio]
factory = "{factory}"
card_sensor = 25

[cameras.shoe]
{camera}

[web]
host = "127.0.0.1"
port = {port}
""", encoding="utf-8")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def sims():
    with SimTable({"sim-seat-0": 0, "sim-seat-1": 1}, with_bridge=False) as table:
        yield table


def _club_deck(home: Path, monkeypatch, verified: bool | None = True) -> None:
    """The bundled deck profile as the config's deck (``club-deck``); ``verified=False``: its
    self-check failed, None: never checked."""
    from vision.profile import DeckProfile, save_profile

    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(home))
    profile = DeckProfile.model_validate_json((DURAK.parent / "deck.json").read_bytes())
    check = profile.verification
    assert check is not None and check.verified  # the bundle's deck passed its self-check
    if verified is None:
        check = None
    elif not verified:
        check = check.model_copy(update={"verified": False, "why": "too dark"})
    save_profile(profile.model_copy(update={"name": "club-deck", "verification": check}))


def test_all_devices_ok(tmp_path: Path, sims, capsys, monkeypatch) -> None:
    _club_deck(tmp_path / "home", monkeypatch)
    cfg = write_config(tmp_path / "t.toml", sims.config, data_dir=tmp_path / "data",
                       port=free_port())
    snaps = tmp_path / "snaps"
    rc = main(["doctor", "--config", str(cfg), "--json", "--camera-window", "0.5",
               "--panel-wait", "10", "--snapshot", str(snaps)])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0, out
    by = {(c["kind"], c["name"]): c for c in out["checks"]}
    assert all(c["ok"] for c in out["checks"]) and out["ok"]
    assert "card sensor" in by[("gpio", "mock")]["detail"]
    for seat in (0, 1):
        assert f"firmware {SIM_FIRMWARE}" in by[("panel", f"seat {seat} (sim-seat-{seat})")][
            "detail"]
    assert "frames of 640x480" in by[("camera", "shoe (file)")]["detail"]
    assert by[("deck", "club-deck")]["detail"].startswith("verified ")
    assert (tmp_path / "data").is_dir()
    snap = cv2.imread(str(snaps / "shoe.png"))
    assert snap is not None and snap.shape == (480, 640, 3)


def test_one_broken_device_of_each_kind(tmp_path: Path, sims, capsys, monkeypatch) -> None:
    _club_deck(tmp_path / "home", monkeypatch)
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("x")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        cfg = write_config(tmp_path / "t.toml", sims.config, factory="lgpio",
                           camera='kind = "v4l2"\ndevice = "/dev/video9"',
                           data_dir=blocker / "data", port=port, extra_seat=True)
        rc = main(["doctor", "--config", str(cfg), "--camera-window", "0.3",
                   "--panel-wait", "3"])
    out = capsys.readouterr().out
    assert rc == 1
    lines = out.splitlines()
    failures = [line for line in lines if line.startswith("FAIL")]
    fixes = [line for line in lines if line.strip().startswith("fix:")]
    assert len(failures) == len(fixes) == 5, out
    text = "\n".join(lines)
    assert "FAIL gpio lgpio: pin factory 'lgpio' needs the lgpio module" in text
    assert "python3-lgpio" in text
    assert "FAIL camera shoe (v4l2): /dev/video9 does not exist" in text
    assert "v4l2-ctl --list-devices" in text
    assert "FAIL panel seat 5 (panel-missing): panel 'panel-missing' did not answer" in text
    assert "ok   panel seat 0 (sim-seat-0): firmware" in text
    assert f"FAIL web 127.0.0.1:{port}: cannot listen" in text
    assert "FAIL data" in text and "sudo install -d" in text
    assert lines[-1] == "5 problem(s)"


def test_missing_footage_and_bad_config(tmp_path: Path, sims, capsys) -> None:
    cfg = write_config(tmp_path / "t.toml", PanelConfig(), data_dir=tmp_path / "d",
                       port=free_port(), camera=f'kind = "file"\npath = '
                                                f'{toml_str(str(tmp_path / "none.mp4"))}')
    assert main(["doctor", "--config", str(cfg), "--camera-window", "0.2"]) == 1
    out = capsys.readouterr().out
    assert "FAIL camera shoe (file): footage" in out and "is not there" in out
    assert "ok   panel panels: no seat panels configured" in out
    (tmp_path / "bad.toml").write_text("[gpio]\nfactory = 3\n")
    assert main(["doctor", "--config", str(tmp_path / "bad.toml")]) == 2
    assert "bad.toml:2: gpio.factory" in capsys.readouterr().err


@pytest.mark.parametrize("faces", [True, False], ids=["taught", "no-face-strips"])
def test_table_camera_view_and_deck(tmp_path: Path, sims, capsys, monkeypatch, faces) -> None:
    """The overhead camera's check: the play area's markers in view, the deck readable there."""
    from vision.table.faces import faces_path

    _club_deck(tmp_path / "home", monkeypatch)
    bundled = DURAK.parent
    if faces:
        faces_path("club-deck").write_bytes((bundled / "deck.table.npz").read_bytes())
    cfg = write_config(tmp_path / "t.toml", PanelConfig(), data_dir=tmp_path / "d",
                       port=free_port())
    with cfg.open("a", encoding="utf-8") as f:
        f.write(f'\n[cameras.table]\nkind = "file"\n'
                f'path = {toml_str(str(bundled / "belot2" / "table.mp4"))}\n'
                f'width = 1280\nheight = 720\n')
    # the bundled deck is named club-deck in this config's [table] (the default)
    rc = main(["doctor", "--config", str(cfg), "--json", "--camera-window", "0.3",
               "--panel-wait", "1"])
    out = json.loads(capsys.readouterr().out)
    by = {(c["kind"], c["name"]): c for c in out["checks"]}
    view = by[("camera", "table view")]
    assert "all four ArUco markers (0-3) in view" in view["detail"]
    # the bundled clips' markers are 4.4 cm, 50 cm apart (synth.table)
    assert "play area 50." in view["detail"] and "not yet checked with known cards" in view["detail"]
    if faces:
        assert view["ok"] and rc == 0, out
    else:
        assert not view["ok"] and rc == 1
        assert "cardtable table faces club-deck" in view["fix"]


def test_a_dim_table_is_a_problem_with_its_fix(tmp_path: Path, sims, capsys, monkeypatch) -> None:
    """A table lit at 0.6 of the light: the markers' white says so before any card is laid."""
    from synth.table import TableSetup, make_scripted_clip

    _club_deck(tmp_path / "home", monkeypatch)
    clip = tmp_path / "dim.mp4"
    make_scripted_clip(clip, "anglo", [(20, [])], table="blue_felt",
                       setup=TableSetup.sized(1280, 720, 360, 95, 63, light=0.6))
    cfg = write_config(tmp_path / "t.toml", PanelConfig(), data_dir=tmp_path / "d",
                       port=free_port())
    with cfg.open("a", encoding="utf-8") as f:
        f.write(f'\n[cameras.table]\nkind = "file"\npath = {toml_str(str(clip))}\n'
                f'width = 1280\nheight = 720\n')
    assert main(["doctor", "--config", str(cfg), "--camera-window", "0.3",
                 "--panel-wait", "1"]) == 1
    out = capsys.readouterr().out
    assert "FAIL camera table view" in out and "too dim: the markers' white is only" in out
    assert "play area 36." in out and "cardtable table check" in out


def test_table_camera_calibrated_for_another_camera(tmp_path: Path, sims, capsys) -> None:
    from vision.table.calibrate import calibrate_corners, save_calibration

    cal = save_calibration(calibrate_corners((1920, 1080), [(100, 900), (100, 100), (1800, 100),
                                                            (1800, 900)]), tmp_path / "cal.json")
    cfg = write_config(tmp_path / "t.toml", PanelConfig(), data_dir=tmp_path / "d",
                       port=free_port())
    with cfg.open("a", encoding="utf-8") as f:
        f.write(f'\n[cameras.table]\nkind = "file"\n'
                f'path = {toml_str(str(DURAK.parent / "belot2" / "table.mp4"))}\n'
                f'width = 1280\nheight = 720\ncalibration = {toml_str(str(cal))}\n')
    assert main(["doctor", "--config", str(cfg), "--camera-window", "0.3",
                 "--panel-wait", "1"]) == 1
    out = capsys.readouterr().out
    assert "FAIL camera table view: the calibration is for a 1920x1080 camera but the frames " \
           "are 1280x720" in out
    assert "cardtable table calibrate" in out


@pytest.mark.parametrize("verified", [False, None], ids=["unverified", "never-checked"])
def test_a_shoe_deck_not_verified_is_a_problem_with_its_fix(tmp_path: Path, capsys, monkeypatch,
                                                             verified) -> None:
    _club_deck(tmp_path / "home", monkeypatch, verified)
    cfg = write_config(tmp_path / "t.toml", PanelConfig(), data_dir=tmp_path / "d",
                       port=free_port())
    assert main(["doctor", "--config", str(cfg), "--camera-window", "0.3",
                 "--panel-wait", "1"]) == 1
    out = capsys.readouterr().out
    line = next(x for x in out.splitlines() if "deck club-deck" in x)
    assert line.startswith("FAIL") and "confirm every card" in line, out
    assert ("too dark" in line) == (verified is False)
    assert "cardtable deck verify club-deck --video PASS.mp4" in out


def test_a_shoe_deck_not_taught_is_a_problem(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(tmp_path / "empty-home"))
    cfg = write_config(tmp_path / "t.toml", PanelConfig(), data_dir=tmp_path / "d",
                       port=free_port())
    assert main(["doctor", "--config", str(cfg), "--camera-window", "0.3",
                 "--panel-wait", "1"]) == 1
    out = capsys.readouterr().out
    assert "FAIL deck club-deck: no deck profile called 'club-deck'" in out
    assert "cardtable deck teach club-deck" in out
