"""GPIO on the Pi's own header: the dealer's buttons, the table's status LEDs, a buzzer and the
shoe's card-present IR break-beam sensor, via gpiozero.

Why it exists: these few devices sit on the Pi itself (not on a seat panel), and the table must
run the same code on a Pi 4 (RPi.GPIO or lgpio), a Pi 5 (lgpio only) and in tests (gpiozero's
``MockFactory``). Devices are built on pins from a pin factory chosen by name: ``lgpio`` (Pi 5;
also fine on a Pi 4), ``rpigpio`` (RPi.GPIO, Pi 4 and older) or ``mock``. The real back-ends are
imported only when chosen, and a missing one is a clear error: a venv without lgpio would
otherwise make gpiozero fall back to RPi.GPIO, which does not work on a Pi 5.

Debouncing: the real pin factories filter bounce themselves (``bounce_time`` is passed on);
``DealerPanel`` also ignores a press that follows any other edge of the same button within
``bounce_s`` (contact chatter on press and on release), which is the part a ``MockFactory``
exercises, since its pins do not filter.
"""

from __future__ import annotations

import contextlib
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gpiozero import LED, Button, Buzzer, DigitalInputDevice
from gpiozero.pins.mock import MockFactory

if TYPE_CHECKING:
    from hardware.config import GpioConfig

DEFAULT_BUTTONS = {"new_deal": 17, "cancel": 27}  # «новая сдача», «отмена» (BCM numbers)
DEFAULT_LEDS = {"ready": 22, "attention": 23}  # table running; a card to confirm / log error
FACTORIES = ("lgpio", "rpigpio", "mock")
# LED patterns for show(attention=...): (on seconds, off seconds); "on"/"off" are steady.
PATTERNS: dict[str, tuple[float, float]] = {
    "blink": (0.25, 0.25),
    "fast": (0.1, 0.1),
    "slow": (1.0, 1.0),
}
MODEL_FILE = Path("/proc/device-tree/model")


class GpioError(RuntimeError):
    """The chosen pin factory (or a pin) cannot be used here."""


def board_model() -> str:
    """The Pi's model string ('' off a Pi)."""
    try:
        return MODEL_FILE.read_bytes().rstrip(b"\0").decode(errors="replace")
    except OSError:
        return ""


def pin_factory(name: str) -> Any:
    """A gpiozero pin factory by name; the back-end module is imported only here."""
    if name == "mock":
        return MockFactory()
    if name == "lgpio":
        try:
            import lgpio  # noqa: F401  (gpiozero's LGPIOFactory needs it)
            from gpiozero.pins.lgpio import LGPIOFactory
        except ImportError as exc:
            raise GpioError("pin factory 'lgpio' needs the lgpio module: on Raspberry Pi OS install "
                            "python3-lgpio and make the venv with --system-site-packages") from exc
        try:
            return LGPIOFactory()
        except Exception as exc:
            raise GpioError(f"pin factory 'lgpio' cannot open the GPIO chip ({exc}); is this a "
                            "Raspberry Pi, and is the user in group gpio?") from exc
    if name == "rpigpio":
        if "Raspberry Pi 5" in board_model():
            raise GpioError("pin factory 'rpigpio' (RPi.GPIO) does not work on a Pi 5; use "
                            "factory = \"lgpio\"")
        try:
            from gpiozero.pins.rpigpio import RPiGPIOFactory
        except ImportError as exc:
            raise GpioError("pin factory 'rpigpio' needs RPi.GPIO: install python3-rpi.gpio "
                            "(or pip install RPi.GPIO on a Pi), or use factory = \"lgpio\"") from exc
        try:
            return RPiGPIOFactory()
        except Exception as exc:  # RuntimeError off a Pi / on a Pi 5
            raise GpioError(f"pin factory 'rpigpio' is not usable here ({exc}); on a Pi 5 use "
                            "'lgpio'") from exc
    raise GpioError(f"unknown pin factory {name!r}: {', '.join(FACTORIES)}")


def close_factory(factory: Any) -> None:
    with contextlib.suppress(Exception):
        factory.close()


