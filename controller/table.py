"""The simulated table: plays a recorded session into a controller as the real devices would.

Shoe frames go through the real :class:`vision.reader.ShoeReader` and the overhead camera's
through the real :class:`vision.table.reader.TableReader` (which seat put down which card, cards
gathered); panel buttons, when ``panels=True``, are pressed on simulated panel firmware at the far
end of real ptys and come back through :class:`firmware_bridge.bridge.PanelBridge` (see
:class:`PanelLink`); the organiser's corrections come from the recording (and, in a session
recorded without an overhead camera, the cards played too). The same
driver replays a session as fast as possible (``cardtable replay``) or in real time
(``cardtable run``), and resumes a session after a crash from the last input the log holds.
"""

from __future__ import annotations

import heapq
import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import numpy as np

from controller.archive import FootageArchive
from controller.buttons import PANEL_BUTTONS
from controller.core import Controller
from controller.footage import Bundle, timed_frames
from controller.inputs import Button, CameraNote, ShoeCard, parse_input
from controller.inputs import Placed as PlacedInput
from controller.inputs import Removed as RemovedInput
from controller.public import PublicState
from engine.view import current_trick
from vision.cards import UNKNOWN, ReaderFlag, is_card_code
from vision.reader import CardEvent, ShoeReader
from vision.table.reader import Flag, Placed, TableEvent, TableReader

log = logging.getLogger("cardtable.table")

PRESS_TIMEOUT_S = 2.0  # a press the bridge lost is given up on after this long
REFEED_S = 3.0  # on resume, frames this far before the last logged input are read again


# A deck profile that has not passed its self-check (``vision.verify``) is trusted only this far:
# a card named below it waits for the organiser's confirmation, the reader's pick first.
UNVERIFIED_BAR = 0.99


def shoe_input(ev: CardEvent, t: float, verified: bool = True) -> ShoeCard:
    candidates = [c for c, _s in ev.candidates][:8]
    card, flag = ev.card, ev.flag
    if not verified and card != UNKNOWN and ev.confidence < UNVERIFIED_BAR:
        candidates = [card, *(c for c in candidates if c != card)][:8]
        card, flag = UNKNOWN, ReaderFlag.UNVERIFIED_PROFILE
    return ShoeCard(card=card, confidence=ev.confidence, candidates=candidates,
                    seen_twice=ev.seen_twice, flag=flag, frame=ev.frame, t=round(t, 4))


@dataclass
class Step:
    t: float
    frame: np.ndarray | None = None
    frame_no: int = -1
    obj: dict[str, Any] | None = None
    camera: str = "shoe"


def timeline(bundle: Bundle, start: float = 0.0, table_from: int | None = None) -> Iterator[Step]:
    """Both cameras' frames and the inputs of a session merged in time order (frames first at
    equal times, the shoe's before the table's). Inputs and shoe frames start at ``start``, table
    frames at frame ``table_from`` (default: the first at or after ``start``)."""

    def shoe() -> Iterator[tuple[float, int, int, Step]]:
        for n, (t, frame) in enumerate(timed_frames(bundle.shoe, bundle.times)):
            if t >= start:
                yield t, 0, n, Step(t, frame=frame, frame_no=n)

    def table() -> Iterator[tuple[float, int, int, Step]]:
        if bundle.table is None:
            return
        for n, (t, frame) in enumerate(timed_frames(bundle.table, bundle.table_times)):
            if (n >= table_from) if table_from is not None else (t >= start):
                yield t, 1, n, Step(t, frame=frame, frame_no=n, camera="table")

    def inputs() -> Iterator[tuple[float, int, int, Step]]:
        for k, (t, o) in enumerate(bundle.inputs):
            if t >= start:
                yield t, 2, k, Step(t, obj=o)

    for *_key, step in heapq.merge(shoe(), table(), inputs(), key=lambda item: item[:3]):
        yield step


