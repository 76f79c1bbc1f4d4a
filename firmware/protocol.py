"""Seat-panel wire protocol: framing, message codecs and the reliable link.

This one file is shared by the host bridge (CPython) and the Pico reference firmware
(MicroPython); ``firmware/protocol.py`` is a byte-identical copy and a test keeps it so.
That is why it avoids ``typing``, ``dataclasses``, ``enum``, ``collections`` and anything
else MicroPython lacks, and why the clock and the byte sink are passed in.
The specification is docs/panel-protocol.md.
"""

import struct

_crc_hqx = None  # MicroPython's binascii has no crc_hqx
try:
    import binascii as _binascii

    _crc_hqx = _binascii.crc_hqx
except (ImportError, AttributeError):
    pass

try:
    from cobs import cobs as _cobs
except ImportError:  # the `cobs` package is not available on the Pico
    _cobs = None

PROTOCOL_VERSION = 1

# Control messages (type < 0x10) are never acknowledged.
HELLO_REQUEST = 0x01  # host -> panel: "who are you?"
HELLO = 0x02  # panel -> host: identity and capabilities
WELCOME = 0x03  # host -> panel: hello accepted, seat assigned; panel may send events
HEARTBEAT = 0x04  # both ways, keeps the link alive
ACK = 0x05  # both ways, acknowledges one reliable frame
# Reliable messages (type >= 0x10) are acknowledged, retransmitted and de-duplicated.
BUTTON = 0x10  # panel -> host
LED = 0x20  # host -> panel
BUZZER = 0x21  # host -> panel
ERROR = 0x30  # panel -> host

RELIABLE_MIN = 0x10
KNOWN_TYPES = (HELLO_REQUEST, HELLO, WELCOME, HEARTBEAT, ACK, BUTTON, LED, BUZZER, ERROR)
TYPE_NAMES = {
    HELLO_REQUEST: "hello_request",
    HELLO: "hello",
    WELCOME: "welcome",
    HEARTBEAT: "heartbeat",
    ACK: "ack",
    BUTTON: "button",
    LED: "led",
    BUZZER: "buzzer",
    ERROR: "error",
}

# Button actions.
PRESS = 1
RELEASE = 2
LONG_PRESS = 3
ACTION_NAMES = {PRESS: "press", RELEASE: "release", LONG_PRESS: "long_press"}

# LED modes.
LED_OFF = 0
LED_ON = 1
LED_BLINK = 2
LED_PULSE = 3
LED_MODE_NAMES = {LED_OFF: "off", LED_ON: "on", LED_BLINK: "blink", LED_PULSE: "pulse"}

# LED capability bits in HELLO.
LED_CAP_RGB = 0x01
LED_CAP_DIMMABLE = 0x02
# Panel feature bits in HELLO.
FEATURE_BUZZER = 0x01

# Error codes in ERROR reports.
ERR_UNKNOWN_TYPE = 1
ERR_BAD_PAYLOAD = 2
ERR_UNKNOWN_LED = 3
ERR_QUEUE_FULL = 4
ERR_HARDWARE = 5

NO_SEAT = 0xFF  # seat byte in WELCOME when the panel has no seat
MAX_SEATS = 8  # seats 0-7; on the wire 1-8 (seat_to_wire)

HEADER_LEN = 4  # version u8, type u8, seq u16 little-endian
CRC_LEN = 2  # CRC-16/CCITT-FALSE, big-endian, over header + payload
MAX_PAYLOAD = 240
MAX_ENCODED = HEADER_LEN + MAX_PAYLOAD + CRC_LEN + 2  # COBS adds at most one byte per 254

RETRANSMIT_MS = 50
MAX_RETRIES = 10
HEARTBEAT_MS = 500
LINK_LOST_MS = 3000
HELLO_RETRY_MS = 250
DEDUP_WINDOW = 16


class ProtocolError(ValueError):
    """A frame or payload that cannot be used. ``kind`` is a short counter name."""

    def __init__(self, kind, detail=""):
        super().__init__(kind + ": " + detail if detail else kind)
        self.kind = kind
        self.detail = detail


# --- checksums and framing ------------------------------------------------------------------


