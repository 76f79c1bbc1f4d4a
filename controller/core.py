"""The table controller: one place where every input becomes engine actions, logged first.

``Controller.submit(input)`` is the only way in. Under one lock it

1. works out what the input means now (a shoe card is ``shoe XX``; a card placed is that seat's
   play, judged by ``record``; a button is the seat's matching legal action; nonsense is an
   alert with a rule id and changes nothing);
2. writes the input, the engine events and alerts it produced, and the controller's own state
   (a card waiting to be confirmed, cards held meanwhile, a panel's bid cursor) to the durable log
   in one transaction — if that fails, the engine events are popped again and the table says the
   log is not writable;
3. and only then tells its listeners (displays, LEDs) the new public state with the log's
   sequence number.

A game is therefore the fold of its logged ``event`` entries; after a crash ``Controller`` rebuilds
the same game, the same pending confirmation and the same recent alerts from the log.
"""

from __future__ import annotations

import copy
import logging
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

from controller import buttons as vocabulary
from controller.inputs import Admin, Button, CameraNote, Placed, Removed, ShoeCard
from controller.log import GameLog, LogError, NewEntry
from controller.public import PublicState
from engine.errors import EngineError
from engine.events import Event
from engine.game import Game
from engine.registry import game_class
from engine.view import TableView, current_trick, event_label, table_view
from vision.cards import ReaderFlag

log = logging.getLogger("cardtable.controller")

MAX_ALERTS = 8
MAX_HELD = 10_000  # inputs kept while the log cannot be written (a whole evening's cards)
RETRY_HELD_S = 2.0  # s between tries at the log while inputs wait
AnyInput = ShoeCard | Placed | Removed | CameraNote | Button | Admin


NAME_MAX = 40


class BadNames(EngineError):
    """A player's name that is not plain text (control characters) or is too long."""

    rule = "bad-names"


def clean_names(names: list[str]) -> list[str]:
    """Players' names as text: spaces collapsed; refused (``BadNames``) with a control or
    format character (a terminal escape, a line break, a bidi override) or past ``NAME_MAX``."""
    import unicodedata

    out = []
    for name in names:
        text = str(name)
        if any(unicodedata.category(c) in ("Cc", "Cf", "Cs", "Co", "Cn") for c in text):
            raise BadNames(f"the name {text!r} has control characters: names are plain text")
        text = " ".join(text.split())
        if len(text) > NAME_MAX:
            raise BadNames(f"the name {text[:20]!r}… is longer than {NAME_MAX} characters")
        out.append(text)
    return out


RESULT_CONFIRMED = "result-confirmed"  # a seat's confirm button after the game (club.store)


@dataclass
class Alert:
    """Something the table tells the room: ``rule`` (a stable id) and ``params`` are what the
    display words it from (``table_ui/rule_texts.py``: Russian first); ``message`` is the same
    in an English sentence, for logs and developers."""

    rule: str
    message: str
    seat: int | None = None
    level: str = "warning"  # info | warning | illegal | error
    seq: int = 0
    t: float = 0.0
    # the facts the words need: card (a code), button, flag (a camera's note), device
    params: dict[str, str] = field(default_factory=dict)


@dataclass
class Pending:
    """A card the table waits for someone to confirm."""

    source: str  # "shoe" or "placed"
    reason: str
    seat: int | None = None  # placed: whose card
    candidates: list[str] = field(default_factory=list)
    covers: str | None = None


@dataclass
class Cursor:
    """A panel's bid cursor: up/down walks ``options``, confirm applies the one shown."""

    seat: int
    options: list[str]
    index: int = 0
    # "action": the seat's bids and words; "play": the ways to play the card it put down (a
    # joker's mode, a bela); "card": the candidates of a card waiting for confirmation
    purpose: str = "action"