class ShoeLoop:
    """The shoe camera's frames → the shoe reader → the controller, for a live camera and the
    simulated table alike: tells the reader of each new deal, keeps the frames in the dispute
    archive, and submits each card with the camera's own frame number and time."""

    def __init__(self, controller: Controller, reader: ShoeReader, *,
                 archive: FootageArchive | None = None,
                 dealer: Callable[[str], None] | None = None,
                 on_frame: Callable[[], Any] | None = None) -> None:
        self.controller = controller
        self.reader = reader
        self.archive = archive
        self.dealer = dealer  # presses «новая сдача» as a dealer would (the simulated table)
        self.on_frame = on_frame
        self.skip: Callable[[CardEvent, float], bool] = lambda _ev, _t: False
        self.latencies: list[float] = []  # card decided -> controller committed, seconds
        self._deal_at: tuple[int, int | None] = (-1, None)
        self.deal = self.current_deal()
        # The organiser sees whether the deck's readings are trusted (admin page, devices).
        profile = reader.profile
        check = profile.verification
        controller.set_device("deck", {
            "state": "verified" if profile.verified else "unverified", "name": profile.name,
            "detail": "" if profile.verified else
            (check.why if check is not None else "never checked") + "; every card read below "
            f"{UNVERIFIED_BAR} is confirmed on this page"})

    def current_deal(self) -> int | None:
        """The deal's number now (Durak: its game's); looked up again only when the log moved
        on."""
        seq = self.controller.seq
        if self._deal_at[0] != seq:
            g = self.controller.game
            self._deal_at = (seq, None if g is None else g.view_deal(g.describe()))
        return self._deal_at[1]

    def frame(self, t: float, frame_no: int, frame: np.ndarray) -> None:
        deal = self.current_deal()
        if deal != self.deal:
            self.deal = deal
            self.reader.new_deal()
            if self.dealer is not None:
                self.dealer("new_deal")
        if self.archive is not None and self.controller.game_id is not None:
            try:
                self.archive.add(self.controller.game_id, deal or 0, frame_no, t, frame)
            except Exception as exc:  # the archive is for disputes: it never stops the game
                log.error("footage archive: %s", exc)
        if self.on_frame is not None:  # the frame has arrived
            self.on_frame()
        for ev in self.reader.feed(frame):
            # the camera's own frame number, whatever the reader counted since it started
            ev.frame = frame_no - (self.reader.frame_no - ev.frame)
            self.card(ev, t)

    def card(self, ev: CardEvent, t: float) -> None:
        if self.skip(ev, t):
            return
        decided = time.monotonic()
        self.controller.submit(shoe_input(ev, t, self.reader.profile.verified))
        self.latencies.append(time.monotonic() - decided)

    def finish(self, t: float) -> None:
        for ev in self.reader.finish():
            self.card(ev, t)
        if self.archive is not None:
            try:
                self.archive.close()
            except Exception as exc:  # the archive is for disputes: it never stops the game
                log.error("footage archive: %s", exc)


SILENT_AFTER = 30.0  # s without a card read, while the game waits for one and arms are busy
BUSY_FRAMES = 15  # frames with an arm over the table in that time that make the silence odd
TABLE_KINDS = frozenset({"play", "beat", "transfer"})  # the game's events that lay a card down


