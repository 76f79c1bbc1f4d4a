"""``cardtable table check``: known cards laid in the seat zones tell whether this table reads.

Like the calibration plate a Bridge card reader is set up with before play, the organiser lays one
named card in each seat's zone (seat 0's first: ``--cards AS,AH,AD,AC``), leaves them a moment
and takes them away, in front of the overhead camera. The check reads that clip against the whole
deck (no hands to narrow it) and passes only when every named card was read, in its own seat's
zone, once, and nothing else was named. It measures what only cards can show (their size on this
table, how far they stand out from the cloth) beside what the markers measured (the play area's
size, the paper's white), prints the figures and a verdict, and on a pass stores them in the
calibration: the reader takes the card's size from there instead of assuming one.

A check that fails says which property of the set-up is at fault, in words the organiser can act
on (``Finding``): cards too small or too large in the image (the camera's height), glare, too
dark, cards that hardly stand out from the cloth, the markers moved, something lying in a seat
zone, a card missing or two in one zone, another card than the one named. Nothing is stored then.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

import cv2
import numpy as np

from vision.cards import UNKNOWN, ReaderFlag
from vision.profile import DeckProfile
from vision.table.calibrate import MARKER_MM, Calibration, seat_of
from vision.table.faces import Faces
from vision.table.reader import CARD_MM, FG, PLANE_PX_MM, Flag, Placed, TableReader, _chan_max

MIN_CARD_PX = 45  # a card narrower than this in the image loses its index's detail
MAX_CARD_PX = 260  # ... wider than this, the play area hardly fits a camera's frame
AREA_READ_MM = (350.0, 1050.0)  # play areas the reader was measured on (docs/table-camera.md)
# the paper's white (the markers' white cells, brightest channel) below this is too dim: a hand and
# a dark sleeve then differ from a mid-grey cloth by less than the reader's hand threshold, and
# on the held-back grey cloth at 0.6 of the light (white 120) a hand resting on a card went
# unseen (docs/table-camera.md); every set-up that read fully had 170 or more
DIM_WHITE = 140
LOOK_EVERY = 3  # frames between looks at what lies in the seat zones


_RANK_RU = {"A": "Т", "K": "К", "Q": "Д", "J": "В", "T": "10"}
_SUIT = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}


def card_ru(code: str) -> str:
    """A card as a Russian player writes it: ``QS`` is Д♠, ``TH`` 10♥ (a joker or ?? as is)."""
    if len(code) != 2 or code[1] not in _SUIT:
        return code
    return _RANK_RU.get(code[0], code[0]) + _SUIT[code[1]]


class BadRequest(ValueError):
    """A check asked for with cards it cannot use: a stable ``id``, words in Russian and English
    (the English is the exception's text)."""

    def __init__(self, id: str, ru: str, en: str) -> None:
        super().__init__(en)
        self.id, self.ru, self.en = id, ru, en


def check_request(profile: DeckProfile, cards: list[str], seats: int | None = None) -> None:
    """Raise :class:`BadRequest` unless ``cards`` name one different card of the deck per seat
    (``seats``; None: a table of 2 or 4)."""
    if seats is None and len(cards) not in (2, 4):
        raise BadRequest("check-seats", f"назовите по карте на каждое место: 2 или 4 карты, "
                         f"а названо {len(cards)}",
                         f"name one card per seat: 2 or 4 cards, {len(cards)} named")
    if seats is not None and len(cards) != seats:
        raise BadRequest("check-seats", f"по карте на каждое место: мест {seats}, названо карт "
                         f"{len(cards)}", f"a check lays one card per seat: {seats} seats, "
                         f"{len(cards)} cards named")
    if len(set(cards)) != len(cards):
        raise BadRequest("check-same-card", "назовите для каждого места другую карту",
                         "name a different card for each seat")
    codes = {c.code for c in profile.cards}
    if missing := [c for c in cards if c not in codes]:
        raise BadRequest("check-not-in-deck",
                         f"в колоде «{profile.name}» нет {', '.join(map(card_ru, missing))}",
                         f"deck {profile.name!r} has no {', '.join(missing)}")


class Finding(StrEnum):
    """What a check found wrong with the set-up; the values are stable ids."""

    CARD_TOO_SMALL = "card-too-small"
    CARD_TOO_LARGE = "card-too-large"
    SIZE_MISMATCH = "size-mismatch"
    AREA_OUT_OF_RANGE = "area-out-of-range"
    GLARE = "glare"
    TOO_DARK = "too-dark"
    CAMERA_MOVED = "camera-moved"
    LOW_CONTRAST = "low-contrast"
    NOT_SEEN = "not-seen"
    UNSURE = "unsure"
    WRONG_CARD = "wrong-card"
    TWO_IN_ZONE = "two-in-zone"
    OUTSIDE = "outside"
    CLUTTER = "clutter"


@dataclass
class Problem:
    finding: Finding
    ru: str
    en: str
    seat: int | None = None


@dataclass
class SeatReading:
    seat: int
    expected: str
    read: list[str] = field(default_factory=list)  # what the reader named in this zone
    confidence: float = 0.0
    size_mm: tuple[float, float] | None = None  # short, long side of the card read
    seen_mm: tuple[float, float] | None = None  # the largest still thing seen in the zone


@dataclass
class CheckResult:
    ok: bool
    seats: list[SeatReading]
    problems: list[Problem]
    figures: dict
    calibration: Calibration | None  # with the measured figures; None: nothing to store

    def verdict(self) -> str:
        return "ok" if self.ok else "failed"


def _zone(reader: TableReader, cx: float, cy: float) -> int | None:
    return seat_of((cx - reader.margin) / reader.plane, (cy - reader.margin) / reader.plane,
                   reader.seats)


class _ZoneWatch:
    """The largest still thing off the empty table in each seat's zone, for telling why a card
    was not read (too small, too large, not standing out, not there at all)."""

    def __init__(self, seats: int) -> None:
        self.seen: dict[int, tuple[float, float, float]] = {}  # seat -> area, short, long (px)
        self.start_clutter: dict[int, float] = {}
        self.seats = seats

    def look(self, reader: TableReader, first: bool) -> None:
        bg = getattr(reader, "_bg", None)
        view = getattr(reader, "view", None)
        if bg is None or view is None or view.shape != bg.shape:
            return
        fg = cv2.compare(_chan_max(cv2.absdiff(view, bg)), FG, cv2.CMP_GT) // 255  # type: ignore[call-overload]
        fg = cv2.morphologyEx(fg, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        hands = reader._hands(fg)
        count, labels, stats, centres = cv2.connectedComponentsWithStats(fg & (1 - hands))
        prior = reader._prior_area()
        for i in range(1, count):
            area = float(stats[i, cv2.CC_STAT_AREA])
            if area < 0.15 * prior:
                continue
            seat = _zone(reader, *centres[i])
            if seat is None:
                continue
            pts = np.ascontiguousarray(np.argwhere(labels == i)[:, ::-1], np.float32)
            short, long = sorted(cv2.minAreaRect(pts)[1])
            if area > self.seen.get(seat, (0.0,))[0]:
                self.seen[seat] = (area, float(short), float(long))

    def clutter_at_start(self, reader: TableReader) -> dict[int, float]:
        """Seat zones with something card-sized or larger that differs from the zone's own
        cloth in the first frame (area in px)."""
        view = getattr(reader, "view", None)
        if view is None:
            return {}
        out: dict[int, float] = {}
        p, m = reader.plane, reader.margin
        yy, xx = np.mgrid[0:reader.side, 0:reader.side]
        u, v = (xx - m) / p, (yy - m) / p
        inside = (u > 0.08) & (u < 0.92) & (v > 0.08) & (v < 0.92)  # clear of the markers
        zones = np.full(u.shape, -1, np.int16)
        for seat in range(reader.seats):
            if reader.seats == 2:
                sel = (v >= 0.5) if seat == 0 else (v < 0.5)
            else:
                d = np.stack([1 - v, u, v, 1 - u])
                sel = np.argmin(d, axis=0) == seat
            zones[sel & inside] = seat
        for seat in range(reader.seats):
            sel = zones == seat
            if not sel.any():
                continue
            cloth = np.median(view[sel], axis=0)
            off = (np.abs(view.astype(np.int16) - cloth.astype(np.int16)).max(axis=2) > 2 * FG) & sel
            off_u8 = cv2.morphologyEx(off.astype(np.uint8), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
            count, labels, stats, _ = cv2.connectedComponentsWithStats(off_u8)
            # an arm in view at the start reaches in over the edge: not something lying there
            edge = set(np.unique(labels[reader._border > 0]).tolist())
            big = [float(stats[i, cv2.CC_STAT_AREA]) for i in range(1, count) if i not in edge]
            if big and max(big) >= 0.5 * reader._prior_area():
                out[seat] = max(big)
        return out


def setup_problems(cal: Calibration, card_px: float | None = None) -> list[Problem]:
    """What the markers alone tell is wrong with a table's set-up (no cards needed): the card's
    width in the image (``card_px``; else from the calibration's card size or the assumed one),
    the play area's size, the light. ``cardtable doctor`` asks this of every frame it looks at."""
    problems: list[Problem] = []
    if card_px is None:
        card_px = (cal.card_mm or CARD_MM)[0] * cal.image_px_per_mm()
    if card_px < MIN_CARD_PX:
        problems.append(Problem(
            Finding.CARD_TOO_SMALL,
            f"карты в кадре слишком малы: {card_px:.0f} px в ширину, нужно не меньше {MIN_CARD_PX}; "
            f"опустите камеру или включите большее разрешение",
            f"cards are too small in the image: {card_px:.0f} px wide, at least {MIN_CARD_PX} needed; "
            f"lower the camera or use a higher resolution"))
    elif card_px > MAX_CARD_PX:
        problems.append(Problem(
            Finding.CARD_TOO_LARGE,
            f"карты в кадре слишком велики: {card_px:.0f} px в ширину; поднимите камеру, чтобы "
            f"весь стол с полями был в кадре",
            f"cards are too large in the image: {card_px:.0f} px wide; raise the camera so the "
            f"whole play area and its margins are in view"))
    lo, hi = AREA_READ_MM
    if not lo <= cal.area_mm <= hi:
        problems.append(Problem(
            Finding.AREA_OUT_OF_RANGE,
            f"игровое поле {cal.area_mm / 10:.0f} см между метками; проверено {lo / 10:.0f}-"
            f"{hi / 10:.0f} см. Если это неверно, укажите настоящий размер меток (--marker-cm)",
            f"the play area is {cal.area_mm / 10:.0f} cm between markers; the reader is measured "
            f"on {lo / 10:.0f}-{hi / 10:.0f} cm. If that is wrong, give the markers' real size "
            f"(--marker-cm)"))
    if cal.white is not None and max(cal.white) < DIM_WHITE:
        white = round(max(cal.white))
        problems.append(Problem(
            Finding.TOO_DARK,
            f"тускло: белое на метках только {white} из 255 (нужно не меньше {DIM_WHITE}); руки "
            f"над картами видны плохо. Добавьте света или увеличьте выдержку камеры",
            f"too dim: the markers' white is only {white} of 255 (at least {DIM_WHITE} needed); "
            f"hands over the cards are hard to see. More light or a longer exposure"))
    return problems


def run_check(frames: Iterable[np.ndarray], profile: DeckProfile, cards: list[str], seats: int,
              calibration: Calibration | None = None, marker_mm: float = MARKER_MM,
              fps: float = 30.0, faces: Faces | None = None) -> CheckResult:
    """Read a check clip: ``cards[i]`` laid in seat ``i``'s zone and taken away again."""
    check_request(profile, cards, seats)
    reader = TableReader(profile, calibration, seats, faces, fps=fps, marker_mm=marker_mm)
    watch = _ZoneWatch(seats)
    placed: list[tuple[Placed, tuple[float, float]]] = []
    flags: list[str] = []
    outside: list[str] = []  # cards read beyond every seat zone
    dark = glare = 0
    frame_count = 0
    clutter: dict[int, float] = {}
    for i, frame in enumerate(frames):
        frame_count += 1
        for e in reader.feed(frame):
            if isinstance(e, Placed):
                lying = [t for t in reader.on_table
                         if t.card == e.card and t.seat == e.seat and t.frame == reader.frame_no]
                placed.append((e, lying[-1].wh if lying else (0.0, 0.0)))
            elif isinstance(e, Flag):
                flags.append(e.flag)
                if e.flag == ReaderFlag.OUTSIDE_ZONES and e.card:
                    outside.append(e.card)
                dark += e.flag == ReaderFlag.BLACK_FRAME
                glare += e.flag == ReaderFlag.GLARE
        if i == 1:
            clutter = watch.clutter_at_start(reader)
        if i % LOOK_EVERY == 0:
            watch.look(reader, i == 0)
    if frame_count == 0:
        raise ValueError("the check clip has no frames")
    cal = reader.cal
    assert cal is not None  # set up on the first frame
    px_mm = cal.image_px_per_mm()
    readings = [SeatReading(s, cards[s]) for s in range(seats)]
    for e, wh in placed:
        r = readings[e.seat] if 0 <= e.seat < seats else None
        if r is None:
            continue
        r.read.append(e.card)
        if e.card == r.expected:
            r.confidence = e.confidence
            r.size_mm = (wh[0] / PLANE_PX_MM, wh[1] / PLANE_PX_MM)
    for seat, (_, short, long) in watch.seen.items():
        readings[seat].seen_mm = (short / PLANE_PX_MM, long / PLANE_PX_MM)

    problems: list[Problem] = []
    card_w = reader.card_mm[0]
    sizes = [r.size_mm for r in readings if r.size_mm]
    # the card's width in the image: from the cards read, else from card-shaped things seen in
    # the zones (a card not read because it is not the size expected), else as assumed
    shaped = [r.seen_mm for r in readings
              if r.seen_mm and 1.25 <= r.seen_mm[1] / max(r.seen_mm[0], 1e-3) <= 1.8]
    if sizes:
        card_w = float(np.median([s[0] for s in sizes]))
    elif shaped:
        card_w = float(np.median([s[0] for s in shaped]))
    card_px = card_w * px_mm
    problems += setup_problems(cal, card_px)
    if ReaderFlag.CAMERA_MOVED in flags:
        problems.append(Problem(
            Finding.CAMERA_MOVED,
            "камера или метки сдвинулись во время проверки: закрепите их и повторите",
            "the camera or the markers moved during the check: fix them in place and check again"))
    if glare:
        problems.append(Problem(Finding.GLARE, "блики: кадр засвечен; уберите прямой свет с "
                                "поля или уменьшите выдержку",
                                "glare: the frame is blown out; move the lamp off the play area "
                                "or shorten the exposure"))
    if dark and not any(p.finding == Finding.TOO_DARK for p in problems):
        problems.append(Problem(Finding.TOO_DARK, "слишком темно: камера почти ничего не видит",
                                "too dark: the camera sees almost nothing"))
    for seat in clutter:
        problems.append(Problem(
            Finding.CLUTTER,
            f"в зоне места {seat + 1} что-то лежит с самого начала: уберите это со стола",
            f"something lies in seat {seat + 1}'s zone from the start: clear it off the table",
            seat))
    for r in readings:
        right = [c for c in r.read if c == r.expected]
        others = [c for c in r.read if c != r.expected]
        if right and len(r.read) > 1:
            problems.append(Problem(
                Finding.TWO_IN_ZONE,
                f"место {r.seat + 1}: в зоне прочитано {len(r.read)} карты "
                f"({', '.join(map(card_ru, r.read))}); "
                f"положите одну карту один раз",
                f"seat {r.seat + 1}: {len(r.read)} cards read in its zone ({', '.join(r.read)}); lay "
                f"one card, once", r.seat))
        elif any(c != UNKNOWN for c in others):
            problems.append(Problem(
                Finding.WRONG_CARD,
                f"место {r.seat + 1}: ожидалась {card_ru(r.expected)}, прочитана "
                f"{', '.join(card_ru(c) for c in others if c != UNKNOWN)}; положите названную "
                f"карту в зону этого места",
                f"seat {r.seat + 1}: {r.expected} expected, read "
                f"{', '.join(c for c in others if c != UNKNOWN)}; lay the card named in this "
                f"seat's zone", r.seat))
        elif not right and r.expected in outside:
            problems.append(Problem(
                Finding.OUTSIDE,
                f"место {r.seat + 1}: карта {card_ru(r.expected)} прочитана за пределами зон мест; "
                f"положите её внутрь поля между метками, ближе к этому месту",
                f"seat {r.seat + 1}: {r.expected} was read outside every seat zone; lay it inside "
                f"the play area, nearer this seat", r.seat))
        elif not right:
            problems.append(_why_not_read(r, reader, px_mm, UNKNOWN in others))
    ok = not problems
    bg = getattr(reader, "_bg", None)
    card_mm = ((float(np.median([s[0] for s in sizes])), float(np.median([s[1] for s in sizes])))
               if sizes else reader.card_mm)
    figures: dict = {
        "area_cm": round(cal.area_mm / 10, 1),
        "card_mm": [round(v, 1) for v in card_mm],
        "card_px": round(card_px),
        "white": [round(v) for v in cal.white] if cal.white else None,
        "cloth": ([round(float(v)) for v in np.median(bg.reshape(-1, 3), axis=0)]
                  if bg is not None else None),
        "read": sum(1 for r in readings if r.expected in r.read),
        "laid": len(readings),
        "frames": frame_count,
    }
    stored = None
    if ok and sizes:
        stored = cal.model_copy(update={
            "card_mm": (round(card_mm[0], 1), round(card_mm[1], 1)),
            "check": {"when": dt.datetime.now(dt.UTC).isoformat(timespec="seconds"),
                      "deck": profile.name, "cards": list(cards), **figures}})
    return CheckResult(ok, readings, problems, figures, stored)


def _why_not_read(r: SeatReading, reader: TableReader, px_mm: float, unsure: bool) -> Problem:
    seat = r.seat
    if unsure:
        return Problem(
            Finding.UNSURE,
            f"место {seat + 1}: карта {card_ru(r.expected)} видна, но не узнана уверенно; проверьте свет "
            f"(блики, тени) и что колода обучена (`cardtable deck teach`)",
            f"seat {seat + 1}: {r.expected} was seen but not told apart with certainty; check the "
            f"light (glare, shadows) and that the deck is taught (`cardtable deck teach`)", seat)
    if r.seen_mm is not None:
        short, long = r.seen_mm
        w, h = reader.card_mm
        if short * px_mm < MIN_CARD_PX * 0.9 and abs(short / w - 1) < 0.3:
            return Problem(
                Finding.CARD_TOO_SMALL,
                f"место {seat + 1}: карта видна шириной {short * px_mm:.0f} px, этого мало для "
                f"чтения; опустите камеру",
                f"seat {seat + 1}: the card shows {short * px_mm:.0f} px wide, too small to read; "
                f"lower the camera", seat)
        ratio = float(np.sqrt(short * long / (w * h)))
        # card-shaped, and outside the sizes the reader takes for a card (0.6-1.4 of the area)
        if 1.25 <= long / max(short, 1e-3) <= 1.8 and not 0.6 <= ratio ** 2 <= 1.4:
            how = f"в {ratio:.1f} раза больше" if ratio > 1 else f"в {1 / ratio:.1f} раза меньше"
            how_en = f"{ratio:.1f}x larger" if ratio > 1 else f"{1 / ratio:.1f}x smaller"
            return Problem(
                Finding.SIZE_MISMATCH,
                f"место {seat + 1}: карта видна {how} ожидаемой ({short / 10:.0f}×{long / 10:.0f} "
                f"см при {w / 10:.0f}×{h / 10:.0f}); размер меток указан неверно? Укажите "
                f"настоящий (--marker-cm)",
                f"seat {seat + 1}: the card shows {how_en} than expected ({short / 10:.0f}x"
                f"{long / 10:.0f} cm for {w / 10:.0f}x{h / 10:.0f}); is the markers' size wrong? "
                f"Give their real size (--marker-cm)", seat)
        if short * long > 1.5 * w * h:
            return Problem(
                Finding.TWO_IN_ZONE,
                f"место {seat + 1}: в зоне лежит что-то размером {short / 10:.0f}×{long / 10:.0f} см "
                f"— больше одной карты; положите одну карту отдельно",
                f"seat {seat + 1}: something {short / 10:.0f}x{long / 10:.0f} cm lies in the zone, "
                f"larger than one card; lay one card on its own", seat)
        return Problem(
            Finding.LOW_CONTRAST,
            f"место {seat + 1}: что-то легло в зону, но не выделилось как карта; карты должны быть "
            f"заметно светлее сукна (тёмное сукно, больше света)",
            f"seat {seat + 1}: something was laid in the zone but did not stand out as a card; cards "
            f"must be clearly lighter than the cloth (a darker cloth, more light)", seat)
    return Problem(
        Finding.NOT_SEEN,
        f"место {seat + 1}: карта {card_ru(r.expected)} не найдена в зоне этого места",
        f"seat {seat + 1}: no card was seen in this seat's zone ({r.expected} expected)", seat)
