"""Simulated seat-panel firmware at the far end of a real pseudo-terminal.

It speaks the same protocol module as the Pico firmware, can be scripted ("press X at t") and can
damage its own line (drop, corrupt, duplicate or delay bytes; reboot mid-stream; unplug) so the
host bridge is tested against the faults a USB serial link really shows.
"""

from __future__ import annotations

import errno
import heapq
import itertools
import logging
import os
import random
import select
import threading
import time
import tty
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from firmware_bridge import protocol as p

log = logging.getLogger(__name__)

# Seat panel layout: the buttons the games need and the LEDs the table shows. The same as
# firmware/board.py's and controller.buttons.PANEL's (tests/test_panel_buttons.py keeps them so).
DEFAULT_BUTTONS: tuple[tuple[int, str], ...] = (
    (1, "pass"),  # «Пас»
    (2, "play"),  # «Играю»
    (3, "clubs"),
    (4, "diamonds"),
    (5, "hearts"),
    (6, "spades"),
    (7, "bid_up"),
    (8, "bid_down"),
    (9, "bela"),  # «Бэла»
    (10, "party"),  # «Партия!»
    (11, "take"),  # «Беру»
    (12, "beaten"),  # «Бито»
    (13, "confirm"),
    (14, "undo"),
)
DEFAULT_LEDS: tuple[tuple[int, str, int], ...] = (
    (1, "turn", p.LED_CAP_DIMMABLE),
    (2, "trump", p.LED_CAP_RGB | p.LED_CAP_DIMMABLE),
    (3, "illegal", p.LED_CAP_DIMMABLE),
    (4, "trick_won", p.LED_CAP_DIMMABLE),
    (5, "error", p.LED_CAP_DIMMABLE),
)
SIM_FIRMWARE = "sim-1.0"
LONG_PRESS_MS = 700


@dataclass
class Faults:
    """Per-byte fault probabilities for one direction of the line."""

    drop: float = 0.0
    corrupt: float = 0.0
    duplicate: float = 0.0
    delay: float = 0.0  # chance per write that the bytes are held back for delay_ms
    delay_ms: float = 30.0

    @property
    def active(self) -> bool:
        return bool(self.drop or self.corrupt or self.duplicate or self.delay)

    def apply(self, data: bytes, rng: random.Random) -> bytes:
        out = bytearray()
        for byte in data:
            r = rng.random()
            if r < self.drop:
                continue
            r -= self.drop
            if r < self.corrupt:
                out.append(byte ^ rng.randrange(1, 256))
                continue
            r -= self.corrupt
            out.append(byte)
            if r < self.duplicate:
                out.append(byte)
        return bytes(out)


@dataclass
class LedCommand:
    """An LED command as the panel applied it."""

    led: str
    mode: str
    colour: tuple[int, int, int]
    period_ms: int
    at: float = field(default_factory=time.monotonic)


@dataclass
class SentEvent:
    button: str
    action: str
    panel_ms: int


def _now_ms() -> int:
    return int(time.monotonic() * 1000)


