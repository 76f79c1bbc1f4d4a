"""The reference shoe's drawing (docs/build/shoe.svg) is what docs/build/draw_shoe.py draws from
the reader's constants, and its figures (and docs/build/shoe.md's) are those constants'."""

from __future__ import annotations

import importlib.util
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from types import ModuleType

import pytest

from synth.shoe import CARD_W, DIFFICULTIES, FPS, FRAME_H, FRAME_W
from vision.geometry import CANON_CARD

BUILD = Path(__file__).resolve().parents[1] / "docs" / "build"


@pytest.fixture(scope="module")
def drawing() -> ModuleType:
    name = "docs_build_draw_shoe"  # not a package: loaded from its path
    spec = importlib.util.spec_from_file_location(name, BUILD / "draw_shoe.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    """The committed SVG's labelled texts, by id."""
    root = ET.parse(BUILD / "shoe.svg").getroot()
    return {el.get("id", ""): "".join(el.itertext()) for el in root.iter() if el.get("id")}


def test_the_committed_svg_is_what_the_script_draws(drawing: ModuleType) -> None:
    committed = (BUILD / "shoe.svg").read_text(encoding="utf-8")
    assert drawing.draw() == committed, (
        "docs/build/shoe.svg is stale: run .venv/bin/python docs/build/draw_shoe.py")


def test_the_svg_prints_the_readers_frame_card_and_speed(texts: dict[str, str]) -> None:
    assert texts["frame-width"] == f"{FRAME_W} px"
    assert texts["frame-height"] == f"{FRAME_H} px"
    frame = re.fullmatch(r"frame (\d+) × (\d+) px at (\d+) fps; card (\d+) px wide",
                         texts["frame"])
    assert frame, texts["frame"]
    assert [int(v) for v in frame.groups()] == [FRAME_W, FRAME_H, FPS, CARD_W]
    card = re.fullmatch(r"card (\d+) px = \d+ mm wide \(([\d.]+)% of (\d+) px\)",
                        texts["card-width"])
    assert card, texts["card-width"]
    assert int(card[1]) == CARD_W == CANON_CARD and int(card[3]) == FRAME_W
    assert float(card[2]) == pytest.approx(100 * CARD_W / FRAME_W, abs=0.05)
    speed = re.match(r"fastest deal (\d+) px/frame = (\d+) px/s", texts["speed"])
    assert speed, texts["speed"]
    top = DIFFICULTIES["hard"].speed[1]
    assert int(speed[1]) == top and int(speed[2]) == top * FPS


def test_the_build_doc_quotes_the_derived_figures(drawing: ModuleType) -> None:
    doc = (BUILD / "shoe.md").read_text(encoding="utf-8")
    assert "](shoe.svg)" in doc
    num = drawing.num
    for card in (drawing.CARD_MM, drawing.RUSSIAN_CARD_MM):
        f = drawing.derive(card)
        figures = [f"{num(f.mm_per_px, 4)} mm/px",
                   f"{num(f.field_mm[0], 1)} × {num(f.field_mm[1], 1)} mm",
                   f"{num(f.speed_mm_s)} mm/s", f"{num(f.needed_travel_px)} px"]
        figures += [f"{num(f.distances[c.short])} mm" for c in drawing.CAMERAS]
        missing = [s for s in figures if s not in doc]
        assert not missing, f"docs/build/shoe.md lacks {missing} for a {card} card"
    f = drawing.derive()
    assert f"{num(f.max_exposure_ms, 2)} ms" in doc and f"{drawing.EXPOSURE_US} µs" in doc