def _crc16_pure(data, crc=0xFFFF):
    # Bitwise CRC-16/CCITT-FALSE for MicroPython, where binascii.crc_hqx does not exist.
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) & 0xFFFF if crc & 0x8000 else (crc << 1) & 0xFFFF
    return crc


def crc16(data):
    """CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no xor-out)."""
    if _crc_hqx is not None:
        return _crc_hqx(data, 0xFFFF)
    return _crc16_pure(data)


def _cobs_encode_pure(data):
    # Plain COBS for MicroPython, where the `cobs` package is not installed.
    out = bytearray(b"\x00")
    code_at = 0
    code = 1
    for byte in data:
        if code == 0xFF:  # a full block and more data follows: close it
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        if byte == 0:
            out[code_at] = code
            code_at = len(out)
            out.append(0)
            code = 1
        else:
            out.append(byte)
            code += 1
    out[code_at] = code
    return bytes(out)


def _cobs_decode_pure(data):
    out = bytearray()
    i = 0
    n = len(data)
    while i < n:
        code = data[i]
        if code == 0:
            raise ProtocolError("cobs", "zero byte inside frame")
        end = i + code
        if end > n:
            raise ProtocolError("cobs", "block runs past end of frame")
        for j in range(i + 1, end):
            if data[j] == 0:
                raise ProtocolError("cobs", "zero byte inside frame")
        out.extend(data[i + 1 : end])
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


def cobs_encode(data):
    if _cobs is not None:
        return _cobs.encode(bytes(data))
    return _cobs_encode_pure(data)


def cobs_decode(data):
    if _cobs is None:
        return _cobs_decode_pure(data)
    problem = None
    try:
        return _cobs.decode(bytes(data))
    except _cobs.DecodeError as exc:
        problem = str(exc)  # raised below: keeps `raise ... from` out of MicroPython's way
    raise ProtocolError("cobs", problem)


class Frame:
    """One decoded frame: header fields plus the raw payload."""

    def __init__(self, version, mtype, seq, payload):
        self.version = version
        self.mtype = mtype
        self.seq = seq
        self.payload = payload

    @property
    def reliable(self):
        return self.mtype >= RELIABLE_MIN

    def __repr__(self):
        name = TYPE_NAMES.get(self.mtype, hex(self.mtype))
        return "Frame(" + name + ", seq=" + str(self.seq) + ", " + repr(self.payload) + ")"


def encode_frame(mtype, seq, payload=b"", version=PROTOCOL_VERSION):
    """Header + payload + CRC, COBS-encoded, with the trailing 0x00 delimiter."""
    if len(payload) > MAX_PAYLOAD:
        raise ProtocolError("oversize", "payload of " + str(len(payload)) + " bytes")
    body = struct.pack("<BBH", version, mtype, seq & 0xFFFF) + bytes(payload)
    body += struct.pack(">H", crc16(body))
    return cobs_encode(body) + b"\x00"


def decode_frame(encoded):
    """Decode one frame without its delimiter. Raises ProtocolError."""
    body = cobs_decode(encoded)
    if len(body) < HEADER_LEN + CRC_LEN:
        raise ProtocolError("short", str(len(body)) + " bytes")
    (wanted,) = struct.unpack(">H", body[-CRC_LEN:])
    if crc16(body[:-CRC_LEN]) != wanted:
        raise ProtocolError("crc", "checksum mismatch")
    version, mtype, seq = struct.unpack("<BBH", body[:HEADER_LEN])
    if version != PROTOCOL_VERSION:
        raise ProtocolError("version", "protocol version " + str(version))
    if len(body) - HEADER_LEN - CRC_LEN > MAX_PAYLOAD:
        raise ProtocolError("oversize", "payload of " + str(len(body) - HEADER_LEN - CRC_LEN)
                            + " bytes (at most " + str(MAX_PAYLOAD) + ")")
    return Frame(version, mtype, seq, body[HEADER_LEN:-CRC_LEN])


