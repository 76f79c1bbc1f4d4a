"""Overhead footage of a whole recorded session, on the session's clock.

The table footage generator (``synth.table``) plays out a made-up deal; a recorded
session (``synth.bundles.record_session``) needs the overhead camera to show exactly what its
simulated players did, when they did it: this card put down by that seat at this time, a Durak
card laid over the one it beats, an illegal card taken back, the trick swept off by its winner.
:class:`SessionCamera` is that camera. Each action is drawn with the generator's own scene, arms
and camera effects, starting at the time asked for (or as soon as the previous action is over),
and every frame gets a timestamp. Like a real motion-triggered camera it records only while
something happens, plus a short still tail after each action, so an idle table costs nothing.

It writes to a path (MPEG-4) or to the caller's sink (``record_session`` passes its H.264
encoder), and returns the frame times and the truth (what was placed, removed, taken back, and
when).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from synth.table import (
    DIFFICULTIES,
    FPS,
    TABLES,
    Difficulty,
    _Director,
    _Scene,
    _spot,
    _Writer,
    marker_corners_mm,
    project,
    seat_direction,
)

TAIL_S = 0.4  # still frames recorded after each action (the reader decides on still frames)
LEAD_IN_S = 0.3  # still frames before the first action: the reader learns the empty table


class _ClockedWriter(_Writer):
    """The generator's camera (lighting, sensor noise, JPEG), with a timestamp per frame."""

    def __init__(self, sink: Any, scene: _Scene, d: Difficulty, seed: int) -> None:
        super().__init__(sink, scene, d, seed)
        self.clock = 0.0
        self.times: list[float] = []

    def write(self, img: np.ndarray) -> None:
        super().write(img)
        self.times.append(round(self.clock, 4))
        self.clock += 1 / FPS

    def at(self, t: float) -> None:
        """The next frame is taken no earlier than ``t`` (the camera was idle till then)."""
        self.clock = max(self.clock, t)

    def time_of(self, frame: int) -> float:
        return self.times[frame] if 0 <= frame < len(self.times) else self.clock


@dataclass
class _Truth:
    """Duck-typed stand-in for the generator's TableTruth: the director appends to it."""

    placed: list[Any] = field(default_factory=list)
    removed: list[Any] = field(default_factory=list)


@dataclass
class CameraLog:
    """What the session camera recorded: frame times, and the truth on the same clock."""

    times: list[float]
    corners_px: list[list[float]]
    placed: list[dict[str, Any]] = field(default_factory=list)  # t_rest, seat, card, covers
    removed: list[dict[str, Any]] = field(default_factory=list)  # t_gone, cards, why
    empty: list[int] = field(default_factory=list)  # frames from which the table is bare


