"""GPIO on the Pi's own header: the dealer's buttons and the table's status LEDs, via gpiozero.

Devices are built on pins from a swappable gpiozero pin factory, chosen by name: ``lgpio``
(Pi 5; also fine on a Pi 4), ``rpigpio`` (RPi.GPIO, Pi 4 and older) or ``mock`` (gpiozero's
``MockFactory``, for tests and the simulated table). The real back-ends are imported only when
chosen, and a missing one is a clear error: a venv without lgpio would otherwise make gpiozero
fall back to RPi.GPIO, which does not work on a Pi 5.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from gpiozero import LED, Button
from gpiozero.pins.mock import MockFactory

DEFAULT_BUTTONS = {"new_deal": 17, "cancel": 27}  # «новая сдача», «отмена» (BCM numbers)
DEFAULT_LEDS = {"ready": 22, "attention": 23}  # table running; a card to confirm / log error


class GpioError(RuntimeError):
    """The chosen pin factory cannot be used here."""


def pin_factory(name: str) -> Any:
    if name == "mock":
        return MockFactory()
    if name == "lgpio":
        try:
            from gpiozero.pins.lgpio import LGPIOFactory
            return LGPIOFactory()
        except ImportError as exc:
            raise GpioError("pin factory 'lgpio' needs the lgpio module: on Raspberry Pi OS install "
                            "python3-lgpio and make the venv with --system-site-packages") from exc
    if name == "rpigpio":
        try:
            from gpiozero.pins.rpigpio import RPiGPIOFactory
            return RPiGPIOFactory()
        except (ImportError, RuntimeError) as exc:
            raise GpioError(f"pin factory 'rpigpio' is not usable here ({exc}); on a Pi 5 use "
                            "'lgpio'") from exc
    raise GpioError(f"unknown pin factory {name!r}: lgpio, rpigpio or mock")


class DealerPanel:
    """The dealer's buttons and the status LEDs on the Pi's header.

    ``on_press(name)`` is called for each press (after debouncing); ``show(ready, attention)``
    sets the LEDs. On a ``MockFactory`` ``press(name)`` drives the pin as a finger would.
    """

    def __init__(self, factory: Any, on_press: Callable[[str], None], *,
                 buttons: dict[str, int] | None = None, leds: dict[str, int] | None = None,
                 bounce_s: float | None = 0.05, hold_s: float = 1.0) -> None:
        self.factory = factory
        self.on_press = on_press
        self.buttons: dict[str, Button] = {}
        for name, pin in (buttons or DEFAULT_BUTTONS).items():
            # the MockFactory's pins have no real bounce to filter
            bounce = None if isinstance(factory, MockFactory) else bounce_s
            b = Button(pin, pin_factory=factory, bounce_time=bounce, hold_time=hold_s)
            b.when_pressed = lambda _dev=None, n=name: self.on_press(n)
            self.buttons[name] = b
        self.leds = {name: LED(pin, pin_factory=factory) for name, pin in (leds or DEFAULT_LEDS).items()}

    def press(self, name: str) -> None:
        pin = self.factory.pin(self.buttons[name].pin.info.name) if isinstance(
            self.factory, MockFactory) else None
        if pin is None:
            raise GpioError("press() drives pins only on the mock pin factory")
        pin.drive_low()
        pin.drive_high()

    def show(self, ready: bool, attention: str = "off") -> None:
        self.leds["ready"].on() if ready else self.leds["ready"].off()
        led = self.leds["attention"]
        if attention == "blink":
            led.blink(0.25, 0.25)
        elif attention == "on":
            led.on()
        else:
            led.off()

    def close(self) -> None:
        for dev in [*self.buttons.values(), *self.leds.values()]:
            dev.close()