class FrameDecoder:
    """Splits a byte stream on 0x00 and decodes each piece.

    ``feed`` returns a list holding a Frame for every good frame and a ProtocolError for every
    bad one, in stream order, so the caller can count and log without losing its place.
    """

    def __init__(self):
        self._buf = bytearray()
        self._overflow = False

    def reset(self):
        self._buf = bytearray()
        self._overflow = False

    def feed(self, data):
        out = []
        for byte in data:
            if byte != 0:
                if self._overflow:
                    continue
                if len(self._buf) >= MAX_ENCODED:
                    self._overflow = True
                    self._buf = bytearray()
                    out.append(ProtocolError("oversize", "no delimiter within frame limit"))
                    continue
                self._buf.append(byte)
                continue
            if self._overflow:
                self._overflow = False
                continue
            if not self._buf:
                continue  # idle delimiters are allowed (resync)
            chunk = bytes(self._buf)
            self._buf = bytearray()
            try:
                out.append(decode_frame(chunk))
            except ProtocolError as exc:
                out.append(exc)
        return out


# --- payload codecs --------------------------------------------------------------------------


def _pack_str(text):
    raw = text.encode("utf-8")
    if len(raw) > 255:
        raise ProtocolError("payload", "string longer than 255 bytes")
    return bytes((len(raw),)) + raw


def _unpack_str(payload, pos):
    if pos >= len(payload):
        raise ProtocolError("payload", "missing string")
    n = payload[pos]
    end = pos + 1 + n
    if end > len(payload):
        raise ProtocolError("payload", "string runs past end")
    try:
        text = bytes(payload[pos + 1 : end]).decode("utf-8")
    except UnicodeError:  # (no contextlib.suppress or `raise from` needed on MicroPython)
        text = None
    if text is None:
        raise ProtocolError("payload", "string is not UTF-8")
    return text, end


def _unpack(fmt, payload, pos=0):
    size = struct.calcsize(fmt)
    if pos + size > len(payload):
        raise ProtocolError("payload", "too short")
    return struct.unpack(fmt, payload[pos : pos + size]), pos + size


def _exact(fmt, payload):
    # Fixed-size payloads: exactly the struct's size, no more (trailing bytes) and no less.
    size = struct.calcsize(fmt)
    if len(payload) != size:
        raise ProtocolError("payload", str(len(payload)) + " bytes, expected " + str(size))
    return struct.unpack(fmt, payload)


def _end(payload, pos):
    # Variable-size payloads: everything must have been used.
    if pos != len(payload):
        raise ProtocolError("payload", str(len(payload) - pos) + " trailing bytes")


def pack_hello(boot_id, panel_id, firmware, buttons, leds, features=0):
    """buttons: [(id, name)]; leds: [(id, name, caps)]."""
    out = struct.pack("<I", boot_id & 0xFFFFFFFF) + _pack_str(panel_id) + _pack_str(firmware)
    out += bytes((len(buttons),))
    for bid, name in buttons:
        out += bytes((bid,)) + _pack_str(name)
    out += bytes((len(leds),))
    for lid, name, caps in leds:
        out += bytes((lid, caps)) + _pack_str(name)
    return out + bytes((features,))


def unpack_hello(payload):
    (boot_id,), pos = _unpack("<I", payload)
    panel_id, pos = _unpack_str(payload, pos)
    firmware, pos = _unpack_str(payload, pos)
    if not panel_id:
        raise ProtocolError("payload", "empty panel id")
    (count,), pos = _unpack("<B", payload, pos)
    buttons = []
    for _ in range(count):
        (bid,), pos = _unpack("<B", payload, pos)
        name, pos = _unpack_str(payload, pos)
        buttons.append((bid, name))
    (count,), pos = _unpack("<B", payload, pos)
    leds = []
    for _ in range(count):
        (lid, caps), pos = _unpack("<BB", payload, pos)
        name, pos = _unpack_str(payload, pos)
        leds.append((lid, name, caps))
    (features,), pos = _unpack("<B", payload, pos)
    _end(payload, pos)
    return {
        "boot_id": boot_id,
        "panel_id": panel_id,
        "firmware": firmware,
        "buttons": buttons,
        "leds": leds,
        "features": features,
    }


def pack_hello_request(session):
    return struct.pack("<I", session & 0xFFFFFFFF)


def unpack_hello_request(payload):
    return _exact("<I", payload)[0]


