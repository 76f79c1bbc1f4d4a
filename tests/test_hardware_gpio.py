"""The dealer's GPIO devices on gpiozero's mock pins: presses, chatter, holds, LEDs, buzzer, sensor."""

from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory

from hardware.config import GpioConfig
from hardware.gpio import DealerPanel, GpioError, dealer_panel, pin_factory


def wait_until(predicate, timeout: float = 3.0) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.005)
    return predicate()


@pytest.fixture
def panel():
    pressed: list[str] = []
    held: list[str] = []
    cards: list[bool] = []
    p = DealerPanel(MockFactory(), pressed.append, bounce_s=0.2, hold_s=0.15, on_hold=held.append,
                    buzzer=24, card_sensor=25, on_card=cards.append)
    p.log = (pressed, held, cards)  # type: ignore[attr-defined]
    yield p
    p.close()


def test_clean_presses_each_count(panel) -> None:
    pressed, _, _ = panel.log
    panel.press("new_deal")
    panel.press("new_deal")  # a second, separate press right after: still a press
    panel.press("cancel")
    assert pressed == ["new_deal", "new_deal", "cancel"]


def test_contact_chatter_is_one_press_and_the_bounce_time_reaches_the_pin(panel) -> None:
    pressed, _, _ = panel.log
    pin = panel.factory.pin(17)
    assert pin.bounce == pytest.approx(0.2)  # real pin factories filter with this too
    panel.chatter("new_deal", edges=8, gap_s=0.002)  # 16 edges, each within 0.2 s of the last
    assert pressed == ["new_deal"]
    assert panel.bounces == 7
    time.sleep(0.3)  # quiet longer than bounce_s: the next press is a real one
    panel.chatter("new_deal", edges=3, gap_s=0.002)
    assert pressed == ["new_deal", "new_deal"]


def test_chatter_on_release_is_not_a_press() -> None:
    pressed: list[str] = []
    p = DealerPanel(MockFactory(), pressed.append, bounce_s=0.2)
    try:
        pin = p.factory.pin(27)
        pin.drive_low()
        time.sleep(0.25)  # held down, still
        pin.drive_high()  # released; the contact chatters as it opens
        for _ in range(3):
            pin.drive_low()
            pin.drive_high()
        assert pressed == ["cancel"]
    finally:
        p.close()


def test_without_bounce_every_edge_counts() -> None:
    pressed: list[str] = []
    p = DealerPanel(MockFactory(), pressed.append, bounce_s=None)
    try:
        p.chatter("cancel", edges=4, gap_s=0.001)
        assert pressed == ["cancel"] * 4
        assert p.factory.pin(27).bounce is None
    finally:
        p.close()


def test_hold_fires_after_hold_time_only(panel) -> None:
    pressed, held, _ = panel.log
    panel.hold("cancel", 0.05)  # shorter than hold_s
    assert held == []
    time.sleep(0.25)  # past bounce_s
    panel.hold("cancel", 0.4)
    assert wait_until(lambda: held == ["cancel"])
    assert pressed == ["cancel", "cancel"]


def test_blink_pattern_on_the_attention_led(panel) -> None:
    pin = panel.factory.pin(23)
    panel.show(True, "fast")  # 0.1 s on, 0.1 s off
    time.sleep(0.55)
    panel.show(True, "off")
    states = [s.state for s in pin.states]
    assert states[:5] == [False, True, False, True, False]
    gaps = [s.timestamp for s in pin.states[2:6]]
    assert all(0.07 < g < 0.2 for g in gaps), gaps
    assert panel.leds["ready"].is_lit and not panel.leds["attention"].is_lit
    panel.show(False, "on")
    assert not panel.leds["ready"].is_lit and panel.leds["attention"].is_lit


def test_buzzer_beeps(panel) -> None:
    pin = panel.factory.pin(24)
    panel.beep(2, on_s=0.03, off_s=0.03, background=False)
    assert [s.state for s in pin.states][1:5] == [True, False, True, False]


def test_break_beam_sensor_reports_a_card(panel) -> None:
    _, _, cards = panel.log
    pin = panel.factory.pin(25)
    assert panel.card_present is False  # pulled up: beam intact
    pin.drive_low()  # a card breaks the beam
    assert panel.card_present is True
    pin.drive_high()
    assert cards == [True, False]


def test_panel_from_config_and_pin_errors() -> None:
    cfg = GpioConfig(factory="mock", buttons={"new_deal": 5, "cancel": 6}, leds={"ready": 13},
                     bounce_s=0.02, hold_s=0.5, card_sensor=26)
    got: list[str] = []
    p = dealer_panel(cfg, got.append)
    try:
        assert p.factory.pin(5).bounce == pytest.approx(0.02)
        assert p.buttons["cancel"].hold_time == 0.5
        p.press("cancel")
        p.show(True, "blink")  # no attention LED configured: nothing to do, no error
        assert got == ["cancel"] and p.leds["ready"].is_lit and p.sensor is not None
        with pytest.raises(GpioError, match="not usable"):
            DealerPanel(p.factory, got.append, buttons={"x": 5})  # pin 5 is taken
    finally:
        p.close()


def test_real_pin_factories_are_clear_errors_here() -> None:
    try:
        import lgpio  # noqa: F401
    except ImportError:
        with pytest.raises(GpioError, match="python3-lgpio"):
            pin_factory("lgpio")
    with pytest.raises(GpioError, match="rpigpio"):
        pin_factory("rpigpio")  # no RPi.GPIO here, or not a Pi
    with pytest.raises(GpioError, match="unknown pin factory"):
        pin_factory("pigpio")


def test_press_needs_the_mock_factory() -> None:
    p = DealerPanel(MockFactory(), lambda n: None)
    factory, p.factory = p.factory, object()
    try:
        with pytest.raises(GpioError, match="mock"):
            p.press("new_deal")
    finally:
        p.factory = factory
        p.close()
