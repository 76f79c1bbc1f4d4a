"""Draw the reference shoe (docs/build/shoe.svg) from the shoe reader's own constants.

    .venv/bin/python docs/build/draw_shoe.py          # writes docs/build/shoe.svg, prints figures

The picture's numbers (frame size, frame rate, card width in pixels, the fastest dealing speed
and its exposure) come from ``synth/shoe.py`` and ``vision/geometry.py``; everything in
millimetres is derived from them here with a card of ``CARD_MM`` and the camera data below, by
``derive``. docs/build/shoe.md shows the same arithmetic; tests/test_build_shoe_drawing.py checks
that the committed SVG is exactly what ``draw()`` makes and that its figures are the code's.

Plain SVG text: no dependency beyond the project's own.
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from synth.shoe import CARD_W, DIFFICULTIES, FPS, FRAME_H, FRAME_W  # noqa: E402
from vision.geometry import CANON_CARD, CANON_SIDE, DEFAULT_GEOMETRY  # noqa: E402

SVG_PATH = Path(__file__).with_name("shoe.svg")

# --- build choices (not in the reader's code) -----------------------------------------------
CARD_MM = (63.0, 88.0)  # a standard (poker-size) card, width x height
RUSSIAN_CARD_MM = (57.0, 89.0)  # many Russian 36-card decks (sizes vary by a millimetre or two)
INDEX_SHARE = 0.2  # the index corner (rank and suit) is about 1/5 of the card's height
INDEX_WIDTH_SHARE = 0.25  # ...and about 1/4 of its width
CORNER_MM = 3.0  # the card's corner radius
MAX_BLUR_PX = 4.0  # motion blur the reference build allows at the fastest deal
EXPOSURE_US = 500  # the exposure set on the reference build ([cameras.shoe] exposure)
WINDOW_MM = (80.0, 80.0)  # the window in the shoe's exit lip: across the travel, along it
LED_OFF_AXIS_MM = 90.0  # each LED strip's distance from the camera axis, across the travel
LED_BELOW_MM = 60.0  # ...and below the card plane (towards the camera)
# What a re-mount of the same shoe may differ by without teaching again (docs/build/shoe.md).
TOLERANCE_SCALE, TOLERANCE_PX, TOLERANCE_DEG = 0.03, 6.0, 1.0


@dataclass(frozen=True)
class Camera:
    """A camera and lens, and the part of its sensor behind a 640x480 (4:3) picture."""

    name: str
    short: str
    focal_mm: float
    pixel_um: float
    used_px: float  # native sensor pixels across the picture's width
    mode: str  # how those pixels come about

    @property
    def used_mm(self) -> float:
        return self.used_px * self.pixel_um / 1000.0

    def distance_mm(self, field_mm: float) -> float:
        """Lens to card plane (thin lens): u = f (1 + 1/m), m = sensor width used / field."""
        return self.focal_mm * (field_mm / self.used_mm + 1.0)


# The GS camera has one mode, 1456x1088; the 4:3 picture uses its full height, 1088 x 4/3 wide.
# Camera Module 3: libcamera picks the sensor mode nearest a 640x480 request, the 1536x864 one
# (2x2 binned from the centre 3072x1728 of the sensor, imx708 driver); 4:3 of it is 1152x864
# binned = 2304 native px across. The 2304x1296 mode (whole sensor, binned) would give 3456.
GS = Camera("Raspberry Pi Global Shutter Camera (Sony IMX296) + 6 mm CS-mount lens", "GS + 6 mm",
            6.0, 3.45, 1088 * 4 / 3, "1456x1088, full height, 4:3 centre")
CM3 = Camera("Camera Module 3 (Sony IMX708), standard lens", "Camera Module 3",
             4.74, 1.4, 2304, "1536x864 mode (2x2 binned, centre 3072x1728), 4:3 centre")
CM3_WIDE = Camera("Camera Module 3 Wide (IMX708)", "CM3 Wide", 2.75, 1.4, 2304, CM3.mode)
CM3_FULL = Camera("Camera Module 3 in its 2304x1296 mode", "CM3 2304x1296", 4.74, 1.4, 3456,
                  "2304x1296 mode (whole sensor, 2x2 binned), 4:3 centre")
CAMERAS = (GS, CM3, CM3_WIDE, CM3_FULL)


@dataclass(frozen=True)
class Figures:
    """The reference shoe's numbers for one card size."""

    card_mm: tuple[float, float]
    mm_per_px: float
    field_mm: tuple[float, float]
    card_h_px: float
    distances: dict[str, float]  # Camera.short -> lens to card, mm
    speed_px_s: float
    speed_mm_s: float
    hard_exposure_ms: float
    hard_blur_px: float
    max_exposure_ms: float
    blur_px: float  # at EXPOSURE_US
    index_px: float
    needed_travel_px: float  # index height + two frames of travel
    in_view_px: float  # travel of the leading edge with the index wholly in view
    glare_mm: float  # where a strip's mirror reflection meets the card plane (GS distance)


