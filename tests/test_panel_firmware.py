"""Pico reference firmware: its protocol copy, debouncing, long press and LED effects, run
under CPython (test_panel_micropython.py runs the whole firmware under MicroPython)."""

from __future__ import annotations

import importlib.util
import py_compile
import sys
import types
from pathlib import Path

import pytest

from firmware_bridge import protocol as host

FIRMWARE = Path(__file__).resolve().parents[1] / "firmware"


def load(name: str, monkeypatch: pytest.MonkeyPatch | None = None, micropython: bool = False):
    """Import firmware/<name>.py as a fresh module; ``micropython`` hides cobs and crc_hqx."""
    if micropython:
        assert monkeypatch is not None
        monkeypatch.setitem(sys.modules, "cobs", None)  # import fails, as on the Pico
        monkeypatch.setitem(sys.modules, "binascii", types.ModuleType("binascii"))
    spec = importlib.util.spec_from_file_location(f"firmware_{name}", FIRMWARE / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_firmware_protocol_is_identical_to_the_host_copy() -> None:
    # a real file: a symbolic link breaks on Windows and in a zip download of the project
    assert not (FIRMWARE / "protocol.py").is_symlink()
    host_copy = Path(host.__file__).read_bytes()
    assert (FIRMWARE / "protocol.py").read_bytes() == host_copy, (
        "run: cp firmware_bridge/protocol.py firmware/protocol.py")


def test_protocol_without_cobs_or_crc_hqx_speaks_the_same_bytes(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fw = load("protocol", monkeypatch, micropython=True)
    assert fw._cobs is None and fw._crc_hqx is None  # really on the fallback paths
    payload = fw.pack_led(2, fw.LED_PULSE, (10, 0, 200), 800)
    for seq in (0, 1, 255, 256, 65535):
        assert fw.encode_frame(fw.LED, seq, payload) == host.encode_frame(host.LED, seq, payload)
    stream = b"".join(host.encode_frame(host.BUTTON, n, bytes([n, 0, n])) for n in range(40))
    frames = fw.FrameDecoder().feed(stream)
    assert [(f.seq, f.payload) for f in frames] == [(n, bytes([n, 0, n])) for n in range(40)]


def test_fallback_panel_handshakes_with_a_host_link(monkeypatch: pytest.MonkeyPatch) -> None:
    """The firmware's Panel (fallback codecs) against the host's Link, wired in memory."""
    fw = load("protocol", monkeypatch, micropython=True)
    now = [0]
    to_host: list[bytes] = []
    to_panel: list[bytes] = []
    leds: list[tuple] = []
    panel = fw.Panel(to_host.append, lambda: now[0], "pico-01", "1.0.0", [(1, "pass")],
                     [(1, "turn", 0)], 0, lambda *a: leds.append(a) or a[0] == 1,
                     lambda f, d: None)
    host_link = host.Link(to_panel.append, lambda: now[0])
    got: list = []

    def pump() -> None:
        for _ in range(6):
            data, to_host[:] = b"".join(to_host), []
            got.extend(host_link.feed(data))
            data, to_panel[:] = b"".join(to_panel), []
            panel.feed(data)

    panel.boot(1234)
    panel.button(1, fw.PRESS, 5)  # queued until welcomed
    pump()
    (hello,) = [f for f in got if f.mtype == host.HELLO]
    info = host.unpack_hello(hello.payload)
    assert info["panel_id"] == "pico-01" and info["boot_id"] == 1234
    host_link.send_control(host.WELCOME, host.pack_welcome(1234, 99, 2))
    host_link.send(host.LED, host.pack_led(1, host.LED_BLINK, (1, 2, 3), 400))
    pump()
    assert panel.seat == 2 and panel.welcomed
    assert [host.unpack_button(f.payload) for f in got if f.mtype == host.BUTTON] == [
        (1, host.PRESS, 5)]
    assert leds == [(1, host.LED_BLINK, (1, 2, 3), 400)]
    assert host_link.pending() == 0 and panel.link.pending() == 0


def test_firmware_constants_match_the_protocol() -> None:
    buttons, leds = load("buttons"), load("leds")
    assert (buttons.PRESS, buttons.RELEASE, buttons.LONG_PRESS) == (
        host.PRESS, host.RELEASE, host.LONG_PRESS)
    assert (leds.OFF, leds.ON, leds.BLINK, leds.PULSE) == (
        host.LED_OFF, host.LED_ON, host.LED_BLINK, host.LED_PULSE)


def test_debounce_ignores_bounce_and_stamps_the_first_edge() -> None:
    b = load("buttons").Button(7, debounce_ms=20, long_ms=700)
    events = []
    # Contact bounce at 100..106 ms, then held from 108 ms; released cleanly at 300 ms.
    for t, level in [(100, True), (102, False), (104, True), (106, False), (108, True),
                     (110, True), (120, True), (127, True), (128, True), (129, True),
                     (300, False), (310, False), (320, False), (321, False)]:
        events += b.update(t, level)
    # The level from 108 ms holds 20 ms at 128 ms -> press stamped 108; release stamped 300.
    assert events == [(1, 108), (2, 300)]


def test_short_glitch_is_not_a_press() -> None:
    b = load("buttons").Button(1, debounce_ms=20)
    events = []
    for t, level in [(0, False), (5, True), (15, False), (30, False), (60, False)]:
        events += b.update(t, level)
    assert events == []


def test_long_press_fires_once_at_700_ms() -> None:
    b = load("buttons").Button(1, debounce_ms=20, long_ms=700)
    events = []
    for t in range(0, 1500, 10):
        events += b.update(t, t < 1200)
    # Pressed at 0 (stable at 20), long press at 0 + 700, released at 1200 (stable 1220).
    assert events == [(1, 0), (3, 700), (2, 1200)]


def test_led_effects() -> None:
    leds = load("leds")
    assert leds.Effect(leds.ON).level(123) == leds.FULL
    assert leds.Effect(leds.OFF).level(123) == 0
    blink = leds.Effect(leds.BLINK, period_ms=400, start_ms=1000)
    # 400 ms period: lit for the first 200 ms of each period, dark for the rest.
    assert [blink.level(t) for t in (1000, 1199, 1200, 1399, 1400)] == [
        leds.FULL, leds.FULL, 0, 0, leds.FULL]
    pulse = leds.Effect(leds.PULSE, period_ms=1000, start_ms=0)
    # Triangle up to the middle of the period, squared: 0 at 0 ms, full at 500, 1/4 at 250.
    assert pulse.level(0) == 0 and pulse.level(500) == leds.FULL
    assert pulse.level(250) == (leds.FULL // 2) ** 2 // leds.FULL
    assert pulse.level(250) == pulse.level(750)
    red = leds.Effect(leds.ON, colour=(255, 0, 51))
    assert red.duties(0) == (leds.FULL, 0, 51 * leds.FULL // 255)
    assert leds.Effect(leds.BLINK).period_ms == leds.DEFAULT_PERIOD_MS  # 0 means default


@pytest.mark.parametrize("name", ["main", "board", "buttons", "leds", "protocol"])
def test_firmware_files_compile(name: str, tmp_path: Path) -> None:
    py_compile.compile(str(FIRMWARE / f"{name}.py"), cfile=str(tmp_path / "x.pyc"), doraise=True)
