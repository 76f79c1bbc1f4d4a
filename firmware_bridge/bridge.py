"""Host side of the seat panels: discovery, handshake, reliable delivery, reconnects.

Each serial port gets a ``PanelPort``: a pyserial ``ReaderThread`` feeds received bytes into the
shared protocol ``Link``; a service thread opens the port, waits for the panel's hello, runs
retransmits and heartbeats, and reopens with backoff when the line dies. Button presses come
out of ``PanelBridge.events`` (a thread-safe queue); LEDs and the buzzer go in through
``set_led`` and ``buzz``.
"""

from __future__ import annotations

import asyncio
import contextlib
import fnmatch
import logging
import os
import queue
import random
import threading
import time
from collections import Counter
from collections.abc import AsyncIterator, Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import serial
import serial.threaded
from serial.tools import list_ports

from firmware_bridge import protocol as p
from firmware_bridge.config import PanelConfig

log = logging.getLogger("firmware_bridge")

MIN_BACKOFF_S = 0.02
MAX_OPEN_BACKOFF_S = 0.25  # keeps replug recovery well under a second
MAX_HANDSHAKE_BACKOFF_S = 5.0  # a port that never says hello is probed rarely
HANDSHAKE_TIMEOUT_S = 2.0
HELLO_REQUEST_EVERY_S = 0.1
LOG_EVERY_S = 1.0
LINK_COUNTERS = ("retransmits", "duplicates", "stalls", "not_ready", "queue_overflow",
                 "tx_frames", "rx_frames")


def _now_ms() -> int:
    return int(time.monotonic() * 1000)


class PanelNotConnected(LookupError):
    """No connected panel answers to that seat or panel id."""


@dataclass(frozen=True)
class PanelInfo:
    """What a panel said about itself in its hello."""

    panel_id: str
    firmware: str
    boot_id: int
    buttons: dict[int, str]
    leds: dict[int, tuple[str, int]]
    features: int

    @property
    def has_buzzer(self) -> bool:
        return bool(self.features & p.FEATURE_BUZZER)

    def led_id(self, led: str | int) -> int:
        if isinstance(led, int):
            if led in self.leds:
                return led
        else:
            for lid, (name, _caps) in self.leds.items():
                if name == led:
                    return lid
        raise KeyError(f"panel {self.panel_id} has no LED {led!r}; it has {self.led_names()}")

    def led_names(self) -> list[str]:
        return [name for name, _caps in self.leds.values()]


@dataclass(frozen=True)
class ButtonEvent:
    """A button press, release or long press. ``seat`` counts from 0, as everywhere on the host
    (the table config's seat); None for a panel without a seat."""

    seat: int | None
    panel_id: str
    button: str
    button_id: int
    action: str  # press | release | long_press
    panel_ms: int  # the panel's own clock, ms since it booted
    port: str
    received_at: float = field(default_factory=time.monotonic)


@dataclass(frozen=True)
class PanelEvent:
    """Connection news: connected, disconnected, rebooted, error."""

    kind: str
    panel_id: str | None
    seat: int | None
    port: str
    detail: str = ""


