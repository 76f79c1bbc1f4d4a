"""Panel protocol: framing, checksums, codecs and the reliable link, without any serial port."""

from __future__ import annotations

import binascii
import contextlib
import struct

import pytest
from cobs import cobs
from hypothesis import given, settings
from hypothesis import strategies as st

from firmware_bridge import protocol as p


def test_crc_is_ccitt_false_check_value() -> None:
    # The catalogued check value of CRC-16/CCITT-FALSE over ASCII "123456789" is 0x29B1.
    assert p.crc16(b"123456789") == 0x29B1
    assert p._crc16_pure(b"123456789") == 0x29B1


@given(st.binary(max_size=300))
def test_pure_fallbacks_match_the_libraries(data: bytes) -> None:
    # The MicroPython fallbacks must produce exactly what cobs/binascii produce on the host.
    assert p._crc16_pure(data) == binascii.crc_hqx(data, 0xFFFF)
    encoded = cobs.encode(data)
    assert p._cobs_encode_pure(data) == encoded
    assert p._cobs_decode_pure(encoded) == data


@given(st.binary(min_size=1, max_size=300))
def test_pure_cobs_decoder_rejects_what_the_library_rejects(data: bytes) -> None:
    try:
        expected = cobs.decode(data)
    except cobs.DecodeError:
        with pytest.raises(p.ProtocolError):
            p._cobs_decode_pure(data)
    else:
        assert p._cobs_decode_pure(data) == expected


frames = st.tuples(
    st.integers(0, 255), st.integers(0, 0xFFFF), st.binary(max_size=p.MAX_PAYLOAD)
)


@given(frames)
def test_frame_round_trip(frame: tuple[int, int, bytes]) -> None:
    mtype, seq, payload = frame
    encoded = p.encode_frame(mtype, seq, payload)
    assert encoded.endswith(b"\x00") and b"\x00" not in encoded[:-1]
    decoded = p.decode_frame(encoded[:-1])
    assert (decoded.version, decoded.mtype, decoded.seq, decoded.payload) == (
        p.PROTOCOL_VERSION, mtype, seq, payload)


def test_frame_layout_by_hand() -> None:
    # LED frame: version 1, type 0x20, seq 7 -> header 01 20 07 00; payload led 2 on red.
    payload = p.pack_led(2, p.LED_ON, (255, 0, 0), 0)
    body = bytes([1, 0x20, 7, 0]) + bytes([2, 1, 255, 0, 0, 0, 0])
    crc = binascii.crc_hqx(body, 0xFFFF)
    assert payload == body[4:]
    assert p.encode_frame(p.LED, 7, payload) == cobs.encode(body + struct.pack(">H", crc)) + b"\0"


def _independently_valid(frame: p.Frame, stream: bytes) -> bool:
    """Is there a chunk in the stream that COBS-decodes to this frame with a correct CRC?"""
    for chunk in stream.split(b"\x00"):
        try:
            body = cobs.decode(chunk)
        except cobs.DecodeError:
            continue
        if len(body) < 6 or binascii.crc_hqx(body[:-2], 0xFFFF) != int.from_bytes(body[-2:]):
            continue
        if body[:-2] == struct.pack("<BBH", frame.version, frame.mtype, frame.seq) + frame.payload:
            return True
    return False


@settings(max_examples=300)
@given(st.lists(st.binary(max_size=80), max_size=12))
def test_decoder_survives_random_bytes(chunks: list[bytes]) -> None:
    decoder = p.FrameDecoder()
    stream = b"".join(chunks)
    out = []
    for chunk in chunks:  # any split of the stream into reads
        out.extend(decoder.feed(chunk))
    for item in out:
        assert isinstance(item, p.Frame | p.ProtocolError)
        if isinstance(item, p.Frame):
            assert _independently_valid(item, stream)


@settings(max_examples=300)
@given(
    st.lists(frames, min_size=1, max_size=6),
    st.lists(st.tuples(st.integers(0, 10_000), st.integers(0, 255)), max_size=8),
    st.lists(st.integers(0, 10_000), max_size=8),
)
def test_decoder_never_yields_a_frame_with_bad_crc(
    sent: list[tuple[int, int, bytes]], corrupt: list[tuple[int, int]], drop: list[int]
) -> None:
    stream = bytearray(b"".join(p.encode_frame(t, s, pl) for t, s, pl in sent))
    for pos, value in corrupt:
        stream[pos % len(stream)] = value
    for pos in sorted({d % len(stream) for d in drop}, reverse=True):
        del stream[pos]
    out = p.FrameDecoder().feed(bytes(stream))
    for item in out:
        if isinstance(item, p.Frame):
            assert _independently_valid(item, bytes(stream))
    if not corrupt and not drop:
        assert [(f.mtype, f.seq, f.payload) for f in out] == sent