class TableLoop:
    """The overhead camera's frames → the table reader → the controller, for a live camera and
    the simulated table alike. Before each frame the reader is told the cards still in every
    hand (its candidates, so it picks among them) whenever the game has moved on, and it asks the
    game whether cards may leave the table now (a card still in the trick may not). Placed and
    removed cards are submitted with the camera's own frame number and time; the reader's flags
    (camera moved, a card outside every seat zone, two cards at once) go to the display as the
    camera's state."""

    def __init__(self, controller: Controller, reader: TableReader,
                 name: str = "camera table", silent_after: float = SILENT_AFTER) -> None:
        self.controller = controller
        self.reader = reader
        self.name = name
        # Never silent: the clock time and reader state when a card was last read (or the game
        # last moved on); past ``silent_after`` with arms busy and a card awaited, one alert.
        self.silent_after = silent_after
        self._heard: tuple[float, int, int] | None = None  # t, reader frame, busy frames
        self._heard_key: tuple[int, int] = (0, 0)
        self._told = False
        self._read_now = False  # this loop submitted a card or a removal since the last frame
        self.skip: Callable[[TableEvent, float], bool] = lambda _ev, _t: False
        # After a restart the frames up to this clock time are read again. The hands are those
        # of after the crash, where a card put down before it is in no hand: read against them
        # it would be taken for another card, and the card later put on it misread. So those
        # frames are read against the whole deck.
        self.replay_until = -1.0
        self._seq = -1
        reader.set_trick_hook(self._may_gather)
        controller.set_device(name, {"kind": "camera", "state": "connected", "detail": "overhead"})

    def _may_gather(self, cards: list[str]) -> bool:
        game = self.controller.game
        if game is None:
            return True
        in_play = {c for tc in current_trick(game) for c in (tc.card, tc.covered_by) if c}
        return not in_play.intersection(cards)

    def _candidates(self) -> None:
        ctl = self.controller
        if ctl.held:
            # the log cannot be written and the inputs wait: the game is behind the table (the
            # shoe may have dealt the next deal), so its hands are no guide. Read against the
            # whole deck, as after a restart, until the held inputs are applied.
            self.reader.set_candidates(None)
            self._seq = -1
            return
        if ctl.seq == self._seq:
            return
        self._seq = ctl.seq
        game = ctl.game
        if game is None or game.is_over:
            self.reader.set_candidates(None)
            return
        if game.expects_shoe:
            # mid-deal the hands are partial: a card put down now (refused, but logged) may be
            # one the shoe has still to deal, so it is read against the whole deck
            self.reader.set_candidates(None)
            return
        hands = {s: ctl.hand(s) for s in range(game.num_seats)}
        # the hands unknown: read against the whole deck
        self.reader.set_candidates(hands if any(hands.values()) else None)

    def frame(self, t: float, frame_no: int, frame: np.ndarray) -> None:
        if t <= self.replay_until:
            self.reader.set_candidates(None)
            self._seq = -1  # the hands again once the replay is over
        else:
            self._candidates()
        for ev in self.reader.feed(frame):
            ev.frame = frame_no - (self.reader.frame_no - ev.frame)
            self.event(ev, t)
        self._watch_silence(t, frame_no)

    def _progress(self) -> tuple[int, int]:
        """What restarts the silence clock: a new game, or the game's own log growing (a card,
        a bid, a press that changed it); shoe notes and refused inputs do not."""
        game = self.controller.game
        return (id(game), len(game.raw_log) if game is not None else 0)

    def _watch_silence(self, t: float, frame_no: int) -> None:
        ctl, reader = self.controller, self.reader
        progress = self._progress()
        if (self._heard is None or progress != self._heard_key or t <= self.replay_until
                or self._read_now):
            # the clock starts again (a replay after a restart counts as heard: its cards
            # were logged before the crash)
            if self._told:
                ctl.set_device(self.name, {"kind": "camera", "state": "connected",
                                           "detail": "reading again"})
            self._heard = (t, reader.frame_no, reader.busy_frames)
            self._heard_key = progress
            self._told = self._read_now = False
            return
        since, since_frame, busy = self._heard
        if self._told or t - since < self.silent_after:
            return
        if reader.busy_frames - busy < BUSY_FRAMES:
            return  # nobody reached over the table: people are thinking, not playing
        game = ctl.game
        if game is None or game.is_over or game.expects_shoe or ctl.state.pending is not None:
            return  # nothing awaited on the table, or the organiser is settling a card
        if not any(e.kind in TABLE_KINDS for e in game.legal_actions()):
            return  # bidding, declaring: no card is awaited on the table
        self._told = True
        why = reader.silence(since_frame)
        ctl.set_device(self.name, {"kind": "camera", "state": "warning", "detail": why.text})
        ctl.submit(CameraNote(camera="table", flag=why.text, note=why.kind.value,
                              params=why.params, frame=max(frame_no, 0), t=round(t, 4)))

    def event(self, ev: TableEvent, t: float) -> None:
        if self.skip(ev, t):
            return
        if isinstance(ev, Flag):
            state = "connected" if ev.flag == ReaderFlag.CAMERA_BACK else "warning"
            self.controller.set_device(self.name, {"kind": "camera", "state": state,
                                                   "detail": str(ev.flag)})
            self.controller.submit(table_input(ev, t))
            return
        self._read_now = True
        self.controller.submit(table_input(ev, t))
        self._seq = -1  # the hands changed: new candidates before the next frame