def seat_to_wire(seat):
    """The WELCOME seat byte for a seat counted from 0 (None: no seat).

    The one place with a seat offset: version 1 of the wire format counts seats from 1 (the
    number on the panel's label), and flashed panels keep that format; everything else, the
    host and this module's callers included, counts from 0. ``seat_from_wire`` is the inverse.
    """
    if seat is None:
        return NO_SEAT
    if not 0 <= seat < MAX_SEATS:
        raise ProtocolError("payload", "seat " + str(seat) + " is not 0 to " + str(MAX_SEATS - 1))
    return seat + 1


def seat_from_wire(byte):
    """The seat (from 0, or None) a WELCOME seat byte stands for; see ``seat_to_wire``."""
    if byte == NO_SEAT:
        return None
    if not 1 <= byte <= MAX_SEATS:
        raise ProtocolError("payload", "seat byte " + str(byte) + " is not 1 to "
                            + str(MAX_SEATS) + " or " + str(NO_SEAT))
    return byte - 1


def pack_welcome(boot_id, session, seat):
    """seat: counted from 0, or None for a panel with no seat."""
    return struct.pack("<IIB", boot_id & 0xFFFFFFFF, session & 0xFFFFFFFF, seat_to_wire(seat))


def unpack_welcome(payload):
    """-> (boot_id, session, seat counted from 0 or None)"""
    boot_id, session, byte = _exact("<IIB", payload)
    return boot_id, session, seat_from_wire(byte)


def pack_heartbeat(uptime_ms):
    return struct.pack("<I", uptime_ms & 0xFFFFFFFF)


def unpack_heartbeat(payload):
    """-> the sender's clock in ms"""
    return _exact("<I", payload)[0]


def pack_ack(seq):
    return struct.pack("<H", seq & 0xFFFF)


def unpack_ack(payload):
    return _exact("<H", payload)[0]


def pack_button(button, action, panel_ms):
    return struct.pack("<BBI", button, action, panel_ms & 0xFFFFFFFF)


def unpack_button(payload):
    """-> (button id, action, panel time in ms)"""
    button, action, panel_ms = _exact("<BBI", payload)
    if action not in ACTION_NAMES:
        raise ProtocolError("payload", "unknown button action " + str(action))
    return button, action, panel_ms


def pack_led(led, mode, colour=(255, 255, 255), period_ms=0):
    r, g, b = colour
    return struct.pack("<BBBBBH", led, mode, r, g, b, period_ms)


def unpack_led(payload):
    """-> (led id, mode, (r, g, b), period in ms)"""
    led, mode, r, g, b, period = _exact("<BBBBBH", payload)
    if mode not in LED_MODE_NAMES:
        raise ProtocolError("payload", "unknown LED mode " + str(mode))
    return led, mode, (r, g, b), period


def pack_buzzer(freq_hz, duration_ms):
    return struct.pack("<HH", freq_hz, duration_ms)


def unpack_buzzer(payload):
    """-> (frequency in Hz, duration in ms)"""
    return _exact("<HH", payload)


def pack_error(code, text):
    return bytes((code,)) + _pack_str(text[:200])


def unpack_error(payload):
    """-> (code, text)"""
    (code,), pos = _unpack("<B", payload)
    text, pos = _unpack_str(payload, pos)
    _end(payload, pos)
    return code, text


# --- reliable link ---------------------------------------------------------------------------