@dataclass
class TableState:
    """The controller's own state beside the engine's, logged as a whole when it changes."""

    pending: Pending | None = None
    held: list[dict[str, Any]] = field(default_factory=list)  # shoe inputs held while pending
    cursor: Cursor | None = None
    last_trick: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    def public_pending(self) -> dict[str, Any] | None:
        """The waiting card as a display may show it."""
        p = self.pending
        if p is None:
            return None
        return {"source": p.source, "reason": p.reason, "seat": p.seat, "held": len(self.held),
                # a shoe card goes to a hidden hand: its candidates are for the admin
                "candidates": list(p.candidates) if p.source == "placed" else []}

    def public_cursor(self) -> dict[str, Any] | None:
        """What a panel's cursor shows, in notation and in words (not a card's candidates)."""
        c = self.cursor
        if c is None or c.purpose == "card" or c.index < 0:
            return None
        showing = c.options[c.index]
        return {"seat": c.seat, "showing": showing, "label": event_label(Event.parse(showing))}

    @classmethod
    def from_json(cls, d: dict[str, Any]) -> TableState:
        return cls(pending=Pending(**d["pending"]) if d.get("pending") else None,
                   held=list(d.get("held") or []),
                   cursor=Cursor(**d["cursor"]) if d.get("cursor") else None,
                   last_trick=list(d.get("last_trick") or []))


@dataclass
class Reply:
    """What became of one input. ``held``: the log could not take it; it waits, in order, and
    is applied as soon as the log can be written."""

    accepted: bool
    seq: int
    events: list[str] = field(default_factory=list)
    alerts: list[Alert] = field(default_factory=list)
    logged: bool = True  # (internal) False when the log refused the entries
    held: bool = False


class NoGame(RuntimeError):
    """No game is being played at this table."""


class ResumeError(RuntimeError):
    """The game in the log cannot be rebuilt (the log was edited or written by two tables)."""


Listener = Callable[[PublicState], None]  # called after each change with the new public state