class Delivery:
    """Completes when the panel acknowledges the command."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def _done(self) -> None:
        self._event.set()

    @property
    def acked(self) -> bool:
        return self._event.is_set()

    def wait(self, timeout: float | None = None) -> bool:
        return self._event.wait(timeout)


def discover_ports(config: PanelConfig) -> list[str]:
    """Serial ports that look like seat panels, stable /dev/serial/by-id names first."""
    found: dict[str, str] = {}
    for folder in config.by_id_dirs:
        try:
            entries = sorted(Path(folder).iterdir())
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith("."):
                continue
            if not any(fnmatch.fnmatch(entry.name, pattern) for pattern in config.port_globs):
                continue
            real = os.path.realpath(entry)
            if os.path.exists(real):
                found.setdefault(real, str(entry))
    if config.use_list_ports:
        for info in list_ports.comports():
            if info.vid is not None and info.vid in config.usb_vids:
                found.setdefault(os.path.realpath(info.device), info.device)
    return list(found.values())


class _PanelProtocol(serial.threaded.Protocol):
    def __init__(self, port: PanelPort) -> None:
        self.port = port

    def data_received(self, data: bytes) -> None:
        self.port._on_bytes(data)

    def connection_lost(self, exc: BaseException | None) -> None:
        self.port._on_lost(exc)


class PanelPort:
    """One serial port and the panel behind it, across any number of reconnects."""

    def __init__(self, bridge: PanelBridge, path: str) -> None:
        self.bridge = bridge
        self.path = path
        self.lock = threading.RLock()
        self.link = p.Link(self._write, _now_ms)
        self.link.tx_enabled = False
        self.link.accept_reliable = False
        self.info: PanelInfo | None = None
        self.seat: int | None = None
        # Set when the panel id changed on this connection: no seat until the line reconnects.
        self._impostor: str | None = None
        self.state = "connecting"
        self.connects = 0
        self._serial: serial.Serial | None = None
        self._reader: serial.threaded.ReaderThread | None = None
        self._hello = threading.Event()
        self._lost = threading.Event()
        self._wake = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"panel {path}", daemon=True)

    # lifecycle

    def start(self) -> None:
        self._thread.start()

    def stop(self) -> None:
        self._wake.set()
        if self._thread.is_alive() and self._thread is not threading.current_thread():
            self._thread.join(timeout=3)
        self._close("bridge stopped")

    def is_live(self) -> bool:
        """Port open and the panel heard from lately (also during its handshake)."""
        return (self._serial is not None and not self._lost.is_set()
                and self.link.silent_ms() < p.LINK_LOST_MS)

    def _stopping(self) -> bool:
        return self.bridge._stop.is_set()

    def _sleep(self, seconds: float) -> bool:
        """Sleep unless the bridge stops; True if it did."""
        return self.bridge._stop.wait(seconds)

    def _run(self) -> None:
        backoff = MIN_BACKOFF_S
        while not self._stopping():
            try:
                self._open()
            except (serial.SerialException, OSError, ValueError) as exc:
                log.debug("cannot open %s yet: %s", self.path, exc)
                if self._sleep(backoff):
                    break
                backoff = min(backoff * 2, MAX_OPEN_BACKOFF_S)
                continue
            if self._handshake():
                backoff = MIN_BACKOFF_S
                reason = self._serve()
                self._close(reason)
                continue
            self._close("no hello")
            backoff = min(max(backoff, 0.25) * 2, MAX_HANDSHAKE_BACKOFF_S)
            if self._sleep(backoff):
                break

    def _open(self) -> None:
        ser = serial.Serial(
            self.path, self.bridge.config.baudrate, timeout=None, write_timeout=1, exclusive=True
        )
        with self.lock:
            self._lost.clear()
            self._hello.clear()
            self._impostor = None
            self.link.resync()
            self.link.tx_enabled = False
            self.link.accept_reliable = False
            self.link.last_rx = _now_ms()
            self._serial = ser
            self.state = "handshake"
            self._reader = serial.threaded.ReaderThread(ser, lambda: _PanelProtocol(self))
            self._reader.daemon = True
            self._reader.start()

    def _handshake(self) -> bool:
        """Ask for the panel's hello until it comes; no blind sleeping after open."""
        deadline = time.monotonic() + HANDSHAKE_TIMEOUT_S
        request = p.pack_hello_request(self.bridge.session)
        while not self._stopping() and not self._lost.is_set():
            with self.lock:
                self.link.send_control(p.HELLO_REQUEST, request)
            if self._hello.wait(HELLO_REQUEST_EVERY_S):
                return True
            if time.monotonic() > deadline:
                self.bridge._count("handshake_timeouts")
                self.bridge._warn(
                    ("handshake", self.path),
                    "no hello from %s within %.1f s; will retry",
                    self.path,
                    HANDSHAKE_TIMEOUT_S,
                )
                return False
        return False

    def _serve(self) -> str:
        while not self._stopping():
            self._wake.wait(0.01)
            self._wake.clear()
            if self._lost.is_set():
                return "line failed"
            with self.lock:
                self.link.poll()
                if self.link.silent_ms() > p.LINK_LOST_MS:
                    return f"silent for {p.LINK_LOST_MS / 1000:.0f} s"
        return "bridge stopped"

    def _close(self, reason: str) -> None:
        with self.lock:
            reader, self._reader = self._reader, None
            ser, self._serial = self._serial, None
            was_connected = self.state == "connected"
            self.state = "reconnecting" if not self._stopping() else "stopped"
            self.link.tx_enabled = False
            self.link.accept_reliable = False
        if reader is not None:
            # Joins the reader thread, so self.lock must not be held here.
            with contextlib.suppress(serial.SerialException, OSError):
                reader.close()
        elif ser is not None:
            ser.close()
        if was_connected:
            panel_id = self.info.panel_id if self.info else None
            self.bridge._count("link_lost")
            if not self._stopping():
                log.warning("panel %s on %s lost (%s); reconnecting", panel_id, self.path, reason)
            self.bridge._emit(PanelEvent("disconnected", panel_id, self.seat, self.path, reason))

    # I/O (called by the link with self.lock held)

    def _write(self, data: bytes) -> None:
        reader = self._reader
        if reader is None:
            return
        try:
            reader.write(data)
        except (serial.SerialException, OSError) as exc:
            self._on_lost(exc)

    def _on_lost(self, exc: BaseException | None) -> None:
        self._lost.set()
        self._wake.set()

    def _on_bytes(self, data: bytes) -> None:
        with self.lock:
            for item in self.link.feed(data):
                try:
                    self._handle(item)
                except p.ProtocolError as exc:
                    self.bridge._bad(self, "bad_payload", f"unusable payload: {exc}")
                except Exception:  # never let one frame kill the reader thread
                    log.exception("error handling %r from %s", item, self.path)

    def _handle(self, item: p.Frame | p.ProtocolError) -> None:
        if isinstance(item, p.ProtocolError):
            if item.kind == "version":
                self.bridge._bad(self, "bad_version", f"frame with {item.detail} (we speak "
                                 f"{p.PROTOCOL_VERSION}); dropped")
            elif item.kind == "payload":  # an ACK or heartbeat the link could not use
                self.bridge._bad(self, "bad_payload", f"unusable payload: {item}")
            else:
                self.bridge._bad(self, "bad_frames", f"garbage on the line ({item}); dropped")
            return
        mtype = item.mtype
        if mtype == p.HELLO:
            self._on_hello(p.unpack_hello(item.payload))
        elif mtype == p.BUTTON:
            self._on_button(*p.unpack_button(item.payload))
        elif mtype == p.ERROR:
            code, text = p.unpack_error(item.payload)
            self.bridge._count("panel_errors")
            panel_id = self.info.panel_id if self.info else None
            log.warning("panel %s on %s reports error %d: %s", panel_id, self.path, code, text)
            self.bridge._emit(PanelEvent("error", panel_id, self.seat, self.path, text))
        else:
            name = p.TYPE_NAMES.get(mtype, "unknown")
            self.bridge._bad(
                self, "unknown_type", f"unexpected message type {mtype:#04x} ({name}); ignored"
            )

    def _on_hello(self, hello: dict) -> None:
        info = PanelInfo(
            panel_id=hello["panel_id"],
            firmware=hello["firmware"],
            boot_id=hello["boot_id"],
            buttons=dict(hello["buttons"]),
            leds={lid: (name, caps) for lid, name, caps in hello["leds"]},
            features=hello["features"],
        )
        previous = self.info
        new_boot = previous is None or previous.boot_id != info.boot_id
        if new_boot:
            self.link.reset_rx()  # the panel's sequence numbers start over
        first = not self._hello.is_set()
        if first:
            self.seat = self.bridge._claim_seat(self, info.panel_id)
        elif previous is not None and previous.panel_id != info.panel_id:
            # A panel does not change its id on a live line (a swapped board means an unplug,
            # so a fresh connection). Whatever says this, it is not trusted with any seat: its
            # presses carry seat=None until the line reconnects, and the table is told.
            self._identity_changed(previous, info)
        self.info = info
        self.link.send_control(p.WELCOME, p.pack_welcome(info.boot_id, self.bridge.session,
                                                         self.seat))
        self.link.accept_reliable = True
        if not self.link.tx_enabled:
            self.link.tx_enabled = True
            self.link.resend_now()
        if new_boot:
            self.bridge._restore_leds(self, info)
        if first:
            self.state = "connected"
            self.connects += 1
            self._hello.set()
            log.info("panel %s (firmware %s) connected on %s, seat %s", info.panel_id,
                     info.firmware, self.path, self.seat)
            self.bridge._emit(PanelEvent("connected", info.panel_id, self.seat, self.path,
                                         info.firmware))
        elif new_boot:
            log.info("panel %s on %s rebooted", info.panel_id, self.path)
            self.bridge._emit(PanelEvent("rebooted", info.panel_id, self.seat, self.path))

    def _identity_changed(self, previous: PanelInfo, info: PanelInfo) -> None:
        old_seat = self.seat
        self._impostor = info.panel_id
        self.seat = None
        self.bridge._release_seat(self)
        self.bridge._count("identity_changed")
        where = f"seat {old_seat}" if old_seat is not None else "no seat"
        detail = (f"panel {previous.panel_id} ({where}) now says it is {info.panel_id}; "
                  "its port has no seat until it is reconnected")
        log.warning("identity_changed on %s: %s [identity_changed=%d]", self.path, detail,
                    self.bridge._counters["identity_changed"])
        self.bridge._emit(PanelEvent("identity_changed", info.panel_id, None, self.path, detail))

    def _on_button(self, button_id: int, action: int, panel_ms: int) -> None:
        info = self.info
        if info is None:
            return
        name = info.buttons.get(button_id, f"button{button_id}")
        self.bridge._emit(ButtonEvent(self.seat, info.panel_id, name, button_id,
                                      p.ACTION_NAMES[action], panel_ms, self.path))

    # commands

    def send(self, mtype: int, payload: bytes) -> Delivery:
        delivery = Delivery()
        with self.lock:
            self.link.send(mtype, payload, delivery._done)
        self._wake.set()
        return delivery

    def describe(self) -> dict:
        info = self.info
        return {
            "port": self.path,
            "state": self.state,
            "panel_id": info.panel_id if info else None,
            "firmware": info.firmware if info else None,
            "seat": self.seat,
            "buttons": sorted(info.buttons.values()) if info else [],
            "leds": info.led_names() if info else [],
            "buzzer": info.has_buzzer if info else False,
            "connects": self.connects,
            "identity_changed": self._impostor is not None,
            "silent_ms": self.link.silent_ms(),
            "pending": self.link.pending(),
            "counters": dict(self.link.counters),
        }


