"""`cardtable panels list | test | sim` against simulated panels on ptys."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from firmware_bridge.bridge import PanelBridge
from firmware_bridge.cli import main
from firmware_bridge.sim import SimTable

WAIT = 20.0


def test_panels_list_shows_panels_seats_and_firmware(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = tmp_path / "table.toml"
    config.write_text('seats_from = 0\n[[seats]]\nseat = 3\npanel_id = "pico-north"\n',
                      encoding="utf-8")
    with SimTable(["pico-north", "pico-spare"], with_bridge=False) as table:
        code = main(["panels", "list", "--config", str(config), "--by-id-dir",
                     str(table.by_id), "--all-ports", "--no-list-ports", "--wait", str(WAIT)])
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split() == ["PORT", "PANEL", "SEAT", "FIRMWARE", "BUTTONS", "LEDS", "STATE"]
    rows = {line.split()[1]: line.split() for line in lines[1:]}
    assert rows["pico-north"][2:5] == ["3", "sim-1.0", "14"]
    assert rows["pico-spare"][2] == "-"  # in no seat
    assert rows["pico-north"][5] == "turn,trump,illegal,trick_won,error"


def test_panels_list_with_nothing_there(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["panels", "list", "--by-id-dir", str(tmp_path), "--no-list-ports",
                 "--wait", "0.1"])
    assert code == 1 and "no panels found" in capsys.readouterr().out


def test_panels_test_blinks_every_led_and_echoes_presses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with SimTable(["pico-t"], with_bridge=False) as table:
        sim = table[0]
        result: list[int] = []
        runner = threading.Thread(target=lambda: result.append(
            main(["panels", "test", sim.port, "--duration", "3", "--wait", str(WAIT)])))
        runner.start()
        deadline = time.monotonic() + WAIT
        while len({c.led for c in sim.applied}) < 5 and time.monotonic() < deadline:
            time.sleep(0.02)
        sim.tap("bela")
        runner.join(WAIT)
    out = capsys.readouterr().out
    assert result == [0]
    blinked = {c.led for c in sim.applied if c.mode == "blink"}
    assert blinked == {"turn", "trump", "illegal", "trick_won", "error"}
    assert {c.led: c.mode for c in sim.applied[-5:]} == dict.fromkeys(blinked, "off")
    assert sim.buzzes == [(2000, 80)]
    assert "pico-t: bela press" in out and "pico-t: bela release" in out


def test_panels_sim_prints_a_pty_the_bridge_can_open(tmp_path: Path) -> None:
    link = tmp_path / "usb-cardtable_sim-if00"
    # Ctrl-C as a terminal gives it: a test run started in the background (nohup, `&` in a
    # script) ignores SIGINT, and a child would inherit that and never stop
    proc = subprocess.Popen(
        [sys.executable, "-m", "firmware_bridge.cli", "panels", "sim", "--seat", "2",
         "--link", str(link)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert proc.stdout is not None and proc.stdin is not None
        first = proc.stdout.readline()
        match = re.search(r"simulated panel sim-seat-2 \(seat 2\) on (\S+)", first)
        assert match, first
        assert link.resolve() == Path(match.group(1)).resolve()
        from firmware_bridge.config import PanelConfig

        with PanelBridge(PanelConfig.for_simulated_seats(4), ports=[match.group(1)],
                         discover=False) as bridge:
            assert bridge.wait_connected(1, WAIT)
            assert bridge.status()["panels"][0]["seat"] == 2
            proc.stdin.write("take\n")
            proc.stdin.flush()
            event = None
            deadline = time.monotonic() + WAIT
            while time.monotonic() < deadline:
                event = bridge.next_event(0.1)
                if event is not None and getattr(event, "button", None) == "take":
                    break
            assert event is not None and event.seat == 2 and event.action == "press"
            assert bridge.set_led(2, "trump", "pulse", (0, 0, 255)).wait(WAIT)
            deadline = time.monotonic() + WAIT
            line = ""
            while "LED" not in line and time.monotonic() < deadline:
                line = proc.stdout.readline()
            assert "LED trump pulse colour=(0, 0, 255)" in line
    finally:
        proc.send_signal(signal.SIGINT)
        assert proc.wait(WAIT) == 0


def _bad_args(tmp_path: Path) -> list[tuple[list[str], str]]:
    broken = tmp_path / "broken.toml"
    broken.write_text('[[seats]]\nseat = 1\npanel_id = "pico-a\n', encoding="utf-8")
    twice = tmp_path / "twice.toml"
    twice.write_text('seats_from = 0\n[[seats]]\nseat = 2\npanel_id = "a"\n'
                     '[[seats]]\nseat = 2\npanel_id = "b"\n', encoding="utf-8")
    # written when seats counted from 1: refused, never read one seat off
    old = tmp_path / "old.toml"
    old.write_text('[[seats]]\nseat = 1\npanel_id = "a"\n[[seats]]\nseat = 2\npanel_id = "b"\n',
                   encoding="utf-8")
    quick = ["--no-list-ports", "--by-id-dir", str(tmp_path), "--wait", "0.1"]
    return [
        (["panels", "sim", "--link", str(tmp_path / "nope" / "x"), "--duration", "0.1"],
         "does not exist"),
        (["panels", "sim", "--panel-id", "x" * 300, "--duration", "0.1"], "--panel-id"),
        (["panels", "sim", "--panel-id", "", "--duration", "0.1"], "--panel-id"),
        (["panels", "sim", "--seat", "8", "--duration", "0.1"], "seats count from 0"),
        (["panels", "sim", "--seat", "-1", "--duration", "0.1"], "--seat"),
        (["panels", "sim", "--drop", "2", "--duration", "0.1"], "--drop"),
        (["panels", "list", "--config", str(broken), *quick], "line 3"),
        (["panels", "list", "--config", str(twice), *quick], "seat 2 is claimed by two panels"),
        (["panels", "test", "--config", str(twice), *quick], "seats"),
        (["panels", "list", "--config", str(tmp_path / "none.toml"), *quick], "none.toml"),
        (["panels", "list", "--wait", "-1", *quick[:3]], "--wait"),
        (["panels", "list", "--config", str(old), *quick],
         "line 2: seats[0].seat: seats now count from 0"),
    ]


@pytest.mark.parametrize("case", range(12))
def test_bad_arguments_give_one_line_and_status_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: int
) -> None:
    argv, wanted = _bad_args(tmp_path)[case]
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse's own errors
        code = exc.code
    err = capsys.readouterr().err
    lines = [line for line in err.splitlines() if not line.startswith(("usage:", " "))]
    assert code == 2, err
    assert len(lines) == 1 and wanted in lines[0] and "error" in lines[0], err