class SessionCamera:
    """Draws a session's table actions as overhead footage on the session's clock."""

    def __init__(self, sink: Any, deck: str, seats: int, *, seed: int = 0,
                 difficulty: str = "easy", table: str | None = None,
                 layout: str = "tricks") -> None:
        """``sink``: a path (MPEG-4) or anything with ``write(frame)`` and ``close()``.
        ``layout``: ``tricks`` (each seat plays in front of itself) or ``durak`` (attacks in a
        row across the middle, each defence laid over the card it beats)."""
        if seats not in (2, 4):
            raise ValueError("the table camera covers two or four seats")
        if layout not in ("tricks", "durak"):
            raise ValueError("layout must be 'tricks' or 'durak'")
        self.layout = layout
        d = DIFFICULTIES[difficulty]
        self.rng = random.Random(seed)
        self.seats, self.d = seats, d
        table = table or self.rng.choice(TABLES)
        self.scene = _Scene(deck, table, d, self.rng, np.random.default_rng(seed))
        self.w = _ClockedWriter(sink, self.scene, d, seed)
        self._truth = _Truth()
        self.director = _Director(self.scene, self.w, self._truth, seats, self.rng)  # type: ignore[arg-type]
        self.log = CameraLog(times=self.w.times,
                             corners_px=project(self.scene.h_cam, marker_corners_mm()).round(2).tolist())
        self.where: dict[str, tuple[float, float, float]] = {}  # card on the table -> x, y, angle
        self._slots: list[float] = []
        self._started = False

    # -- actions ------------------------------------------------------------------------------
    def place(self, t: float, seat: int, card: str, covers: str | None = None) -> float:
        """``seat`` puts ``card`` down, starting at ``t``; returns when it lies uncovered."""
        self._begin(t)
        if covers is not None and covers in self.where:
            x, y, a = self._over(seat, covers)
        elif self.layout == "durak":
            x, y, a = self._attack_spot(seat)
        else:
            used = [(x, y) for x, y, _ in self.where.values()]
            x, y, a = _spot(self.rng, seat, self.seats, used, self.d)
        self.director.place(seat, card, x, y, a, covers=covers)
        self.where[card] = (x, y, a)
        rest = self.w.time_of(self._truth.placed[-1].rest_frame)
        self.log.placed.append({"t": rest, "seat": seat, "card": card, "covers": covers})
        self._tail()
        return rest

    def take_back(self, t: float, seat: int, card: str) -> float:
        """``seat`` takes its own ``card`` back off the table (an illegal play retracted)."""
        return self._remove(t, seat, [card], "taken back")

    def gather(self, t: float, seat: int) -> float:
        """``seat`` sweeps every card off the table (a trick taken, a Durak bout over)."""
        return self._remove(t, seat, list(self.where), "gathered")

    def close(self) -> CameraLog:
        self._begin(self.w.clock)
        self.w.close()
        return self.log

    # -- the parts ----------------------------------------------------------------------------
    def _begin(self, t: float) -> None:
        if not self._started:
            self._started = True
            self.w.at(max(0.0, t - LEAD_IN_S))
            self.director.idle(max(1, round(LEAD_IN_S * FPS)))
            self.log.empty.append(0)
        self.w.at(t)

    def _tail(self) -> None:
        self.director.idle(max(1, round(TAIL_S * FPS)))

    def _remove(self, t: float, seat: int, cards: list[str], why: str) -> float:
        self._begin(t)
        if not cards:
            return self.w.clock
        self.director.gather(seat, keep_objects=False, only=set(cards))
        gone = self.w.time_of(self._truth.removed[-1].frame)
        for c in cards:
            self.where.pop(c, None)
        if not self.where:
            self._slots = []
        self.log.removed.append({"t": gone, "seat": seat, "cards": cards, "why": why})
        if not self.where:
            self.log.empty.append(self.w.frame)
        self._tail()
        return gone

    def _attack_spot(self, seat: int) -> tuple[float, float, float]:
        """Durak: attacks in a row across the middle, on the attacker's side; a fifth and sixth
        pair in a second row nearer the attacker, clear of the first row's covers."""
        rng = self.rng
        _, ay = seat_direction(seat, self.seats)
        first = [s for s in (-165.0, -55.0, 55.0, 165.0) if s not in self._slots]
        if first:
            slot, dist = rng.choice(first), rng.uniform(25, 45)
        else:
            slot = next((s for s in (-110.0, 110.0, 0.0) if s not in self._slots), 0.0)
            dist = rng.uniform(155, 165)
        self._slots.append(slot)
        base = 0.0 if ay > 0 else 180.0
        return slot + rng.uniform(-12, 12), ay * dist, base + rng.uniform(-20, 20)

    def _over(self, seat: int, covers: str) -> tuple[float, float, float]:
        """A defending card laid overlapping the one it beats, shifted towards the defender."""
        rng = self.rng
        x, y, a = self.where[covers]
        _, dy = seat_direction(seat, self.seats)
        return (x + rng.choice([-1, 1]) * rng.uniform(14, 22), y + dy * rng.uniform(22, 32),
                a + rng.choice([-1, 1]) * rng.uniform(12, 30))
