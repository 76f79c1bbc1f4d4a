"""The printable mat: the play area with its four ArUco markers, drawn to scale as SVG.

Why it exists: the overhead camera finds the play area from four DICT_4X4_50 markers, 0 to 3,
centred on the area's corners (0 bottom-left, 1 top-left, 2 top-right, 3 bottom-right, seen
from above with seat 1 at the bottom), and measures everything from their printed size. Drawn
by the project, the markers are the right ones, in the right corners, at the size the reader is
told (``--marker-cm``), with the quiet zone round each that the detector needs; the seat zones
the reader uses are drawn too, so players see where their cards go.

``mat_svg(area_mm)`` is the whole mat at real size (millimetre units: printed at 100 %, one
unit is one millimetre), for a print shop or a plotter; ``markers_svg()`` is one A4 page with
the four markers alone, to cut out and lay on the table's corners when the mat is larger than a
home printer's paper. Both carry a 10 cm scale bar to check the print's scale.
"""

from __future__ import annotations

from xml.sax.saxutils import escape

import cv2
import numpy as np

from vision.table.calibrate import AREA_RANGE_MM, MARKER_IDS, MARKER_MM

CELLS = 6  # a DICT_4X4_50 marker: 4x4 data cells inside a one-cell black border
A4 = (210.0, 297.0)
_RU_CORNER = {0: "внизу слева", 1: "вверху слева", 2: "вверху справа", 3: "внизу справа"}


def _bits(marker_id: int) -> np.ndarray:
    """The marker's cells, 1 for black, ``CELLS`` x ``CELLS`` with the border."""
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    return (cv2.aruco.generateImageMarker(dictionary, marker_id, CELLS) < 128).astype(np.uint8)


def _marker(marker_id: int, cx: float, cy: float, side: float) -> str:
    """One marker centred on (cx, cy), ``side`` mm including its black border."""
    cell = side / CELLS
    x0, y0 = cx - side / 2, cy - side / 2
    rects = [f'<rect x="{x0 + c * cell:.3f}" y="{y0 + r * cell:.3f}" width="{cell:.3f}" '
             f'height="{cell:.3f}"/>'
             for r, c in zip(*np.nonzero(_bits(marker_id)), strict=True)]
    # the cells overlap by nothing: crispEdges keeps printers from leaving hairlines between them
    return (f'<g id="marker-{marker_id}" fill="#000" shape-rendering="crispEdges">'
            + "".join(rects) + "</g>")


def _text(x: float, y: float, text: str, size: float, rotate: float = 0.0,
          anchor: str = "middle", ident: str = "") -> str:
    rot = f' transform="rotate({rotate:g} {x:.2f} {y:.2f})"' if rotate else ""
    idattr = f' id="{ident}"' if ident else ""
    return (f'<text{idattr} x="{x:.2f}" y="{y:.2f}" font-size="{size:g}" text-anchor="{anchor}" '
            f'font-family="DejaVu Sans, Arial, sans-serif" fill="#333"{rot}>{escape(text)}</text>')


def _ru(value: float) -> str:
    """A number as a Russian reader writes it (4,4)."""
    return f"{value:g}".replace(".", ",")


def _scale_bar(x: float, y: float) -> str:
    ticks = "".join(f'<line x1="{x + 10 * i:.1f}" y1="{y - 2}" x2="{x + 10 * i:.1f}" y2="{y + 2}" '
                    f'stroke="#000" stroke-width="0.3"/>' for i in range(11))
    return (f'<g id="scale"><line x1="{x}" y1="{y}" x2="{x + 100}" y2="{y}" stroke="#000" '
            f'stroke-width="0.5"/>{ticks}'
            + _text(x + 50, y + 7, "10 см: проверьте, что напечатано в масштабе 100 %", 3.5)
            + "</g>")


def check_sizes(area_mm: float, marker_mm: float) -> None:
    """ValueError unless the camera can calibrate from such a mat."""
    lo, hi = AREA_RANGE_MM
    if not lo <= area_mm <= hi:
        raise ValueError(f"a play area of {area_mm / 10:g} cm: the camera calibrates "
                         f"{lo / 10:g}-{hi / 10:g} cm between the markers' centres")
    if not 20 <= marker_mm <= area_mm / 4:
        raise ValueError(f"markers {marker_mm / 10:g} cm wide: from 2 cm to a quarter of the "
                         f"play area ({area_mm / 40:g} cm)")