def test_decoder_reports_each_kind_of_bad_frame() -> None:
    good = p.encode_frame(p.BUTTON, 1, p.pack_button(1, p.PRESS, 5))
    body = struct.pack("<BBH", 1, p.BUTTON, 1) + p.pack_button(1, p.PRESS, 5)
    bad_crc = cobs.encode(body + struct.pack(">H", binascii.crc_hqx(body, 0xFFFF) ^ 1)) + b"\0"
    stream = (
        b"\x05garbage\x00"  # COBS block runs past the end
        + bytes(bad_crc)
        + p.encode_frame(p.BUTTON, 2, b"", version=9)
        + p.cobs_encode(b"\x01\x02") + b"\x00"  # too short for header + CRC
        + b"\x01" * 400 + b"\x00"  # no delimiter within the size limit
        + good
    )
    out = p.FrameDecoder().feed(stream)
    kinds = [x.kind if isinstance(x, p.ProtocolError) else "frame" for x in out]
    assert kinds == ["cobs", "crc", "version", "short", "oversize", "frame"]
    assert out[-1].seq == 1


def test_hello_round_trip_with_unicode_names() -> None:
    payload = p.pack_hello(
        0xDEADBEEF, "pico-e6614103", "1.2.0", [(1, "Пас"), (2, "Играю")],
        [(1, "turn", 0), (2, "trump", p.LED_CAP_RGB)], p.FEATURE_BUZZER)
    hello = p.unpack_hello(payload)
    assert hello == {
        "boot_id": 0xDEADBEEF, "panel_id": "pico-e6614103", "firmware": "1.2.0",
        "buttons": [(1, "Пас"), (2, "Играю")],
        "leds": [(1, "turn", 0), (2, "trump", p.LED_CAP_RGB)], "features": p.FEATURE_BUZZER,
    }


def test_small_payload_round_trips() -> None:
    assert p.unpack_button(p.pack_button(9, p.LONG_PRESS, 123456)) == (9, p.LONG_PRESS, 123456)
    assert p.unpack_led(p.pack_led(2, p.LED_PULSE, (1, 2, 3), 750)) == (
        2, p.LED_PULSE, (1, 2, 3), 750)
    assert p.unpack_buzzer(p.pack_buzzer(2000, 150)) == (2000, 150)
    assert p.unpack_error(p.pack_error(p.ERR_HARDWARE, "LED 3 open")) == (
        p.ERR_HARDWARE, "LED 3 open")
    assert p.unpack_welcome(p.pack_welcome(7, 8, 3)) == (7, 8, 3)
    assert p.unpack_ack(p.pack_ack(65535)) == 65535


def test_welcome_seat_counts_from_0_and_the_wire_from_1() -> None:
    # The wire format of version 1 (in flashed panels) numbers seats 1-8; everything above the
    # codec counts from 0. The seat byte is the last byte of the payload.
    assert [p.pack_welcome(7, 8, seat)[-1] for seat in range(8)] == list(range(1, 9))
    assert p.pack_welcome(7, 8, None)[-1] == p.NO_SEAT == 0xFF
    assert p.pack_welcome(7, 8, 0) == struct.pack("<IIB", 7, 8, 1)
    assert [p.unpack_welcome(p.pack_welcome(7, 8, seat))[2] for seat in (*range(8), None)] == [
        *range(8), None]
    assert p.seat_from_wire(p.seat_to_wire(5)) == 5
    for byte in (0, 9, 0xFE):  # no seat 0 on the wire, none past 8
        with pytest.raises(p.ProtocolError, match=f"seat byte {byte} "):
            p.unpack_welcome(struct.pack("<IIB", 7, 8, byte))
    for seat in (-1, 8):
        with pytest.raises(p.ProtocolError, match=f"seat {seat} is not 0 to 7"):
            p.pack_welcome(7, 8, seat)