class DealerPanel:
    """The dealer's buttons, the status LEDs, an optional buzzer and card sensor on the header.

    ``on_press(name)`` is called for each press (after debouncing), ``on_hold(name)`` once a
    button has been held ``hold_s``, ``on_card(present)`` when the shoe's break-beam is broken
    (a card in the mouth of the shoe) or clear again. ``show(ready, attention)`` sets the LEDs;
    ``beep()`` sounds the buzzer. On a ``MockFactory`` ``press(name)`` is one clean press,
    ``chatter(name, edges)`` a bouncing contact and ``hold(name, seconds)`` a long press.
    """

    def __init__(self, factory: Any, on_press: Callable[[str], None], *,
                 buttons: dict[str, int] | None = None, leds: dict[str, int] | None = None,
                 bounce_s: float | None = 0.05, hold_s: float = 1.0,
                 on_hold: Callable[[str], None] | None = None,
                 buzzer: int | None = None,
                 card_sensor: int | None = None, sensor_active_low: bool = True,
                 on_card: Callable[[bool], None] | None = None) -> None:
        self.factory = factory
        self.on_press = on_press
        self.on_hold = on_hold
        self.on_card = on_card
        self.bounce_s = bounce_s or 0.0
        self.hold_s = hold_s
        self.presses: dict[str, int] = {}
        self.bounces = 0  # presses ignored as contact chatter
        self._last_edge: dict[str, float] = {}
        self._lock = threading.Lock()
        self.buttons: dict[str, Button] = {}
        self.leds: dict[str, LED] = {}
        self.buzzer: Buzzer | None = None
        self.sensor: DigitalInputDevice | None = None
        try:
            for name, pin in (buttons or DEFAULT_BUTTONS).items():
                b = Button(pin, pin_factory=factory, bounce_time=bounce_s or None,
                           hold_time=hold_s)
                b.when_pressed = lambda _dev=None, n=name: self._edge(n, True)
                b.when_released = lambda _dev=None, n=name: self._edge(n, False)
                b.when_held = lambda _dev=None, n=name: self._held(n)
                self.buttons[name] = b
                self.presses[name] = 0
            for name, pin in (leds or DEFAULT_LEDS).items():
                self.leds[name] = LED(pin, pin_factory=factory)
            if buzzer is not None:
                self.buzzer = Buzzer(buzzer, pin_factory=factory)
            if card_sensor is not None:
                # A break-beam receiver is usually open-collector: low while the beam is broken.
                self.sensor = DigitalInputDevice(card_sensor, pull_up=sensor_active_low,
                                                 bounce_time=bounce_s or None,
                                                 pin_factory=factory)
                self.sensor.when_activated = lambda _dev=None: self._card(True)
                self.sensor.when_deactivated = lambda _dev=None: self._card(False)
        except Exception as exc:
            self.close()
            if isinstance(exc, GpioError):
                raise
            raise GpioError(f"GPIO pins not usable: {exc}") from exc

    # ---------------------------------------------------------------------------- inputs
    def _edge(self, name: str, pressed: bool) -> None:
        now = time.monotonic()
        with self._lock:
            last = self._last_edge.get(name, float("-inf"))
            self._last_edge[name] = now
            if not pressed:
                return
            if now - last < self.bounce_s:
                self.bounces += 1
                return
            self.presses[name] += 1
        self.on_press(name)

    def _held(self, name: str) -> None:
        if self.on_hold is not None:
            self.on_hold(name)

    def _card(self, present: bool) -> None:
        if self.on_card is not None:
            self.on_card(present)

    @property
    def card_present(self) -> bool | None:
        """The break-beam is broken; None without a sensor."""
        return None if self.sensor is None else bool(self.sensor.is_active)

    # ---------------------------------------------------------------- mock-pin fingers
    def _mock_pin(self, name: str) -> Any:
        if not isinstance(self.factory, MockFactory):
            raise GpioError("press(), chatter() and hold() drive pins only on the mock pin factory")
        return self.factory.pin(self.buttons[name].pin.info.name)

    def press(self, name: str) -> None:
        """One clean press and release, as after the button has been still a while."""
        pin = self._mock_pin(name)
        with self._lock:
            self._last_edge.pop(name, None)
        pin.drive_low()
        pin.drive_high()
        with self._lock:
            self._last_edge.pop(name, None)  # a clean release: no chatter to filter after it

    def chatter(self, name: str, edges: int = 6, gap_s: float = 0.002) -> None:
        """A bouncing contact: ``edges`` press/release flips ``gap_s`` apart, ending released."""
        pin = self._mock_pin(name)
        for _ in range(edges):
            pin.drive_low()
            time.sleep(gap_s)
            pin.drive_high()
            time.sleep(gap_s)

    def hold(self, name: str, seconds: float) -> None:
        """Press, keep it down ``seconds`` (gpiozero's hold timer runs), release."""
        pin = self._mock_pin(name)
        pin.drive_low()
        time.sleep(seconds)
        pin.drive_high()

    # --------------------------------------------------------------------------- outputs
    def show(self, ready: bool, attention: str = "off") -> None:
        """Ready LED steady on/off; attention ``off``, ``on`` or a pattern (blink, fast, slow)."""
        if "ready" in self.leds:
            self.leds["ready"].on() if ready else self.leds["ready"].off()
        led = self.leds.get("attention")
        if led is None:
            return
        if attention in PATTERNS:
            on_s, off_s = PATTERNS[attention]
            led.blink(on_s, off_s)
        elif attention == "on":
            led.on()
        else:
            led.off()

    def beep(self, n: int = 1, on_s: float = 0.1, off_s: float = 0.1,
             background: bool = True) -> None:
        """Sound the buzzer ``n`` times (nothing without one)."""
        if self.buzzer is not None:
            self.buzzer.beep(on_s, off_s, n=n, background=background)

    def close(self) -> None:
        devices: list[Any] = [*self.buttons.values(), *self.leds.values(), self.buzzer,
                              self.sensor]
        for dev in devices:
            if dev is not None:
                with contextlib.suppress(Exception):
                    dev.close()


def dealer_panel(cfg: GpioConfig, on_press: Callable[[str], None], *, factory: Any = None,
                 **kwargs: Any) -> DealerPanel:
    """The DealerPanel a table config describes (its pin factory unless ``factory`` is given)."""
    if factory is None:
        factory = pin_factory(cfg.factory)
    return DealerPanel(factory, on_press, buttons=dict(cfg.buttons), leds=dict(cfg.leds),
                       bounce_s=cfg.bounce_s, hold_s=cfg.hold_s, buzzer=cfg.buzzer,
                       card_sensor=cfg.card_sensor, sensor_active_low=cfg.sensor_active_low,
                       **kwargs)