def derive(card_mm: tuple[float, float] = CARD_MM) -> Figures:
    width_mm, height_mm = card_mm
    mm_per_px = width_mm / CARD_W  # the card is CARD_W px wide: 62.5% of the frame
    field = (FRAME_W * mm_per_px, FRAME_H * mm_per_px)
    hard = DIFFICULTIES["hard"]
    top = hard.speed[1]  # px/frame
    speed_px_s = top * FPS
    frame_ms = 1000.0 / FPS
    index_px = INDEX_SHARE * height_mm / mm_per_px
    d_gs = GS.distance_mm(field[0])
    return Figures(
        card_mm=card_mm, mm_per_px=mm_per_px, field_mm=field,
        card_h_px=height_mm / mm_per_px,
        distances={c.short: c.distance_mm(field[0]) for c in CAMERAS},
        speed_px_s=speed_px_s, speed_mm_s=speed_px_s * mm_per_px,
        hard_exposure_ms=hard.exposure * frame_ms, hard_blur_px=hard.exposure * top,
        max_exposure_ms=MAX_BLUR_PX / speed_px_s * 1000.0,
        blur_px=speed_px_s * EXPOSURE_US / 1e6,
        index_px=index_px, needed_travel_px=index_px + 2 * top,
        in_view_px=FRAME_H - index_px,
        glare_mm=LED_OFF_AXIS_MM * d_gs / (d_gs + LED_BELOW_MM),
    )


def num(x: float, nd: int = 0) -> str:
    """A figure as printed: ``nd`` decimals, no "-0"."""
    s = f"{x:.{nd}f}"
    return "0" if s.strip("-0.") == "" else s


# --- SVG ----------------------------------------------------------------------------------
FONT = "DejaVu Sans, Arial, sans-serif"
INK, GREY, BLUE, ORANGE, GREEN, LED = "#222", "#8a8a8a", "#2f5597", "#d9731a", "#2e8b3d", "#e0b000"
BACK = "#3d5f9e"  # the cards' backs