@given(st.binary(max_size=64))
def test_payload_decoders_only_raise_protocol_error(payload: bytes) -> None:
    for unpack in (p.unpack_hello, p.unpack_button, p.unpack_led, p.unpack_buzzer,
                   p.unpack_error, p.unpack_welcome, p.unpack_ack, p.unpack_hello_request):
        with contextlib.suppress(p.ProtocolError):
            unpack(payload)


# --- the reliable link, wired back to back in memory with a hand-driven clock ----------------


class Wire:
    """Two Links joined by byte lists; ``drop`` decides per write whether it is lost."""

    def __init__(self) -> None:
        self.now = 0
        self.a_out: list[bytes] = []
        self.b_out: list[bytes] = []
        self.a = p.Link(self.a_out.append, lambda: self.now)
        self.b = p.Link(self.b_out.append, lambda: self.now)
        self.got_a: list[p.Frame] = []
        self.got_b: list[p.Frame] = []

    def deliver(self, lose_to_b: int = 0, lose_to_a: int = 0) -> None:
        """Move pending bytes across, losing the first N writes in each direction."""
        to_b, self.a_out[:] = self.a_out[lose_to_b:], []
        to_a, self.b_out[:] = self.b_out[lose_to_a:], []
        for data in to_b:
            self.got_b += [f for f in self.b.feed(data) if isinstance(f, p.Frame)]
        for data in to_a:
            self.got_a += [f for f in self.a.feed(data) if isinstance(f, p.Frame)]

    def tick(self, ms: int) -> None:
        self.now += ms
        self.a.poll()
        self.b.poll()


def test_link_retransmits_after_50_ms_and_dedups_by_sequence() -> None:
    w = Wire()
    done: list[int] = []
    w.a.send(p.BUTTON, p.pack_button(1, p.PRESS, 0), lambda: done.append(1))
    w.deliver(lose_to_a=1)  # B gets it, its ACK is lost
    assert len(w.got_b) == 1 and not done
    w.tick(49)
    assert w.a.counters["retransmits"] == 0
    w.tick(1)  # 50 ms after sending: retransmit
    assert w.a.counters["retransmits"] == 1
    w.deliver()
    assert len(w.got_b) == 1  # the copy is recognised and only re-ACKed
    assert w.b.counters["duplicates"] == 1
    assert done == [1]


def test_link_keeps_order_and_stalls_instead_of_dropping() -> None:
    w = Wire()
    for n in range(3):
        w.a.send(p.BUTTON, p.pack_button(n, p.PRESS, n))
    for _ in range(p.MAX_RETRIES + 2):  # everything A sends is lost
        w.a_out.clear()
        w.tick(p.RETRANSMIT_MS)
    assert w.a.stalled and w.a.counters["retransmits"] == p.MAX_RETRIES
    assert w.a.pending() == 3  # nothing given up
    w.b.send_control(p.HEARTBEAT, p.pack_heartbeat(0))  # peer is heard again
    for _ in range(10):  # one message per round trip: stop-and-wait
        w.deliver()
    assert [p.unpack_button(f.payload)[0] for f in w.got_b] == [0, 1, 2]
    assert w.a.pending() == 0


def test_link_that_is_not_ready_does_not_ack() -> None:
    w = Wire()
    w.b.accept_reliable = False
    w.a.send(p.BUTTON, p.pack_button(1, p.PRESS, 0))
    w.deliver()
    assert w.got_b == [] and w.b.counters["not_ready"] == 1 and w.a.pending() == 1
    w.b.accept_reliable = True
    w.tick(p.RETRANSMIT_MS)
    w.deliver()
    w.deliver()
    assert len(w.got_b) == 1 and w.a.pending() == 0


