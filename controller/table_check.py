"""The table check on a running table: the organiser's «Проверка стола» on the admin page.

The same check as ``cardtable table check`` (``vision.table.check.run_check``), read from the
overhead camera while the table runs: for the check's few seconds the table camera's loop hands
its frames to the check instead of the game's table reader (a frame the check cannot keep up
with is dropped by the camera, as during a game). It runs only while no game is in
play (before the first card or after the last), never on the simulated table (its camera shows a
recording), and on a pass it stores the measured calibration where the table's config keeps it
(``TableConfig.calibration_path``) and hands it to the table reader, which starts afresh.

Refusals and results are said in Russian and English (``ru``/``en``) with a stable ``id``, like
the check's findings (``vision.table.check.Finding``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from vision.profile import DeckProfile
from vision.table.calibrate import Calibration, save_calibration
from vision.table.check import BadRequest, CheckResult, check_request, run_check
from vision.table.faces import Faces

log = logging.getLogger("cardtable.table_check")

SECONDS = (5, 120)  # a check's length, bounds
NO_FRAME_S = 5.0  # no frame from the camera for this long: the check ends, saying so


@dataclass
class Refusal(Exception):
    """Why a check cannot start now (``id`` stable; ``ru``/``en`` for the organiser)."""

    id: str
    ru: str
    en: str

    def __str__(self) -> str:
        return self.en

    def as_json(self) -> dict[str, str]:
        return {"id": self.id, "ru": self.ru, "en": self.en}


class LiveCheck:
    """One table's check: :meth:`start` asks for it, the camera loop runs it (:meth:`take`) on
    the frames that follow, :meth:`status` tells. ``busy()`` says why a check cannot run now (a
    game in play), or None; ``on_pass`` gets the stored calibration."""

    def __init__(self, profile: DeckProfile, faces: Faces | None, *, save_to: Path,
                 marker_mm: float, fps: float, calibration: Callable[[], Calibration | None],
                 busy: Callable[[], Refusal | None],
                 on_pass: Callable[[Calibration], None]) -> None:
        self.profile, self.faces = profile, faces
        self.save_to, self.marker_mm, self.fps = save_to, marker_mm, fps
        self._calibration, self._busy, self._on_pass = calibration, busy, on_pass
        self._lock = threading.Lock()
        self._status: dict[str, Any] = {"state": "idle"}
        self._request: tuple[list[str], float] | None = None
        self._running = False
        self._frames = 0

    # -- the organiser's side ------------------------------------------------------------------
    def start(self, cards: list[str], seconds: float = 20.0) -> dict[str, Any]:
        """Ask for a check with ``cards[i]`` laid in seat ``i``'s zone; Refusal if it cannot
        run now. It begins with the camera's next frame."""
        cards = [c.strip().upper() for c in cards]
        try:
            check_request(self.profile, cards)  # the same checks as run_check's
        except BadRequest as bad:
            raise Refusal(bad.id, bad.ru, bad.en) from None
        if not SECONDS[0] <= seconds <= SECONDS[1]:
            raise Refusal("check-seconds", f"проверка длится от {SECONDS[0]} до {SECONDS[1]} с",
                          f"a check lasts {SECONDS[0]} to {SECONDS[1]} s")
        if (why := self._busy()) is not None:
            raise why
        with self._lock:
            if self._running or self._request is not None:
                raise Refusal("check-running", "проверка уже идёт", "a check is already running")
            self._request, self._frames = (cards, float(seconds)), 0
            self._status = {"state": "running", "cards": cards, "seconds": seconds,
                            "started": time.monotonic()}
        return self.status()

    def status(self) -> dict[str, Any]:
        with self._lock:
            out = dict(self._status)
            if out["state"] == "running":
                out["frames"] = self._frames
                late = time.monotonic() - out["started"] - out["seconds"]
                out["left_s"] = round(max(0.0, -late), 1)
                if late > NO_FRAME_S:  # the camera stopped giving frames under the check
                    out["message"] = _no_frames(True, "")
            out.pop("started", None)
            return out

    # -- the camera's side ---------------------------------------------------------------------
    def take(self, t: float, frame: np.ndarray, rest: Iterator[tuple[float, np.ndarray]]) -> bool:
        """The camera loop's frame ``(t, frame)``, and its iterator of the frames after: when a
        check was asked for, run it here on them (the game's reader sees none of them) and
        return True; else False at once."""
        with self._lock:
            request, self._request = self._request, None
            if request is None:
                return False
            self._running = True
        cards, seconds = request

        def feed() -> Iterator[np.ndarray]:
            self._frames += 1
            yield frame
            for t_next, f in rest:
                if t_next - t >= seconds:
                    return
                self._frames += 1
                yield f

        try:
            result = run_check(feed(), self.profile, cards, len(cards), self._calibration(),
                               self.marker_mm, self.fps, self.faces)
        except ValueError as exc:
            self._finish({"state": "error", "message": _no_frames(False, str(exc))})
            return True
        except Exception as exc:  # the check must never take the table down
            log.exception("table check failed")
            self._finish({"state": "error", "message": {
                "id": "check-error", "ru": f"проверка не удалась: {exc}",
                "en": f"the check failed: {exc}"}})
            return True
        out = _result_json(result)
        if result.ok and result.calibration is not None:
            try:
                self.save_to.parent.mkdir(parents=True, exist_ok=True)
                save_calibration(result.calibration, self.save_to)
            except OSError as exc:
                out.update(state="failed", message={
                    "id": "check-not-stored",
                    "ru": f"калибровку не удалось записать в {self.save_to}: {exc}",
                    "en": f"cannot write the calibration to {self.save_to}: {exc}"})
                self._finish(out)
                return True
            out["stored"] = str(self.save_to)
            self._on_pass(result.calibration)
        self._finish(out)
        return True

    def _finish(self, out: dict[str, Any]) -> None:
        with self._lock:
            self._running = False
            self._status = {"cards": self._status.get("cards"),
                            "seconds": self._status.get("seconds"), "frames": self._frames, **out}
        log.info("table check: %s", out.get("state"))


def _no_frames(silent: bool, detail: str) -> dict[str, str]:
    if silent:
        return {"id": "check-no-frames",
                "ru": f"камера стола не даёт кадров {NO_FRAME_S:g} с: проверьте её (`cardtable "
                      "doctor`)",
                "en": f"the table camera gave no frame for {NO_FRAME_S:g} s: check it "
                      "(`cardtable doctor`)"}
    return {"id": "check-no-frames", "ru": "камера стола не дала ни одного кадра",
            "en": f"the table camera gave no frames ({detail})"}


def _result_json(result: CheckResult) -> dict[str, Any]:
    return {
        "state": "passed" if result.ok else "failed",
        "figures": result.figures,
        "seats": [{"seat": r.seat, "expected": r.expected, "read": list(r.read)}
                  for r in result.seats],
        "problems": [{"id": str(p.finding), "ru": p.ru, "en": p.en, "seat": p.seat}
                     for p in result.problems],
    }
