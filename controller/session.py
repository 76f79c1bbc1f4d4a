"""The world around the simulated table: a recorded session replayed on its clock.

A table config with a ``[session]`` (the bundled simulated table, ``controller/data/table.toml``)
is built like any other (``controller.live.build_table``); what differs is the world it sits in.
The :class:`SessionPlayer` walks the recording in time order — shoe frames, table frames, the
players' presses, the organiser's corrections — at ``speed`` times real time: it hands each frame
to the table's camera of that name (``hardware.session.ReplayCamera``) and waits until the
table's camera loop is done with it, presses each recorded button on the player's simulated
panel (or straight into the controller without panels) and waits until the controller logged
it, presses the dealer's «новая сдача» on the GPIO when a deal begins. So the table receives
what it would have received at the recorded table, in the same order, and plays the recorded
game.

After a crash the player resumes the controller's unfinished game from just before its last
logged input (``controller.table.Resume``). At the end of the recording the final score stays up
``pause_s``, then the recording plays again as a new game (unless ``once``).
"""

from __future__ import annotations

import logging
import math
import threading
import time
from typing import Any

from controller.core import Controller
from controller.footage import Bundle
from controller.table import Resume, ShoeLoop, TableLoop, play_input, timeline
from hardware.session import ReplayCamera, SessionFeed

log = logging.getLogger("cardtable.session")

CAMERA_OPEN_S = 10.0  # how long a pass waits for the table to open a camera


class SessionPlayer:
    def __init__(self, controller: Controller, bundle: Bundle, *, speed: float = 1.0,
                 pause_s: float = 20.0, once: bool = False) -> None:
        self.controller = controller
        self.bundle = bundle
        self.speed = speed
        self.pause_s = pause_s
        self.once = once
        self.feed = SessionFeed()
        self.seats = bundle.new_game().num_seats
        self.failure: str | None = None  # why the recording could not go on
        self.passes = 0  # recordings played to their end
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._table: Any = None

    # -- control -----------------------------------------------------------------------------
    def start(self, table: Any) -> None:
        """Play the recording around ``table`` (a ``controller.live.Table``) on a thread."""
        self._table = table
        self._thread = threading.Thread(target=self._run, name="recorded session", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        self.feed.close()
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(timeout=5)

    # -- playing -----------------------------------------------------------------------------
    def _run(self) -> None:
        first = True
        try:
            while not self._stop.is_set():
                self._pass(resume=first)
                if self._stop.is_set() or self.failure is not None:
                    break
                self.passes += 1
                first = False
                if self.once or self._stop.wait(self.pause_s):
                    break
        except Exception as exc:  # e.g. footage that stops decoding halfway
            log.debug("the recorded session failed", exc_info=True)
            self.failure = f"the simulated table stopped: {exc}"
        finally:
            self._table.stop_event.set()  # the table's run is over: once, stopped or failed

    def _pass(self, resume: bool) -> None:
        ctl, bundle, table = self.controller, self.bundle, self._table
        plan = Resume.plan(ctl, bundle, resume)
        self.feed.clear()
        press_dealer = table.dealer.panel.press if table.dealer is not None else None

        def on_loop(loop: ShoeLoop | TableLoop) -> None:
            if isinstance(loop, ShoeLoop):
                loop.skip = plan.shoe_skip
                loop.deal = loop.current_deal()
                loop.dealer = press_dealer
            else:
                loop.skip = plan.table_skip
                loop.replay_until = plan.start

        table.start_cameras(on_loop)
        cameras: dict[str, ReplayCamera | None] = {
            "shoe": self._camera("shoe"),
            "table": self._camera("table") if bundle.table is not None else None,
        }
        times = {"shoe": bundle.times, "table": bundle.table_times}
        press = table.panels.press if table.panels is not None and table.panels.pressable else None
        speed = self.speed
        t0 = time.monotonic() - max(plan.start, 0.0) / speed
        started: set[str] = set()
        try:
            for step in timeline(bundle, plan.feed_from, plan.table_from):
                if self._stop.is_set():
                    return
                game = ctl.game
                if game is not None and game.is_over:
                    break
                due = t0 + step.t / speed
                delay = due - time.monotonic()
                if delay > 0 and self._stop.wait(delay):
                    return
                if step.frame is not None:
                    camera = cameras.get(step.camera)
                    if camera is None:
                        continue
                    if step.camera not in started:
                        camera.start_frame = step.frame_no
                        started.add(step.camera)
                    clock = times[step.camera]
                    n = step.frame_no + 1
                    next_due = t0 + clock[n] / speed if n < len(clock) else math.inf
                    camera.push(step.t, step.frame, due=due, next_due=next_due, stop=self._stop)
                elif step.obj is not None and step.t > plan.start:
                    play_input(ctl, step.t, step.obj, press, self._stop)
        except Exception as exc:  # the recording cannot go on: its cameras are lost for good
            for camera in cameras.values():
                if camera is not None:
                    camera.fail(str(exc))
            raise
        finally:
            self.feed.end_all()
            table.join_cameras()

    def _camera(self, name: str) -> ReplayCamera | None:
        if name not in self._table.cfg.cameras:
            return None
        camera = self.feed.camera(name, timeout=CAMERA_OPEN_S, stop=self._stop)
        if camera is None and not self._stop.is_set():
            log.warning("the table did not open its %s camera: its recorded frames are dropped",
                        name)
        return camera