def table_input(ev: TableEvent, t: float) -> CameraNote | PlacedInput | RemovedInput:
    """The controller's input for what the table reader saw at ``t`` (seconds): a card put
    down, cards taken away, or a camera note (a flag changes nothing in the game)."""
    frame, t = max(ev.frame, 0), round(t, 4)
    if isinstance(ev, Flag):
        card = ev.card if ev.card and (ev.card == UNKNOWN or is_card_code(ev.card)) else None
        return CameraNote(camera="table", flag=str(ev.flag)[:80], card=card, frame=frame, t=t)
    if isinstance(ev, Placed):
        return PlacedInput(frame=frame, t=t, seat=ev.seat, card=ev.card, covers=ev.covers,
                           candidates=[c for c, _ in ev.candidates][:8])
    return RemovedInput(frame=frame, t=t,
                        cards=[c if is_card_code(c) else UNKNOWN for c in ev.cards][:40])


class SimulatedTable:
    """Drives ``controller`` from ``bundle``. ``speed`` > 0 paces it (1 = real time); 0 = flat out."""

    def __init__(self, controller: Controller, bundle: Bundle, *, speed: float = 1.0,
                 press: Callable[[int, str], None] | None = None,
                 stop: threading.Event | None = None,
                 on_frame: Callable[[], Any] | None = None,
                 archive: FootageArchive | None = None,
                 dealer: Callable[[str], None] | None = None,
                 progress: Callable[[], Any] | None = None) -> None:
        """``on_frame`` is called as each shoe frame arrives; ``progress`` after every frame of
        either camera."""
        self.controller = controller
        self.bundle = bundle
        self.progress = progress
        self.speed = speed
        self.press = press  # panel presses go here when set (real ptys), else straight in
        self.stop = stop or threading.Event()
        self.shoe = ShoeLoop(controller, ShoeReader(bundle.profile()), archive=archive,
                             dealer=dealer, on_frame=on_frame)
        self.table: TableLoop | None = None
        if bundle.table is not None:
            reader = TableReader(bundle.profile(), None, int(bundle.table_meta["seats"]),
                                 faces=bundle.faces())
            self.table = TableLoop(controller, reader)

    @property
    def latencies(self) -> list[float]:
        return self.shoe.latencies

    def resume_point(self) -> float | None:
        return resume_point(self.controller, self.bundle)

    # -- playing ---------------------------------------------------------------------------
    def play(self, resume: bool = True) -> None:
        """Play the session to its end (or until ``stop``)."""
        plan = Resume.plan(self.controller, self.bundle, resume)
        start = plan.start
        self.shoe.skip = plan.shoe_skip
        self.shoe.deal = self.shoe.current_deal()
        if self.table is not None:
            self.table.skip = plan.table_skip
            self.table.replay_until = start
        t0 = time.monotonic() - (max(start, 0.0) / self.speed if self.speed else 0.0)
        for step in timeline(self.bundle, plan.feed_from, plan.table_from):
            if self.stop.is_set():
                return
            game = self.controller.game
            if game is not None and game.is_over:
                break
            if self.speed:
                delay = t0 + step.t / self.speed - time.monotonic()
                if delay > 0 and self.stop.wait(delay):
                    return
            if step.frame is not None and step.camera == "table":
                assert self.table is not None
                self.table.frame(step.t, step.frame_no, step.frame)
            elif step.frame is not None:
                self.shoe.frame(step.t, step.frame_no, step.frame)
            if step.frame is not None and self.progress is not None:
                self.progress()
            elif step.obj is not None and step.t > start:
                play_input(self.controller, step.t, step.obj, self.press, self.stop)
        self.shoe.finish(self.bundle.duration)


# ------------------------------------------------------------------ a recorded session's world
def resume_point(ctl: Controller, bundle: Bundle) -> float | None:
    """Clock time of the last logged input of the controller's game, if that game is this
    session's and is unfinished; None when a new game must start."""
    if ctl.game is None or ctl.game_status != "active" or ctl.game.name != bundle.game:
        return None
    logged = [str(e) for e in ctl.game.raw_log]
    if logged != bundle.events[: len(logged)]:
        return None
    last = 0.0
    for e in ctl.log.entries(ctl.game_id, kinds=("input",)):
        if e.body.get("t") is not None:
            last = max(last, float(e.body["t"]))
    return last


