"""Synthetic overhead table footage with ground truth, made from real deck artwork.

The scene is drawn top-down on the table plane (millimetres, origin at the play area's centre, x
to the right, y towards seat 0) and then projected through a pinhole camera that is slightly off
vertical (pitch, roll, yaw of a few degrees), so the clip shows real perspective. The play area
is a square with an ArUco marker (DICT_4X4_50) centred on each corner: 0 bottom-left, 1 top-left,
2 top-right, 3 bottom-right, as seen from above with seat 0 at the bottom.

Players reach in from their edge of the table with a hand and arm (skin and sleeve colours vary),
carry a card in, put it down at any angle, sometimes leave the hand resting on it, and pull the
arm back. A trick is gathered by one hand that sweeps the cards off the table. Durak bouts lay
attack cards and cover each with a defending card laid overlapping it. The camera adds uneven
lighting, the arm's soft shadow, sensor noise, JPEG loss and finally MPEG-4 loss.

Ground truth (``<clip>.truth.json``): every card placement with its seat and the first frame at
which it lay at rest with no hand over it, every removal with the cards taken, the image position
of the play area's corners, and the face-down cards and objects slipped in.
"""

from __future__ import annotations

import json
import math
import random
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, cast

import cv2
import numpy as np

from vision.artwork import BACK, card_images

FRAME_W, FRAME_H = 1280, 720
FPS = 30.0
AREA_MM = 500.0  # side of the square play area, marker centre to marker centre
MARKER_MM = 44.0
CARD_MM = 60.0  # card width on the table
PX_MM = 1.3  # resolution the plane is drawn at (the camera sees about 1.15 px/mm)
FOCAL = 1130.0
HEIGHT_MM = 1000.0
ART_W = 200  # card artwork width used for drawing
FACE_DOWN = "face_down"
OBJECT = "object"

TABLES = ("green_felt", "blue_felt", "wood")
# Table surfaces the bundled clips never use: set-ups built differently (light, dark, red and
# woven cloth), for measuring the reader on scenes it was not tuned on.
MORE_TABLES = ("red_felt", "grey_cloth", "beige_linen", "dark_wood")


@dataclass(frozen=True)
class TableSetup:
    """How the table and its overhead camera are built. The default is the project's own set-up
    (every bundled clip); others draw set-ups built differently: another frame size, markers
    closer or further apart, the camera higher or lower (so a card is 50-130 px wide), another
    cloth, the table's rim in view, dimmer or warmer light."""

    width: int = FRAME_W
    height: int = FRAME_H
    area_mm: float = AREA_MM  # marker centre to marker centre
    marker_mm: float = MARKER_MM  # printed side of each marker
    card_mm: float = CARD_MM  # card width
    camera_mm: float = HEIGHT_MM  # camera height above the table
    focal: float = FOCAL  # px
    rim_mm: float = 0.0  # > 0: the table ends this far beyond the play area in a wooden rim
    light: float = 1.0  # overall brightness
    warm: float = 0.0  # 0 neutral .. 1 a warm (tungsten) cast
    clutter: bool = False  # a face-down deck, a coin, a ring and a pencil lie on the table

    @classmethod
    def sized(cls, width: int, height: int, area_mm: float, card_px: float, card_mm: float = 60.0,
              **kw: Any) -> TableSetup:
        """A set-up whose camera sees a ``card_mm`` card ``card_px`` wide (same lens angle as
        the default camera)."""
        focal = FOCAL * width / FRAME_W
        return cls(width=width, height=height, area_mm=area_mm, card_mm=card_mm,
                   camera_mm=focal * card_mm / card_px, focal=focal, **kw)

    @property
    def scale(self) -> float:
        """The play area's size against the default one's (placements and arms scale with it)."""
        return self.area_mm / AREA_MM


DEFAULT_SETUP = TableSetup()


@dataclass(frozen=True)
class Difficulty:
    name: str
    tilt: float  # max camera pitch/roll in degrees
    lighting: float  # depth of brightness falloff
    noise: float  # sensor noise sigma
    jpeg: int
    rest_hand: float  # chance the hand rests on the card after putting it down
    any_angle: float  # chance a card is put down at a random angle (else near the seat's)


DIFFICULTIES: dict[str, Difficulty] = {
    "easy": Difficulty("easy", 2.0, 0.15, 2.0, 92, 0.2, 0.2),
    "normal": Difficulty("normal", 4.0, 0.3, 4.0, 80, 0.4, 0.5),
    "hard": Difficulty("hard", 6.0, 0.45, 6.0, 65, 0.6, 0.8),
}


@dataclass
class TruthPlaced:
    card: str  # card code, FACE_DOWN or OBJECT
    seat: int
    rest_frame: int  # first frame at rest with no hand over it
    covers: str | None = None
    centre_mm: tuple[float, float] = (0.0, 0.0)


@dataclass
class TruthRemoved:
    frame: int  # first frame with all the cards gone
    cards: list[str]


