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
from dataclasses import asdict, dataclass, field
from pathlib import Path

import cv2
import numpy as np

from vision.artwork import BACK, card_images

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


@dataclass
class TruthItem:
    """One physical object that passed the window, in order."""

    card: str  # card code, or FACE_DOWN / OBJECT
    visible_frame: int  # first frame in which the leading index is fully inside the window
    exit_frame: int  # first frame in which the leading index has started to leave


@dataclass
class Truth:
    deck: str
    difficulty: str
    seed: int
    frames: int
    fps: float
    items: list[TruthItem] = field(default_factory=list)

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
) -> Truth:
    """Write a clip of ``cards`` (in that order) leaving the shoe, plus ``<out>.truth.json``.

    ``face_down`` backs and ``objects`` foreign blobs are slipped in at random places.
    """
    if difficulty not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {difficulty!r}; choose {', '.join(DIFFICULTIES)}")
    d = DIFFICULTIES[difficulty]
    rnd = random.Random(seed)
    nrng = np.random.default_rng(seed)
    art = card_images(deck, CARD_W)
    _, iy0, _, iy1 = _index_box([v for k, v in art.items() if k != BACK])

    sequence: list[str] = list(cards)
    for kind, count in ((FACE_DOWN, face_down), (OBJECT, objects)):
        for _ in range(count):
            sequence.insert(rnd.randint(0, len(sequence)), kind)

    # Lay every item out on a belt (y grows downwards; the belt moves down through the window).
    items: list[dict] = []
    bottom = -2.0  # belt y of the first item's leading edge; belt offset 0 = just above window
    for kind in sequence:
        if kind == OBJECT:
            img = _object_image(rnd)
            x = rnd.randint(80, FRAME_W - 80 - img.shape[1])
        else:
            img = art[BACK] if kind == FACE_DOWN else art[kind]
            x = (FRAME_W - CARD_W) // 2 + rnd.randint(-d.jitter_x, d.jitter_x)
        items.append({"kind": kind, "img": img, "x": x, "bottom": bottom,
                      "speed": rnd.uniform(*d.speed)})
        gap = 0.0 if rnd.random() < d.back_to_back else rnd.uniform(20, 260)
        bottom -= img.shape[0] + gap

    background = _background(nrng)
    light = _lighting(nrng, d)
    glare = _glare(nrng, d)

    cv2.setRNGSeed(seed)
    noise = np.empty((FRAME_H, FRAME_W, 3), np.float32)
    writer = cv2.VideoWriter(str(out), cv2.VideoWriter_fourcc(*"mp4v"), FPS, (FRAME_W, FRAME_H))
    if not writer.isOpened():
        raise RuntimeError(f"cannot write video {out}")
    truth = Truth(deck=deck, difficulty=difficulty, seed=seed, frames=0, fps=FPS)
    visible = [-1] * len(items)
    exits = [-1] * len(items)
    offset = 0.0
    frame_no = 0
    last_top = items[-1]["bottom"] - items[-1]["img"].shape[0] if items else 0.0
    idle = lead_in
    try:
        while True:
            # Speed is set by the lowest item whose leading edge is in the window.
            speed = 0.0 if idle > 0 else d.speed[0]
            for it in items:
                y = it["bottom"] + offset
                if 0 <= y < FRAME_H + it["img"].shape[0]:
                    speed = it["speed"] if idle <= 0 else 0.0
                    break
            layer = np.zeros((FRAME_H, FRAME_W, 3), np.float32)
            alpha = np.zeros((FRAME_H, FRAME_W), np.float32)
            for i, it in enumerate(items):
                img = it["img"]
                h, w = img.shape[:2]
                top = round(it["bottom"] + offset) - h
                if it["kind"] not in (FACE_DOWN, OBJECT):
                    iy_top, iy_bottom = top + iy0, top + iy1
                    if visible[i] < 0 and iy_top >= 0 and iy_bottom < FRAME_H:
                        visible[i] = frame_no
                    if visible[i] >= 0 and exits[i] < 0 and iy_bottom >= FRAME_H:
                        exits[i] = frame_no
                elif visible[i] < 0 and top + h >= FRAME_H // 3:
                    visible[i] = frame_no
                    exits[i] = frame_no
                if top >= FRAME_H or top + h <= 0:
                    continue
                s0, s1 = max(0, -top), min(h, FRAME_H - top)
                x = it["x"]
                a = img[s0:s1, :, 3].astype(np.float32) / 255.0
                layer[top + s0: top + s1, x: x + w] = img[s0:s1, :, :3] * a[:, :, None]
                alpha[top + s0: top + s1, x: x + w] = a
            blur = max(1, round(speed * d.exposure))
            if blur > 1:
                layer = cv2.blur(layer, (1, blur))
                alpha = cv2.blur(alpha, (1, blur))
            frame = layer + glare * alpha[:, :, None] + background * (1.0 - alpha[:, :, None])
            frame *= light
            cv2.randn(noise, 0.0, d.noise)  # several times faster than numpy's normal()
            frame += noise
            frame8 = np.clip(frame, 0, 255).astype(np.uint8)
            ok, buf = cv2.imencode(".jpg", frame8, [cv2.IMWRITE_JPEG_QUALITY, d.jpeg])
            writer.write(cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else frame8)
            frame_no += 1
            if idle > 0:
                idle -= 1
            else:
                offset += speed
            if last_top + offset > FRAME_H + 2:
                for _ in range(lead_in):  # a few empty frames at the end
                    blank = np.clip(background * light, 0, 255).astype(np.uint8)
                    writer.write(blank)
                    frame_no += 1
                break
    finally:
        writer.release()
    truth.frames = frame_no
    truth.items = [TruthItem(it["kind"], visible[i], exits[i]) for i, it in enumerate(items)]
    truth.save(truth_path(out))
    return truth


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