class Link:
    """One end of a panel link: stop-and-wait delivery with ACK, retransmit and de-dup.

    ``write(bytes)`` sends raw bytes; ``clock()`` returns milliseconds (monotonic). The owner
    calls ``feed`` with received bytes and ``poll`` regularly (every few ms). Reliable messages
    go one at a time, so they arrive in order. After MAX_RETRIES unanswered retransmits the link
    is *stalled*: the message stays at the head of the queue and goes out again as soon as
    anything valid arrives from the peer, so an event is never dropped by the sender.
    """

    def __init__(self, write, clock, retransmit_ms=RETRANSMIT_MS, max_retries=MAX_RETRIES,
                 heartbeat_ms=HEARTBEAT_MS, max_queue=64):
        self._write = write
        self._clock = clock
        self.retransmit_ms = retransmit_ms
        self.max_retries = max_retries
        self.heartbeat_ms = heartbeat_ms
        self.max_queue = max_queue
        self.decoder = FrameDecoder()
        self.counters = {
            "tx_frames": 0,
            "rx_frames": 0,
            "retransmits": 0,
            "duplicates": 0,
            "stalls": 0,
            "bad_frames": 0,
            "bad_version": 0,
            "not_ready": 0,
            "queue_overflow": 0,
        }
        # tx_enabled: reliable messages may go out; accept_reliable: incoming ones are acked.
        self.tx_enabled = True
        self.accept_reliable = True
        self.restart()

    def restart(self):
        """Forget everything, as after a power cycle."""
        now = self._clock()
        self.tx_seq = 0
        self.queue = []  # [(mtype, payload, done)]
        self.inflight = None  # (seq, encoded frame, done)
        self.sent_at = now
        self.retries = 0
        self.stalled = False
        self.last_rx = now
        self.last_tx = now
        self.decoder.reset()
        self._sync = True
        self.reset_rx()

    def reset_rx(self):
        """The peer started a new session: its sequence numbers start over."""
        self.recent = []

    def resync(self):
        """Fresh line (port just opened): forget partial input, lead with a delimiter."""
        self.decoder.reset()
        self._sync = True

    # sending

    def _emit(self, data):
        if self._sync:  # a leading delimiter ends any half frame left on the line
            data = b"\x00" + data
            self._sync = False
        self.last_tx = self._clock()
        self.counters["tx_frames"] += 1
        self._write(data)

    def send_control(self, mtype, payload=b""):
        """Send an unacknowledged control frame now."""
        self._emit(encode_frame(mtype, 0, payload))

    def send(self, mtype, payload=b"", done=None):
        """Queue a reliable message; ``done()`` is called once the peer has acknowledged it."""
        if len(self.queue) >= self.max_queue:
            self.counters["queue_overflow"] += 1
            self.queue.pop(0)
        self.queue.append((mtype, payload, done))
        self._pump()

    def _pump(self):
        if self.inflight is not None or not self.queue or not self.tx_enabled:
            return
        mtype, payload, done = self.queue.pop(0)
        self.tx_seq = (self.tx_seq + 1) & 0xFFFF
        frame = encode_frame(mtype, self.tx_seq, payload)
        self.inflight = (self.tx_seq, frame, done)
        self.retries = 0
        self.stalled = False
        self.sent_at = self._clock()
        self._emit(frame)

    def pending(self):
        return len(self.queue) + (1 if self.inflight is not None else 0)

    def resend_now(self):
        """Retransmit the in-flight message at once (e.g. after the link came back)."""
        if self.inflight is not None and self.tx_enabled:
            self.stalled = False
            self.retries = 0
            self.sent_at = self._clock()
            self._emit(self.inflight[1])
        else:
            self._pump()

    def poll(self):
        now = self._clock()
        if self.inflight is not None and self.tx_enabled and not self.stalled:
            if now - self.sent_at >= self.retransmit_ms:
                if self.retries >= self.max_retries:
                    self.stalled = True
                    self.counters["stalls"] += 1
                else:
                    self.retries += 1
                    self.counters["retransmits"] += 1
                    self.sent_at = now
                    self._emit(self.inflight[1])
        else:
            self._pump()
        if now - self.last_tx >= self.heartbeat_ms:
            self.send_control(HEARTBEAT, pack_heartbeat(now))

    def silent_ms(self):
        return self._clock() - self.last_rx

    # receiving

    def feed(self, data):
        """Process received bytes. Returns new Frames for the owner and ProtocolErrors."""
        out = []
        for item in self.decoder.feed(data):
            if isinstance(item, ProtocolError):
                if item.kind == "version":
                    self.counters["bad_version"] += 1
                else:
                    self.counters["bad_frames"] += 1
                out.append(item)
                continue
            self.counters["rx_frames"] += 1
            self.last_rx = self._clock()
            if self.stalled:
                self.resend_now()
            frame = item
            if frame.mtype == ACK:
                self._on_ack(frame, out)
            elif frame.mtype == HEARTBEAT:
                try:
                    unpack_heartbeat(frame.payload)
                except ProtocolError as exc:
                    out.append(exc)
            elif frame.reliable:
                if not self.accept_reliable:
                    self.counters["not_ready"] += 1
                    continue  # no ACK: the sender will retry once we are ready
                self._emit(encode_frame(ACK, 0, pack_ack(frame.seq)))
                if frame.seq in self.recent:
                    self.counters["duplicates"] += 1
                    continue
                self.recent.append(frame.seq)
                if len(self.recent) > DEDUP_WINDOW:
                    self.recent.pop(0)
                out.append(frame)
            else:
                out.append(frame)
        return out

    def _on_ack(self, frame, out):
        try:
            seq = unpack_ack(frame.payload)
        except ProtocolError as exc:
            out.append(exc)
            return
        if self.inflight is None or self.inflight[0] != seq:
            return  # a late ACK for a retransmit we already settled
        done = self.inflight[2]
        self.inflight = None
        self.retries = 0
        self.stalled = False
        if done is not None:
            done()
        self._pump()


