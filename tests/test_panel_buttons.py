"""One button vocabulary: the firmware's layout, the simulated panel's, the controller's table and
the docs are the same list, and seats are the engine's from the config through the bridge to the log.

Why: the button names are a contract between packages that live apart (MicroPython firmware, the
host bridge, the controller, the docs people wire panels by). ``controller.buttons.PANEL`` is the
one table; these tests fail when any copy drifts from it. The end-to-end cases run the simulated
panel firmware on real ptys behind the real bridge and ``PanelLink``.
"""

from __future__ import annotations

import importlib.util
import logging
import re
import time
from pathlib import Path
from types import ModuleType

import pytest

from controller import buttons as vocabulary
from controller.inputs import DEALER_BUTTONS, PANEL_BUTTONS, Button
from controller.table import PanelLink
from firmware_bridge import protocol as p
from firmware_bridge.sim import DEFAULT_BUTTONS, DEFAULT_LEDS, SimTable
from table_ui.testing import deal_until_play

ROOT = Path(__file__).resolve().parents[1]
WAIT = 20.0


def firmware_board() -> ModuleType:
    spec = importlib.util.spec_from_file_location("board", ROOT / "firmware" / "board.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def doc_table(path: Path, heading: str) -> list[list[str]]:
    """The rows (cells stripped) of the first Markdown table after ``heading``."""
    text = path.read_text(encoding="utf-8")
    lines = text[text.index(heading):].splitlines()
    rows = []
    for line in lines if heading.startswith("|") else lines[1:]:
        if line.startswith("#"):
            break
        if line.startswith("|") and not re.match(r"^\|[-| ]+\|$", line):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows and not line.startswith("|"):
            break
    return rows[1:]  # without the header row


def ticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


# ------------------------------------------------------------------------------ the layouts
def test_simulated_panel_has_the_firmware_layout() -> None:
    board = firmware_board()
    assert list(DEFAULT_BUTTONS) == [(bid, name) for bid, name, _gpio in board.BUTTONS]
    assert list(DEFAULT_LEDS) == [(lid, name, caps) for lid, name, caps, _gpios in board.LEDS]
    assert {caps for _lid, _name, caps in DEFAULT_LEDS} <= {
        p.LED_CAP_DIMMABLE, p.LED_CAP_RGB | p.LED_CAP_DIMMABLE}
    # every GPIO is wired once; an RGB LED has three pins, a plain one a single pin
    pins = [gpio for *_b, gpio in board.BUTTONS] + [g for *_l, gpios in board.LEDS for g in gpios]
    assert len(pins) == len(set(pins))
    assert all(len(gpios) == (3 if caps & p.LED_CAP_RGB else 1)
               for _lid, _name, caps, gpios in board.LEDS)


def test_the_firmware_layout_is_the_controllers_table() -> None:
    names = [name for _bid, name, _gpio in firmware_board().BUTTONS]
    assert tuple(names) == vocabulary.PANEL_BUTTONS == PANEL_BUTTONS
    assert [bid for bid, _name in DEFAULT_BUTTONS] == list(range(1, len(names) + 1))
    # the input model takes exactly the panel's buttons and the dealer's, nothing else
    for name in (*PANEL_BUTTONS, *DEALER_BUTTONS):
        Button(seat=0, button=name)
    for name in ("bella", "claim", "done", "Pass", ""):
        with pytest.raises(ValueError):
            Button(seat=0, button=name)


def test_every_button_that_means_an_event_is_in_the_meanings() -> None:
    # undo and the cursor are the controller's own; everything else picks a legal event
    assert set(vocabulary.PANEL_BUTTONS) - set(vocabulary.MEANINGS) == {
        "undo", "bid_up", "bid_down"}
    assert set(vocabulary.LABELS) == set(vocabulary.PANEL_BUTTONS)
    for meaning in vocabulary.MEANINGS.values():
        assert meaning and all(re.fullmatch(r"[a-z_]+", kind) for kind, _arg in meaning)


# ------------------------------------------------------------------------------ the docs
def test_docs_buttons_table_is_the_code_table() -> None:
    rows = doc_table(ROOT / "docs" / "buttons.md", "| button | label | means")
    seen: list[str] = []
    for names_cell, labels_cell, means in rows:
        names = ticked(names_cell)
        labels = labels_cell.split()
        assert len(names) == len(labels), names_cell
        for name, label in zip(names, labels, strict=True):
            assert vocabulary.LABELS.get(name) == label, (name, label)
            # every event kind the button may stand for is named in its row
            for kind, _arg in vocabulary.MEANINGS.get(name, ()):
                assert f"`{kind}" in means, (name, kind, means)
        seen += names
    assert sorted(seen) == sorted(vocabulary.PANEL_BUTTONS)


def test_docs_dealer_and_per_game_tables_use_known_buttons() -> None:
    path = ROOT / "docs" / "buttons.md"
    dealer = [ticked(row[0])[0] for row in doc_table(path, "## Dealer buttons")]
    assert dealer == list(DEALER_BUTTONS)
    for game, used in doc_table(path, "## Per game"):
        named = [t for t in ticked(used) if re.fullmatch(r"[a-z_]+", t)]
        not_buttons = {"on_claim"}  # a policy value the Durak row names
        assert named and set(named) - not_buttons <= set(vocabulary.PANEL_BUTTONS), (game, named)


def test_protocol_doc_lists_the_reference_layout() -> None:
    text = (ROOT / "docs" / "panel-protocol.md").read_text(encoding="utf-8")
    def sentence(start: str) -> str:  # from ``start`` to the end of its sentence
        rest = text[text.index(start):]
        end = re.search(r"\.\s", rest)
        assert end is not None
        return rest[: end.start()]

    buttons, leds = sentence("Reference button names"), sentence("Reference LEDs:")
    assert ticked(buttons) == list(vocabulary.PANEL_BUTTONS)
    assert ticked(leds) == [name for _lid, name, _caps in DEFAULT_LEDS]
    for name, label in re.findall(r"`(\w+)` \((«[^»]+»)\)", buttons):
        assert vocabulary.LABELS[name] == label


# ------------------------------------------------------------------------------ end to end
def wait_for(predicate, timeout: float = WAIT) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.02)
    return bool(predicate())


