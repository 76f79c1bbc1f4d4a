"""The reference firmware (firmware/main.py and friends) running under real MicroPython.

MicroPython's unix port runs the unmodified firmware with its stdin/stdout on the far end of a
pty, just as the Pico's USB serial would be; the host bridge opens the other end. Only the
board is stood in for: a small ``machine`` module whose button pins follow a script (with
contact bounce) and whose PWM outputs report their duty on stderr.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
import tty
from pathlib import Path

import pytest

from firmware_bridge.bridge import ButtonEvent, PanelBridge, collect
from firmware_bridge.config import PanelConfig

pytest.importorskip("micropython_unix")

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"
WAIT = 30.0

# MicroPython source of the stand-in board. Button GPIOs come from firmware/board.py:
# 2 = pass, 10 = bela. Levels are 0 when pressed (pull-up wiring).
FAKE_MACHINE = '''
import sys, time
T0 = time.ticks_ms()
# gpio -> [(ms after start, level)], bouncing on every edge
SCRIPT = {
    2: [(600, 0), (602, 1), (604, 0), (606, 1), (608, 0),
        (900, 1), (902, 0), (904, 1)],
    10: [(1200, 0), (1201, 1), (1203, 0), (2300, 1)],
}

def unique_id():
    return b"\\xe6\\x61\\x41\\x03\\x07\\x1a"

class Pin:
    IN = 0
    OUT = 1
    PULL_UP = 1
    def __init__(self, gpio, mode=0, pull=None):
        self.gpio = gpio
    def value(self):
        level = 1
        now = time.ticks_diff(time.ticks_ms(), T0)
        for at, lvl in SCRIPT.get(self.gpio, ()):
            if now >= at:
                level = lvl
        return level

class PWM:
    def __init__(self, pin):
        self.gpio = pin.gpio
        self.duty = None
    def freq(self, hz):
        sys.stderr.write("FREQ %d %d\\n" % (self.gpio, hz))
    def duty_u16(self, duty):
        if duty != self.duty:
            self.duty = duty
            sys.stderr.write("PWM %d %d\\n" % (self.gpio, duty))
'''

LAUNCHER = """
import sys
sys.path.insert(0, {firmware!r})
sys.path.insert(0, {fake!r})
import main
"""


@pytest.fixture
def micropython_panel(tmp_path: Path):
    (tmp_path / "machine.py").write_text(FAKE_MACHINE)
    launcher = tmp_path / "launch.py"
    launcher.write_text(LAUNCHER.format(firmware=str(FIRMWARE), fake=str(tmp_path)))
    master, slave = os.openpty()
    tty.setraw(slave)
    proc = subprocess.Popen(
        [sys.executable, "-c",
         f"import sys; sys.argv = ['micropython', {str(launcher)!r}]; "
         "import micropython_unix; micropython_unix.main()"],
        stdin=master, stdout=master, stderr=subprocess.PIPE, text=True,
    )
    lines: list[str] = []

    def read_stderr() -> None:
        assert proc.stderr is not None
        for line in proc.stderr:
            lines.append(line.rstrip("\n"))

    threading.Thread(target=read_stderr, daemon=True).start()
    try:
        yield os.ttyname(slave), lines
    finally:
        proc.kill()
        proc.wait(10)
        os.close(master)
        os.close(slave)


def wait_for_line(lines: list[str], wanted: str, timeout: float = WAIT) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if wanted in lines:
            return True
        time.sleep(0.02)
    return False


def test_reference_firmware_under_micropython(micropython_panel) -> None:
    port, stderr = micropython_panel
    config = PanelConfig.from_mapping({"pico-e6614103071a": 4})
    with PanelBridge(config, ports=[port], discover=False) as bridge:
        assert bridge.wait_connected(1, WAIT), stderr
        (panel,) = bridge.status()["panels"]
        assert panel["panel_id"] == "pico-e6614103071a" and panel["seat"] == 4
        assert panel["firmware"] == "1.0.0" and panel["buzzer"]
        assert panel["leds"] == ["turn", "trump", "illegal", "trick_won", "error"]
        assert len(panel["buttons"]) == 14

        events = collect(bridge, lambda ev: sum(isinstance(e, ButtonEvent) for e in ev) >= 5,
                         WAIT)
        got = [e for e in events if isinstance(e, ButtonEvent)]
        # One press and one release per scripted press despite the contact bounce.
        assert [(e.button, e.action) for e in got] == [
            ("pass", "press"), ("pass", "release"),
            ("bela", "press"), ("bela", "long_press"), ("bela", "release")]
        assert {e.seat for e in got} == {4}
        assert got[3].panel_ms - got[2].panel_ms == 700  # long press at press + 700 ms
        assert got[0].panel_ms < got[1].panel_ms < got[2].panel_ms < got[4].panel_ms

        # LEDs: trump is RGB on GPIO 17/18/19; turn is GPIO 16.
        assert bridge.set_led(4, "trump", "on", (255, 0, 0)).wait(WAIT)
        assert wait_for_line(stderr, "PWM 17 65535")
        assert bridge.set_led(4, "trump", "off").wait(WAIT)
        assert wait_for_line(stderr, "PWM 17 0")
        assert bridge.set_led(4, "turn", "blink", period_ms=200).wait(WAIT)
        assert wait_for_line(stderr, "PWM 16 65535")
        stderr.clear()
        assert wait_for_line(stderr, "PWM 16 0")  # and it goes dark again: blinking
        assert bridge.buzz(4, 1500, 50).wait(WAIT)
        assert wait_for_line(stderr, "FREQ 26 1500") and wait_for_line(stderr, "PWM 26 32768")
        assert bridge.counter("bad_frames") == 0