# --- panel side ------------------------------------------------------------------------------


class Panel:
    """Panel-side protocol logic, shared by the Pico firmware and the simulated panel.

    The owner supplies the hardware: ``on_led(led, mode, colour, period_ms)`` returns False for
    an LED it does not have; ``on_buzzer(freq_hz, duration_ms)``. It calls ``feed`` with bytes
    from the host, ``service`` every few ms, and ``button`` when a button changes.
    """

    def __init__(self, write, clock, panel_id, firmware, buttons, leds, features, on_led,
                 on_buzzer):
        self.link = Link(write, clock)
        self._clock = clock
        self.panel_id = panel_id
        self.firmware = firmware
        self.buttons = buttons  # [(id, name)]
        self.leds = leds  # [(id, name, caps)]
        self.features = features
        self.on_led = on_led
        self.on_buzzer = on_buzzer
        self.boot_id = 0
        self.boot_ms = 0
        self.session = None
        self.seat = None
        self.welcomed = False
        self._last_hello = 0

    def boot(self, boot_id):
        """Power-on: fresh link; events wait until the host has welcomed this boot."""
        self.boot_id = boot_id
        self.boot_ms = self._clock()
        self.link.restart()
        self.link.tx_enabled = False
        self.welcomed = False
        self.seat = None
        self.send_hello()

    def uptime_ms(self):
        return self._clock() - self.boot_ms

    def send_hello(self):
        self._last_hello = self._clock()
        self.link.send_control(HELLO, pack_hello(self.boot_id, self.panel_id, self.firmware,
                                                 self.buttons, self.leds, self.features))

    def button(self, button_id, action, panel_ms=None):
        if panel_ms is None:
            panel_ms = self.uptime_ms()
        self.link.send(BUTTON, pack_button(button_id, action, panel_ms))

    def error(self, code, text):
        self.link.send(ERROR, pack_error(code, text))

    def service(self):
        if self.welcomed and self.link.silent_ms() > LINK_LOST_MS:
            self.welcomed = False  # host gone: keep events queued until it welcomes us again
            self.link.tx_enabled = False
        if not self.welcomed and self._clock() - self._last_hello >= HELLO_RETRY_MS:
            self.send_hello()
        self.link.poll()

    def feed(self, data):
        for item in self.link.feed(data):
            if isinstance(item, ProtocolError):
                continue  # counted by the link; the host will retransmit
            try:
                self._handle(item)
            except ProtocolError as exc:
                self.error(ERR_BAD_PAYLOAD, str(exc))

    def _handle(self, frame):
        mtype = frame.mtype
        if mtype == HELLO_REQUEST:
            unpack_hello_request(frame.payload)  # exact length, or ERR_BAD_PAYLOAD
            self.send_hello()
        elif mtype == WELCOME:
            boot_id, session, seat = unpack_welcome(frame.payload)
            if boot_id != self.boot_id:
                return  # meant for an earlier boot
            if session != self.session:
                self.session = session  # a new host session numbers its frames afresh
                self.link.reset_rx()
            self.seat = seat
            if not self.welcomed:
                self.welcomed = True
                self.link.tx_enabled = True
                self.link.resend_now()
        elif mtype == LED:
            led, mode, colour, period = unpack_led(frame.payload)
            if not self.on_led(led, mode, colour, period):
                self.error(ERR_UNKNOWN_LED, "no LED " + str(led))
        elif mtype == BUZZER:
            freq, duration = unpack_buzzer(frame.payload)
            self.on_buzzer(freq, duration)
        elif frame.reliable:
            self.error(ERR_UNKNOWN_TYPE, "unknown message type " + str(mtype))