@dataclass
class TableTruth:
    deck: str
    seats: int
    difficulty: str
    seed: int
    frames: int
    fps: float
    width: int
    height: int
    table: str
    corners_px: list[list[float]]  # play-area corners in the image, in marker order 0..3
    placed: list[TruthPlaced] = field(default_factory=list)
    removed: list[TruthRemoved] = field(default_factory=list)
    hands: dict[str, list[str]] = field(default_factory=dict)  # cards per seat at the start

    def save(self, path: Path) -> None:
        Path(path).write_text(json.dumps(asdict(self), indent=1, ensure_ascii=False))

    @classmethod
    def load(cls, path: Path) -> TableTruth:
        raw = json.loads(Path(path).read_text())
        placed = [TruthPlaced(**{**p, "centre_mm": tuple(p["centre_mm"])}) for p in raw.pop("placed")]
        removed = [TruthRemoved(**r) for r in raw.pop("removed")]
        return cls(placed=placed, removed=removed, **raw)


def truth_path(video: Path) -> Path:
    return Path(video).with_suffix(".truth.json")


def marker_corners_mm(setup: TableSetup = DEFAULT_SETUP) -> np.ndarray:
    """Play-area corners (= marker centres) in marker order: BL, TL, TR, BR."""
    h = setup.area_mm / 2
    return np.array([[-h, h], [-h, -h], [h, -h], [h, h]], np.float64)


def seat_direction(seat: int, seats: int) -> tuple[float, float]:
    """Unit vector from the centre towards a seat's edge (plane coordinates, y towards seat 0)."""
    if seats == 2:
        return (0.0, 1.0) if seat == 0 else (0.0, -1.0)
    return [(0.0, 1.0), (-1.0, 0.0), (0.0, -1.0), (1.0, 0.0)][seat]


# -- camera ---------------------------------------------------------------------------------
def camera_homography(rng: random.Random, tilt: float, setup: TableSetup = DEFAULT_SETUP) -> np.ndarray:
    """Plane (mm) -> image homography of a camera a little off vertical."""
    pitch, roll, yaw = (math.radians(rng.uniform(-tilt, tilt)) for _ in range(3))
    yaw = yaw / 2
    rx = np.array([[1, 0, 0], [0, math.cos(pitch), -math.sin(pitch)],
                   [0, math.sin(pitch), math.cos(pitch)]])
    ry = np.array([[math.cos(roll), 0, math.sin(roll)], [0, 1, 0],
                   [-math.sin(roll), 0, math.cos(roll)]])
    rz = np.array([[math.cos(yaw), -math.sin(yaw), 0], [math.sin(yaw), math.cos(yaw), 0],
                   [0, 0, 1]])
    r = rz @ ry @ rx
    k_mm = setup.camera_mm / HEIGHT_MM
    shift = np.array([rng.uniform(-15, 15) * k_mm, rng.uniform(-10, 10) * k_mm,
                      setup.camera_mm * rng.uniform(0.97, 1.03)])
    f = setup.focal
    k = np.array([[f, 0, setup.width / 2], [0, f, setup.height / 2], [0, 0, 1]])
    h = k @ np.column_stack([r[:, 0], r[:, 1], shift])
    return h / h[2, 2]


def project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    return cv2.perspectiveTransform(np.asarray(pts, np.float64).reshape(-1, 1, 2), h).reshape(-1, 2)


