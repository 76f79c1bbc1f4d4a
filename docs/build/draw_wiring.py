"""Draws the build guide's two wiring diagrams from the code's own pin maps (schemdraw, to SVG).

* ``wiring-dealer.svg``: the dealer's buttons and status LEDs on the Pi's GPIO, from the table
  config's defaults (``hardware.gpio.DEFAULT_BUTTONS``, ``DEFAULT_LEDS``; ``[gpio]`` in
  ``table.toml`` may move them);
* ``wiring-panel.svg``: one seat panel on a Raspberry Pi Pico, from ``firmware/board.py``.

Every button closes its pin to ground (the internal pull-up is on: pressed reads 0); every LED
is driven high through its own resistor to ground (an RGB LED: common cathode, a resistor per
colour); the panel's buzzer is a small active buzzer. Each part is labelled ``name — GPIOn``, and
``tests/test_build_wiring.py`` checks those labels against the pin maps and the committed SVGs
against this script, so the pictures cannot drift from the code.

Run ``.venv/bin/python docs/build/draw_wiring.py`` after changing a pin map.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import schemdraw
import schemdraw.elements as elm

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(ROOT))

from hardware.gpio import DEFAULT_BUTTONS, DEFAULT_LEDS  # noqa: E402

LED_OHMS = 330  # a 3.3 V pin through 330 ohm: about 4 mA in a red LED, bright enough indoors
RGB_OHMS = (330, 220, 220)  # red, green, blue (green and blue drop more voltage)
RU = {"new_deal": "новая сдача", "cancel": "отмена", "ready": "стол работает",
      "attention": "внимание", "pass": "пас", "play": "играю", "clubs": "♣", "diamonds": "♦",
      "hearts": "♥", "spades": "♠", "bid_up": "ставка +", "bid_down": "ставка −",
      "bela": "бэла", "party": "партия!", "take": "беру", "beaten": "бито",
      "confirm": "подтвердить", "undo": "отменить", "turn": "ваш ход", "trump": "козырь",
      "illegal": "нарушение", "trick_won": "взятка", "error": "ошибка", "buzzer": "зуммер"}


def board() -> object:
    """``firmware/board.py`` (MicroPython's pin map; plain data, importable here)."""
    spec = importlib.util.spec_from_file_location("firmware_board", ROOT / "firmware" / "board.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


COLOURS_RU = {"R": "красный", "G": "зелёный", "B": "синий"}


def label(name: str, pin: int, prefix: str = "GPIO") -> str:
    base, _, colour = name.partition(".")
    ru = RU.get(base, base) + (f", {COLOURS_RU[colour]}" if colour else "")
    return f"{name} — {prefix}{pin} ({ru})"


def _setup() -> None:
    schemdraw.use("svg")
    schemdraw.svgconfig.text = "text"  # labels stay text: searchable, and checked by the test
    schemdraw.config(fontsize=11, unit=2.2)


ROW = 2.0  # between two parts' rows
RIGHT = 6.5  # where the labels begin, right of the longest part (an LED with its resistor)
LABEL_ROOM = 11.0  # the labels' width: schemdraw does not measure text drawn as SVG text


def _ground_and_label(d: schemdraw.Drawing, start: float, text: str) -> None:
    y = d.here[1]
    elm.Ground()
    elm.Label().at((start + RIGHT, y)).label(text, fontsize=10, halign="left")
    elm.Gap().at((start + RIGHT, y)).to((start + RIGHT + LABEL_ROOM, y))  # room for the text


def _button(d: schemdraw.Drawing, text: str) -> None:
    start = d.here[0]
    elm.Line().right(0.6)
    elm.Button().right()
    elm.Line().right(0.4)
    _ground_and_label(d, start, text)


def _led(d: schemdraw.Drawing, text: str, ohms: int) -> None:
    start = d.here[0]
    elm.Line().right(0.6)
    elm.Resistor().right().label(f"{ohms} Ω", loc="top", fontsize=9)
    elm.LED().right()
    _ground_and_label(d, start, text)


def _title(ru: str, en: str) -> None:
    elm.Label().label(ru, fontsize=12, halign="left")
    elm.Label().at((0, -0.7)).label(en, fontsize=11, halign="left")


def dealer() -> str:
    """The Pi's GPIO: the dealer's buttons and status LEDs."""
    _setup()
    rows = ([("button", n, p) for n, p in DEFAULT_BUTTONS.items()]
            + [("led", n, p) for n, p in DEFAULT_LEDS.items()])
    with schemdraw.Drawing(show=False) as d:
        _title("Дилер: кнопки и индикаторы на GPIO Raspberry Pi (номера BCM)",
               "The dealer's buttons and LEDs on the Pi's GPIO (BCM numbers)")
        d.move(0, -0.7)
        for kind, name, pin in rows:
            d.move(0, -ROW)
            d.push()
            elm.Dot(open=True).label(f"GPIO{pin}", loc="left", fontsize=10)
            if kind == "button":
                _button(d, label(name, pin))
            else:
                _led(d, label(name, pin), LED_OHMS)
            d.pop()
    return d.get_imagedata("svg").decode()


def panel() -> str:
    """One seat panel: a Raspberry Pi Pico with the buttons, LEDs and buzzer of board.py."""
    _setup()
    b = board()
    with schemdraw.Drawing(show=False) as d:
        _title("Пульт места: Raspberry Pi Pico (firmware/board.py)",
               "One seat panel: a Raspberry Pi Pico (firmware/board.py)")
        d.move(0, -0.7)
        for _bid, name, pin in b.BUTTONS:  # type: ignore[attr-defined]
            d.move(0, -ROW)
            d.push()
            elm.Dot(open=True).label(f"GP{pin}", loc="left", fontsize=10)
            _button(d, label(name, pin, "GP"))
            d.pop()
        for _lid, name, caps, pins in b.LEDS:  # type: ignore[attr-defined]
            rgb = bool(caps & 0x01)
            for k, pin in enumerate(pins):
                colour = ("R", "G", "B")[k] if rgb else ""
                d.move(0, -ROW)
                d.push()
                elm.Dot(open=True).label(f"GP{pin}", loc="left", fontsize=10)
                text = label(f"{name}{'.' + colour if colour else ''}", pin, "GP")
                _led(d, text, RGB_OHMS[k] if rgb else LED_OHMS)
                d.pop()
        if b.BUZZER_PIN is not None:  # type: ignore[attr-defined]
            pin = b.BUZZER_PIN  # type: ignore[attr-defined]
            d.move(0, -ROW)
            elm.Dot(open=True).label(f"GP{pin}", loc="left", fontsize=10)
            start = d.here[0]
            elm.Line().right(0.6)
            elm.RBox().right().label("BZ", loc="center", fontsize=9)
            elm.Line().right(0.4)
            _ground_and_label(d, start, label("buzzer", pin, "GP"))
    return d.get_imagedata("svg").decode()


def main() -> None:
    for name, svg in (("wiring-dealer.svg", dealer()), ("wiring-panel.svg", panel())):
        (HERE / name).write_text(svg, encoding="utf-8")
        print(f"wrote {HERE / name}")


if __name__ == "__main__":
    main()