class Controller:
    def __init__(self, game_log: GameLog, *, clock: Callable[[], float] = time.time,
                 resume: bool = True) -> None:
        self.log = game_log
        self.clock = clock
        self._lock = threading.RLock()
        self._listeners: list[Listener] = []
        self.game: Game | None = None
        self.game_id: int | None = None
        self.names: list[str] = []
        self.state = TableState()
        self.alerts: deque[Alert] = deque(maxlen=MAX_ALERTS)
        self.game_status = "active"
        self.log_error: str | None = None
        self._held: deque[AnyInput] = deque()  # inputs the log could not take yet, in order
        self._retry: threading.Timer | None = None
        self.devices: dict[str, Any] = {}
        self.seq = game_log.last_seq()
        if resume:
            self._resume()

    # ------------------------------------------------------------------ resume
    def _resume(self) -> None:
        row = self.log.active_game() or self.log.latest_game()
        if row is None:
            return
        state = TableState()
        alerts: deque[Alert] = deque(maxlen=MAX_ALERTS)
        seq = 0
        try:
            game = game_class(row.game)(row.options)
            for e in self.log.entries(row.id, kinds=("event", "state", "alert")):
                seq = e.seq
                if e.kind == "event":
                    game.record(Event.parse(e.body["event"]))
                elif e.kind == "state":
                    state = TableState.from_json(e.body)
                else:
                    alerts.append(Alert(**{**e.body, "seq": e.seq, "t": e.t}))
        except (EngineError, KeyError, TypeError, ValueError) as exc:
            raise ResumeError(f"game {row.id} in the table log {self.log.path} cannot be rebuilt "
                              f"(entry {seq}: {exc})") from None
        self.game, self.game_id, self.names, self.game_status = game, row.id, row.names, row.status
        self.state, self.alerts = state, alerts

    # ------------------------------------------------------------------ listeners
    def subscribe(self, listener: Listener) -> Callable[[], None]:
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def _publish(self) -> None:
        if not self._listeners:
            return
        snapshot = self.public()
        for listener in list(self._listeners):
            try:
                listener(snapshot)
            except Exception:  # a broken display must never stop the table
                log.exception("display listener failed")

    # ------------------------------------------------------------------ views
    def view(self) -> TableView | None:
        with self._lock:
            return table_view(self.game) if self.game is not None else None

    def public(self) -> PublicState:
        """Everything a display may show, with the log's sequence number; no hidden cards. What
        the listeners (displays, speech, the panels' LEDs) get after each change."""
        with self._lock:
            st = self.state
            return PublicState.model_validate({
                "seq": self.seq,
                "game_id": self.game_id,
                "names": list(self.names),
                "view": self.view(),
                "pending": st.public_pending(),
                "cursor": st.public_cursor(),
                "last_trick": list(st.last_trick),
                "alerts": [asdict(a) for a in self.alerts],
                "status": self.game_status,
                "log_error": self.log_error,
                "held": len(self._held),  # inputs waiting for the log
                "devices": copy.deepcopy(self.devices),
            })

    def public_state(self) -> dict[str, Any]:
        """:meth:`public` as the JSON object ``/api/state`` and ``/ws`` send."""
        return self.public().to_json()

    def admin_state(self) -> dict[str, Any]:
        """The public state plus what only the organiser sees: a pending card's candidates."""
        with self._lock:
            out = self.public_state()
            if self.state.pending is not None:
                out["pending"]["candidates"] = list(self.state.pending.candidates)
            return out

    def hand(self, seat: int) -> list[str]:
        """Private: the cards still in a seat's hand (the table reader's candidates)."""
        with self._lock:
            if self.game is None:
                return []
            return [c.code for c in self.game.hand(seat)]

    def set_device(self, name: str, info: dict[str, Any]) -> None:
        """A device's news (a panel or camera connected, lost, back); shown, not logged."""
        with self._lock:
            old = self.devices.get(name, {})
            self.devices[name] = {**old, **info}
            state = info.get("state")
            if state in ("disconnected", "lost", "stalled", "error") and old.get("state") != state:
                self.alerts.append(Alert("device-lost", f"{name}: {state} {info.get('detail', '')}".strip(),
                                         info.get("seat"), "error", self.seq, self.clock(),
                                         {"device": name, "state": str(state)}))
            self._publish()

    @property
    def held(self) -> int:
        """Inputs waiting for the log (it cannot be written): the game is behind the table."""
        return len(self._held)

    @property
    def lock(self) -> threading.RLock:
        """The controller's (re-entrant) lock: hold it to look at the game and act on it as
        one step, as a club start does (no input comes in between)."""
        return self._lock

    # ------------------------------------------------------------------ games
    def new_game(self, game: str, options: dict[str, Any] | None = None,
                 names: list[str] | None = None) -> int:
        """Start a game; an unfinished one is abandoned (it stays in the history). Names are
        text: a name with control characters, or longer than ``NAME_MAX``, is refused
        (``BadNames``) and nothing changes."""
        with self._lock:
            cls = game_class(game)  # raises UnknownGameError
            g = cls(options or {})  # raises SettingsError
            names = clean_names(list(names or [])[: cls.num_seats])
            names += [f"{i + 1}" for i in range(len(names), cls.num_seats)]
            opts = g.settings.changed()
            try:
                gid, seq = self.log.new_game(game, opts, names, t=self.clock())
            except LogError as exc:
                self.log_error = str(exc)
                log.error("the table log cannot be written (%s): no new game", exc)
                self._publish()
                raise
            self.game, self.game_id, self.names, self.game_status = g, gid, names, "active"
            self.state, self.alerts, self.seq, self.log_error = TableState(), deque(maxlen=MAX_ALERTS), seq, None
            self._publish()
            return gid

    # ------------------------------------------------------------------ the one way in
    def submit(self, inp: AnyInput) -> Reply:
        """Apply one input and log it. While the log cannot be written, inputs are held in
        order (up to ``MAX_HELD``) and applied, still in order, as soon as it can: retried with
        each new input and every ``RETRY_HELD_S``; the reply says it was held."""
        with self._lock:
            if self.game is None:
                raise NoGame("no game at this table: start one first")
            if self._held:
                self._apply_held()
            if self._held:
                return self._hold(inp)
            reply = self._submit(inp)
            if reply.logged or self.log.readonly:  # a read-only log will never take it
                return reply
            return self._hold(inp, reply)

    def _hold(self, inp: AnyInput, refused: Reply | None = None) -> Reply:
        """Keep an input the log could not take, to apply it when it can."""
        if len(self._held) >= MAX_HELD:
            log.error("the table log cannot be written and %d inputs wait: this one is lost",
                      MAX_HELD)
            return Reply(False, self.seq, alerts=[Alert("log-not-writable", f"{self.log_error}; "
                                                        "too many inputs wait: this one is lost",
                                                        level="error")])
        self._held.append(inp)
        if self._retry is None:
            self._retry = threading.Timer(RETRY_HELD_S, self._retry_held)
            self._retry.daemon = True
            self._retry.start()
        alerts = refused.alerts if refused is not None else [
            Alert("log-not-writable", f"{self.log_error}: held, applied once the log is written",
                  level="error")]
        return Reply(False, self.seq, alerts=alerts, held=True)

    def _retry_held(self) -> None:
        with self._lock:
            self._retry = None
            if not self._held or self.game is None:
                return
            self._apply_held()
            if self._held and self._retry is None:
                self._retry = threading.Timer(RETRY_HELD_S, self._retry_held)
                self._retry.daemon = True
                self._retry.start()

    def _apply_held(self) -> None:
        """Apply the held inputs in order, while the log takes them."""
        while self._held:
            reply = self._submit(self._held[0])
            if not reply.logged:
                return
            self._held.popleft()
        log.warning("the table log is written again; every input held meanwhile is applied")

    def _submit(self, inp: AnyInput) -> Reply:
        with self._lock:
            game = self.game
            assert game is not None
            before_events = len(game.raw_log)
            before_state = copy.deepcopy(self.state)
            before_alerts = list(self.alerts)
            work = _Work(self, inp)
            try:
                work.run()
            except EngineError as exc:  # anything the translation did not foresee
                work.alert(exc.rule, str(exc), getattr(inp, "seat", None))
            except Exception as exc:  # a bug must cost one input, never the game or the log
                log.exception("input %s failed", inp)
                while len(game.raw_log) > before_events:
                    game.pop()
                self.state = before_state
                work = _Work(self, inp)
                work.alert("internal-error", f"this input could not be handled ({exc})",
                           getattr(inp, "seat", None), "error")
            entries = [NewEntry("input", inp.model_dump(mode="json"), inp.kind, inp.frame)]
            entries += [NewEntry("event", {"event": e}, inp.kind, inp.frame) for e in work.events]
            entries += [NewEntry("alert", {k: v for k, v in asdict(a).items() if k not in ("seq", "t")},
                                 inp.kind, inp.frame) for a in work.alerts]
            if self.state != before_state:
                entries.append(NewEntry("state", self.state.to_json(), inp.kind, inp.frame))
            finish = work.finish or (
                "finished" if game.is_over and before_events != len(game.raw_log) else
                # an undo of the game's last event reopens it
                "active" if self.game_status == "finished" and not game.is_over else None)
            status = finish or self.game_status
            now = self.clock()
            try:
                seq = self.log.append(self.game_id, entries, t=now, finish=finish)
            except LogError as exc:
                while len(game.raw_log) > before_events:
                    game.pop()
                self.state = before_state
                self.alerts = deque(before_alerts, maxlen=MAX_ALERTS)
                self.log_error = str(exc)
                log.error("the table log cannot be written (%s): inputs are held until it can",
                          exc)
                self._publish()
                return Reply(False, self.seq, alerts=[Alert(
                    "log-not-writable", f"{exc}: held, applied once the log is written",
                    level="error")], logged=False)
            self.log_error = None
            self.seq = seq
            self.game_status = status
            # each alert carries its own entry's number and time, as a resumed one does
            first_alert = seq - len(entries) + 1 + 1 + len(work.events)
            for i, a in enumerate(work.alerts):
                a.seq, a.t = first_alert + i, now
                self.alerts.append(a)
            self._publish()
            return Reply(not work.refused, seq, list(work.events), list(work.alerts))