class Svg:
    def __init__(self, w: int, h: int) -> None:
        self.w, self.h = w, h
        self.parts: list[str] = []

    def add(self, s: str) -> None:
        self.parts.append(s)

    def line(self, x1: float, y1: float, x2: float, y2: float, stroke: str = INK,
             w: float = 1.5, dash: str | None = None, arrow: str = "") -> None:
        extra = f' stroke-dasharray="{dash}"' if dash else ""
        if "end" in arrow:
            extra += f' marker-end="url(#arrow-{stroke[1:]})"'
        if "start" in arrow:
            extra += f' marker-start="url(#arrow-{stroke[1:]})"'
        self.add(f'<line x1="{num(x1, 1)}" y1="{num(y1, 1)}" x2="{num(x2, 1)}" '
                 f'y2="{num(y2, 1)}" stroke="{stroke}" stroke-width="{num(w, 1)}"{extra}/>')

    def rect(self, x: float, y: float, w: float, h: float, fill: str = "none",
             stroke: str = "none", sw: float = 1.5, dash: str | None = None,
             rx: float = 0, extra: str = "") -> None:
        d = f' stroke-dasharray="{dash}"' if dash else ""
        r = f' rx="{num(rx, 1)}"' if rx else ""
        self.add(f'<rect x="{num(x, 1)}" y="{num(y, 1)}" width="{num(w, 1)}" '
                 f'height="{num(h, 1)}"{r} fill="{fill}" stroke="{stroke}" '
                 f'stroke-width="{num(sw, 1)}"{d}{extra}/>')

    def poly(self, pts: list[tuple[float, float]], fill: str = "none", stroke: str = INK,
             sw: float = 1.5, dash: str | None = None) -> None:
        p = " ".join(f"{num(x, 1)},{num(y, 1)}" for x, y in pts)
        d = f' stroke-dasharray="{dash}"' if dash else ""
        self.add(f'<polyline points="{p}" fill="{fill}" stroke="{stroke}" '
                 f'stroke-width="{num(sw, 1)}"{d}/>')

    def text(self, x: float, y: float, s: str, size: float = 13, anchor: str = "start",
             fill: str = INK, bold: bool = False, ident: str | None = None,
             rotate: float | None = None) -> None:
        attrs = f'x="{num(x, 1)}" y="{num(y, 1)}" font-size="{num(size, 1)}"'
        if anchor != "start":
            attrs += f' text-anchor="{anchor}"'
        if fill != INK:
            attrs += f' fill="{fill}"'
        if bold:
            attrs += ' font-weight="bold"'
        if ident:
            attrs += f' id="{ident}"'
        if rotate is not None:
            attrs += f' transform="rotate({num(rotate)} {num(x, 1)} {num(y, 1)})"'
        self.add(f"<text {attrs}>{escape(s)}</text>")

    def lines(self, x: float, y: float, rows: list[str], size: float = 13, gap: float = 1.3,
              **kw: object) -> None:
        for i, row in enumerate(rows):
            self.text(x, y + i * size * gap, row, size, **kw)  # type: ignore[arg-type]

    def render(self) -> str:
        colours = (INK, ORANGE, GREEN, BLUE, GREY)
        markers = "".join(
            f'<marker id="arrow-{c[1:]}" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" '
            f'markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" '
            f'fill="{c}"/></marker>' for c in colours)
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{self.w}" height="{self.h}" '
                f'viewBox="0 0 {self.w} {self.h}" font-family="{FONT}">\n'
                f"<defs>{markers}"
                f'<clipPath id="frame-clip"><rect x="0" y="0" width="{FRAME_W}" '
                f'height="{FRAME_H}"/></clipPath></defs>\n'
                f'<rect x="0" y="0" width="{self.w}" height="{self.h}" fill="#ffffff"/>\n')
        return head + "\n".join(self.parts) + "\n</svg>\n"


def _dim_h(svg: Svg, x1: float, x2: float, y: float, label: str, size: float = 12.5,
           colour: str = INK, above: bool = True) -> None:
    svg.line(x1, y, x2, y, colour, 1.2, arrow="start end")
    svg.text((x1 + x2) / 2, y - 5 if above else y + size + 3, label, size, "middle", colour)


