"""The build guide's wiring diagrams (docs/build/wiring-*.svg) are what docs/build/draw_wiring.py
draws, and every part in them sits on the pin the code drives: the dealer's buttons and LEDs on
the table config's default GPIO pins, the seat panel's on firmware/board.py's."""

from __future__ import annotations

import importlib.util
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from hardware.config import GpioConfig

ROOT = Path(__file__).resolve().parents[1]
BUILD = ROOT / "docs" / "build"
PART = re.compile(r"^([a-z_]+(?:\.[RGB])?) — (?:GPIO|GP)(\d+) \(")


def load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def drawing() -> ModuleType:
    return load("docs_build_draw_wiring", BUILD / "draw_wiring.py")


def parts(svg: Path) -> dict[str, int]:
    """Every labelled part of a diagram: name -> pin."""
    texts = ["".join(el.itertext()) for el in ET.parse(svg).getroot().iter()
             if el.tag.endswith("text")]
    found = [m for t in texts if (m := PART.match(t))]
    out = {m[1]: int(m[2]) for m in found}
    assert len(out) == len(found), "a part is drawn twice"
    return out


def test_the_committed_diagrams_are_what_the_script_draws(drawing: ModuleType) -> None:
    for name, draw in (("wiring-dealer.svg", drawing.dealer), ("wiring-panel.svg", drawing.panel)):
        assert (BUILD / name).read_text(encoding="utf-8") == draw(), (
            f"docs/build/{name} is stale: run .venv/bin/python docs/build/draw_wiring.py")


def test_the_dealer_diagram_has_the_configs_default_pins() -> None:
    gpio = GpioConfig()  # what a table config without [gpio] pins drives
    assert parts(BUILD / "wiring-dealer.svg") == {**gpio.buttons, **gpio.leds}


def test_the_panel_diagram_has_the_firmwares_pins() -> None:
    board = load("firmware_board_for_wiring", ROOT / "firmware" / "board.py")
    expected = {name: pin for _id, name, pin in board.BUTTONS}
    for _id, name, caps, pins in board.LEDS:
        if caps & 0x01:  # RGB: a pin per colour
            expected.update({f"{name}.{c}": p for c, p in zip("RGB", pins, strict=True)})
        else:
            expected[name] = pins[0]
    if board.BUZZER_PIN is not None:
        expected["buzzer"] = board.BUZZER_PIN
    assert parts(BUILD / "wiring-panel.svg") == expected


def test_a_moved_pin_would_be_seen(tmp_path: Path) -> None:
    moved = tmp_path / "moved.svg"
    moved.write_text((BUILD / "wiring-dealer.svg").read_text(encoding="utf-8")
                     .replace("new_deal — GPIO17", "new_deal — GPIO5"), encoding="utf-8")
    assert parts(moved)["new_deal"] == 5 != GpioConfig().buttons["new_deal"]
