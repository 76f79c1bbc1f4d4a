"""Synthetic shoe footage with ground truth, made from real deck artwork.

The shoe model: cards slide down through a 640x480 camera window, face towards the camera and
upright, so the leading edge is the card's bottom and the first index to come into full view is
the bottom-right one. Each card moves at its own speed (px/frame); the gap to the next card may be
zero (back-to-back). The camera adds motion blur (speed x exposure), a fixed LED glare spot on the
glossy face, uneven lighting with a colour cast, sensor noise, JPEG loss and finally MPEG-4 codec
loss when the clip is written.
"""

from __future__ import annotations

import json
import random
import typing
from dataclasses import asdict, dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.artwork import BACK, add_border, card_images
from vision.geometry import CANON_SIDE, CENTRE, DEFAULT_GEOMETRY, Normaliser, ShoeGeometry

FRAME_W, FRAME_H = 640, 480
CARD_W = 400
FPS = 30.0
FACE_DOWN = "face_down"
OBJECT = "object"


@dataclass(frozen=True)
class Difficulty:
    """Camera and shoe conditions. Speeds are in pixels per frame at 30 fps."""

    name: str
    speed: tuple[float, float]
    exposure: float  # fraction of the frame interval the shutter is open -> blur length
    glare: float  # peak brightness added by the LED reflection, 0..1
    lighting: float  # depth of the brightness falloff across the window, 0..1
    cast: float  # strength of the colour cast, 0..1
    noise: float  # sensor noise sigma in grey levels
    jpeg: int  # JPEG quality applied to every frame before the video codec
    back_to_back: float  # chance that a card follows the previous one with no gap
    jitter_x: int  # lateral play of the card in the shoe guide, pixels


DIFFICULTIES: dict[str, Difficulty] = {
    "easy": Difficulty("easy", (45, 80), 0.02, 0.25, 0.15, 0.1, 2.0, 92, 0.2, 1),
    "normal": Difficulty("normal", (70, 130), 0.04, 0.45, 0.3, 0.25, 4.0, 80, 0.5, 2),
    "hard": Difficulty("hard", (100, 175), 0.06, 0.7, 0.45, 0.4, 6.0, 60, 0.8, 3),
}


@dataclass(frozen=True)
class Border:
    """A border drawn round every face: ``thickness`` as a fraction of the card width, inside
    the card's outline and following its rounded corners, in ``colour`` (BGR)."""

    thickness: float
    colour: tuple[int, int, int]


# Named styles; "dark" is like gnome-cards paris's own border, a little thicker.
BORDERS: dict[str, Border] = {
    "dark": Border(0.03, (30, 30, 30)),
    "black": Border(0.02, (0, 0, 0)),
}


def get_border(border: str | Border | tuple | None) -> Border | None:
    """A border style from a name in ``BORDERS``, a ``Border``, or ``(thickness, colour)`` with
    the colour a grey level or a BGR triple, also as text ("0.03,30", "0.02,0,0,80", as
    ``cardtable footage make --border`` takes it); None (or "none") for no border."""
    if border is None or border == "none":
        return None
    if isinstance(border, str) and "," in border:
        try:
            thickness, *colour = (float(v) for v in border.split(","))
        except ValueError:
            raise ValueError(f"border {border!r}: give a style name or THICKNESS,GREY "
                             f"(e.g. 0.03,30)") from None
        if len(colour) not in (1, 3):
            raise ValueError(f"border {border!r}: the colour is one grey level or B,G,R")
        grey_or_bgr = [round(c) for c in colour]
        border = (thickness, grey_or_bgr[0] if len(colour) == 1 else grey_or_bgr)
    if isinstance(border, Border):
        b = border
    elif isinstance(border, str):
        if border not in BORDERS:
            raise ValueError(f"unknown border style {border!r}; choose {', '.join(BORDERS)} "
                             f"or THICKNESS,GREY (e.g. 0.03,30)")
        b = BORDERS[border]
    else:
        try:
            thickness, colour = border
            grey = (colour,) * 3 if isinstance(colour, int | float) else tuple(colour)
            b = Border(float(thickness), tuple(int(c) for c in grey))  # type: ignore[arg-type]
        except (TypeError, ValueError):
            raise ValueError(f"border {border!r} must be (thickness, colour)") from None
    if not 0.0 < b.thickness <= 0.15:
        raise ValueError(f"border thickness {b.thickness} must be above 0 and at most 0.15 of "
                         f"the card width")
    if len(b.colour) != 3 or not all(0 <= c <= 255 for c in b.colour):
        raise ValueError(f"border colour {b.colour} must be a grey level or BGR, each 0..255")
    return b