def _side_view(svg: Svg, f: Figures) -> None:
    """Across the travel: the shoe's exit lip, the window, the camera below it."""
    k, ox, oy = 2.0, 60.0, 228.0  # px per mm; where x = 0 (shoe's back) and the card plane lie

    def p(x: float, y: float) -> tuple[float, float]:
        return ox + k * x, oy + k * y

    d = f.distances[GS.short]
    axis = 170.0  # camera axis, mm from the shoe's back
    win0, win1 = axis - WINDOW_MM[1] / 2, axis + WINDOW_MM[1] / 2
    half = f.field_mm[1] / 2
    svg.text(30, 78, "Side view (across the travel; not to scale in card thickness)", 17,
             bold=True)
    # enclosure under the window
    x, y = p(100, 4)
    svg.rect(x, y, k * 140, k * 168, fill="#f4f4f4", stroke=GREY, sw=1, dash="4 3")
    svg.text(*p(100, 180), "light-tight box, matte black inside", 12, fill="#555")
    # floor = card plane, with the window pane
    for a, b in ((0, win0), (win1, 250)):
        svg.rect(*p(a, 0), k * (b - a), k * 4, fill="#9a9a9a", stroke=INK, sw=1)
    svg.rect(*p(win0, 0), k * (win1 - win0), k * 2.5, fill="#bfe3f5", stroke=BLUE, sw=1)
    svg.rect(*p(-4, -60), k * 4, k * 64, fill="#9a9a9a", stroke=INK, sw=1)  # back wall
    svg.rect(*p(103, -60), k * 4, k * 57, fill="#9a9a9a", stroke=INK, sw=1)  # front plate
    svg.rect(*p(122, -34), k * 110, k * 4, fill="#333333", stroke=INK, sw=1)  # hood
    svg.text(*p(150, -38), "dark matte hood over the window", 12)
    # the deck and the card being dealt, face down
    for i in range(8):
        svg.rect(*p(8, -3 * (i + 1)), k * 92, k * 2.4, fill=BACK, stroke="#ffffff", sw=0.6)
    svg.text(*p(14, -29), "deck, face down", 12.5)
    svg.rect(*p(185 - CARD_MM[1], -1.4), k * CARD_MM[1], k * 1.4, fill=BACK, stroke=INK, sw=0.8)
    svg.line(*p(186, -9), *p(232, -9), ORANGE, 2.5, arrow="end")
    svg.text(*p(186, -14), "travel = the picture's down", 12.5, fill=ORANGE)
    svg.line(*p(111, -46), *p(107.5, -2.5), GREY, 1)
    svg.text(*p(109, -49), "exit slot", 12.5)
    svg.line(*p(60, 11), *p(130, -0.7), GREY, 1)
    svg.lines(*p(0, 16), [f"card being dealt ({num(CARD_MM[0])} × {num(CARD_MM[1])} mm),",
                          "face down: the camera sees its face"], 12.5)
    svg.text(*p(212, 9), "card plane (top of floor and pane)", 12, fill="#555")
    # camera axis, field of view, window
    svg.line(*p(axis, 18), *p(axis, d + 40), GREY, 1, dash="10 4 2 4")
    svg.text(*p(axis + 3, 27), "A–A", 12, fill="#555")
    lx, ly = p(axis, d)
    svg.line(lx, ly, *p(axis - half, 0), BLUE, 1.3)
    svg.line(lx, ly, *p(axis + half, 0), BLUE, 1.3)
    _dim_h(svg, *(p(win0, 0)[0], p(win1, 0)[0]), p(0, 13)[1],
           f"window {num(WINDOW_MM[1])} mm", 12)
    svg.lines(*p(211, 21), ["field along the travel:",
                            f"{num(f.field_mm[1], 1)} mm = {FRAME_H} px"], 12.5, fill=BLUE)
    # LED strips (in front of and behind this view)
    svg.rect(*p(win0, LED_BELOW_MM - 2.5), k * WINDOW_MM[1], k * 5, fill="#fff4c2",
             stroke=LED, sw=1.5, dash="5 3")
    svg.lines(*p(214, LED_BELOW_MM - 4), [
        "LED strips ×2, diffused: one each side,",
        f"{num(LED_OFF_AXIS_MM)} mm off the axis, {num(LED_BELOW_MM)} mm below",
        "the window (in front of and behind this view)"], 12)
    # camera
    svg.rect(*p(axis - 15, d - 17), k * 30, k * 34, fill="#555555", stroke=INK, sw=1)
    svg.rect(*p(axis - 19, d + 17), k * 38, k * 20, fill="#2e7d32", stroke=INK, sw=1)
    svg.lines(*p(194, d - 6), ["Global Shutter Camera (IMX296)",
                               "with a 6 mm CS-mount lens,", "frame's long side across"], 12.5)
    # the distance
    x1 = p(110, 0)[0]
    svg.line(x1, oy, x1, ly, INK, 1.2, arrow="start end")
    svg.line(x1 - 6, ly, lx - 30, ly, GREY, 0.8, dash="3 3")
    svg.lines(x1 - 8, oy + k * 52, [
        f"{num(d)} mm: GS + 6 mm lens",
        f"{num(f.distances[CM3.short])} mm: Camera Module 3",
        "(lens to card plane,",
        f"{num(CARD_MM[0])} mm cards; figures in shoe.md)"], 12.5, anchor="end")


