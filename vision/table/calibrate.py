"""Where the play area is in the overhead camera's image, and whether the camera has moved.

Four ArUco markers (DICT_4X4_50, ids 0-3) sit centred on the corners of the square play area:
seen from above with seat 0 at the bottom, 0 bottom-left, 1 top-left, 2 top-right, 3
bottom-right. Their centres give the homography from the image onto the table plane. The same
markers, looked for again while reading, tell when the camera has been knocked. Without markers
the operator can give the four corners (``--corners``) of one calibration image instead.

The markers also measure the set-up, so the reader assumes nothing the set-up can tell it: their
printed side (``marker_mm``, 44 mm on the project's mat) against their size in the image gives the
play area's size in millimetres, and their white cells give the white of paper under this light
(a warm lamp, a dim room). ``cardtable table check`` adds what only cards can show: their size.

Seats: four players sit clockwise 0 bottom, 1 left, 2 top, 3 right; two players 0 bottom, 1 top.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

import cv2
import numpy as np
from pydantic import BaseModel, Field, ValidationError, field_validator

CAL_VERSION = 1
MARKER_IDS = (0, 1, 2, 3)
MARKER_NAMES = ("bottom-left", "top-left", "top-right", "bottom-right")
PLANE = 256  # px of the play area's side in the reader's table plane
MARGIN = 64  # px of the plane kept around the play area (arms come in from there, and a card
# laid up to about 10 cm beyond the play area is still seen whole and flagged)
MARKER_MM = 44.0  # printed side of a marker (black border included) on the project's mat
AREA_MM = 500.0  # play area assumed when only corners are given and no size is said
AREA_RANGE_MM = (250.0, 1300.0)  # play areas a calibration accepts (the reader reads 400-1000)


class CalibrationError(RuntimeError):
    """The calibration cannot be made, read or used with this camera."""


class Calibration(BaseModel):
    version: int = CAL_VERSION
    image_size: tuple[int, int] = Field(description="width, height of the camera image")
    corners: list[tuple[float, float]] = Field(
        description="play-area corners in the image: bottom-left, top-left, top-right, bottom-right")
    markers: dict[int, list[tuple[float, float]]] = Field(
        default_factory=dict, description="marker id -> its four corners in the image")
    source: str = "markers"
    marker_mm: float = Field(MARKER_MM, gt=5, lt=300, description="printed side of a marker")
    corners_mm: float | None = Field(
        None, description="play area's side in mm when calibrated from corners (no markers)")
    white: tuple[float, float, float] | None = Field(
        None, description="BGR of the markers' white cells: paper under this light")
    card_mm: tuple[float, float] | None = Field(
        None, description="a card's width and height on this table, measured by `table check`")
    check: dict | None = Field(None, description="what `table check` measured, and when")

    @field_validator("version")
    @classmethod
    def _supported(cls, v: int) -> int:
        if v != CAL_VERSION:
            raise ValueError(f"calibration version {v} is not supported (this reader reads {CAL_VERSION})")
        return v

    @field_validator("corners")
    @classmethod
    def _four(cls, v: list[tuple[float, float]]) -> list[tuple[float, float]]:
        if len(v) != 4:
            raise ValueError("a calibration needs exactly four corners")
        quad = np.array(v, np.float32)
        if abs(cv2.contourArea(quad)) < 100 or not cv2.isContourConvex(quad):
            raise ValueError("the four corners do not make a convex play area")
        return v

    # -- geometry ----------------------------------------------------------------------------
    def plane_corners(self, side: float = PLANE, margin: float = MARGIN) -> np.ndarray:
        m, s = margin, side
        return np.array([[m, m + s], [m, m], [m + s, m], [m + s, m + s]], np.float32)

    def to_plane(self, side: float = PLANE, margin: float = MARGIN) -> np.ndarray:
        """Homography image -> table plane (the play area is ``side`` px, ``margin`` around it)."""
        return cv2.getPerspectiveTransform(np.array(self.corners, np.float32),
                                           self.plane_corners(side, margin))

    def check_frame(self, shape: tuple[int, ...]) -> None:
        h, w = shape[:2]
        if (w, h) != tuple(self.image_size):
            cw, ch = self.image_size
            raise CalibrationError(f"the calibration is for a {cw}x{ch} camera but the frames are "
                                   f"{w}x{h}; calibrate this camera (`cardtable table calibrate`)")

    @property
    def area_mm(self) -> float:
        """Side of the play area (marker centre to marker centre) in mm: from the markers'
        printed side against their size on the table plane, else as given with the corners."""
        if not self.markers:
            return self.corners_mm or AREA_MM
        h = self.to_plane(1.0, 0.0)
        sides = []
        for pts in self.markers.values():
            q = cv2.perspectiveTransform(np.array(pts, np.float64).reshape(-1, 1, 2), h).reshape(4, 2)
            sides += [float(np.hypot(*(q[i] - q[(i + 1) % 4]))) for i in range(4)]
        return self.marker_mm / float(np.median(sides))

    def image_px_per_mm(self) -> float:
        """How many image pixels a millimetre of the play area spans (on average)."""
        q = np.array(self.corners, np.float64)
        side = np.mean([np.hypot(*(q[i] - q[(i + 1) % 4])) for i in range(4)])
        return float(side / self.area_mm)

    def marker_centres(self) -> dict[int, np.ndarray]:
        return {i: np.mean(np.array(c, np.float32), axis=0) for i, c in self.markers.items()}


def seat_of(u: float, v: float, seats: int) -> int | None:
    """Seat whose zone holds a point of the play area (u right, v down, both 0..1), else None."""
    if not (-0.02 <= u <= 1.02 and -0.02 <= v <= 1.02):
        return None
    if seats == 2:
        return 0 if v >= 0.5 else 1
    return int(np.argmin([1 - v, u, v, 1 - u]))


def _detector() -> cv2.aruco.ArucoDetector:
    params = cv2.aruco.DetectorParameters()
    params.cornerRefinementMethod = cv2.aruco.CORNER_REFINE_SUBPIX
    return cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50), params)


_DETECTOR: cv2.aruco.ArucoDetector | None = None


def detect_markers(image: np.ndarray) -> dict[int, np.ndarray]:
    """Markers 0-3 found in an image: id -> 4x2 corners (the first seen if one is doubled)."""
    global _DETECTOR
    if _DETECTOR is None:
        _DETECTOR = _detector()
    gray = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    # The detector drops markers close to the image border; a replicated rim keeps them.
    pad = 24
    gray = cv2.copyMakeBorder(gray, pad, pad, pad, pad, cv2.BORDER_REPLICATE)
    corners, ids, _ = _DETECTOR.detectMarkers(gray)
    found: dict[int, np.ndarray] = {}
    if ids is not None:
        for c, i in zip(corners, ids.ravel(), strict=True):
            if int(i) in MARKER_IDS and int(i) not in found:
                found[int(i)] = c.reshape(4, 2) - pad
    return found


def marker_white(image: np.ndarray, markers: dict[int, np.ndarray]) -> tuple[float, float, float] | None:
    """BGR of the markers' white cells (the median over all markers): the paper's white under
    this light, read from cells the dictionary says are white."""
    if image.ndim != 3 or not markers:
        return None
    dictionary = cv2.aruco.getPredefinedDictionary(cv2.aruco.DICT_4X4_50)
    cell = 10
    samples = []
    for i, corners in markers.items():
        bits = cv2.aruco.generateImageMarker(dictionary, i, 6)  # one px per cell, border included
        dst = np.array([[0, 0], [6 * cell, 0], [6 * cell, 6 * cell], [0, 6 * cell]], np.float32)
        m = cv2.getPerspectiveTransform(np.asarray(corners, np.float32), dst)
        flat = cv2.warpPerspective(image, m, (6 * cell, 6 * cell), flags=cv2.INTER_AREA)
        for r, c in zip(*np.nonzero(bits > 127), strict=True):
            patch = flat[r * cell + 3: (r + 1) * cell - 3, c * cell + 3: (c + 1) * cell - 3]
            samples.append(patch.reshape(-1, 3).mean(axis=0))
    if not samples:
        return None
    white = np.median(np.array(samples), axis=0)
    return (float(white[0]), float(white[1]), float(white[2]))


def calibrate_image(image: np.ndarray, marker_mm: float = MARKER_MM) -> Calibration:
    if image is None or image.ndim not in (2, 3) or min(image.shape[:2]) < 32:
        raise CalibrationError("the calibration image is empty or too small")
    found = detect_markers(image)
    missing = [f"{i} ({MARKER_NAMES[i]})" for i in MARKER_IDS if i not in found]
    if missing:
        raise CalibrationError(f"marker(s) {', '.join(missing)} not found in the image; put the four "
                               f"DICT_4X4_50 markers 0-3 on the play area's corners, or give the "
                               f"corners with --corners")
    corners = [tuple(float(v) for v in found[i].mean(axis=0)) for i in MARKER_IDS]
    try:
        cal = Calibration(image_size=(image.shape[1], image.shape[0]), corners=corners,
                          markers={i: [tuple(map(float, p)) for p in found[i]] for i in MARKER_IDS},
                          marker_mm=marker_mm, white=marker_white(image, found))
    except ValidationError as exc:
        raise CalibrationError(f"the markers do not frame a play area: {exc.errors()[0]['msg']}") from exc
    lo, hi = AREA_RANGE_MM
    if not lo <= cal.area_mm <= hi:
        raise CalibrationError(
            f"with markers printed {marker_mm / 10:g} cm wide the play area would be "
            f"{cal.area_mm / 10:.0f} cm across; a table's is {lo / 10:.0f}-{hi / 10:.0f} cm. "
            f"Give the markers' real printed size (--marker-cm)")
    return cal


def calibrate_corners(image_size: tuple[int, int], corners: list[tuple[float, float]],
                      area_mm: float = AREA_MM) -> Calibration:
    """Calibration from the operator's four corners (bottom-left, top-left, top-right,
    bottom-right) of a play area ``area_mm`` across."""
    try:
        return Calibration(image_size=image_size, corners=corners, source="corners",
                           corners_mm=area_mm)
    except ValidationError as exc:
        raise CalibrationError(f"bad corners: {exc.errors()[0]['msg']}") from exc


def parse_corners(text: str) -> list[tuple[float, float]]:
    """``"x,y;x,y;x,y;x,y"`` -> four points."""
    try:
        pts = [tuple(float(v) for v in p.split(",")) for p in text.split(";") if p.strip()]
    except ValueError:
        pts = []
    if len(pts) != 4 or any(len(p) != 2 for p in pts):
        raise CalibrationError("--corners takes four points 'x,y;x,y;x,y;x,y' (bottom-left, "
                               "top-left, top-right, bottom-right)")
    return [(p[0], p[1]) for p in pts]


def save_calibration(cal: Calibration, path: Path) -> Path:
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(cal.model_dump_json(indent=1))
    os.replace(tmp, path)
    return path


def load_calibration(path: Path) -> Calibration:
    path = Path(path)
    if not path.is_file():
        raise CalibrationError(f"no such calibration file: {path}")
    try:
        return Calibration.model_validate_json(path.read_bytes())
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "file"
        raise CalibrationError(f"calibration {path} is not valid ({where}: {first['msg']})") from exc
    except (OSError, ValueError, json.JSONDecodeError) as exc:
        raise CalibrationError(f"calibration {path} is unreadable: {exc}") from exc


def annotate(image: np.ndarray, cal: Calibration, seats: int = 4) -> np.ndarray:
    """The calibration drawn over its image: markers, play area, seat zones and numbers."""
    out = image.copy() if image.ndim == 3 else cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    for i, pts in cal.markers.items():
        p = np.array(pts, np.int32)
        cv2.polylines(out, [p], True, (0, 255, 255), 2, cv2.LINE_AA)
        c = p.mean(axis=0).astype(int)
        cv2.putText(out, f"m{i}", (int(c[0]) + 20, int(c[1]) - 20), cv2.FONT_HERSHEY_SIMPLEX, 0.7,
                    (0, 255, 255), 2, cv2.LINE_AA)
    quad = np.array(cal.corners, np.float32)
    cv2.polylines(out, [quad.astype(np.int32)], True, (0, 0, 255), 2, cv2.LINE_AA)
    back = np.linalg.inv(cal.to_plane(1.0, 0.0))

    def img(u: float, v: float) -> tuple[int, int]:
        p = cv2.perspectiveTransform(np.array([[[u, v]]], np.float64), back)[0, 0]
        return int(p[0]), int(p[1])

    if seats == 2:
        cv2.line(out, img(0, 0.5), img(1, 0.5), (255, 128, 0), 2, cv2.LINE_AA)
        labels = {0: (0.5, 0.8), 1: (0.5, 0.2)}
    else:
        cv2.line(out, img(0, 0), img(1, 1), (255, 128, 0), 2, cv2.LINE_AA)
        cv2.line(out, img(1, 0), img(0, 1), (255, 128, 0), 2, cv2.LINE_AA)
        labels = {0: (0.5, 0.85), 1: (0.15, 0.5), 2: (0.5, 0.15), 3: (0.85, 0.5)}
    for s, (u, v) in labels.items():
        x, y = img(u, v)
        cv2.putText(out, f"seat {s}", (x - 45, y + 10), cv2.FONT_HERSHEY_SIMPLEX, 0.9,
                    (255, 255, 255), 4, cv2.LINE_AA)
        cv2.putText(out, f"seat {s}", (x - 45, y + 10), cv2.FONT_HERSHEY_SIMPLEX, 0.9,
                    (255, 128, 0), 2, cv2.LINE_AA)
    return out


class MarkerWatch:
    """Looks for the markers near where the calibration saw them, a few times a second.

    A marker under a hand is simply not seen for a while; only a marker seen somewhere else, or
    markers missing for longer than ``patience`` looks, means the camera moved.
    """

    def __init__(self, cal: Calibration, tolerance: float = 6.0, patience: int = 6) -> None:
        self.cal = cal
        self.centres = cal.marker_centres()
        self.tolerance = tolerance
        self.patience = patience
        self.missing = dict.fromkeys(self.centres, 0)
        self.displaced = dict.fromkeys(self.centres, 0)
        size = [np.ptp(np.array(c), axis=0).max() for c in cal.markers.values()] or [40.0]
        self.reach = int(max(size) * 1.6) + 12

    @property
    def suspect(self) -> bool:
        """A marker was last seen away from its place: the camera may just have been knocked."""
        return any(n > 0 for n in self.displaced.values())

    @property
    def usable(self) -> bool:
        return bool(self.centres)

    def look(self, frame: np.ndarray, count_missing: bool = True) -> bool:
        """True while the camera is where it was calibrated. ``count_missing=False``: an extra
        look (the picture jumped) that only checks where the markers are; a marker not seen then
        does not count towards ``patience``."""
        h, w = frame.shape[:2]
        for i, c in self.centres.items():
            x0, y0 = max(0, int(c[0]) - self.reach), max(0, int(c[1]) - self.reach)
            x1, y1 = min(w, int(c[0]) + self.reach), min(h, int(c[1]) + self.reach)
            found = detect_markers(frame[y0:y1, x0:x1]) if x1 > x0 and y1 > y0 else {}
            if i in found:
                centre = found[i].mean(axis=0) + np.array([x0, y0], np.float32)
                self.missing[i] = 0
                moved = float(np.hypot(*(centre - c))) > self.tolerance
                self.displaced[i] = self.displaced[i] + 1 if moved else 0
            elif count_missing:
                self.missing[i] += 1
                self.displaced[i] = 0
        moved = any(n >= 2 for n in self.displaced.values())
        lost = sum(n > self.patience for n in self.missing.values()) >= 2
        return not (moved or lost)