def _faces(deck: str, width: int, border: Border | None
           ) -> tuple[dict[str, np.ndarray], dict[str, np.ndarray]]:
    """The deck's artwork as drawn in the clip, and as it is without the border (the ground
    truth's index box is found on the latter: the border is ink all round the face)."""
    plain = card_images(deck, width)
    if border is None:
        return plain, plain
    return add_border(plain, border.thickness, border.colour), plain


def _border_truth(border: Border | None) -> dict | None:
    return None if border is None else {"thickness": border.thickness,
                                        "colour": list(border.colour)}


@dataclass
class TruthItem:
    """One physical object that passed the window, in order."""

    card: str  # card code, or FACE_DOWN / OBJECT
    visible_frame: int  # first frame in which the leading index is fully inside the window
    exit_frame: int  # first frame in which the leading index has started to leave
    turned: bool = False  # dealt 180 degrees turned: the opposite corner leads


@dataclass
class Truth:
    deck: str
    difficulty: str
    seed: int
    frames: int
    fps: float
    items: list[TruthItem] = field(default_factory=list)
    shoe: str = "classic"
    session: int = 0
    geometry: dict | None = None  # the exact ShoeGeometry of this session
    border: dict | None = None  # the Border drawn round every face, if any

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(asdict(self), indent=1, ensure_ascii=False))

    @classmethod
    def load(cls, path: Path) -> Truth:
        raw = json.loads(Path(path).read_text())
        items = [TruthItem(**i) for i in raw.pop("items")]
        return cls(items=items, **raw)


def truth_path(video: Path) -> Path:
    return Path(video).with_suffix(".truth.json")