class SimPanel:
    """One simulated panel on its own pty. Use as a context manager or call start()/close()."""

    def __init__(
        self,
        panel_id: str,
        *,
        link_path: str | os.PathLike[str] | None = None,
        buttons: Iterable[tuple[int, str]] = DEFAULT_BUTTONS,
        leds: Iterable[tuple[int, str, int]] = DEFAULT_LEDS,
        firmware: str = SIM_FIRMWARE,
        buzzer: bool = True,
        seed: int = 0,
        faults: Faults | None = None,
        tx_faults: Faults | None = None,
        rx_faults: Faults | None = None,
        line_rate: int | None = None,
    ) -> None:
        self.panel_id = panel_id
        self.link_path = Path(link_path) if link_path is not None else None
        self.buttons = dict((name, bid) for bid, name in buttons)
        self.button_names = {bid: name for name, bid in self.buttons.items()}
        self.led_table = {lid: (name, caps) for lid, name, caps in leds}
        self.firmware = firmware
        self.features = p.FEATURE_BUZZER if buzzer else 0
        self.rng = random.Random(seed)
        self.tx_faults = tx_faults or faults or Faults()
        self.rx_faults = rx_faults or faults or Faults()
        self.line_rate = line_rate  # if set, pace bytes at this many baud (8N1)

        self.lock = threading.RLock()
        self.panel = p.Panel(
            self._write,
            _now_ms,
            panel_id,
            firmware,
            sorted(self.button_names.items()),
            [(lid, name, caps) for lid, (name, caps) in sorted(self.led_table.items())],
            self.features,
            self._on_led,
            self._on_buzzer,
        )
        self.link = self.panel.link
        self.leds: dict[str, LedCommand] = {}
        self.applied: list[LedCommand] = []
        self.buzzes: list[tuple[int, int]] = []
        self.sent: list[SentEvent] = []
        self.boots = 0
        self._master: int | None = None
        self._slave: int | None = None
        self.pty_path: str | None = None
        self._delayed: list[tuple[float, bytes]] = []
        self._timers: list[tuple[float, int, Callable[[], None]]] = []
        self._tick = itertools.count()
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"sim-{panel_id}", daemon=True)
        self._open_pty()
        self._boot()

    # lifecycle

    @property
    def port(self) -> str:
        """The path the host should open: the stable link if there is one, else the pty."""
        return str(self.link_path) if self.link_path is not None else str(self.pty_path)

    def start(self) -> SimPanel:
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(timeout=2)
        with self.lock:
            self._close_pty()

    def __enter__(self) -> SimPanel:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no newline translation: a clean 8-bit line
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self.pty_path = os.ttyname(slave)
        if self.link_path is not None:
            # Replace the link atomically, the way udev updates /dev/serial/by-id.
            tmp = self.link_path.with_name("." + self.link_path.name + ".tmp")
            tmp.unlink(missing_ok=True)
            os.symlink(self.pty_path, tmp)
            os.replace(tmp, self.link_path)

    def _close_pty(self) -> None:
        if self.link_path is not None:
            self.link_path.unlink(missing_ok=True)
        for fd in (self._master, self._slave):
            if fd is not None:
                os.close(fd)
        self._master = self._slave = None
        self._delayed.clear()

    def _boot(self) -> None:
        """Power-on: LEDs dark, fresh link, announce ourselves."""
        self.boots += 1
        self.leds.clear()
        self.panel.boot(self.rng.getrandbits(32))

    @property
    def seat(self) -> int | None:
        """The seat (from 0) the host assigned in its welcome."""
        return self.panel.seat

    @property
    def welcomed(self) -> bool:
        return self.panel.welcomed

    def _on_led(self, lid: int, mode: int, colour: tuple[int, int, int], period: int) -> bool:
        if lid not in self.led_table:
            return False
        cmd = LedCommand(self.led_table[lid][0], p.LED_MODE_NAMES[mode], colour, period)
        self.leds[cmd.led] = cmd
        self.applied.append(cmd)
        return True

    def _on_buzzer(self, freq_hz: int, duration_ms: int) -> None:
        self.buzzes.append((freq_hz, duration_ms))

    # faults and scripting

    def reboot(self, mid_stream: bool = True) -> None:
        """Reset the panel; with mid_stream, half a frame is left on the line first."""
        with self.lock:
            if mid_stream and self._master is not None:
                frame = p.encode_frame(p.BUTTON, 0x1234, p.pack_button(1, p.PRESS, 0))
                self._raw_write(frame[: len(frame) // 2])
            self._boot()

    def unplug(self) -> None:
        """Pull the cable: the host's reads fail and the stable path disappears."""
        with self.lock:
            self._close_pty()

    def replug(self, reboot: bool = True) -> None:
        """Plug back in on a fresh pty behind the same stable path (USB power-cycles the panel)."""
        with self.lock:
            if self._master is None:
                self._open_pty()
            if reboot:
                self._boot()
            else:
                self.panel.send_hello()

    def send_raw(self, data: bytes) -> None:
        """Put bytes on the line as they are (garbage tests)."""
        with self.lock:
            self._raw_write(data)

    def send_frame(
        self, mtype: int, payload: bytes = b"", *, seq: int = 0xFFF0, version: int = p.PROTOCOL_VERSION
    ) -> None:
        """Send a hand-made frame outside the reliable link (unknown versions and types)."""
        with self.lock:
            self._raw_write(p.encode_frame(mtype, seq, payload, version=version))

    def after(self, delay_s: float, action: Callable[[], None]) -> None:
        """Run ``action`` on the panel's thread ``delay_s`` from now."""
        with self.lock:
            heapq.heappush(self._timers, (time.monotonic() + delay_s, next(self._tick), action))

    def script(self, steps: Iterable[tuple[float, str, str | None]]) -> None:
        """Schedule steps ``(t_seconds, action, button)``; actions: press, release, tap,
        long_press, reboot, unplug, replug."""
        for t, action, button in steps:
            if action in ("reboot", "unplug", "replug"):
                self.after(t, getattr(self, action))
            else:
                def step(a: str = action, b: str | None = button) -> None:
                    getattr(self, a)(b)

                self.after(t, step)

    def press(self, button: str) -> None:
        self._event(button, p.PRESS)

    def release(self, button: str) -> None:
        self._event(button, p.RELEASE)

    def tap(self, button: str) -> None:
        with self.lock:
            self._event(button, p.PRESS)
            self._event(button, p.RELEASE)

    def long_press(self, button: str, hold_ms: int = LONG_PRESS_MS + 100) -> None:
        """Press, report a long press after LONG_PRESS_MS, release after hold_ms."""
        self.press(button)
        self.after(LONG_PRESS_MS / 1000, lambda: self._event(button, p.LONG_PRESS))
        self.after(hold_ms / 1000, lambda: self._event(button, p.RELEASE))

    def _event(self, button: str, action: int) -> None:
        with self.lock:
            panel_ms = self.panel.uptime_ms()
            self.sent.append(SentEvent(button, p.ACTION_NAMES[action], panel_ms))
            self.panel.button(self.buttons[button], action, panel_ms)

    def report_error(self, code: int, text: str) -> None:
        with self.lock:
            self.panel.error(code, text)

    # I/O

    def _raw_write(self, data: bytes) -> None:
        if self._master is None:
            return  # unplugged: the bytes go nowhere, as on a real cable
        if self.line_rate:
            time.sleep(len(data) * 10 / self.line_rate)
        try:
            os.write(self._master, data)
        except BlockingIOError:
            pass  # nobody is reading the other end; USB CDC drops too
        except OSError as exc:
            if exc.errno not in (errno.EIO, errno.EBADF):
                raise

    def _write(self, data: bytes) -> None:
        if self.tx_faults.active:
            data = self.tx_faults.apply(data, self.rng)
            if self.tx_faults.delay and self.rng.random() < self.tx_faults.delay:
                release = time.monotonic() + self.tx_faults.delay_ms / 1000
                self._delayed.append((release, data))
                return
        if self._delayed:  # keep byte order behind anything held back
            self._delayed.append((self._delayed[-1][0], data))
            return
        self._raw_write(data)

    def _run(self) -> None:
        while not self._stop.is_set():
            fd = self._master
            data = b""
            if fd is None:
                time.sleep(0.005)
            else:
                try:
                    ready, _, _ = select.select([fd], [], [], 0.005)
                    if ready:
                        data = os.read(fd, 4096)
                except (OSError, ValueError):
                    time.sleep(0.005)  # fd closed under us by unplug()
            with self.lock:
                try:
                    if data and self._master is not None:
                        self._receive(data)
                    self._service()
                except Exception:  # a sim bug must not silently freeze the panel
                    log.exception("simulated panel %s failed", self.panel_id)

    def _service(self) -> None:
        now = time.monotonic()
        while self._timers and self._timers[0][0] <= now:
            _, _, action = heapq.heappop(self._timers)
            action()
        while self._delayed and self._delayed[0][0] <= now:
            self._raw_write(self._delayed.pop(0)[1])
        if self._master is not None:
            self.panel.service()

    def _receive(self, data: bytes) -> None:
        if self.line_rate:
            time.sleep(len(data) * 10 / self.line_rate)
        if self.rx_faults.active:
            data = self.rx_faults.apply(data, self.rng)
        self.panel.feed(data)


class SimTable:
    """A simulated table: one SimPanel per panel id behind a private /dev/serial/by-id stand-in,
    and (optionally) a PanelBridge that discovers them. Used by tests, the demo and the CLI.

    ``panels`` is {panel id: seat from 0, or None for no seat}, or a list of ids seated 0, 1, ...
    in order; ``table[n]`` is the n-th panel given."""

    def __init__(
        self,
        panels: dict[str, int | None] | Iterable[str],
        *,
        seats: dict[str, int] | None = None,
        with_bridge: bool = True,
        seed: int = 0,
        **sim_kwargs: object,
    ) -> None:
        import tempfile

        from firmware_bridge.bridge import PanelBridge
        from firmware_bridge.config import PanelConfig

        self._tmp = tempfile.TemporaryDirectory(prefix="panels-by-id-")
        self.by_id = Path(self._tmp.name)
        ids = list(panels)
        if seats is None:
            seats = (
                {pid: seat for pid, seat in panels.items() if seat is not None}
                if isinstance(panels, dict)
                else {pid: n for n, pid in enumerate(ids)}
            )
        self.config = PanelConfig.from_mapping(
            seats, by_id_dirs=[str(self.by_id)], port_globs=["*"], use_list_ports=False,
            scan_interval_s=0.1,
        )
        self.sims: list[SimPanel] = []
        for n, pid in enumerate(ids):
            link = self.by_id / f"usb-cardtable_panel_{n}-if00"
            self.sims.append(SimPanel(pid, link_path=link, seed=seed + n, **sim_kwargs))  # type: ignore[arg-type]
        self.bridge = PanelBridge(self.config) if with_bridge else None

    def __getitem__(self, index: int) -> SimPanel:
        return self.sims[index]

    def start(self) -> SimTable:
        for sim in self.sims:
            sim.start()
        if self.bridge is not None:
            self.bridge.start()
        return self

    def close(self) -> None:
        if self.bridge is not None:
            self.bridge.stop()
        for sim in self.sims:
            sim.close()
        self._tmp.cleanup()

    def __enter__(self) -> SimTable:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()