# -- textures -------------------------------------------------------------------------------
def _table_texture(kind: str, w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    if kind in MORE_TABLES:
        return _more_texture(kind, w, h, rng)
    if kind == "wood":
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        grain = np.sin(yy / 9.0 + 3 * np.sin(xx / 170.0) + rng.uniform(0, 6)) * 0.5 + 0.5
        fine = cv2.resize(rng.normal(0, 1, (h // 2, w // 16)).astype(np.float32), (w, h))
        base = np.array([40, 85, 140], np.float32)  # BGR brown
        tex = base[None, None, :] * (0.8 + 0.25 * grain[:, :, None] + 0.06 * fine[:, :, None])
    else:
        base = np.array([45, 110, 35] if kind == "green_felt" else [120, 70, 30], np.float32)
        coarse = cv2.resize(rng.normal(0, 1, (h // 40, w // 40)).astype(np.float32), (w, h),
                            interpolation=cv2.INTER_CUBIC)
        fine = rng.normal(0, 1, (h, w)).astype(np.float32)
        tex = base[None, None, :] * (1 + 0.06 * coarse[:, :, None] + 0.05 * fine[:, :, None])
    return np.clip(tex, 0, 255).astype(np.uint8)


def _more_texture(kind: str, w: int, h: int, rng: np.random.Generator) -> np.ndarray:
    """Surfaces of set-ups built differently: a red felt with a coarse nap, a woven grey cloth,
    a light linen (little darker than a card) and a dark varnished wood."""
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    fine = rng.normal(0, 1, (h, w)).astype(np.float32)
    coarse = cv2.resize(rng.normal(0, 1, (max(1, h // 25), max(1, w // 25))).astype(np.float32),
                        (w, h), interpolation=cv2.INTER_CUBIC)
    if kind == "red_felt":
        base, pattern = np.array([40, 40, 150], np.float32), 0.1 * coarse + 0.06 * fine
    elif kind == "grey_cloth":
        weave = np.sin(xx * 1.9) * np.sin(yy * 1.9)
        base, pattern = np.array([105, 108, 110], np.float32), 0.08 * weave + 0.05 * coarse + 0.04 * fine
    elif kind == "beige_linen":
        weave = 0.5 * np.sin(xx * 2.3) + 0.5 * np.sin(yy * 2.1)
        base, pattern = np.array([150, 180, 200], np.float32), 0.05 * weave + 0.04 * coarse + 0.03 * fine
    else:  # dark_wood
        grain = np.sin(xx / 6.0 + 4 * np.sin(yy / 210.0) + float(rng.uniform(0, 6)))
        base, pattern = np.array([25, 45, 75], np.float32), 0.2 * grain + 0.08 * coarse + 0.05 * fine
    return np.clip(base[None, None, :] * (1 + pattern[:, :, None]), 0, 255).astype(np.uint8)


def _lighting(rng: random.Random, d: Difficulty, setup: TableSetup = DEFAULT_SETUP) -> np.ndarray:
    width, height = setup.width, setup.height
    k = width / 1280
    yy, xx = np.mgrid[0:height, 0:width].astype(np.float32)
    angle = rng.uniform(0, 2 * math.pi)
    ramp = math.cos(angle) * (xx / width - 0.5) + math.sin(angle) * (yy / height - 0.5)
    r2 = ((xx - width / 2) / width) ** 2 + ((yy - height / 2) / height) ** 2
    gain = 1.05 - d.lighting * (0.6 * (ramp + 0.5) + 0.8 * r2)
    # a lamp's pool of light and a soft shadow from something beside the table
    cx, cy = rng.uniform(300, 980) * k, rng.uniform(150, 570) * k
    gain += 0.12 * np.exp(-(((xx - cx) / (260 * k)) ** 2 + ((yy - cy) / (200 * k)) ** 2))
    sx, sy = rng.choice([(-100 * k, rng.uniform(0, height)),
                         (width + 100 * k, rng.uniform(0, height))])
    gain -= d.lighting * 0.5 * np.exp(-(((xx - sx) / (300 * k)) ** 2 + ((yy - sy) / (250 * k)) ** 2))
    cast = 1.0 - 0.15 * np.array([rng.random(), rng.random(), rng.random()], np.float32)
    if setup.warm or setup.light != 1.0:
        cast = cast * setup.light * (1.0 - setup.warm * np.array([0.35, 0.15, 0.0], np.float32))
    return np.ascontiguousarray(np.clip(gain, 0.35, 1.3)[:, :, None] * cast[None, None, :], np.float32)


# -- scene ------------------------------------------------------------------------------------
@dataclass
class _Card:
    img: np.ndarray  # BGRA artwork
    x: float
    y: float
    angle: float  # degrees, counter-clockwise on the plane image
    code: str


@dataclass
class _Arm:
    shoulder: tuple[float, float]
    hand: tuple[float, float]
    skin: tuple[int, int, int]
    sleeve: tuple[int, int, int]


class _Scene:
    def __init__(self, deck: str, table: str, d: Difficulty, rng: random.Random,
                 nrng: np.random.Generator, setup: TableSetup = DEFAULT_SETUP) -> None:
        self.setup = setup
        # drawn at a little finer than the camera sees it
        self.px_mm = max(PX_MM, 1.15 * setup.focal / setup.camera_mm)
        self.art = card_images(deck, 400)
        self.art = {k: cv2.resize(v, (ART_W, round(v.shape[0] * ART_W / v.shape[1])),
                                  interpolation=cv2.INTER_AREA) for k, v in self.art.items()}
        self.aspect = self.art[BACK].shape[0] / ART_W
        self.d = d
        self.rng = rng
        self.h_cam = camera_homography(rng, d.tilt, setup)
        # the part of the plane the camera sees, with a margin
        inv = np.linalg.inv(self.h_cam)
        fw, fh = setup.width, setup.height
        seen = project(inv, np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]]))
        self.x0, self.y0 = seen.min(axis=0) - 40
        x1, y1 = seen.max(axis=0) + 40
        self.pw, self.ph = int((x1 - self.x0) * self.px_mm), int((y1 - self.y0) * self.px_mm)
        self.base = _table_texture(table, self.pw, self.ph, nrng)
        if setup.rim_mm > 0:
            self._draw_rim(nrng)
        self._draw_markers()
        if setup.clutter:
            self._draw_clutter(rng)
        # plane pixels -> image
        to_mm = np.array([[1 / self.px_mm, 0, self.x0], [0, 1 / self.px_mm, self.y0], [0, 0, 1]])
        self.h_img = self.h_cam @ to_mm
        self.light = _lighting(rng, d, setup)
        self.cards: list[_Card] = []
        self.static: np.ndarray | None = None

    def px(self, x: float, y: float) -> tuple[float, float]:
        return (x - self.x0) * self.px_mm, (y - self.y0) * self.px_mm

    def _draw_rim(self, nrng: np.random.Generator) -> None:
        """The table's edge in view: a 60 mm wooden rim ``rim_mm`` beyond the play area and a
        dark floor beyond that."""
        inner = self.setup.area_mm / 2 + self.setup.rim_mm
        a, b = self.px(-inner, -inner), self.px(inner, inner)
        c, d = self.px(-inner - 60, -inner - 60), self.px(inner + 60, inner + 60)
        cloth = self.base.copy()
        self.base[:] = _table_texture("wood", self.pw, self.ph, nrng)
        floor = np.ones((self.ph, self.pw), bool)
        floor[max(0, int(c[1])): max(0, int(d[1])), max(0, int(c[0])): max(0, int(d[0]))] = False
        self.base[floor] = (self.base[floor] * 0.35).astype(np.uint8)
        y0, y1, x0, x1 = (max(0, int(v)) for v in (a[1], b[1], a[0], b[0]))
        self.base[y0:y1, x0:x1] = cloth[y0:y1, x0:x1]

    def _draw_clutter(self, rng: random.Random) -> None:
        """What lies on a real table all evening: the rest of the deck face down and a pencil
        beside the play area, a coin and a ring inside it near its side edges (clear of the
        markers), mirrored at random."""
        half = self.setup.area_mm / 2
        sx, sy = rng.choice((-1, 1)), rng.choice((-1, 1))
        k = self.px_mm
        deck_at = (sx * -(half + 70), sy * -0.25 * half)
        coin_at = (sx * 0.85 * half, sy * 0.3 * half)
        ring_at = (sx * -0.85 * half, sy * 0.35 * half)
        pencil_at = (sx * (half + 45), sy * 0.2 * half)
        for i in range(3):  # the deck's edge shows as a few offset backs
            self._paste_card(self.base, _Card(self.art[BACK], deck_at[0] + i, deck_at[1] - i,
                                              rng.uniform(-10, 10), FACE_DOWN))
        cx, cy = self.px(*coin_at)
        cv2.circle(self.base, (round(cx), round(cy)), round(12 * k), (60, 140, 170), -1, cv2.LINE_AA)
        cv2.circle(self.base, (round(cx), round(cy)), round(9 * k), (90, 170, 200), 1, cv2.LINE_AA)
        rx, ry = self.px(*ring_at)
        cv2.circle(self.base, (round(rx), round(ry)), round(10 * k), (40, 170, 210), max(1, round(2.5 * k)),
                   cv2.LINE_AA)
        px, py = self.px(*pencil_at)
        a = rng.uniform(80, 100)
        cv2.ellipse(self.base, ((px, py), (170 * k, 7 * k), a), (30, 190, 230), -1, cv2.LINE_AA)

    def _draw_markers(self) -> None:
        dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
        side = round(self.setup.marker_mm * self.px_mm)
        quiet = round(8 * self.px_mm)
        for mid, (x, y) in enumerate(marker_corners_mm(self.setup)):
            img = cv2.aruco.generateImageMarker(dictionary, mid, side)
            img = cv2.copyMakeBorder(img, quiet, quiet, quiet, quiet, cv2.BORDER_CONSTANT, value=255)
            cx, cy = self.px(x, y)
            x0, y0 = round(cx - img.shape[1] / 2), round(cy - img.shape[0] / 2)
            self.base[y0:y0 + img.shape[0], x0:x0 + img.shape[1]] = (
                np.repeat(img[:, :, None], 3, axis=2) * np.array([0.92, 0.94, 0.95])).astype(np.uint8)

    def card_quad(self, c: _Card | tuple) -> np.ndarray:
        """Card corners in plane mm."""
        x, y, angle = (c.x, c.y, c.angle) if isinstance(c, _Card) else c
        w, h = self.setup.card_mm, self.setup.card_mm * self.aspect
        a = math.radians(angle)
        ux, uy = (math.cos(a), -math.sin(a)), (math.sin(a), math.cos(a))
        pts = []
        for sx, sy in ((-1, -1), (1, -1), (1, 1), (-1, 1)):
            pts.append((x + sx * w / 2 * ux[0] + sy * h / 2 * uy[0],
                        y + sx * w / 2 * ux[1] + sy * h / 2 * uy[1]))
        return np.array(pts)

    def _paste_card(self, canvas: np.ndarray, c: _Card, lift: float = 0.0) -> None:
        img = c.img
        ah, aw = img.shape[:2]
        src = np.array([[0, 0], [aw, 0], [aw, ah], [0, ah]], np.float32)
        dst = np.array([self.px(*p) for p in self.card_quad(c)], np.float32)
        if lift:
            dst = dst + np.array([-lift, -lift], np.float32)
        x0, y0 = np.floor(dst.min(axis=0)).astype(int) - 2
        x1, y1 = np.ceil(dst.max(axis=0)).astype(int) + 2
        x0, y0 = max(x0, 0), max(y0, 0)
        x1, y1 = min(x1, canvas.shape[1]), min(y1, canvas.shape[0])
        if x1 <= x0 or y1 <= y0:
            return
        m = cv2.getAffineTransform(src[:3], dst[:3] - np.array([x0, y0], np.float32))
        warped = cv2.warpAffine(img, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        roi = canvas[y0:y1, x0:x1]
        if lift:  # held above the table: a soft shadow under it
            sh = cv2.GaussianBlur(warped[:, :, 3], (0, 0), 4).astype(np.float32) / 255
            roi[:] = (roi * (1 - 0.3 * sh[:, :, None])).astype(np.uint8)
        a = warped[:, :, 3:].astype(np.float32) / 255
        roi[:] = (warped[:, :, :3] * a + roi * (1 - a)).astype(np.uint8)

    def rebuild(self) -> None:
        canvas = self.base.copy()
        for c in self.cards:
            self._paste_card(canvas, c)
        self.static = canvas

    def _arm_polys(self, arm: _Arm) -> tuple[np.ndarray, np.ndarray, tuple]:
        sx, sy = self.px(*arm.shoulder)
        hx, hy = self.px(*arm.hand)
        dx, dy = hx - sx, hy - sy
        n = math.hypot(dx, dy) or 1.0
        ux, uy = dx / n, dy / n
        k = self.px_mm
        half = 38 * k
        wrist = (hx - ux * 70 * k, hy - uy * 70 * k)
        sleeve = np.array([[sx - uy * half * 1.2, sy + ux * half * 1.2],
                           [sx + uy * half * 1.2, sy - ux * half * 1.2],
                           [wrist[0] + uy * half, wrist[1] - ux * half],
                           [wrist[0] - uy * half, wrist[1] + ux * half]], np.int32)
        angle = math.degrees(math.atan2(uy, ux))
        hand = ((round(hx), round(hy)), (round(62 * k), round(44 * k)), angle)
        forearm = np.array([[wrist[0] - uy * half * 0.8, wrist[1] + ux * half * 0.8],
                            [wrist[0] + uy * half * 0.8, wrist[1] - ux * half * 0.8],
                            [hx + uy * half * 0.8, hy - ux * half * 0.8],
                            [hx - uy * half * 0.8, hy + ux * half * 0.8]], np.int32)
        return sleeve, forearm, hand

    def draw_arm(self, canvas: np.ndarray, arm: _Arm) -> None:
        sleeve, forearm, hand = self._arm_polys(arm)
        # soft shadow, cast down and to the right
        off = np.array([14 * self.px_mm, 18 * self.px_mm], np.int32)
        pts = np.vstack([sleeve, forearm]) + off
        x0, y0 = (int(v) for v in np.maximum(pts.min(axis=0) - 120, 0))
        x1, y1 = (int(v) for v in np.minimum(pts.max(axis=0) + 120, [canvas.shape[1], canvas.shape[0]]))
        if x1 - x0 >= 8 and y1 - y0 >= 8:
            mask: np.ndarray = np.zeros((y1 - y0, x1 - x0), np.uint8)
            shift = np.array([x0, y0], np.int32)
            cv2.fillConvexPoly(mask, sleeve + off - shift, 255)
            cv2.fillConvexPoly(mask, forearm + off - shift, 255)
            (hx, hy), axes, ang = hand
            cv2.ellipse(mask, ((float(hx + off[0] - x0), float(hy + off[1] - y0)), axes, ang), 255, -1)
            small = cv2.resize(mask, None, fx=0.25, fy=0.25, interpolation=cv2.INTER_AREA)
            small = cv2.GaussianBlur(small, (0, 0), 5)
            mask = cv2.resize(small, (x1 - x0, y1 - y0)).astype(np.float32) / 255
            roi = canvas[y0:y1, x0:x1]
            roi[:] = (roi * (1 - 0.45 * mask[:, :, None])).astype(np.uint8)
        cv2.fillConvexPoly(canvas, sleeve, arm.sleeve, cv2.LINE_AA)
        cv2.fillConvexPoly(canvas, forearm, arm.skin, cv2.LINE_AA)
        cv2.ellipse(canvas, hand, arm.skin, -1, cv2.LINE_AA)
        darker = tuple(max(0, v - 25) for v in arm.skin)
        cv2.ellipse(canvas, hand, darker, 2, cv2.LINE_AA)

    def hand_covers(self, arm: _Arm, quad_mm: np.ndarray) -> bool:
        """Does the arm or hand lie over any part of a card (quad in mm)?"""
        sleeve, forearm, hand = self._arm_polys(arm)
        mask = np.zeros((self.ph // 4 + 1, self.pw // 4 + 1), np.uint8)
        cv2.fillConvexPoly(mask, sleeve // 4, 1)
        cv2.fillConvexPoly(mask, forearm // 4, 1)
        (hx, hy), (ax, ay), ang = hand
        cv2.ellipse(mask, ((hx / 4, hy / 4), (ax / 4 + 2, ay / 4 + 2), ang), 1, -1)
        card = np.zeros_like(mask)
        cv2.fillConvexPoly(card, (np.array([self.px(*p) for p in quad_mm]) / 4).astype(np.int32), 1)
        return bool((mask & card).any())

    def render(self, moving: list[tuple[_Card, float]], arms: list[_Arm]) -> np.ndarray:
        assert self.static is not None
        canvas = self.static.copy()
        for c, lift in moving:
            self._paste_card(canvas, c, lift)
        for arm in arms:
            self.draw_arm(canvas, arm)
        return cv2.warpPerspective(canvas, self.h_img, (self.setup.width, self.setup.height),
                                   flags=cv2.INTER_LINEAR,
                                   borderMode=cv2.BORDER_REPLICATE)


def _skin(rng: random.Random) -> tuple[int, int, int]:
    tone = rng.random()
    b, g, r = 60 + 90 * tone, 85 + 90 * tone, 120 + 105 * tone
    return int(b), int(g), int(r)


def _sleeve(rng: random.Random) -> tuple[int, int, int]:
    return rng.choice([(40, 40, 45), (120, 60, 30), (30, 30, 140), (90, 110, 60), (150, 150, 150),
                       (60, 120, 170), (110, 40, 90)])


def _shoulder(seat: int, seats: int, lateral: float,
              setup: TableSetup = DEFAULT_SETUP) -> tuple[float, float]:
    dx, dy = seat_direction(seat, seats)
    far = setup.area_mm / 2 + 330
    return dx * far - dy * lateral, dy * far + dx * lateral


class _Mpeg4:
    """OpenCV's MPEG-4 writer as a sink (``write``/``close``)."""

    def __init__(self, out: Path, size: tuple[int, int] = (FRAME_W, FRAME_H)) -> None:
        self.w = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"mp4v"), FPS, size)  # type: ignore[attr-defined]
        if not self.w.isOpened():
            raise RuntimeError(f"cannot write video {out}")

    def write(self, frame: np.ndarray) -> None:
        self.w.write(frame)

    def close(self) -> None:
        self.w.release()


class _Writer:
    """The camera: lighting, sensor noise and JPEG loss on each drawn frame, then into ``out``
    (a path: MPEG-4; or any sink with ``write(frame)`` and ``close()``)."""

    def __init__(self, out: Path | Any, scene: _Scene, d: Difficulty, seed: int) -> None:
        size = (scene.setup.width, scene.setup.height)
        self.w = _Mpeg4(out, size) if isinstance(out, Path) else out
        self.scene, self.d = scene, d
        self.size = size
        self.frame = 0
        # Sensor noise: one field somewhat larger than a frame, cut at a fresh random offset
        # for every frame (drawing 2.7 million normal numbers per frame was most of the cost).
        cv2.setRNGSeed(seed)
        self.noise = np.empty((size[1] + 97, size[0] + 131, 3), np.float32)
        cv2.randn(self.noise, 0.0, d.noise)  # type: ignore[call-overload]
        self.rng = random.Random(seed)

    def write(self, img: np.ndarray) -> None:
        f = cast(np.ndarray, cv2.multiply(img, self.scene.light, dtype=cv2.CV_32F))
        dy, dx = self.rng.randrange(97), self.rng.randrange(131)
        f += self.noise[dy:dy + self.size[1], dx:dx + self.size[0]]
        f8 = cv2.convertScaleAbs(f)  # saturates at 255; the few values below 0 fold back
        ok, buf = cv2.imencode(".jpg", f8, [cv2.IMWRITE_JPEG_QUALITY, self.d.jpeg])
        self.w.write(cast(np.ndarray, cv2.imdecode(buf, cv2.IMREAD_COLOR)) if ok else f8)
        self.frame += 1

    def close(self) -> None:
        self.w.close()


def _lerp(a: tuple[float, float], b: tuple[float, float], t: float) -> tuple[float, float]:
    t = 0.5 - 0.5 * math.cos(math.pi * min(max(t, 0.0), 1.0))  # ease in and out
    return a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t


def _object_image(rng: random.Random) -> np.ndarray:
    """A lighter, phone or coaster: a dark or coloured thing that is not a card."""
    w, h = rng.randint(50, 90), rng.randint(70, 140)
    img = np.zeros((h, w, 4), np.uint8)
    colour = rng.choice([(20, 20, 25), (40, 40, 160), (150, 90, 30), (30, 140, 200)])
    cv2.rectangle(img, (0, 0), (w - 1, h - 1), (*colour, 255), -1)
    cv2.rectangle(img, (4, 4), (w - 5, h // 3), (colour[0] + 40, colour[1] + 40, colour[2] + 40, 255), -1)
    return img


class _Director:
    """Plays out placements and gathers, writing frames and recording the truth."""

    def __init__(self, scene: _Scene, writer: _Writer, truth: TableTruth, seats: int,
                 rng: random.Random) -> None:
        self.s, self.w, self.t, self.seats, self.rng = scene, writer, truth, seats, rng
        self.on_table: list[tuple[_Card, int]] = []  # card, index into truth.placed (-1: none)

    def idle(self, frames: int) -> None:
        if self.s.static is None:
            self.s.rebuild()
        for _ in range(frames):
            self.w.write(self.s.render([], []))

    def place(self, seat: int, code: str, x: float, y: float, angle: float,
              covers: str | None = None) -> None:
        s, rng, d = self.s, self.rng, self.s.d
        img = s.art[BACK] if code == FACE_DOWN else (_object_image(rng) if code == OBJECT else s.art[code])
        card = _Card(img, x, y, angle, code)
        lateral = rng.uniform(-120, 120)
        arm = _Arm(_shoulder(seat, self.seats, lateral, s.setup), (0, 0), _skin(rng), _sleeve(rng))
        dx, dy = seat_direction(seat, self.seats)
        grip = rng.uniform(0.25, 0.45) * s.setup.card_mm * s.aspect  # hand this far behind the centre
        start = (x + dx * 420, y + dy * 420)
        hold = (x + dx * grip, y + dy * grip)
        approach = rng.randint(7, 11)
        for i in range(approach):
            t = (i + 1) / approach
            cx, cy = _lerp(start, (x, y), t)
            arm.hand = (cx + dx * grip, cy + dy * grip)
            moving = _Card(img, cx, cy, angle + (1 - t) * rng.uniform(-4, 4), code)
            self.w.write(s.render([(moving, 6 * (1 - t) + 1)], [arm]))
        self.on_table.append((card, -1))
        s.cards.append(card)
        s.rebuild()
        rest = rng.randint(12, 26) if rng.random() < d.rest_hand else rng.randint(1, 5)
        arm.hand = hold
        for _ in range(rest):
            self.w.write(s.render([], [arm]))
        retreat = rng.randint(7, 11)
        quad = s.card_quad(card)
        rest_frame = -1
        for i in range(retreat + 1):
            arm.hand = _lerp(hold, (hold[0] + dx * 450, hold[1] + dy * 450), (i + 1) / retreat)
            if rest_frame < 0 and not s.hand_covers(arm, quad):
                rest_frame = self.w.frame
            self.w.write(s.render([], [arm] if i < retreat else []))
        if rest_frame < 0:
            rest_frame = self.w.frame - 1
        self.t.placed.append(TruthPlaced(code, seat, rest_frame, covers, (x, y)))
        self.on_table[-1] = (card, len(self.t.placed) - 1)

    def gather(self, seat: int, keep_objects: bool = True, only: set[str] | None = None) -> None:
        """``seat`` sweeps the cards off the table (``only``: just these codes, e.g. one card
        taken back)."""
        s, rng = self.s, self.rng
        taking = [(c, i) for c, i in self.on_table if not (keep_objects and c.code == OBJECT)
                  and (only is None or c.code in only)]
        if not taking:
            return
        cx = float(np.mean([c.x for c, _ in taking]))
        cy = float(np.mean([c.y for c, _ in taking]))
        dx, dy = seat_direction(seat, self.seats)
        arm = _Arm(_shoulder(seat, self.seats, rng.uniform(-100, 100), s.setup), (0, 0), _skin(rng),
                   _sleeve(rng))
        far_side = (cx - dx * 120, cy - dy * 120)
        start = (cx + dx * 420, cy + dy * 420)
        reach = rng.randint(8, 12)
        for i in range(reach):  # reach over the cards to their far side
            arm.hand = _lerp(start, far_side, (i + 1) / reach)
            self.w.write(s.render([], [arm]))
        # sweep them together towards the seat and off the table
        s.cards = [c for c in s.cards if all(c is not t for t, _ in taking)]
        s.rebuild()
        sweep = rng.randint(12, 16)
        end = (cx + dx * 520, cy + dy * 520)
        gone = -1
        for i in range(sweep + 4):
            t = min(1.0, (i + 1) / sweep)
            hx, hy = _lerp(far_side, end, t)
            arm.hand = (hx, hy)
            shift = (hx - far_side[0], hy - far_side[1])
            squeeze = min(1.0, 2 * t)
            moving = []
            for c, _ in taking:
                mx = c.x + (cx - c.x) * squeeze + shift[0]
                my = c.y + (cy - c.y) * squeeze + shift[1]
                moving.append((_Card(c.img, mx, my, c.angle, c.code), 0.0))
            edge = s.setup.area_mm / 2 + 40
            inside = any(abs(m.x) < edge and abs(m.y) < edge
                         for m, _ in moving)
            if not inside and gone < 0:
                gone = self.w.frame
            self.w.write(s.render(moving if inside or i < sweep else [], [arm] if i < sweep else []))
        self.on_table = [(c, i) for c, i in self.on_table if all(c is not t for t, _ in taking)]
        cards = [self.t.placed[i].card for _, i in taking
                 if i >= 0 and self.t.placed[i].card not in (FACE_DOWN, OBJECT)]
        self.t.removed.append(TruthRemoved(gone if gone >= 0 else self.w.frame - 1, cards))


def _spot(rng: random.Random, seat: int, seats: int, used: list[tuple[float, float]],
          d: Difficulty, setup: TableSetup = DEFAULT_SETUP) -> tuple[float, float, float]:
    """Where and at what angle a seat puts its card down in a trick."""
    dx, dy = seat_direction(seat, seats)
    k = setup.scale
    for _ in range(50):
        dist = rng.uniform(70, 140) * k
        lat = rng.uniform(-70, 70) * k
        x, y = dx * dist - dy * lat, dy * dist + dx * lat
        if all(math.hypot(x - u, y - v) > setup.card_mm * 1.9 for u, v in used):
            break
    base = {(0.0, 1.0): 0, (-1.0, 0.0): 90, (0.0, -1.0): 180, (1.0, 0.0): 270}[(dx, dy)]
    angle = rng.uniform(0, 360) if rng.random() < d.any_angle else base + rng.uniform(-25, 25)
    return x, y, angle


def make_table_clip(out: Path, deck: str, seats: int = 2, cards: list[str] | None = None,
                    game: str = "tricks", difficulty: str = "normal", seed: int = 0,
                    table: str | None = None, face_down: int = 0, objects: int = 0,
                    setup: TableSetup = DEFAULT_SETUP) -> TableTruth:
    """Write an overhead clip of ``cards`` being played (dealt round the seats) plus its truth.

    ``game`` is ``tricks`` (each seat plays one card, the trick is gathered) or ``durak`` (two
    seats: attack cards each covered by an overlapping defending card, several pairs at once).
    """
    from vision.cards import composition

    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}; choose {', '.join(DIFFICULTIES)}")
    if seats not in (2, 4):
        raise ValueError("seats must be 2 or 4")
    if game not in ("tricks", "durak"):
        raise ValueError("game must be 'tricks' or 'durak'")
    if game == "durak" and seats != 2:
        raise ValueError("durak clips are for two seats")
    d = DIFFICULTIES[difficulty]
    rng = random.Random(seed)
    nrng = np.random.default_rng(seed)
    table = table or rng.choice(TABLES)
    if table not in TABLES + MORE_TABLES:
        raise ValueError(f"unknown table {table!r}; choose {', '.join(TABLES + MORE_TABLES)}")
    cards = list(cards) if cards else composition("36")
    rng.shuffle(cards)
    cards = cards[: len(cards) - len(cards) % seats] if game == "tricks" else cards
    hands = {s: cards[s::seats] for s in range(seats)}
    scene = _Scene(deck, table, d, rng, nrng, setup)
    corners = project(scene.h_cam, marker_corners_mm(setup))
    truth = TableTruth(deck=deck, seats=seats, difficulty=difficulty, seed=seed, frames=0, fps=FPS,
                       width=setup.width, height=setup.height, table=table,
                       corners_px=corners.round(2).tolist(),
                       hands={str(s): list(h) for s, h in hands.items()})
    writer = _Writer(out, scene, d, seed)
    director = _Director(scene, writer, truth, seats, rng)
    extras = [FACE_DOWN] * face_down + [OBJECT] * objects
    rng.shuffle(extras)
    try:
        director.idle(8)
        if game == "tricks":
            tricks = len(cards) // seats
            extra_at: dict[int, list[str]] = {}
            for e in extras:
                extra_at.setdefault(rng.randrange(tricks), []).append(e)
            leader = 0
            for k in range(tricks):
                used: list[tuple[float, float]] = []
                for j in range(seats):
                    seat = (leader + j) % seats
                    x, y, a = _spot(rng, seat, seats, used, d, setup)
                    used.append((x, y))
                    director.place(seat, hands[seat][k], x, y, a)
                    director.idle(rng.randint(0, 4))
                for extra in extra_at.get(k, []):
                    x, y, a = _spot(rng, 0, seats, used, d, setup)
                    used.append((x, y))
                    director.place(0, extra, x, y, a)
                director.idle(rng.randint(4, 12))
                leader = rng.randrange(seats)
                director.gather(leader)
                director.idle(rng.randint(3, 8))
        else:
            _durak(director, rng, hands, d, extras)
        director.idle(8)
    finally:
        writer.close()
    truth.frames = writer.frame
    truth.save(truth_path(out))
    return truth


def _durak(director: _Director, rng: random.Random, hands: dict[int, list[str]], d: Difficulty,
           extras: list[str]) -> None:
    attacker = 0
    pos = {0: 0, 1: 0}
    extra_bouts = {rng.randrange(4): e for e in extras}
    bout = 0
    while pos[attacker] < len(hands[attacker]) and pos[1 - attacker] < len(hands[1 - attacker]):
        defender = 1 - attacker
        pairs = min(rng.randint(1, 4), len(hands[attacker]) - pos[attacker],
                    len(hands[defender]) - pos[defender])
        _, ay = seat_direction(attacker, 2)
        slots = rng.sample([-165.0, -55.0, 55.0, 165.0], pairs)
        for slot in slots:
            attack = hands[attacker][pos[attacker]]
            pos[attacker] += 1
            x, y = slot + rng.uniform(-15, 15), ay * rng.uniform(25, 55)
            base = 0 if attacker == 0 else 180
            a = base + rng.uniform(-20, 20) if rng.random() > d.any_angle else rng.uniform(0, 360)
            director.place(attacker, attack, x, y, a)
            director.idle(rng.randint(2, 8))
            cover = hands[defender][pos[defender]]
            pos[defender] += 1
            # laid overlapping the attack card, shifted towards the defender and turned
            cxo = x + rng.choice([-1, 1]) * rng.uniform(14, 24)
            cyo = y - ay * rng.uniform(22, 34)
            ca = a + rng.choice([-1, 1]) * rng.uniform(12, 35)
            director.place(defender, cover, cxo, cyo, ca, covers=attack)
            director.idle(rng.randint(2, 8))
        if bout in extra_bouts:
            x, y = rng.uniform(-150, 150), -ay * rng.uniform(150, 190)
            director.place(attacker, extra_bouts[bout], x, y, rng.uniform(0, 360))
        director.idle(rng.randint(5, 12))
        director.gather(rng.randrange(2))
        director.idle(rng.randint(3, 8))
        attacker = defender
        bout += 1


def make_scripted_clip(out: Path, deck: str, steps: list[tuple[int, list[tuple[str, float, float, float]]]],
                       seed: int = 0, difficulty: str = "normal", table: str = "green_felt",
                       shift: dict[int, tuple[float, float]] | None = None,
                       setup: TableSetup = DEFAULT_SETUP) -> np.ndarray:
    """A clip of set scenes, for bad-input tests and table checks: each step is (frames, cards
    on the table as (code, x mm, y mm, angle)). ``shift`` moves the picture of chosen frames by
    (dx, dy) px, as a knocked camera would. Returns the camera homography (plane mm -> image)."""
    d = DIFFICULTIES[difficulty]
    rng = random.Random(seed)
    scene = _Scene(deck, table, d, rng, np.random.default_rng(seed), setup)
    writer = _Writer(out, scene, d, seed)
    try:
        for count, cards in steps:
            scene.cards = [_Card(scene.art[BACK] if c == FACE_DOWN else scene.art[c], x, y, a, c)
                           for c, x, y, a in cards]
            scene.rebuild()
            img = scene.render([], [])
            for _ in range(count):
                frame = img
                if shift and writer.frame in shift:
                    dx, dy = shift[writer.frame]
                    frame = cv2.warpAffine(img, np.array([[1, 0, dx], [0, 1, dy]], np.float32),
                                           (setup.width, setup.height),
                                           borderMode=cv2.BORDER_REPLICATE)
                writer.write(frame)
    finally:
        writer.close()
    return scene.h_cam