def _event_params(event: Event) -> dict[str, str]:
    """The card an engine event is about, for the words of its alert."""
    return {"card": event.cards[0].code} if event.cards else {}


class _Work:
    """Works out one input against the controller's game and state (mutating both)."""

    def __init__(self, ctl: Controller, inp: AnyInput) -> None:
        self.ctl = ctl
        self.inp = inp
        assert ctl.game is not None
        self.game: Game = ctl.game
        self.st = ctl.state
        self.events: list[str] = []
        self.alerts: list[Alert] = []
        self.refused = False
        self.finish: str | None = None

    # -- helpers ---------------------------------------------------------------------------
    def alert(self, rule: str, message: str, seat: int | None = None, level: str = "warning",
              *, said: dict[str, str] | None = None, **params: str) -> None:
        """``params`` (and ``said``) the words need beyond the seat; the input's own card,
        button and camera note are taken from it unless given."""
        params = {**(said or {}), **params}
        inp = self.inp
        for key in ("card", "button", "flag"):
            value = getattr(inp, key, None)
            if value and key not in params:
                params[key] = str(value)
        self.alerts.append(Alert(rule, message, seat, level, params=params))
        if level in ("warning", "error"):
            self.refused = True

    def record(self, event: Event) -> bool:
        """Record one event at the table; an illegal play is kept and alerted."""
        is_play = event.kind in vocabulary.PLAY_KINDS
        trick_before = current_trick(self.game) if is_play else []
        try:
            verdict = self.game.record(event)
        except EngineError as exc:
            self.alert(exc.rule, str(exc), event.seat, said=_event_params(event))
            return False
        self.events.append(str(event))
        if not verdict.legal:
            back = (" — it cannot stand: take the card back and press «Отмена»"
                    if self.game.must_retract(verdict) else "")
            self.alert(verdict.rule, f"seat {event.seat}: {event} — {verdict.message}{back}",
                       event.seat, level="illegal", said=_event_params(event))
        if is_play:
            trick_after = current_trick(self.game)
            if trick_before and not trick_after:
                self.st.last_trick = [t.model_dump() for t in trick_before] + [
                    {"seat": event.seat, "card": event.cards[0].code, "mode": event.arg,
                     "covered_by": None}]
            elif trick_after:
                self.st.last_trick = []
        self.st.cursor = None
        return True

    def shoe(self, card: str) -> None:
        self.record(Event.parse(f"shoe {card}"))

    def release_held(self) -> None:
        """Apply the shoe cards held while a card waited for confirmation."""
        while self.st.held and self.st.pending is None:
            self.on_shoe(ShoeCard(**self.st.held.pop(0)))

    # -- dispatch --------------------------------------------------------------------------
    def run(self) -> None:
        inp = self.inp
        if self.ctl.game_status == "abandoned":
            self.alert("game-ended", "this game was ended by the organiser: start a new one")
            return
        seat = getattr(inp, "seat", None)
        if seat is not None and seat >= self.game.num_seats:
            self.alert("no-such-seat", f"seat {seat} does not play: this game has seats 0–"
                       f"{self.game.num_seats - 1}", seat)
            return
        if isinstance(inp, ShoeCard):
            self.on_shoe(inp)
        elif isinstance(inp, Placed):
            self.on_placed(inp)
        elif isinstance(inp, Removed):
            self.on_removed(inp)
        elif isinstance(inp, CameraNote):
            self.on_camera(inp)
        elif isinstance(inp, Button):
            self.on_button(inp)
        else:
            self.on_admin(inp)

    def on_shoe(self, inp: ShoeCard) -> None:
        g = self.game
        if inp.flag == ReaderFlag.OBSTRUCTION:
            self.alert("shoe-obstruction", "something that is not a card is in the shoe window",
                       level="info")
            return
        if self.st.pending is not None:
            self.st.held.append(inp.model_dump(mode="json"))
            return
        if g.is_over:
            self.alert("shoe-after-game", f"a card ({inp.card}) came out of the shoe after the game ended")
            return
        if not g.expects_shoe and not any(a.kind == "shoe" for a in g.legal_actions()):
            # (Joker's nine-card deals: the shoe may go on while trump may still be named)
            # what the table does instead (the view's phase, worded by the display)
            self.alert("shoe-not-expected",
                       f"a card ({inp.card}) came out of the shoe, but the deal is complete "
                       f"(seat {g.to_act()} is to act)", phase=table_view(g).phase)
            return
        if inp.card == "??" or inp.flag:
            self.st.pending = Pending("shoe", inp.flag or "the shoe reader is not sure of this card",
                                      candidates=list(inp.candidates))
            self.alert("confirm-card", "confirm the card that just left the shoe", level="info")
            return
        unseen = {c.code for c in g.unseen_cards()}
        if inp.seen_twice or inp.card not in unseen:
            # (no card named: the reason is public, the card went into a hidden hand)
            why = ("seen twice: the shoe reader saw this card already in this deal"
                   if inp.seen_twice else "the shoe reader named a card that cannot come out "
                   "of the shoe now (already dealt, or not in this deck)")
            named = [inp.card] if inp.card in unseen else []
            self.st.pending = Pending("shoe", why, candidates=named + [
                c for c in inp.candidates if c in unseen and c != inp.card])
            self.alert("confirm-card", f"{why}: confirm the card", level="info")
            return
        self.shoe(inp.card)

    def on_placed(self, inp: Placed) -> None:
        g = self.game
        if self.st.pending is not None:
            self.alert("confirm-first", "a card is waiting to be confirmed first", inp.seat)
            return
        cur = self.st.cursor
        if cur is not None and cur.purpose == "play":
            self.alert("choose-first", f"seat {cur.seat} is still choosing how its card is played",
                       inp.seat)
            return
        if g.expects_shoe or g.is_over:
            self.alert("play-not-expected", f"seat {inp.seat} put down a card, but no play is "
                       "expected now" + (" (the shoe is dealing)" if g.expects_shoe else ""), inp.seat)
            return
        if inp.card == "??":
            self.st.pending = Pending("placed", "the table reader is not sure of this card",
                                      inp.seat, list(inp.candidates), inp.covers)
            self.alert("confirm-card", f"confirm the card seat {inp.seat} put down", inp.seat, "info")
            return
        if inp.card not in self.ctl.hand(inp.seat):
            self.st.pending = Pending(
                "placed", f"seat {inp.seat} does not hold {inp.card} by the shoe's reading",
                inp.seat, [c for c in inp.candidates if c in self.ctl.hand(inp.seat)], inp.covers)
            self.alert("confirm-card", f"the table saw {inp.card} from seat {inp.seat}, which the "
                       "shoe did not deal there: confirm the card", inp.seat, "info")
            return
        self.play(inp.seat, inp.card, inp.covers)

    def play(self, seat: int, card: str, covers: str | None) -> None:
        options = vocabulary.plays_of(self.game, seat, card, covers)
        if len(options) > 1:  # a joker's mode, a Bazar bela, a Durak card that beats several
            self.st.cursor = Cursor(seat, [str(e) for e in options], -1, "play")
            self.alert("choose", f"seat {seat}: choose how {card} is played (up/down, confirm)",
                       seat, "info", card=card)
            return
        event = options[0] if options else vocabulary.illegal_play(self.game, seat, card, covers)
        self.record(event)

    def on_removed(self, inp: Removed) -> None:
        trick = table_view(self.game).trick
        in_play = {c for t in trick for c in (t.card, t.covered_by) if c}
        named = [c for c in inp.cards if c != "??"]
        if named and len(named) == len(inp.cards):
            early = [c for c in named if c in in_play]
            if early:  # a card taken back after «Отмена» is not in play any more
                self.alert("trick-not-complete", f"{', '.join(early)} left the table, but "
                           f"{'it is' if len(early) == 1 else 'they are'} still in play")
        elif trick:
            self.alert("trick-not-complete",
                       f"cards were gathered, but {len(trick)} card(s) of the trick are still in play")

    def on_camera(self, inp: CameraNote) -> None:
        """Shown to the organiser and logged; nothing in the game changes."""
        back = inp.flag == ReaderFlag.CAMERA_BACK
        where = {"shoe": "shoe camera", "table": "table camera"}[inp.camera]
        said = {"flag": inp.note, **inp.params} if inp.note else {}
        self.alert(f"camera-{inp.camera}", f"{where}: {inp.flag}" + (f" ({inp.card})" if inp.card else ""),
                   level="info" if back else "warning", said=said)

    def on_button(self, inp: Button) -> None:
        g = self.game
        b, seat = inp.button, inp.seat
        if b in ("cancel", "undo"):
            self.undo(seat)
            return
        if b == "new_deal":  # logged as an input; the engine itself knows when a deal starts
            return
        if seat is None:
            self.alert("no-seat", f"button {b!r} needs a seat")
            return
        cur = self.st.cursor
        if b in ("bid_up", "bid_down"):
            step = 1 if b == "bid_up" else -1
            if self.st.pending is not None and self.st.pending.candidates:
                if cur is None or cur.purpose != "card":
                    cur = Cursor(seat, list(self.st.pending.candidates), -1 if step > 0 else 0, "card")
                cur.index = (cur.index + step) % len(cur.options)
                self.st.cursor = cur
                return
            if cur is not None and cur.purpose == "play" and cur.seat == seat:
                n = len(cur.options)  # how the card put down is played
                cur.index = (0 if step > 0 else n - 1) if cur.index < 0 else (cur.index + step) % n
                return
            options = [str(e) for e in vocabulary.panel_options(g, seat)]
            if not options:
                self.alert("nothing-to-choose", f"seat {seat} has nothing to choose now", seat)
                return
            if cur is None or cur.seat != seat or cur.options != options:
                cur = Cursor(seat, options, -1 if step > 0 else 0)
            cur.index = (cur.index + step) % len(options)
            self.st.cursor = cur
            return
        if b == "confirm" and cur is not None and cur.seat == seat and cur.index >= 0:
            chosen = cur.options[cur.index]
            if cur.purpose == "card":
                self.confirm_card(chosen)
            else:
                self.record(Event.parse(chosen))
            return
        if self.st.pending is not None:
            self.alert("confirm-first", "a card is waiting to be confirmed first", seat)
            return
        if g.is_over:
            if b == "confirm":  # the player agrees with the result (the club records it)
                self.alert(RESULT_CONFIRMED, f"seat {seat} confirms the result", seat, "info")
                return
            self.alert("game-over", "the game is over", seat)
            return
        event = vocabulary.button_action(g, seat, b)
        if event is None:
            to_act = g.to_act()
            why = (f"it is seat {to_act}'s turn" if to_act is not None and to_act != seat
                   else "the shoe is dealing" if g.expects_shoe else "it means nothing now")
            self.alert("button-not-allowed", f"seat {seat} pressed {vocabulary.LABELS.get(b, b)}: {why}", seat, button=vocabulary.LABELS.get(b, b))
            return
        self.record(event)

    def undo(self, seat: int | None) -> None:
        if self.st.pending is not None:
            self.st.pending, self.st.cursor = None, None
            self.alert("card-dismissed", "the card waiting for confirmation was dismissed", seat, "info")
            self.release_held()
            return
        if self.st.cursor is not None:
            self.st.cursor = None
            return
        if not self.game.events:
            self.alert("nothing-to-undo", "nothing to undo", seat)
            return
        self.record(Event.parse("undo"))

    def confirm_card(self, card: str) -> None:
        p = self.st.pending
        if p is None:
            self.alert("nothing-to-confirm", "no card is waiting to be confirmed")
            return
        self.st.pending, self.st.cursor = None, None
        if p.source == "shoe":
            unseen = {c.code for c in self.game.unseen_cards()}
            if card not in unseen:
                self.st.pending = p
                self.alert("bad-confirmation", f"{card} cannot come out of the shoe now "
                           "(already dealt or not in this deck)")
                return
            self.shoe(card)
        else:
            assert p.seat is not None
            if card not in self.ctl.hand(p.seat):
                self.st.pending = p
                self.alert("bad-confirmation", f"seat {p.seat} does not hold {card}", p.seat)
                return
            self.play(p.seat, card, p.covers)
        self.release_held()

    def on_admin(self, inp: Admin) -> None:
        if inp.action == "confirm_card":
            if not inp.card or inp.card == "??":
                self.alert("bad-confirmation", "confirm needs a card code such as QS or TH")
                return
            self.confirm_card(inp.card)
        elif inp.action == "skip_card":
            self.undo(None) if self.st.pending is not None else self.alert(
                "nothing-to-confirm", "no card is waiting to be confirmed")
        elif inp.action == "undo":
            self.undo(None)
        elif inp.action == "event":
            try:
                event = Event.parse(inp.event or "")
            except EngineError as exc:
                self.alert(exc.rule, str(exc))
                return
            if event.kind in ("undo", "fix") or event.kind == "shoe":
                self.record(event)
            elif self.st.pending is not None:
                self.alert("confirm-first", "a card is waiting to be confirmed first")
            else:
                self.record(event)
        elif inp.action == "end_game":
            self.alert("game-ended", "the organiser ended the game", level="info")
            self.finish = "abandoned"