def mat_svg(area_mm: float, marker_mm: float = MARKER_MM, seats: int = 4) -> str:
    """The mat for a play area ``area_mm`` between the markers' centres, at real size."""
    check_sizes(area_mm, marker_mm)
    if seats not in (2, 4):
        raise ValueError("a table has 2 or 4 seats")
    quiet = marker_mm / CELLS * 1.5  # white round each marker, wider than the detector needs
    edge = marker_mm / 2 + quiet + 8  # from a marker's centre to the sheet's edge
    bottom = 16.0  # room under the area for the scale bar and the title
    w, h = area_mm + 2 * edge, area_mm + 2 * edge + bottom
    x0, y0 = edge, edge  # the area's top-left corner (marker 1's centre)
    x1, y1 = x0 + area_mm, y0 + area_mm
    centres = {0: (x0, y1), 1: (x0, y0), 2: (x1, y0), 3: (x1, y1)}
    parts = [f'<rect width="{w:.2f}" height="{h:.2f}" fill="#fff"/>',
             f'<rect id="area" x="{x0:.2f}" y="{y0:.2f}" width="{area_mm:.2f}" '
             f'height="{area_mm:.2f}" fill="none" stroke="#bbb" stroke-width="0.6" '
             f'stroke-dasharray="4 3"/>']
    # the seat zones as the reader draws them (vision.table.calibrate.seat_of)
    zone = 'stroke="#ccc" stroke-width="0.5" stroke-dasharray="2 3"'
    if seats == 4:
        parts.append(f'<line x1="{x0:.2f}" y1="{y0:.2f}" x2="{x1:.2f}" y2="{y1:.2f}" {zone}/>')
        parts.append(f'<line x1="{x1:.2f}" y1="{y0:.2f}" x2="{x0:.2f}" y2="{y1:.2f}" {zone}/>')
    else:
        mid = (y0 + y1) / 2
        parts.append(f'<line x1="{x0:.2f}" y1="{mid:.2f}" x2="{x1:.2f}" y2="{mid:.2f}" {zone}/>')
    size = max(5.0, area_mm / 45)
    inset = area_mm / 7
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    # each seat's label faces its player: seat 1 at the bottom, then left, top, right
    labels = ([(cx, y1 - inset, 0), (x0 + inset, cy, 90), (cx, y0 + inset, 180),
               (x1 - inset, cy, 270)] if seats == 4 else [(cx, y1 - inset, 0), (cx, y0 + inset, 180)])
    for seat, (lx, ly, rot) in enumerate(labels):
        parts.append(_text(lx, ly, f"место {seat + 1}", size, rot, ident=f"seat-{seat}"))
    for marker_id in MARKER_IDS:
        mx, my = centres[marker_id]
        parts.append(_marker(marker_id, mx, my, marker_mm))
    parts.append(_scale_bar(x0, h - bottom + 2))
    parts.append(_text(x1, h - 4, f"cardtable: поле {_ru(area_mm / 10)} см между центрами меток, "
                       f"метки {_ru(marker_mm / 10)} см (--marker-cm {marker_mm / 10:g})", 3.5,
                       anchor="end", ident="title"))
    return _svg(w, h, parts)


def markers_svg(marker_mm: float = MARKER_MM) -> str:
    """One A4 page with the four markers, each labelled with its corner, to cut out."""
    if not 20 <= marker_mm <= 90:
        raise ValueError(f"markers {marker_mm / 10:g} cm wide: four fit an A4 page from 2 to 9 cm")
    w, h = A4
    parts = [f'<rect width="{w}" height="{h}" fill="#fff"/>',
             _text(w / 2, 18, "Метки стола cardtable: вырежьте по пунктиру", 6, ident="title"),
             _text(w / 2, 26, f"Центр каждой метки — угол игрового поля; сторона метки "
                   f"{_ru(marker_mm / 10)} см (--marker-cm {marker_mm / 10:g})", 3.6)]
    for k, marker_id in enumerate(MARKER_IDS):
        mx = w / 4 if k % 2 == 0 else 3 * w / 4
        my = 90 if k < 2 else 200
        cut = marker_mm / 2 + marker_mm / CELLS * 1.5
        parts.append(f'<rect x="{mx - cut:.2f}" y="{my - cut:.2f}" width="{2 * cut:.2f}" '
                     f'height="{2 * cut:.2f}" fill="none" stroke="#999" stroke-width="0.3" '
                     f'stroke-dasharray="2 2"/>')
        parts.append(_marker(marker_id, mx, my, marker_mm))
        parts.append(_text(mx, my + cut + 7, f"{marker_id}: {_RU_CORNER[marker_id]}", 4.5,
                           ident=f"label-{marker_id}"))
    parts.append(_scale_bar((w - 100) / 2, h - 20))
    return _svg(w, h, parts)


def _svg(w: float, h: float, parts: list[str]) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:.2f}mm" height="{h:.2f}mm" '
            f'viewBox="0 0 {w:.2f} {h:.2f}">\n' + "\n".join(parts) + "\n</svg>\n")
