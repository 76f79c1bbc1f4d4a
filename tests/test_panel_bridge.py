"""Host bridge against simulated panels on real pseudo-terminals."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path

import pytest

from firmware_bridge.bridge import ButtonEvent, PanelBridge, PanelEvent, collect, discover_ports
from firmware_bridge.config import PanelConfig
from firmware_bridge.sim import Faults, SimPanel, SimTable

WAIT = 20.0  # generous: the suite runs on a shared, loaded machine


def buttons(events: list) -> list[ButtonEvent]:
    return [e for e in events if isinstance(e, ButtonEvent)]


def panel_events(events: list, kind: str) -> list[PanelEvent]:
    return [e for e in events if isinstance(e, PanelEvent) and e.kind == kind]


def sent_as_received(sim: SimPanel) -> list[tuple[str, str, int]]:
    return [(e.button, e.action, e.panel_ms) for e in sim.sent]


def received(events: list, panel_id: str | None = None, port: str | None = None) -> list:
    return [
        (e.button, e.action, e.panel_ms)
        for e in buttons(events)
        if (panel_id is None or e.panel_id == panel_id) and (port is None or e.port == port)
    ]


def wait_until(predicate, timeout: float = WAIT) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.01)
    return predicate()


def test_presses_and_long_press_arrive_with_seat_and_panel_time() -> None:
    with SimTable({"pico-a": 0}) as table:  # seats count from 0: seat 0 is the first player's
        bridge, sim = table.bridge, table[0]
        assert bridge.wait_connected(1, WAIT)
        assert wait_until(lambda: sim.seat == 0)  # the welcome's seat, back from the wire's 1
        sim.tap("pass")
        sim.long_press("bela", hold_ms=800)
        events = collect(bridge, lambda ev: len(buttons(ev)) >= 5, WAIT)
    got = buttons(events)
    assert [(e.button, e.action) for e in got] == [
        ("pass", "press"), ("pass", "release"),
        ("bela", "press"), ("bela", "long_press"), ("bela", "release")]
    assert {e.seat for e in got} == {0} and {e.panel_id for e in got} == {"pico-a"}
    assert received(events) == sent_as_received(sim)
    # The panel's own clock: the long press is reported 700 ms after the press.
    assert got[3].panel_ms - got[2].panel_ms >= 700
    connected = panel_events(events, "connected")
    assert connected and connected[0].detail == "sim-1.0"


def test_scripted_presses_happen_at_their_times() -> None:
    with SimTable({"pico-script": 1}) as table:
        bridge, sim = table.bridge, table[0]
        assert bridge.wait_connected(1, WAIT)
        start = sim.panel.uptime_ms()
        sim.script([(0.1, "press", "spades"), (0.4, "release", "spades"),
                    (0.5, "tap", "confirm")])
        events = collect(bridge, lambda ev: len(buttons(ev)) >= 4, WAIT)
    got = buttons(events)
    assert [(e.button, e.action) for e in got] == [
        ("spades", "press"), ("spades", "release"), ("confirm", "press"),
        ("confirm", "release")]
    # A timer never fires early: each event's panel time is at least its scheduled time
    # (1 ms slack for truncating both clocks to whole ms).
    for event, at_ms in zip(got, (100, 400, 500, 500), strict=True):
        assert event.panel_ms >= start + at_ms - 1


def test_every_press_exactly_once_under_5_percent_corruption_and_drop() -> None:
    with SimTable(["pico-noisy"], seed=11) as table:
        bridge, sim = table.bridge, table[0]
        assert bridge.wait_connected(1, WAIT)
        # 5% of bytes hit in each direction: half of them corrupted, half dropped.
        sim.tx_faults = sim.rx_faults = Faults(drop=0.025, corrupt=0.025)
        names = list(sim.buttons)
        for n in range(12):
            sim.tap(names[n % len(names)])
        sim.long_press("party", hold_ms=750)
        events = collect(bridge, lambda ev: len(buttons(ev)) >= 27, 45)
        time.sleep(0.3)  # late duplicates, if any were let through, would show up now
        while (event := bridge.next_event(0.01)) is not None:
            events.append(event)
        counters = bridge.status()["counters"]
    assert received(events) == sent_as_received(sim)  # each once, in order
    assert counters["bad_frames"] > 0 and counters["retransmits"] + sim.link.counters[
        "retransmits"] > 0, "the faults did not bite"


def test_duplicated_and_delayed_bytes_are_harmless() -> None:
    with SimTable(["pico-dup"], seed=5) as table:
        bridge, sim = table.bridge, table[0]
        assert bridge.wait_connected(1, WAIT)
        sim.tx_faults = Faults(duplicate=0.03, delay=0.2, delay_ms=40)
        for name in ("take", "beaten", "confirm", "undo", "bid_up", "bid_down"):
            sim.tap(name)
        events = collect(bridge, lambda ev: len(buttons(ev)) >= 12, WAIT)
    assert received(events) == sent_as_received(sim)


def test_led_commands_apply_in_order_even_on_a_noisy_line() -> None:
    with SimTable({"pico-led": 1}, seed=2) as table:
        bridge, sim = table.bridge, table[0]
        assert bridge.wait_connected(1, WAIT)
        sim.rx_faults = Faults(drop=0.02, corrupt=0.02)
        plan = []
        for n in range(20):
            led = ("turn", "trump", "illegal", "trick_won", "error")[n % 5]
            mode = ("on", "off", "blink", "pulse")[n % 4]
            colour = (n * 10, 255 - n * 10, n)
            plan.append((led, mode, colour, 100 + n))
        deliveries = [bridge.set_led(1, *cmd) for cmd in plan]  # fire without waiting
        assert all(d.wait(WAIT) for d in deliveries)
        # An ACK says the panel received the frame; it applies it just after (docs: ACK at once).
        assert wait_until(lambda: len(sim.applied) >= len(plan))
    assert [(c.led, c.mode, c.colour, c.period_ms) for c in sim.applied] == plan
    assert sim.leds["error"].mode == "pulse" and sim.leds["error"].period_ms == 119


def test_four_panels_at_once() -> None:
    ids = {f"pico-{n}": n for n in range(4)}
    with SimTable(ids, seed=20) as table:
        bridge = table.bridge
        assert bridge.wait_connected(4, WAIT)
        for noisy in (table[1], table[3]):  # two of the four on a poor line
            noisy.tx_faults = noisy.rx_faults = Faults(drop=0.01, corrupt=0.01)
        for round_ in range(3):
            for n, sim in enumerate(table.sims):
                sim.tap(list(sim.buttons)[n + round_])
        deliveries = [bridge.set_led(seat, "turn", "blink") for seat in range(4)]
        events = collect(bridge, lambda ev: len(buttons(ev)) >= 24, WAIT)
        assert all(d.wait(WAIT) for d in deliveries)
        assert wait_until(lambda: all("turn" in sim.leds for sim in table.sims))
    for sim in table.sims:
        assert received(events, panel_id=sim.panel_id) == sent_as_received(sim)
        assert {e.seat for e in buttons(events) if e.panel_id == sim.panel_id} == {
            ids[sim.panel_id]}
        assert sim.leds["turn"].mode == "blink"
    assert sorted(p["seat"] for p in bridge.status()["panels"]) == [0, 1, 2, 3]
    assert [sim.seat for sim in table.sims] == [0, 1, 2, 3]  # what each panel was welcomed with


def test_recovery_after_unplug_and_replug_within_one_second() -> None:
    with SimTable({"pico-u": 2}) as table:
        bridge, sim = table.bridge, table[0]
        assert bridge.wait_connected(1, WAIT)
        assert bridge.set_led(2, "trump", "on", (255, 0, 0)).wait(WAIT)
        sim.unplug()
        events = collect(bridge, lambda ev: bool(panel_events(ev, "disconnected")), WAIT)
        assert panel_events(events, "disconnected")
        time.sleep(0.4)  # cable out for a while; the bridge keeps retrying
        sim.replug()
        replugged = time.monotonic()
        events = collect(bridge, lambda ev: bool(panel_events(ev, "connected")), WAIT)
        recovery = time.monotonic() - replugged
        assert panel_events(events, "connected")[0].seat == 2
        assert recovery <= 1.0, f"recovery took {recovery:.3f} s"
        sim.tap("confirm")
        events = collect(bridge, lambda ev: len(buttons(ev)) >= 2, WAIT)
        assert received(events) == sent_as_received(sim)[-2:]
        # The replugged panel came up dark; the bridge replays the LED state it last set.
        assert wait_until(lambda: "trump" in sim.leds)
        assert sim.leds["trump"].colour == (255, 0, 0)
        assert bridge.counter("link_lost") == 1


def test_reboot_mid_stream_loses_nothing_after_it() -> None:
    with SimTable({"pico-r": 1}) as table:
        bridge, sim = table.bridge, table[0]
        assert bridge.wait_connected(1, WAIT)
        assert bridge.set_led(1, "turn", "pulse", period_ms=900).wait(WAIT)
        sim.tap("pass")
        collect(bridge, lambda ev: len(buttons(ev)) >= 2, WAIT)
        sim.reboot(mid_stream=True)  # half a frame, then a fresh boot with seq from 1 again
        sim.tap("pass")
        sim.tap("play")
        events = collect(bridge, lambda ev: len(buttons(ev)) >= 4, WAIT)
        assert panel_events(events, "rebooted")
        assert received(events) == sent_as_received(sim)[2:]
        assert wait_until(lambda: "turn" in sim.leds)
        assert sim.leds["turn"].mode == "pulse"


def test_link_declared_lost_after_three_seconds_of_silence() -> None:
    with SimTable({"pico-s": 1}) as table:
        bridge, sim = table.bridge, table[0]
        assert bridge.wait_connected(1, WAIT)
        sim.tx_faults = Faults(drop=1.0)  # the panel hangs: nothing more reaches the host
        started = time.monotonic()
        events = collect(bridge, lambda ev: bool(panel_events(ev, "disconnected")), WAIT)
        lost = panel_events(events, "disconnected")
        assert lost and "silent" in lost[0].detail
        assert time.monotonic() - started >= 2.9
        sim.tx_faults = Faults()
        assert bridge.wait_connected(1, WAIT)


def test_buzzer_and_error_reports() -> None:
    with SimTable({"pico-b": 4}) as table:
        bridge, sim = table.bridge, table[0]
        assert bridge.wait_connected(1, WAIT)
        assert bridge.buzz(4, 1500, 120).wait(WAIT)
        assert wait_until(lambda: bool(sim.buzzes))  # applied just after the ACK
        assert sim.buzzes == [(1500, 120)]
        sim.report_error(5, "LED driver overheated")
        events = collect(bridge, lambda ev: bool(panel_events(ev, "error")), WAIT)
        assert panel_events(events, "error")[0].detail == "LED driver overheated"
        assert bridge.counter("panel_errors") == 1
        with pytest.raises(KeyError, match="no LED 'disco'"):
            bridge.set_led(4, "disco")
        with pytest.raises(LookupError):
            bridge.set_led(7, "turn")


def test_explicit_port_without_discovery() -> None:
    with SimPanel("pico-x") as sim, PanelBridge(ports=[sim.port], discover=False) as bridge:
        assert bridge.wait_connected(1, WAIT)
        (panel,) = bridge.status()["panels"]
        assert panel["panel_id"] == "pico-x" and panel["seat"] is None
        assert panel["port"] == sim.pty_path and "trump" in panel["leds"]


def test_discovery_filters_by_id_names_and_skips_dangling_links(tmp_path: Path) -> None:
    target = tmp_path / "ttyACM0"
    target.touch()
    (tmp_path / "by-id").mkdir()
    os.symlink(target, tmp_path / "by-id" / "usb-MicroPython_Board_in_FS_mode_e661-if00")
    os.symlink(target, tmp_path / "by-id" / "usb-FTDI_FT232R_A1-if00-port0")
    os.symlink(tmp_path / "gone", tmp_path / "by-id" / "usb-MicroPython_Board_old-if00")
    config = PanelConfig(by_id_dirs=[str(tmp_path / "by-id"), str(tmp_path / "missing")],
                         use_list_ports=False)
    assert discover_ports(config) == [
        str(tmp_path / "by-id" / "usb-MicroPython_Board_in_FS_mode_e661-if00")]


def test_asyncio_stream_yields_the_same_events() -> None:
    async def first_presses(bridge: PanelBridge, n: int) -> list[ButtonEvent]:
        got: list[ButtonEvent] = []
        async for event in bridge.stream():
            if isinstance(event, ButtonEvent):
                got.append(event)
                if len(got) == n:
                    return got
        return got

    with SimTable({"pico-async": 2}) as table:
        bridge, sim = table.bridge, table[0]
        assert bridge.wait_connected(1, WAIT)
        sim.tap("hearts")
        got = asyncio.run(asyncio.wait_for(first_presses(bridge, 2), WAIT))
    assert [(e.button, e.action, e.seat) for e in got] == [
        ("hearts", "press", 2), ("hearts", "release", 2)]


def test_discovery_uses_list_ports_for_pico_usb_ids(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # No USB hardware here: list_ports is the one part replaced, with the fields it reports.
    from serial.tools import list_ports_common

    by_id = tmp_path / "by-id"
    by_id.mkdir()
    acm0, acm1, other = (tmp_path / name for name in ("ttyACM0", "ttyACM1", "ttyUSB0"))
    for dev in (acm0, acm1, other):
        dev.touch()
    os.symlink(acm0, by_id / "usb-MicroPython_Board_in_FS_mode_e661-if00")

    def port(dev: Path, vid: int) -> list_ports_common.ListPortInfo:
        info = list_ports_common.ListPortInfo(str(dev), skip_link_detection=True)
        info.vid, info.pid = vid, 0x0005
        return info

    monkeypatch.setattr("serial.tools.list_ports.comports", lambda: [
        port(acm0, 0x2E8A), port(acm1, 0x2E8A), port(other, 0x0403)])
    found = discover_ports(PanelConfig(by_id_dirs=[str(by_id)]))
    # ACM0 is known by its stable by-id name; ACM1 only via list_ports; the FTDI one is skipped.
    assert found == [str(by_id / "usb-MicroPython_Board_in_FS_mode_e661-if00"), str(acm1)]
