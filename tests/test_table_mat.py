"""`cardtable table mat`: the printable mat and the A4 marker page. Rendered by a real SVG
renderer (librsvg's rsvg-convert), seen flat and through a tilted camera on a cloth, the mat
calibrates to the play area it was drawn for; its seat labels lie in the zones the reader gives
those seats; the marker page's four markers are found; bad sizes are refused."""

from __future__ import annotations

import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import cv2
import numpy as np
import pytest

from cardtable.cli import main
from vision.table.calibrate import calibrate_image, detect_markers, seat_of

RSVG = shutil.which("rsvg-convert")
pytestmark = pytest.mark.skipif(RSVG is None, reason="rsvg-convert is absent (librsvg2-bin)")


def render(svg: Path, width: int) -> np.ndarray:
    png = svg.with_suffix(".png")
    subprocess.run([RSVG, "-w", str(width), "-b", "white", str(svg), "-o", str(png)], check=True)
    image = cv2.imread(str(png))
    assert image is not None
    return image


def tilted(image: np.ndarray) -> np.ndarray:
    """The mat on a green cloth as a 1280x720 camera a little off vertical sees it."""
    h, w = image.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[300, 40], [990, 70], [1040, 690], [250, 660]])
    cloth = np.full((720, 1280, 3), (40, 110, 30), np.uint8)
    warped = cv2.warpPerspective(image, cv2.getPerspectiveTransform(src, dst), (1280, 720))
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8),
                               cv2.getPerspectiveTransform(src, dst), (1280, 720))
    return np.where(mask[:, :, None] > 0, warped, cloth)


@pytest.mark.parametrize(("size", "marker", "seats"), [(40, 4.4, 2), (60, 4.4, 4), (100, 6, 4)])
def test_the_mat_calibrates_to_the_area_it_was_drawn_for(tmp_path, capsys, size, marker, seats):
    out = tmp_path / "mat.svg"
    assert main(["table", "mat", str(out), "--size", str(size), "--marker-cm", str(marker),
                 "--seats", str(seats)]) == 0
    assert "Print it at 100 %" in capsys.readouterr().out
    root = ET.parse(out).getroot()
    # real size: millimetre units, the viewBox as wide as the sheet
    width_mm = float(root.get("width", "").removesuffix("mm"))
    assert width_mm == pytest.approx(float(root.get("viewBox", "").split()[2]))
    assert width_mm > size * 10 + marker * 10
    flat = render(out, 1400)
    cal = calibrate_image(flat, marker * 10)
    assert cal.area_mm == pytest.approx(size * 10, rel=0.01)
    cal = calibrate_image(tilted(flat), marker * 10)
    assert cal.area_mm == pytest.approx(size * 10, rel=0.02)

    # every seat's label lies in the zone the reader gives that seat
    ns = {"s": "http://www.w3.org/2000/svg"}
    area = root.find(".//s:rect[@id='area']", ns)
    assert area is not None
    x0, y0, side = (float(area.get(k, "")) for k in ("x", "y", "width"))
    labels = root.findall(".//s:text", ns)
    seen = {}
    for t in labels:
        if re.fullmatch(r"seat-\d", t.get("id", "")):
            u = (float(t.get("x", "")) - x0) / side
            v = (float(t.get("y", "")) - y0) / side
            seen[int(t.get("id", "")[-1])] = (seat_of(u, v, seats), "".join(t.itertext()))
    assert seen == {s: (s, f"место {s + 1}") for s in range(seats)}


def test_the_a4_page_of_markers_is_found(tmp_path):
    out = tmp_path / "markers.svg"
    assert main(["table", "mat", str(out), "--markers-only"]) == 0
    root = ET.parse(out).getroot()
    assert root.get("width") == "210.00mm" and root.get("height") == "297.00mm"
    assert sorted(detect_markers(render(out, 1200))) == [0, 1, 2, 3]


@pytest.mark.parametrize(("argv", "words"), [
    (["--size", "10"], "a play area of 10 cm"),
    (["--size", "40", "--marker-cm", "15"], "a quarter of the play area"),
    ([], "--size: the play area's side"),
    (["--size", "50", "--markers-only"], "--markers-only is one A4 page"),
])
def test_sizes_the_camera_cannot_use_are_refused(tmp_path, capsys, argv, words):
    out = tmp_path / "mat.svg"
    assert main(["table", "mat", str(out), *argv]) == 2
    assert words in capsys.readouterr().err and not out.exists()