def test_link_heartbeats_when_idle() -> None:
    w = Wire()
    w.tick(p.HEARTBEAT_MS)
    w.deliver()
    assert w.b.silent_ms() == 0
    w.now += p.LINK_LOST_MS + 1
    assert w.b.silent_ms() > p.LINK_LOST_MS


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.booleans(), max_size=200),  # per write A -> B: lost?
    st.lists(st.booleans(), max_size=200),  # per write B -> A: lost?
    st.integers(1, 12),
)
def test_link_delivers_everything_once_in_order_whatever_is_lost(
    lose_ab: list[bool], lose_ba: list[bool], count: int
) -> None:
    w = Wire()
    writes = {"ab": 0, "ba": 0}

    def lost(direction: str, pattern: list[bool]) -> bool:
        n = writes[direction]
        writes[direction] += 1
        return n < len(pattern) and pattern[n]

    for n in range(count):
        w.a.send(p.BUTTON, p.pack_button(n, p.PRESS, n))
    for _ in range(2000):  # 10 ms steps: 20 s of link time at most
        for data in [d for d in w.a_out if not lost("ab", lose_ab)]:
            w.got_b += [f for f in w.b.feed(data) if isinstance(f, p.Frame)]
        w.a_out.clear()
        for data in [d for d in w.b_out if not lost("ba", lose_ba)]:
            w.a.feed(data)
        w.b_out.clear()
        if w.a.pending() == 0:
            break
        w.tick(10)
    assert [p.unpack_button(f.payload)[0] for f in w.got_b] == list(range(count))


# --- exact payload lengths ------------------------------------------------------------------


def _hello() -> bytes:
    return p.pack_hello(7, "pico-01", "1.0.0", [(1, "pass")], [(1, "turn", 0)], 0)


EXACT = [
    ("hello_request", p.unpack_hello_request, p.pack_hello_request(5)),
    ("hello", p.unpack_hello, _hello()),
    ("welcome", p.unpack_welcome, p.pack_welcome(7, 8, 3)),
    ("heartbeat", lambda b: p.unpack_heartbeat(b), p.pack_heartbeat(123)),
    ("ack", p.unpack_ack, p.pack_ack(9)),
    ("button", p.unpack_button, p.pack_button(1, p.PRESS, 5)),
    ("led", p.unpack_led, p.pack_led(2, p.LED_ON, (1, 2, 3), 0)),
    ("buzzer", p.unpack_buzzer, p.pack_buzzer(2000, 100)),
    ("error", p.unpack_error, p.pack_error(p.ERR_HARDWARE, "LED 3 open")),
]


@pytest.mark.parametrize(("name", "unpack", "payload"), EXACT, ids=[e[0] for e in EXACT])
def test_every_message_type_checks_its_exact_length(name: str, unpack, payload: bytes) -> None:
    unpack(payload)  # the exact payload is fine
    for bad in (payload + b"\x00", payload + b"trailing junk", payload[:-1]):
        with pytest.raises(p.ProtocolError) as info:
            unpack(bad)
        assert info.value.kind == "payload"


def _hand_made_frame(mtype: int, payload: bytes) -> bytes:
    body = struct.pack("<BBH", p.PROTOCOL_VERSION, mtype, 1) + payload
    return cobs.encode(body + struct.pack(">H", binascii.crc_hqx(body, 0xFFFF)))


def test_payload_over_240_bytes_is_refused() -> None:
    assert p.decode_frame(_hand_made_frame(p.ERROR, bytes(240))).payload == bytes(240)
    with pytest.raises(p.ProtocolError) as info:
        p.decode_frame(_hand_made_frame(p.ERROR, bytes(241)))
    assert info.value.kind == "oversize"
    (item,) = p.FrameDecoder().feed(_hand_made_frame(p.ERROR, bytes(241)) + b"\x00")
    assert isinstance(item, p.ProtocolError) and item.kind == "oversize"


def test_panel_refuses_an_led_command_with_trailing_bytes() -> None:
    now = [0]
    to_host: list[bytes] = []
    leds: list[tuple] = []
    panel = p.Panel(to_host.append, lambda: now[0], "pico-01", "1.0.0", [(1, "pass")],
                    [(1, "turn", 0)], 0, lambda *a: leds.append(a) or True, lambda f, d: None)
    panel.boot(1234)
    panel.feed(p.encode_frame(p.WELCOME, 0, p.pack_welcome(1234, 99, 2)))
    assert panel.welcomed
    panel.feed(p.encode_frame(p.LED, 1, p.pack_led(1, p.LED_ON) + b"\x01"))
    panel.feed(p.encode_frame(p.WELCOME, 0, p.pack_welcome(1234, 99, 2) + b"\x01"))
    assert leds == [] and panel.seat == 2
    host = p.Link(lambda data: None, lambda: now[0])
    frames = [f for f in host.feed(b"".join(to_host)) if isinstance(f, p.Frame)]
    errors = [p.unpack_error(f.payload) for f in frames if f.mtype == p.ERROR]
    assert errors and errors[0][0] == p.ERR_BAD_PAYLOAD