def _object_image(rng: random.Random) -> np.ndarray:
    """A fingertip-like blob: what most often pokes into a shoe window."""
    w, h = rng.randint(90, 160), rng.randint(220, 320)
    img = np.zeros((h, w, 4), np.uint8)
    skin = (rng.randint(90, 140), rng.randint(130, 170), rng.randint(180, 225))
    cv2.ellipse(img, (w // 2, h // 2), (w // 2 - 2, h // 2 - 2), 0, 0, 360, (*skin, 255), -1)
    cv2.ellipse(img, (w // 2, h // 4), (w // 4, h // 10), 0, 0, 360,
                (skin[0] + 30, skin[1] + 30, min(255, skin[2] + 25), 255), -1)
    return img


def _index_box(faces: list[np.ndarray]) -> tuple[int, int, int, int]:
    """Box (x0, y0, x1, y1) of the bottom-right index, found from ink shared by many cards.

    Only used to write ground truth (when the index is fully in view); the reader learns its own.
    """
    h, w = faces[0].shape[:2]
    y0, x0 = int(0.72 * h), int(0.75 * w)
    ink = []
    for f in faces:
        bgr = f[y0: h - 6, x0: w - 6, :3].astype(np.int16)  # stay clear of the card outline
        ink.append((bgr.min(axis=2) < 170) | ((bgr.max(axis=2) - bgr.min(axis=2)) > 60))
    ys, xs = np.nonzero(np.mean(ink, axis=0) >= 0.3)
    return x0 + int(xs.min()), y0 + int(ys.min()), x0 + int(xs.max()), y0 + int(ys.max())


def _background(rng: np.random.Generator) -> np.ndarray:
    base = rng.normal(28, 6, (FRAME_H // 8, FRAME_W // 8, 3)).astype(np.float32)
    bg = cv2.resize(base, (FRAME_W, FRAME_H), interpolation=cv2.INTER_CUBIC)
    return np.clip(bg, 5, 60)


def _lighting(rng: np.random.Generator, d: Difficulty) -> np.ndarray:
    yy, xx = np.mgrid[0:FRAME_H, 0:FRAME_W].astype(np.float32)
    angle = rng.uniform(0, 2 * np.pi)
    ramp = (np.cos(angle) * (xx / FRAME_W - 0.5) + np.sin(angle) * (yy / FRAME_H - 0.5))
    r2 = ((xx - FRAME_W / 2) / FRAME_W) ** 2 + ((yy - FRAME_H / 2) / FRAME_H) ** 2
    gain = 1.0 - d.lighting * (0.6 * (ramp + 0.5) + 0.8 * r2)
    cast = 1.0 - d.cast * rng.uniform(0.0, 0.35, 3)
    return (gain[:, :, None] * cast[None, None, :]).astype(np.float32)


def _glare(rng: np.random.Generator, d: Difficulty) -> np.ndarray:
    yy, xx = np.mgrid[0:FRAME_H, 0:FRAME_W].astype(np.float32)
    cx, cy = rng.uniform(200, 440), rng.uniform(120, 360)
    sx, sy = rng.uniform(25, 55), rng.uniform(15, 35)
    spot = np.exp(-(((xx - cx) / sx) ** 2 + ((yy - cy) / sy) ** 2) / 2)
    return (d.glare * 255 * spot).astype(np.float32)[:, :, None]


def make_clip(
    out: Path,
    deck: str,
    cards: list[str],
    difficulty: str = "normal",
    seed: int = 0,
    face_down: int = 0,
    objects: int = 0,
    lead_in: int = 3,
    shoe: str | Shoe | None = None,
    session: int = 0,
    rotated: float = 0.0,
    border: str | Border | tuple | None = None,
) -> Truth:
    """Write a clip of ``cards`` (in that order) leaving the shoe, plus ``<out>.truth.json``.

    ``face_down`` backs and ``objects`` foreign blobs are slipped in at random places. ``shoe``
    (a name from ``SHOES`` or a ``Shoe``) sets the camera geometry, ``session`` the small
    mounting differences of one session of that shoe, ``rotated`` the share of cards turned 180
    degrees. ``border`` (a name from ``BORDERS``, a ``Border`` or ``(thickness, colour)``)
    draws a border round every face. Without them the clip is the classic shoe, frame for
    frame as it always was.
    """
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}; choose {', '.join(DIFFICULTIES)}")
    if not 0.0 <= rotated <= 1.0:
        raise ValueError(f"rotated share {rotated} must be between 0 and 1")
    return _render(out, deck, cards, difficulty, seed, face_down, objects, lead_in,
                   get_shoe(shoe or "classic"), session, rotated, get_border(border),
                   direct=shoe is None and not session and not rotated)


def write_stills(folder: Path, deck: str, cards: list[str]) -> list[Path]:
    """Clean face images named by card code, for ``deck teach --images``."""
    folder.mkdir(parents=True, exist_ok=True)
    art = card_images(deck, CARD_W)
    paths = []
    for code in cards:
        path = folder / f"{code}.png"
        img = art[code]
        white = np.full((*img.shape[:2], 3), 255, np.float32)
        a = img[:, :, 3:].astype(np.float32) / 255
        cv2.imwrite(str(path), (img[:, :, :3] * a + white * (1 - a)).astype(np.uint8))
        paths.append(path)
    return paths


# -- shoes of any geometry -------------------------------------------------------------------
@dataclass(frozen=True)
class Shoe:
    """A shoe as built: its camera geometry, and how fast cards cross its window.

    ``speed`` scales the difficulty's speeds: a camera close to the cards sees less of their
    travel, so the same hand speed leaves the index in view for fewer frames; the named shoes
    are set so the index stays in view about as long as in the classic shoe."""

    name: str
    geometry: ShoeGeometry
    speed: float = 1.0


def place(direction: str, scale: float, tilt: float = 0.0, across: float = 0.8,
          mirror: bool = False) -> ShoeGeometry:
    """A geometry with the card's index side at ``across`` (0..1) of the frame across the travel,
    the window centred along it."""
    g = ShoeGeometry(direction=direction, mirror=mirror, scale=scale, tilt=tilt)
    lin = g.linear()
    n = lin @ np.array([1.0, 0.0])
    n /= np.linalg.norm(n)
    extent = FRAME_W if abs(n[0]) > abs(n[1]) else FRAME_H
    target = np.array([FRAME_W, FRAME_H]) / 2 + n * (across - 0.5) * extent
    off = target - np.array([FRAME_W, FRAME_H]) / 2 - lin @ np.array([CANON_SIDE - CENTRE[0], 0])
    return g.model_copy(update={"offset": (round(float(off[0]), 1), round(float(off[1]), 1))})


def _shoe(name: str, geometry: ShoeGeometry) -> Shoe:
    room = Normaliser(geometry).height
    return Shoe(name, geometry, round(min(1.0, max(0.2, (room - 160) / 320)), 3))


SHOES: dict[str, Shoe] = {s.name: s for s in (
    Shoe("classic", DEFAULT_GEOMETRY),
    _shoe("narrow-down", place("down", 0.65, 2.0, 0.72)),
    _shoe("up-wide", place("up", 1.25, -1.5, 0.82)),
    _shoe("left-big", place("left", 2.2, 1.0, 0.88)),
    _shoe("right-mirror", place("right", 0.9, -2.5, 0.8, mirror=True)),
    _shoe("up-mirror-small", place("up", 0.7, 3.0, 0.7, mirror=True)),
    _shoe("down-big", place("down", 1.8, -2.0, 0.9)),
    # Shoe reader II's second held-back set, fixed before the round's tuning began.
    _shoe("left-mirror-small", place("left", 0.6, -2.0, 0.3, mirror=True)),
    _shoe("down-mirror-wide", place("down", 1.3, 1.0, 0.75, mirror=True)),
    _shoe("right-big", place("right", 1.6, -1.0, 0.85)),
    # Shoe reader III's held-back set, fixed before the round's tuning began (1 Dec 2026).
    _shoe("up-big", place("up", 2.0, 2.5, 0.86)),
    _shoe("right-small", place("right", 0.55, 1.5, 0.7)),
    _shoe("left-mirror-wide", place("left", 1.4, -0.5, 0.8, mirror=True)),
    # Shoe reader IV's held-back set, fixed before the round's tuning began (1 Dec 2026).
    _shoe("down-small", place("down", 0.5, -3.0, 0.65)),
    _shoe("up-mirror-wide", place("up", 1.5, 1.5, 0.78, mirror=True)),
    _shoe("right-mirror-huge", place("right", 2.5, -1.0, 0.9, mirror=True)),
    # Shoe reader V's held-back set, fixed before the round's tuning began (2 Dec 2026).
    _shoe("up-small-steep", place("up", 0.58, 2.8, 0.66)),
    _shoe("left-huge", place("left", 2.7, -1.8, 0.9)),
    _shoe("down-mirror-mid", place("down", 1.0, -0.8, 0.76, mirror=True)),
    # Shoe reader VI's held-back set, fixed before the round's tuning went further (2 Dec 2026).
    _shoe("right-mirror-small-steep", place("right", 0.62, -2.7, 0.72, mirror=True)),
    _shoe("down-huge", place("down", 2.05, 1.2, 0.88)),
    _shoe("left-mid-tilt", place("left", 1.1, 2.2, 0.78)),
    # Shoe reader VII's held-back set, fixed before the round's work began (2 Dec 2026).
    _shoe("up-mirror-mid-steep", place("up", 0.95, -2.9, 0.74, mirror=True)),
    _shoe("left-mirror-big", place("left", 1.9, 1.4, 0.88, mirror=True)),
    _shoe("right-wide-steep", place("right", 1.35, 2.9, 0.84)),
    _shoe("down-small-tilt", place("down", 0.54, -2.4, 0.62)),
    # Shoe reader X's held-back set, fixed on 3 Dec 2026 once the round's changes were written
    # and before any bench of them on these shoes.
    _shoe("up-mirror-large", place("up", 2.05, 1.2, 0.88, mirror=True)),
    _shoe("right-mid-tilt", place("right", 1.15, -2.2, 0.76)),
    _shoe("down-mirror-small", place("down", 0.56, 2.6, 0.3, mirror=True)),
    # Shoe reader XI's held-back set, drawn at random on 4 Dec 2026 (one direction each, one
    # scale from each third of the envelope, tilt within +-3 deg, index side 0.3..0.9 across)
    # before any bench on them.
    _shoe("down-big-level", place("down", 1.65, 0.0, 0.79)),
    _shoe("right-wide-tilted", place("right", 1.28, -2.2, 0.81)),
    _shoe("up-mid-steep", place("up", 0.78, -2.7, 0.77)),
    # ... and its second held-back set, drawn the same way once round XI's changes were made,
    # before any bench on them (4 Dec 2026).
    _shoe("right-small-steep-edge", place("right", 0.68, 2.9, 0.89)),
    _shoe("up-big-tilted", place("up", 1.67, -1.8, 0.8)),
    _shoe("down-mirror-mid-centre", place("down", 1.21, -1.2, 0.48, mirror=True)),
)}


def get_shoe(shoe: str | Shoe) -> Shoe:
    if isinstance(shoe, Shoe):
        return shoe
    if shoe not in SHOES:
        raise ValueError(f"unknown shoe {shoe!r}; choose {', '.join(SHOES)}")
    return SHOES[shoe]


def session_geometry(shoe: Shoe, session: int) -> ShoeGeometry:
    """The shoe as mounted for one session: session 0 is exact, others differ by a couple of
    percent of scale, a few pixels of offset and under a degree of tilt."""
    g = shoe.geometry
    if session == 0:
        return g
    r = random.Random(f"{shoe.name}-session-{session}")
    return g.model_copy(update={
        "scale": g.scale * (1 + r.uniform(-0.025, 0.025)),
        "tilt": g.tilt + r.uniform(-0.7, 0.7),
        "offset": (g.offset[0] + r.uniform(-4, 4), g.offset[1] + r.uniform(-4, 4)),
    })


def _render(out: Path, deck: str, cards: list[str], difficulty: str, seed: int,
            face_down: int, objects: int, lead_in: int, shoe: Shoe, session: int,
            rotated: float, border: Border | None, direct: bool) -> Truth:
    """The one renderer of ``make_clip``, for any shoe geometry: the belt is drawn in card pixels
    (canonical layout times the scale, so the artwork is rendered at the size the camera sees
    it), then turned, mirrored and moved onto the camera frame; lighting, glare, noise and
    compression happen in the camera frame. ``direct``: the classic shoe as it always was, the
    belt drawn straight on the camera frame (no warp, its window from the frame's edges), so
    its clips stay frame for frame what they were."""
    d = DIFFICULTIES[difficulty]
    geo = session_geometry(shoe, session)
    s = geo.scale
    rnd = random.Random(seed)
    nrng = np.random.default_rng(seed)
    cw = round(CARD_W * s)
    art, plain = _faces(deck, cw, border)
    turned = {k: cv2.rotate(v, cv2.ROTATE_180) for k, v in art.items()}
    faces = [v for k, v in plain.items() if k != BACK]
    boxes = {False: _index_box(faces),
             True: _index_box([cv2.rotate(v, cv2.ROTATE_180) for v in faces])}

    sequence: list[str] = list(cards)
    for kind, count in ((FACE_DOWN, face_down), (OBJECT, objects)):
        for _ in range(count):
            sequence.insert(rnd.randint(0, len(sequence)), kind)

    if direct:  # the camera frame is the belt's canvas
        to_cam = np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
        cx0, cy0, cw_canvas, ch_canvas = 0, 0, FRAME_W, FRAME_H
        canvas_to_cam = to_cam
        third: float = FRAME_H // 3
    else:
        lin = geo.linear()
        centre = np.array([FRAME_W, FRAME_H]) / 2 + np.array(geo.offset)
        to_cam = np.hstack([lin / s, (centre - lin @ CENTRE)[:, None]])  # card px -> camera
        inv = cv2.invertAffineTransform(to_cam)
        corners = np.array([[0, 0], [FRAME_W, 0], [FRAME_W, FRAME_H], [0, FRAME_H]], float)
        pre = corners @ inv[:, :2].T + inv[:, 2]
        x0, x1 = max(pre[:, 0].min(), 60 * s), min(pre[:, 0].max(), 580 * s)
        y0, y1 = pre[:, 1].min(), pre[:, 1].max()
        cx0, cy0 = int(np.floor(x0)) - 2, int(np.floor(y0)) - 2
        cw_canvas, ch_canvas = int(np.ceil(x1)) - cx0 + 2, int(np.ceil(y1)) - cy0 + 2
        canvas_to_cam = to_cam.copy()
        canvas_to_cam[:, 2] += to_cam[:, :2] @ np.array([cx0, cy0], float)
        # Along the lane's centre line: where the window starts and ends (backs and objects).
        lane = np.array([[CENTRE[0] * s, y] for y in np.arange(cy0, cy0 + ch_canvas, 2.0)])
        cam = lane @ to_cam[:, :2].T + to_cam[:, 2]
        seen = np.flatnonzero((cam[:, 0] >= 0) & (cam[:, 0] < FRAME_W) & (cam[:, 1] >= 0)
                              & (cam[:, 1] < FRAME_H))
        third = (lane[seen[0], 1] + (lane[seen[-1], 1] - lane[seen[0], 1]) / 3 if seen.size
                 else cy0)

    items: list[dict] = []
    bottom = cy0 - 2.0
    for kind in sequence:
        turn = False
        if kind == OBJECT:
            img = _object_image(rnd)
            if not direct:
                img = cv2.resize(img, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
            x = rnd.randint(round(80 * s), round((FRAME_W - 80) * s) - img.shape[1])
        else:
            turn = kind != FACE_DOWN and rotated > 0 and rnd.random() < rotated
            src = turned if turn else art
            img = src[BACK] if kind == FACE_DOWN else src[kind]
            jit = round(d.jitter_x * s)
            x = round((FRAME_W - CARD_W) / 2 * s) + rnd.randint(-jit, jit)
        items.append({"kind": kind, "img": img, "x": x, "bottom": bottom, "turn": turn,
                      "speed": rnd.uniform(*d.speed) * shoe.speed * s})
        gap = 0.0 if rnd.random() < d.back_to_back else rnd.uniform(20, 260) * s
        bottom -= img.shape[0] + gap

    background = _background(nrng)
    light = _lighting(nrng, d)
    glare = _glare(nrng, d)
    cv2.setRNGSeed(seed)
    noise = np.empty((FRAME_H, FRAME_W, 3), np.float32)
    writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"mp4v"), FPS, (FRAME_W, FRAME_H))  # type: ignore[attr-defined]
    if not writer.isOpened():
        raise RuntimeError(f"cannot write video {out}")
    truth = Truth(deck=deck, difficulty=difficulty, seed=seed, frames=0, fps=FPS,
                  shoe=shoe.name, session=session,
                  geometry=None if direct else geo.model_dump(mode="json", exclude={"preview"}),
                  border=_border_truth(border))
    visible = [-1] * len(items)
    exits = [-1] * len(items)
    offset = 0.0
    frame_no = 0
    last_top = items[-1]["bottom"] - items[-1]["img"].shape[0] if items else 0.0
    idle = lead_in
    bottom_edge = cy0 + ch_canvas

    def in_frame(pts: np.ndarray) -> bool:
        c = pts @ to_cam[:, :2].T + to_cam[:, 2]
        return bool(((c[:, 0] >= 0) & (c[:, 0] <= FRAME_W - 1) & (c[:, 1] >= 0)
                     & (c[:, 1] <= FRAME_H - 1)).all())

    try:
        while True:
            speed = 0.0 if idle > 0 else d.speed[0] * shoe.speed * s
            for it in items:
                y = it["bottom"] + offset
                if cy0 <= y < bottom_edge + it["img"].shape[0]:
                    speed = it["speed"] if idle <= 0 else 0.0
                    break
            layer: np.ndarray = np.zeros((ch_canvas, cw_canvas, 3), np.float32)
            alpha: np.ndarray = np.zeros((ch_canvas, cw_canvas), np.float32)
            for i, it in enumerate(items):
                img = it["img"]
                h, w = img.shape[:2]
                top = round(it["bottom"] + offset) - h
                x = it["x"]
                if it["kind"] not in (FACE_DOWN, OBJECT):
                    bx0, by0, bx1, by1 = boxes[it["turn"]]
                    box = np.array([[x + bx0, top + by0], [x + bx1, top + by0],
                                    [x + bx1, top + by1], [x + bx0, top + by1]], float)
                    inside = in_frame(box)
                    if visible[i] < 0 and inside:
                        visible[i] = frame_no
                    if visible[i] >= 0 and exits[i] < 0 and not inside:
                        exits[i] = frame_no
                elif visible[i] < 0 and top + h >= third:
                    visible[i] = frame_no
                    exits[i] = frame_no
                ty = top - cy0
                if ty >= ch_canvas or ty + h <= 0:
                    continue
                tx = x - cx0
                s0, s1 = max(0, -ty), min(h, ch_canvas - ty)
                c0, c1 = max(0, -tx), min(w, cw_canvas - tx)
                if c1 <= c0:
                    continue
                a = img[s0:s1, c0:c1, 3].astype(np.float32) / 255.0
                layer[ty + s0: ty + s1, tx + c0: tx + c1] = img[s0:s1, c0:c1, :3] * a[:, :, None]
                alpha[ty + s0: ty + s1, tx + c0: tx + c1] = a
            blur = max(1, round(speed * d.exposure))
            if blur > 1:
                layer = cv2.blur(layer, (1, blur))
                alpha = cv2.blur(alpha, (1, blur))
            if not direct:
                layer = cv2.warpAffine(layer, canvas_to_cam, (FRAME_W, FRAME_H),
                                       flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
                alpha = cv2.warpAffine(alpha, canvas_to_cam, (FRAME_W, FRAME_H),
                                       flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT)
            frame = layer + glare * alpha[:, :, None] + background * (1.0 - alpha[:, :, None])
            frame *= light
            cv2.randn(noise, 0.0, d.noise)  # type: ignore[call-overload]
            frame += noise
            frame8 = np.clip(frame, 0, 255).astype(np.uint8)
            ok, buf = cv2.imencode(".jpg", frame8, [cv2.IMWRITE_JPEG_QUALITY, d.jpeg])
            writer.write(typing.cast(np.ndarray, cv2.imdecode(buf, cv2.IMREAD_COLOR)) if ok else frame8)
            frame_no += 1
            if idle > 0:
                idle -= 1
            else:
                offset += speed
            if last_top + offset > bottom_edge + 2:
                for _ in range(lead_in):
                    blank = np.clip(background * light, 0, 255).astype(np.uint8)
                    writer.write(blank)
                    frame_no += 1
                break
    finally:
        writer.release()
    truth.frames = frame_no
    truth.items = [TruthItem(it["kind"], visible[i], exits[i], it["turn"])
                   for i, it in enumerate(items)]
    truth.save(truth_path(out))
    return truth