@dataclass
class Resume:
    """Where a recorded session is played from against the controller's log: from the start
    (a new game), or, after a crash, from just before the last input the log holds — with the
    cards read again there skipped (they were logged before the crash)."""

    controller: Controller
    bundle: Bundle
    start: float  # clock time of the last logged input; -1: a new game from the start
    feed_from: float  # inputs and shoe frames from this clock time
    table_from: int | None  # table frames from this frame (a bare table)

    @classmethod
    def plan(cls, controller: Controller, bundle: Bundle, resume: bool) -> Resume:
        """The plan; starts the session's new game when it cannot resume."""
        start = resume_point(controller, bundle) if resume else None
        if start is None:
            controller.new_game(bundle.game, bundle.options, bundle.names)
            start = -1.0
        else:
            log.info("resuming game %s at t=%.2f s", controller.game_id, start)
        feed_from = max(0.0, start - REFEED_S) if start >= 0 else 0.0
        table_from = None
        if bundle.table is not None:
            table_from = _bare_table_before(bundle, feed_from) if start >= 0 else 0
        return cls(controller, bundle, start, feed_from, table_from)

    def shoe_skip(self, ev: CardEvent, t: float) -> bool:
        if t <= self.start:
            return True  # logged before the crash
        # read again after a restart, a little later than the first time
        return self.start >= 0 and t <= self.start + REFEED_S and self._dealt_already(ev.card)

    def table_skip(self, ev: TableEvent, t: float) -> bool:
        if t <= self.start:
            return True  # logged before the crash (or read again from a bare table)
        if (self.start >= 0 and t <= self.start + REFEED_S and isinstance(ev, Placed)
                and ev.card != "??"):
            return ev.card not in self.controller.hand(ev.seat)  # played already
        return False

    def _dealt_already(self, code: str) -> bool:
        g = self.controller.game
        if g is None or code == "??":
            return False
        return code not in {c.code for c in g.unseen_cards()}


def _bare_table_before(bundle: Bundle, t: float) -> int:
    """The last frame at or before ``t`` from which the table was bare: the table reader,
    started again after a crash, learns the empty table there and reads on from it."""
    times = bundle.table_times
    bare = [int(f) for f in bundle.table_meta.get("empty_frames", [0])
            if 0 <= int(f) < len(times) and times[int(f)] <= t]
    return max(bare, default=0)


def play_input(controller: Controller, t: float, obj: dict[str, Any],
               press: Callable[[int, str], None] | None, stop: threading.Event) -> None:
    """One recorded input: a player's button pressed on their panel (``press``: simulated
    panels on ptys), else straight into the controller, as are the organiser's corrections."""
    if press is not None and obj.get("kind", "button") == "button" and "button" in obj:
        # A person presses, then looks whether the table took it: wait for the controller to
        # log the press (every input is logged, taken or refused) before the next one.
        seq = controller.seq
        press(int(obj["seat"]), str(obj["button"]))
        deadline = time.monotonic() + PRESS_TIMEOUT_S
        while controller.seq == seq and time.monotonic() < deadline:
            if stop.wait(0.002):
                return
        return
    data = {**obj, "t": t}
    if data.get("kind", "button") == "button":
        data.setdefault("kind", "button")
        data.setdefault("source", "sim")
    controller.submit(parse_input(data))