class PanelBridge:
    """All seat panels of the table. Use as a context manager or call start()/stop()."""

    def __init__(
        self,
        config: PanelConfig | None = None,
        *,
        ports: Iterable[str] = (),
        discover: bool = True,
        session: int | None = None,
    ) -> None:
        self.config = config or PanelConfig()
        self.discover = discover
        self.session = session if session is not None else random.getrandbits(32)
        self.events: queue.Queue[ButtonEvent | PanelEvent] = queue.Queue()
        self._explicit = list(ports)
        self._ports: dict[str, PanelPort] = {}
        self._seat_holders: dict[int, PanelPort] = {}
        self._desired: dict[str, dict[int, bytes]] = {}  # panel id -> LED id -> LED payload
        self._counters: Counter[str] = Counter()
        self._last_log: dict[object, float] = {}
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._scanner = threading.Thread(target=self._scan_loop, name="panel discovery",
                                         daemon=True)

    def start(self) -> PanelBridge:
        for path in self._explicit:
            self.add_port(path)
        if self.discover:
            self.scan()
            self._scanner.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._scanner.is_alive():
            self._scanner.join(timeout=3)
        with self._lock:
            ports = list(self._ports.values())
        for port in ports:
            port.stop()

    def __enter__(self) -> PanelBridge:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    # discovery

    def add_port(self, path: str) -> PanelPort:
        with self._lock:
            port = self._ports.get(path)
            if port is None:
                port = PanelPort(self, path)
                self._ports[path] = port
                port.start()
                log.debug("watching %s", path)
            return port

    def scan(self) -> list[str]:
        found = discover_ports(self.config)
        for path in found:
            self.add_port(path)
        return found

    def _scan_loop(self) -> None:
        while not self._stop.wait(self.config.scan_interval_s):
            try:
                self.scan()
            except Exception:
                log.exception("panel discovery failed")

    # state

    def ports(self) -> list[PanelPort]:
        with self._lock:
            return list(self._ports.values())

    def connected(self) -> list[PanelPort]:
        return [port for port in self.ports() if port.state == "connected"]

    def wait_connected(self, count: int = 1, timeout: float = 5.0) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if len(self.connected()) >= count:
                return True
            time.sleep(0.01)
        return len(self.connected()) >= count

    def status(self) -> dict:
        with self._lock:
            counters = Counter(self._counters)
            ports = list(self._ports.values())
        for port in ports:
            for name in LINK_COUNTERS:
                counters[name] += port.link.counters[name]
        return {
            "session": self.session,
            "counters": dict(counters),
            "panels": [port.describe() for port in ports],
        }

    def counter(self, name: str) -> int:
        return int(self.status()["counters"].get(name, 0))

    def next_event(self, timeout: float | None = None) -> ButtonEvent | PanelEvent | None:
        try:
            return self.events.get(timeout=timeout)
        except queue.Empty:
            return None

    async def stream(self) -> AsyncIterator[ButtonEvent | PanelEvent]:
        """The same events for asyncio code (e.g. the web UI). The blocking wait runs in a
        worker thread, so the event loop stays free. Use either this or ``events``, not both."""
        while not self._stop.is_set():
            event = await asyncio.to_thread(self.next_event, 0.2)
            if event is not None:
                yield event

    # commands

    def port_for(self, target: int | str) -> PanelPort:
        """The connected port of a seat (int, from 0) or a panel id (str)."""
        for port in self.ports():
            if port.state != "connected" or port.info is None:
                continue
            if (isinstance(target, int) and port.seat == target) or port.info.panel_id == target:
                return port
        raise PanelNotConnected(f"no connected panel for {target!r}")

    def set_led(
        self,
        target: int | str,
        led: str | int,
        mode: str | int = "on",
        colour: tuple[int, int, int] = (255, 255, 255),
        period_ms: int = 500,
    ) -> Delivery:
        """Set one LED of the panel at a seat (from 0) or with a panel id. Applied in call order;
        remembered and replayed if the panel reboots or is replugged."""
        if isinstance(mode, str):
            modes = {name: code for code, name in p.LED_MODE_NAMES.items()}
            if mode not in modes:
                raise ValueError(f"LED mode must be one of {sorted(modes)}, not {mode!r}")
            mode = modes[mode]
        if not all(0 <= c <= 255 for c in colour) or not 0 <= period_ms <= 0xFFFF:
            raise ValueError("colour components must be 0..255 and period_ms 0..65535")
        port = self.port_for(target)
        info = port.info
        assert info is not None
        lid = info.led_id(led)
        payload = p.pack_led(lid, mode, colour, period_ms)
        with self._lock:
            self._desired.setdefault(info.panel_id, {})[lid] = payload
        return port.send(p.LED, payload)

    def buzz(self, target: int | str, freq_hz: int = 2000, duration_ms: int = 100) -> Delivery:
        port = self.port_for(target)
        return port.send(p.BUZZER, p.pack_buzzer(freq_hz, duration_ms))

    # internals used by ports

    def _emit(self, event: ButtonEvent | PanelEvent) -> None:
        self.events.put(event)

    def _count(self, name: str, n: int = 1) -> None:
        with self._lock:
            self._counters[name] += n

    def _warn(self, key: object, msg: str, *args: object) -> None:
        """Log a warning, at most once a second per key, so a noisy line cannot flood the log."""
        now = time.monotonic()
        with self._lock:
            if now - self._last_log.get(key, -LOG_EVERY_S) < LOG_EVERY_S:
                return
            self._last_log[key] = now
        log.warning(msg, *args)

    def _bad(self, port: PanelPort, counter: str, message: str) -> None:
        self._count(counter)
        panel = port.info.panel_id if port.info else "unknown panel"
        self._warn((counter, port.path), "%s on %s (%s): %s [%s=%d]", counter, port.path, panel,
                   message, counter, self._counters[counter])

    def _release_seat(self, port: PanelPort) -> None:
        with self._lock:
            for held, holder in list(self._seat_holders.items()):
                if holder is port:
                    del self._seat_holders[held]

    def _claim_seat(self, port: PanelPort, panel_id: str) -> int | None:
        seat = self.config.seat_for(panel_id)
        with self._lock:
            for held, holder in list(self._seat_holders.items()):
                if holder is port and held != seat:
                    del self._seat_holders[held]  # another panel was plugged into this port
            if seat is None:
                self._counters["unknown_panel"] += 1
                log.warning(
                    "panel %s on %s is in no seat of the table config; its events carry "
                    "seat=None [unknown_panel=%d]", panel_id, port.path,
                    self._counters["unknown_panel"])
                return None
            current = self._seat_holders.get(seat)
            if current is not None and current is not port and current.is_live():
                self._counters["seat_conflict"] += 1
                other = current.info.panel_id if current.info else "?"
                log.warning(
                    "panel %s on %s claims seat %d, already held by panel %s on %s; it gets no "
                    "seat [seat_conflict=%d]", panel_id, port.path, seat, other, current.path,
                    self._counters["seat_conflict"])
                return None
            self._seat_holders[seat] = port
            return seat

    def _restore_leds(self, port: PanelPort, info: PanelInfo) -> None:
        """A panel that (re)booted has dark LEDs: replay what the table last asked for."""
        with self._lock:
            desired = list(self._desired.get(info.panel_id, {}).values())
        for payload in desired:
            port.link.send(p.LED, payload)


def collect(
    bridge: PanelBridge,
    until: Callable[[list[ButtonEvent | PanelEvent]], bool],
    timeout: float,
) -> list[ButtonEvent | PanelEvent]:
    """Read events until ``until(events)`` holds or the timeout passes."""
    events: list[ButtonEvent | PanelEvent] = []
    deadline = time.monotonic() + timeout
    while not until(events):
        left = deadline - time.monotonic()
        if left <= 0:
            break
        event = bridge.next_event(timeout=min(left, 0.05))
        if event is not None:
            events.append(event)
    return events