def _section(svg: Svg, f: Figures) -> None:
    """Along the travel: the field across, the LED strips and where their reflections fall."""
    k, cx, oy = 2.0, 380.0, 684.0

    def p(x: float, y: float) -> tuple[float, float]:
        return cx + k * x, oy + k * y

    d = f.distances[GS.short]
    half = f.field_mm[0] / 2
    svg.text(30, 612, "Section A–A (looking along the travel)", 17, bold=True)
    for a, b in ((-112, -WINDOW_MM[0] / 2), (WINDOW_MM[0] / 2, 112)):
        svg.rect(*p(a, 0), k * (b - a), k * 4, fill="#9a9a9a", stroke=INK, sw=1)
    svg.rect(*p(-WINDOW_MM[0] / 2, 0), k * WINDOW_MM[0], k * 2.5, fill="#bfe3f5", stroke=BLUE,
             sw=1)
    svg.rect(*p(-CARD_MM[0] / 2, -1.4), k * CARD_MM[0], k * 1.4, fill=BACK, stroke=INK, sw=0.8)
    svg.text(*p(0, -6), f"card {num(CARD_MM[0])} mm = {CARD_W} px", 12.5, "middle")
    _dim_h(svg, p(-half, 0)[0], p(half, 0)[0], p(0, -22)[1],
           f"field across the travel: {num(f.field_mm[0], 1)} mm = {FRAME_W} px", 12.5, BLUE)
    svg.text(*p(0, 15), f"window {num(WINDOW_MM[0])} mm", 12, "middle")
    svg.line(*p(0, 22), *p(0, d + 40), GREY, 1, dash="10 4 2 4")
    lx, ly = p(0, d)
    for s in (-1, 1):
        svg.line(lx, ly, *p(s * half, 0), BLUE, 1.3)
        sx, sy = p(s * LED_OFF_AXIS_MM, LED_BELOW_MM)
        svg.rect(sx - 8, sy - 4, 16, 8, fill="#fff4c2", stroke=LED, sw=1.5)
        gx, gy = p(s * f.glare_mm, 0)
        svg.poly([(sx, sy), (gx, gy + 5), (lx, ly)], stroke=ORANGE, sw=1.2, dash="6 4")
        svg.line(*p(s * f.glare_mm, -3), *p(s * f.glare_mm, 7), ORANGE, 2)
    for s in (-1, 1):
        svg.text(*p(s * LED_OFF_AXIS_MM, LED_BELOW_MM + 11), "LED strip", 12, "middle")
    svg.lines(*p(-98, 18), ["a strip's reflection", f"lands {num(f.glare_mm)} mm off axis:",
                            "outside the field", f"(half-field {num(half, 1)} mm)"],
              12, anchor="end", fill=ORANGE)
    svg.rect(*p(-15, d - 17), k * 30, k * 34, fill="#555555", stroke=INK, sw=1)
    svg.rect(*p(-19, d + 17), k * 38, k * 20, fill="#2e7d32", stroke=INK, sw=1)
    xd = p(112, 0)[0]
    svg.line(xd, oy, xd, ly, INK, 1.2, arrow="start end")
    svg.text(xd + 6, oy + k * d / 2, f"{num(d)} mm", 12.5)