class PanelLink:
    """Seat panels ↔ controller: presses become ``Button`` inputs, the state drives the LEDs.

    The bridge's seats are the engine's (from 0; the wire's offset stays inside
    ``firmware_bridge.protocol``). A button name outside ``controller.buttons.PANEL_BUTTONS`` (a
    panel flashed with another layout) is refused with one warning per panel and name and shown
    on the display as that panel's error; it never reaches the controller as a guess.
    """

    def __init__(self, controller: Controller, bridge: Any) -> None:
        self.controller = controller
        self.bridge = bridge
        self._stop = threading.Event()
        self._leds: dict[tuple[int, str], tuple[str, tuple[int, int, int]]] = {}
        self._unknown: set[tuple[str, str]] = set()  # (panel id, button name) already reported
        self._thread = threading.Thread(target=self._pump, name="panel inputs", daemon=True)
        self._unsubscribe = controller.subscribe(self._on_state)

    def start(self) -> PanelLink:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._unsubscribe()
        self._thread.join(timeout=2)

    def _pump(self) -> None:
        from firmware_bridge.bridge import ButtonEvent

        while not self._stop.is_set():
            ev = self.bridge.next_event(timeout=0.1)
            if ev is None:
                continue
            if isinstance(ev, ButtonEvent):
                if ev.action != "press" or ev.seat is None:
                    continue
                if ev.button not in PANEL_BUTTONS:
                    self._unknown_button(ev.panel_id, ev.seat, ev.button)
                    continue
                try:
                    self.controller.submit(Button(seat=ev.seat, button=ev.button, source="panel"))
                except Exception:
                    log.exception("panel input failed")
            else:
                self.controller.set_device(f"panel {ev.panel_id}", {
                    "kind": "panel", "state": ev.kind, "seat": ev.seat, "detail": ev.detail})

    def _unknown_button(self, panel_id: str, seat: int, button: str) -> None:
        if (panel_id, button) in self._unknown:
            return
        self._unknown.add((panel_id, button))
        detail = (f"unknown button {button!r} ignored; a panel's buttons are "
                  f"{', '.join(PANEL_BUTTONS)} (docs/buttons.md)")
        log.warning("panel %s at seat %d: %s", panel_id, seat, detail)
        self.controller.set_device(f"panel {panel_id}", {
            "kind": "panel", "state": "error", "seat": seat, "detail": detail})

    def _on_state(self, state: PublicState) -> None:
        view = state.view
        if view is None:
            return
        trump_colour = {"C": (0, 255, 0), "S": (0, 0, 255), "D": (255, 128, 0), "H": (255, 0, 0)}
        last = view.last_verdict
        offender = _seat_of(last.event) if last is not None and not last.legal else None
        waiting = state.pending is not None
        trump = view.trump or ""
        for seat in range(view.num_seats):
            wanted = {
                "turn": ("on" if view.to_act == seat else "off", (255, 255, 255)),
                "trump": ("on" if trump in trump_colour else "off",
                          trump_colour.get(trump, (255, 255, 255))),
                "illegal": ("blink" if offender == seat else "off", (255, 0, 0)),
                "error": ("pulse" if waiting else "on" if state.log_error else "off",
                          (255, 160, 0)),
            }
            for led, (mode, colour) in wanted.items():
                if self._leds.get((seat, led)) == (mode, colour):
                    continue
                try:
                    self.bridge.set_led(seat, led, mode, colour)
                    self._leds[(seat, led)] = (mode, colour)
                except Exception:  # a panel not connected right now: try at the next change
                    pass


class DealerLink:
    """The dealer's GPIO buttons ↔ controller (a ``hardware.gpio.DealerPanel``): «новая сдача» and
    «отмена» become ``Button`` inputs; the status LEDs show that the table runs and when it needs
    attention (a card to confirm blinks, a log that cannot be written is steady)."""

    def __init__(self, controller: Controller, factory: Any, gpio: Any = None) -> None:
        """``gpio``: the table config's ``[gpio]`` (pins, debounce, hold); default pins without."""
        from hardware.gpio import DealerPanel, dealer_panel

        self.controller = controller
        self.panel = (DealerPanel(factory, self._pressed) if gpio is None
                      else dealer_panel(gpio, self._pressed, factory=factory))
        self._shown: tuple[bool, str] | None = None
        self._unsubscribe = controller.subscribe(self._on_state)
        self._on_state(controller.public())

    def _pressed(self, name: str) -> None:
        try:
            self.controller.submit(Button.model_validate({"button": name, "source": "gpio"}))
        except Exception:
            log.exception("dealer button %s failed", name)

    def _on_state(self, state: PublicState) -> None:
        attention = "on" if state.log_error else "blink" if state.pending else "off"
        shown = (state.game_id is not None, attention)
        if shown != self._shown:
            self._shown = shown
            self.panel.show(*shown)

    def close(self) -> None:
        self._unsubscribe()
        self.panel.close()


def _seat_of(event_text: str) -> int | None:
    head = event_text.split(" ", 1)[0]
    return int(head) if head.isdigit() else None
