"""Bad input on the panel lines: no crash, nothing lost from other panels, a log line and a
counter in the bridge's status for each kind."""

from __future__ import annotations

import itertools
import logging
import random
import time

import pytest

from firmware_bridge import protocol as p
from firmware_bridge.bridge import ButtonEvent, PanelEvent, PanelNotConnected, collect
from firmware_bridge.sim import SimTable

WAIT = 20.0


def presses(events: list, panel_id: str, port: str | None = None) -> list[tuple[str, str, int]]:
    return [
        (e.button, e.action, e.panel_ms)
        for e in events
        if isinstance(e, ButtonEvent) and e.panel_id == panel_id and (port is None or e.port == port)
    ]


def sent(sim) -> list[tuple[str, str, int]]:
    return [(e.button, e.action, e.panel_ms) for e in sim.sent]


def n_buttons(events: list) -> int:
    return sum(isinstance(e, ButtonEvent) for e in events)


def run_with_bad_neighbour(misbehave, expect_from_bad: int = 2):
    """Panel A (seat 1) taps buttons while panel B (seat 2) misbehaves between its own taps."""
    table = SimTable({"pico-good": 1, "pico-bad": 2}, seed=3).start()
    try:
        good, bad = table.sims
        bridge = table.bridge
        assert bridge.wait_connected(2, WAIT)
        for n in range(4):
            good.tap(("pass", "play", "bela", "take")[n])
            misbehave(bad)
        bad.tap("confirm")  # the misbehaving panel itself still works afterwards
        events = collect(bridge, lambda ev: n_buttons(ev) >= 8 + expect_from_bad, WAIT)
        return table, events, bridge.status()["counters"]
    finally:
        table.close()


def test_garbage_on_the_line(caplog: pytest.LogCaptureFixture) -> None:
    rng = random.Random(7)
    with caplog.at_level(logging.WARNING, logger="firmware_bridge"):
        table, events, counters = run_with_bad_neighbour(
            lambda bad: bad.send_raw(bytes(rng.randrange(256) for _ in range(300))))
    good, bad = table.sims
    assert presses(events, "pico-good") == sent(good)
    assert presses(events, "pico-bad") == sent(bad)
    assert counters["bad_frames"] >= 4
    assert any("garbage on the line" in r.getMessage() and "bad_frames=" in r.getMessage()
               for r in caplog.records)


def test_frame_from_an_unknown_protocol_version(caplog: pytest.LogCaptureFixture) -> None:
    frame = p.pack_button(1, p.PRESS, 0)
    with caplog.at_level(logging.WARNING, logger="firmware_bridge"):
        table, events, counters = run_with_bad_neighbour(
            lambda bad: bad.send_frame(p.BUTTON, frame, version=2))
    good, bad = table.sims
    assert presses(events, "pico-good") == sent(good)
    assert presses(events, "pico-bad") == sent(bad)  # the v2 "presses" were not delivered
    assert counters["bad_version"] == 4
    assert any("protocol version 2" in r.getMessage() for r in caplog.records)


def test_unknown_message_types(caplog: pytest.LogCaptureFixture) -> None:
    seqs = itertools.count(0xFF00)  # distinct, or de-dup would (rightly) hide repeats

    def misbehave(bad) -> None:
        bad.send_frame(0x5A, b"from the future", seq=next(seqs))  # reliable: ACKed, ignored
        bad.send_frame(0x0E, b"")  # control range

    with caplog.at_level(logging.WARNING, logger="firmware_bridge"):
        table, events, counters = run_with_bad_neighbour(misbehave)
    good, bad = table.sims
    assert presses(events, "pico-good") == sent(good)
    assert presses(events, "pico-bad") == sent(bad)
    assert counters["unknown_type"] == 8
    assert any("unexpected message type 0x5a" in r.getMessage() for r in caplog.records)


def test_panel_in_no_seat(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="firmware_bridge"), SimTable(
        {"pico-good": 1, "pico-stranger": None}
    ) as table:
        good, stranger = table.sims
        bridge = table.bridge
        assert bridge.wait_connected(2, WAIT)
        good.tap("pass")
        stranger.tap("play")
        good.tap("take")
        events = collect(bridge, lambda ev: n_buttons(ev) >= 6, WAIT)
        counters = bridge.status()["counters"]
    assert presses(events, "pico-good") == sent(good)
    assert {e.seat for e in events if isinstance(e, ButtonEvent) and e.panel_id == "pico-good"
            } == {1}
    # The stranger's presses are still reported (panels test shows them) but with no seat.
    assert presses(events, "pico-stranger") == sent(stranger)
    assert {e.seat for e in events if isinstance(e, ButtonEvent)
            and e.panel_id == "pico-stranger"} == {None}
    assert stranger.seat is None and good.seat == 1  # told in WELCOME
    assert counters["unknown_panel"] == 1
    assert any("pico-stranger" in r.getMessage() and "no seat" in r.getMessage()
               for r in caplog.records)