def panel_inputs(ctl) -> list[tuple[int, str]]:
    return [(e.body["seat"], e.body["button"]) for e in ctl.log.entries(ctl.game_id, kinds=("input",))
            if e.body.get("kind") == "button" and e.body.get("source") == "panel"]


def test_panel_seats_are_engine_seats_both_ways(make_controller) -> None:
    import random

    ctl = make_controller("durak2", {}, ["Аня", "Боря"])
    deal_until_play(ctl, random.Random(4))
    to_act = ctl.game.to_act()
    assert to_act in (0, 1)
    with SimTable({"sim-seat-0": 0, "sim-seat-1": 1}) as panels:
        assert panels.bridge.wait_connected(2, WAIT)
        link = PanelLink(ctl, panels.bridge).start()
        try:
            ctl.submit(Button(seat=None, button="new_deal", source="sim"))  # any state change
            # the turn LED lights on the panel of the engine's seat to act, and only there
            assert wait_for(lambda: all("turn" in panels[n].leds for n in (0, 1)))
            assert [panels[n].leds["turn"].mode for n in (0, 1)] == [
                "on" if n == to_act else "off" for n in (0, 1)]
            panels[0].tap("pass")
            assert wait_for(lambda: len(panel_inputs(ctl)) == 1)
            panels[1].tap("take")
            assert wait_for(lambda: len(panel_inputs(ctl)) == 2)
        finally:
            link.stop()
    assert panel_inputs(ctl) == [(0, "pass"), (1, "take")]


def test_a_button_outside_the_table_is_refused_clearly(
    make_controller, caplog: pytest.LogCaptureFixture
) -> None:
    # A panel flashed with another layout (here `bela` spelt as the engine's `bella`): its press
    # is not guessed at; one warning names it, the display shows the panel's error, and the
    # panel's other buttons keep working.
    layout = [(bid, "bella" if name == "bela" else name) for bid, name in DEFAULT_BUTTONS]
    ctl = make_controller("belot2", {}, ["Аня", "Боря"])
    with caplog.at_level(logging.WARNING, logger="cardtable.table"), SimTable(
            {"pico-old": 1}, buttons=layout) as panels:
        assert panels.bridge.wait_connected(1, WAIT)
        link = PanelLink(ctl, panels.bridge).start()
        try:
            panels[0].tap("bella")
            panels[0].tap("bella")
            panels[0].tap("pass")
            assert wait_for(lambda: len(panel_inputs(ctl)) == 1)
            assert wait_for(lambda: ctl.devices.get("panel pico-old", {}).get("state") == "error")
        finally:
            link.stop()
    assert panel_inputs(ctl) == [(1, "pass")]
    warnings = [r.getMessage() for r in caplog.records if "bella" in r.getMessage()]
    assert len(warnings) == 1 and "unknown button 'bella'" in warnings[0], warnings
    assert "\n" not in warnings[0] and not any(r.exc_info for r in caplog.records)
    device = ctl.devices["panel pico-old"]
    assert device["seat"] == 1 and "unknown button 'bella'" in device["detail"]
    alerts = [a for a in ctl.public_state()["alerts"] if "bella" in a["message"]]
    assert alerts and alerts[0]["seat"] == 1