def _camera_view(svg: Svg, f: Figures) -> None:
    """The 640x480 picture, 1 drawn px per picture px."""
    fx, fy = 800.0, 118.0
    top = DIFFICULTIES["hard"].speed[1]
    svg.text(fx, 62, "Camera view: the whole frame, drawn 1:1", 17, bold=True)
    svg.text(fx, 84, f"1 px = {num(f.mm_per_px, 4)} mm at the card plane ({num(CARD_MM[0])} mm "
                     f"card)", 13)
    svg.text(fx + FRAME_W / 2, fy - 8, f"{FRAME_W} px", 13, "middle", ident="frame-width")
    svg.text(fx - 8, fy + FRAME_H / 2, f"{FRAME_H} px", 13, "middle", ident="frame-height",
             rotate=-90)
    svg.add(f'<g transform="translate({num(fx)} {num(fy)})">')
    svg.rect(0, 0, FRAME_W, FRAME_H, fill="#1d1f24")
    svg.add('<g clip-path="url(#frame-clip)">')
    win = WINDOW_MM[0] / f.mm_per_px
    for x in (FRAME_W / 2 - win / 2, FRAME_W / 2 + win / 2):
        svg.line(x, 0, x, FRAME_H, "#8fb7d9", 1.5, dash="8 5")
    side = CANON_SIDE  # the card's index side (reference geometry)
    left = side - CARD_W
    lead = 300.0  # the card's leading (bottom) edge in this frame
    radius = CORNER_MM / f.mm_per_px
    svg.rect(left, lead - f.card_h_px, CARD_W, f.card_h_px, fill="#f6f3ea", stroke="#111",
             sw=2, rx=radius)
    ih, iw = f.index_px, INDEX_WIDTH_SHARE * CARD_W
    svg.rect(side - iw - 4, lead - ih - 4, iw, ih, fill="#d8f0d8", stroke=GREEN, sw=2.5)
    ix, iy = side - iw / 2 - 4, lead - ih / 2 - 4
    svg.add(f'<text x="{num(ix, 1)}" y="{num(iy, 1)}" font-size="34" text-anchor="middle" '
            f'dominant-baseline="central" fill="#b22222" transform="rotate(180 {num(ix, 1)} '
            f'{num(iy, 1)})">A♥</text>')
    for k, label in ((-1, "−1 frame"), (1, "+1 frame")):
        y = lead + k * top
        svg.line(left, y, side, y, ORANGE, 1.5, dash="7 5")
        svg.text(left + 6, y - 5, f"leading edge, {label}", 12,
                 fill=ORANGE if k > 0 else "#b35c0f")
    svg.add("</g>")
    svg.rect(0, 0, FRAME_W, FRAME_H, stroke=INK, sw=2)
    # the card's width and the travel
    svg.line(left, 36, side, 36, INK, 1.3, arrow="start end")
    svg.text(FRAME_W / 2, 28, f"card {CARD_W} px = {num(CARD_MM[0])} mm wide "
                              f"({num(100 * CARD_W / FRAME_W, 1)}% of {FRAME_W} px)", 13,
             "middle", ident="card-width")
    svg.line(FRAME_W / 2, 80, FRAME_W / 2, 230, ORANGE, 5, arrow="end")
    svg.lines(FRAME_W / 2 + 12, 152, [f"travel: {DEFAULT_GEOMETRY.direction}",
                                     f"up to {num(top)} px/frame (‘hard’)"], 13, fill="#a4520c")
    svg.text(side, lead + 18, "▲ index corner (green): the first one wholly in view", 12.5,
             "end", fill="#9fe0a8")
    svg.text(side, FRAME_H - 14, f"index side x = {num(side)} px", 12, "end", fill="#cccccc")
    # where the index is wholly in view
    bx = FRAME_W - 16
    svg.line(bx, ih, bx, FRAME_H, "#2e8b3d", 2, arrow="start end")
    svg.text(bx - 8, (ih + FRAME_H) / 2, f"leading edge {num(ih)} → {FRAME_H} px", 12, "middle",
             fill="#9fe0a8", rotate=-90)
    svg.lines(78, lead + 46, [
        f"index wholly in view while the leading edge goes from {num(ih)} to {FRAME_H} px:",
        f"{num(f.in_view_px)} px ≥ 2 × {num(top)} px, so at least 2 frames at full speed",
        f"(needs {num(f.needed_travel_px)} px of the {FRAME_H}: the window spans the field)"],
        12, fill="#e8e8e8")
    svg.add("</g>")
    svg.text(fx + FRAME_W / 2, fy + FRAME_H + 20,
             f"dashed blue: the window's sides ({num(WINDOW_MM[0])} mm = {num(win)} px); "
             "its ends lie outside the picture", 12, "middle", fill="#3d6f99")