def test_two_panels_claiming_one_seat(caplog: pytest.LogCaptureFixture) -> None:
    # Two boards flashed with the same panel id: one gets seat 0, the other none.
    with caplog.at_level(logging.WARNING, logger="firmware_bridge"), SimTable(
        ["pico-twin", "pico-twin", "pico-other"], seats={"pico-twin": 0, "pico-other": 2}
    ) as table:
        first, second, other = table.sims
        bridge = table.bridge
        assert bridge.wait_connected(3, WAIT)
        for sim in table.sims:
            sim.tap("pass")
            sim.tap("undo")
        events = collect(bridge, lambda ev: n_buttons(ev) >= 12, WAIT)
        counters = bridge.status()["counters"]
    assert presses(events, "pico-other") == sent(other)
    for sim in (first, second):
        assert presses(events, "pico-twin", port=sim.port) == sent(sim)
    assert {first.seat, second.seat} == {0, None}  # as the welcomes said
    assert counters["seat_conflict"] == 1
    assert any("claims seat 0" in r.getMessage() for r in caplog.records)


def test_bad_payload_is_counted_not_fatal() -> None:
    with SimTable({"pico-a": 1}) as table:
        sim, bridge = table[0], table.bridge
        assert bridge.wait_connected(1, WAIT)
        sim.send_frame(p.BUTTON, b"\x01")  # too short to be a button event
        sim.tap("pass")
        events = collect(bridge, lambda ev: n_buttons(ev) >= 2, WAIT)
        assert presses(events, "pico-a") == sent(sim)
        assert bridge.counter("bad_payload") == 1


def test_button_frame_with_trailing_bytes_is_not_a_press() -> None:
    with SimTable({"pico-a": 1}) as table:
        sim, bridge = table[0], table.bridge
        assert bridge.wait_connected(1, WAIT)
        sim.send_frame(p.BUTTON, p.pack_button(1, p.PRESS, 0) + b"\xff", seq=0xFF00)
        sim.send_frame(p.BUTTON, p.pack_button(1, p.PRESS, 0) + bytes(234), seq=0xFF01)
        sim.tap("take")
        events = collect(bridge, lambda ev: n_buttons(ev) >= 2, WAIT)
        assert presses(events, "pico-a") == sent(sim)  # only the real tap
        assert bridge.counter("bad_payload") == 2


def test_frame_with_a_241_byte_payload_is_dropped() -> None:
    import binascii
    import struct

    from cobs import cobs

    body = struct.pack("<BBH", p.PROTOCOL_VERSION, p.BUTTON, 0xFF00)
    body += p.pack_button(1, p.PRESS, 0) + bytes(235)  # 241 bytes
    frame = cobs.encode(body + struct.pack(">H", binascii.crc_hqx(body, 0xFFFF))) + b"\x00"
    with SimTable({"pico-a": 1}) as table:
        sim, bridge = table[0], table.bridge
        assert bridge.wait_connected(1, WAIT)
        sim.send_raw(frame)
        sim.tap("take")
        events = collect(bridge, lambda ev: n_buttons(ev) >= 2, WAIT)
        assert presses(events, "pico-a") == sent(sim)
        assert bridge.counter("bad_frames") == 1


def test_changed_panel_id_on_a_live_port_moves_no_presses(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # pico-a is plugged in at seat 1; without any reconnect it starts saying it is pico-b,
    # the panel of seat 2. Its presses must not be credited to seat 2's player.
    with caplog.at_level(logging.WARNING, logger="firmware_bridge"), SimTable(
        {"pico-a": 1}, seats={"pico-a": 1, "pico-b": 2}
    ) as table:
        sim, bridge = table[0], table.bridge
        assert bridge.wait_connected(1, WAIT)
        sim.tap("pass")
        before = collect(bridge, lambda ev: n_buttons(ev) >= 2, WAIT)
        assert {e.seat for e in before if isinstance(e, ButtonEvent)} == {1}
        with sim.lock:
            sim.panel.panel_id = "pico-b"
            sim.panel.send_hello()
        alerts = collect(bridge, lambda ev: any(
            isinstance(e, PanelEvent) and e.kind == "identity_changed" for e in ev), WAIT)
        sim.tap("take")
        after = collect(bridge, lambda ev: n_buttons(ev) >= 2, WAIT)
        counters = bridge.status()["counters"]
        with pytest.raises(PanelNotConnected):
            bridge.set_led(2, "turn", "on")  # seat 2's panel is not here
        # The welcome told the panel it has no seat now (the panel's own thread takes it in).
        deadline = time.monotonic() + WAIT
        while sim.seat is not None and time.monotonic() < deadline:
            time.sleep(0.01)
        assert sim.seat is None
    (alert,) = [e for e in alerts if isinstance(e, PanelEvent) and e.kind == "identity_changed"]
    assert alert.panel_id == "pico-b" and alert.seat is None
    assert "pico-a" in alert.detail and "seat 1" in alert.detail
    assert [e for e in after if isinstance(e, ButtonEvent)]
    assert {e.seat for e in after if isinstance(e, ButtonEvent)} == {None}
    assert counters["identity_changed"] == 1
    assert any("pico-a" in r.getMessage() and "pico-b" in r.getMessage()
               and "identity_changed=1" in r.getMessage() for r in caplog.records)