def _figures(svg: Svg, f: Figures, r: Figures) -> None:
    x, y = 800.0, 668.0
    hard = DIFFICULTIES["hard"]
    top = hard.speed[1]
    svg.text(x, y, "Figures (63 × 88 mm card; 57 × 89 mm Russian deck in brackets)", 15,
             bold=True)
    rows = [
        (f"frame {FRAME_W} × {FRAME_H} px at {num(FPS)} fps; card {CARD_W} px wide", "frame"),
        (f"{num(f.mm_per_px, 4)} mm/px ({num(r.mm_per_px, 4)}); field "
         f"{num(f.field_mm[0], 1)} × {num(f.field_mm[1], 1)} mm "
         f"({num(r.field_mm[0], 1)} × {num(r.field_mm[1], 1)})", None),
        (f"lens to card: GS + 6 mm {num(f.distances[GS.short])} mm "
         f"({num(r.distances[GS.short])}); Camera Module 3 "
         f"{num(f.distances[CM3.short])} mm ({num(r.distances[CM3.short])})", None),
        (f"fastest deal {num(top)} px/frame = {num(f.speed_px_s)} px/s = "
         f"{num(f.speed_mm_s)} mm/s ({num(r.speed_mm_s)})", "speed"),
        (f"blur ≤ {num(MAX_BLUR_PX)} px: exposure ≤ {num(f.max_exposure_ms, 2)} ms; set "
         f"{EXPOSURE_US} µs = {num(f.blur_px, 1)} px", None),
        (f"(the hard footage: {num(100 * hard.exposure)}% of a frame = "
         f"{num(f.hard_exposure_ms, 1)} ms, {num(f.hard_blur_px, 1)} px of blur)", None),
        (f"index corner ≈ {num(f.index_px)} px ({num(r.index_px)}); in view for ≥ 2 frames "
         f"needs {num(f.needed_travel_px)} px ({num(r.needed_travel_px)}) of {FRAME_H}", None),
        (f"re-mount: ±{num(100 * TOLERANCE_SCALE)}% scale, ±{num(TOLERANCE_PX)} px "
         f"(±{num(TOLERANCE_PX * f.mm_per_px, 1)} mm), ±{num(TOLERANCE_DEG)}°", None),
    ]
    for i, (row, ident) in enumerate(rows):
        svg.text(x, y + 26 + 21 * i, row, 12.5, ident=ident)


def draw() -> str:
    """The reference shoe's drawing, as SVG text."""
    if CARD_W != CANON_CARD:
        raise RuntimeError(f"footage CARD_W {CARD_W} != geometry CANON_CARD {CANON_CARD}")
    f, r = derive(CARD_MM), derive(RUSSIAN_CARD_MM)
    svg = Svg(1480, 1050)
    svg.text(30, 32, "The reference shoe — generated by docs/build/draw_shoe.py from "
                     "synth/shoe.py and vision/geometry.py", 19, bold=True)
    _side_view(svg, f)
    _section(svg, f)
    _camera_view(svg, f)
    _figures(svg, f, r)
    return svg.render()


def report() -> list[str]:
    """The derived figures, a line each (printed by ``main``)."""
    out = []
    for card in (CARD_MM, RUSSIAN_CARD_MM):
        f = derive(card)
        out.append(f"card {num(card[0])} x {num(card[1])} mm: {num(f.mm_per_px, 4)} mm/px, "
                   f"field {num(f.field_mm[0], 1)} x {num(f.field_mm[1], 1)} mm, card "
                   f"{num(f.card_h_px)} px long, index {num(f.index_px)} px, speed "
                   f"{num(f.speed_mm_s)} mm/s, glare at {num(f.glare_mm, 1)} mm")
        for c in CAMERAS:
            d = f.distances[c.short]
            out.append(f"  {c.name}, {c.mode}: sensor width used {num(c.used_px)} px = "
                       f"{num(c.used_mm, 3)} mm, field/sensor {num(f.field_mm[0] / c.used_mm, 2)},"
                       f" lens to card {num(d, 1)} mm (scale ±{num(100 * TOLERANCE_SCALE)}% = "
                       f"±{num(TOLERANCE_SCALE * (d - c.focal_mm), 1)} mm), horizontal field "
                       f"{num(math.degrees(2 * math.atan(c.used_mm / 2 / c.focal_mm)), 1)}°")
    return out


def main() -> None:
    SVG_PATH.write_text(draw(), encoding="utf-8")
    print(f"wrote {SVG_PATH}")
    print("\n".join(report()))


if __name__ == "__main__":
    main()
