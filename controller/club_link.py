"""The table's side of the club: its log entries published to the club's MQTT broker.

The table's SQLite log is the outbox. A thread reads entries past the last one sent and
publishes them in log order at QoS 1 on ``cardtable/<club>/<table>/log`` (``club.protocol``),
with at most ``WINDOW`` unacknowledged; as the broker acknowledges them, the highest sequence
number below which everything is acknowledged is stored in the log (``GameLog.set_acked``). So
nothing waits only in memory: a table restarted, or a broker that was away, goes on from the
stored number, and the server drops what it already has (it stores by table, log and sequence
number). A retained ``resend`` request from the server (it saw a gap) winds the sender back.

The link never stops the table: a broker that does not answer is retried by paho's own
reconnect (1 s up to 5 s) and shown on the display as the device ``club`` (state ``offline``
with the reason, then ``online``); the game goes on and the backlog is published when it returns.

The server may ask the table to start a game (``start``: a round of the evening's tournament,
with its players); ``on_start`` gets it and says whether the table took it (not while a game of
its own is still being played: it is offered again until it is).
"""

from __future__ import annotations

import logging
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from club.protocol import (
    HEARTBEAT_S,
    Broker,
    GameHeader,
    LogMessage,
    Resend,
    StartGame,
    Status,
    decode,
    topic,
)
from controller.log import GameLog, GameRow, LogError

log = logging.getLogger("cardtable.club")

WINDOW = 100  # entries published and not yet acknowledged, at most
POLL_S = 0.1  # s between looks at the log for new entries
KEEPALIVE_S = 15
RECONNECT_MAX_S = 5  # s between tries at most (paho waits it out on stop, too)


class ClubLink:
    """Publishes the table log at ``path`` to ``broker`` as table ``table`` of club ``club``."""

    def __init__(self, path: str | Path, broker: Broker, club: str, table: str, *,
                 on_state: Any = None, on_start: Callable[[StartGame], bool] | None = None,
                 poll_s: float = POLL_S, window: int = WINDOW) -> None:
        self.broker, self.club, self.table = broker, club, table
        self.log_topic = topic(club, table, "log")
        self.status_topic = topic(club, table, "status")
        self.resend_topic = topic(club, table, "resend")
        self.start_topic = topic(club, table, "start")
        self.target = f"{broker.host}:{broker.port}/{club}/{table}"
        self._gamelog = GameLog(path)
        self.log_id = self._gamelog.log_id()
        self.acked = self._gamelog.acked(self.target)
        self._sent = self.acked  # highest seq handed to paho
        self._prev = self.acked  # the seq published before the next one (``prev`` on the wire)
        self._pending: OrderedDict[int, bool] = OrderedDict()  # seq -> acknowledged, in order
        self._mids: dict[int, int] = {}  # paho message id -> seq
        self._early: set[int] = set()  # message ids acknowledged before publish returned
        self._lock = threading.Lock()
        self._rewind: int | None = None
        self._connected = threading.Event()
        self._stop = threading.Event()
        self._poll_s, self._window = poll_s, window
        self._on_state = on_state
        self._on_start = on_start
        self._start: StartGame | None = None  # a game the club asked for, not started yet
        self._games: dict[int, GameHeader] = {}
        self._thread: threading.Thread | None = None
        self._beat = 0.0  # monotonic time of the last status published
        self.client = self._client()

    # -- paho ------------------------------------------------------------------------------
    def _client(self) -> mqtt.Client:
        client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"cardtable-{self.club}-"
                             f"{self.table}", clean_session=False, protocol=mqtt.MQTTv311)
        if self.broker.username:
            client.username_pw_set(self.broker.username, self.broker.password)
        if self.broker.tls:
            client.tls_set()
        client.will_set(self.status_topic, Status(state="offline").model_dump_json(), qos=1,
                        retain=True)
        client.max_inflight_messages_set(self._window)
        client.reconnect_delay_set(1, RECONNECT_MAX_S)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_publish = self._on_publish
        client.on_message = self._on_message
        return client

    def _on_connect(self, client: mqtt.Client, _ud: Any, _flags: Any, reason: Any,
                    _props: Any) -> None:
        if reason.is_failure:
            self._state("offline", f"the broker refused the table: {reason}")
            return
        self._heartbeat()
        client.subscribe([(self.resend_topic, 1), (self.start_topic, 1)])
        self._connected.set()
        self._state("online", str(self.broker))

    def _on_disconnect(self, _client: mqtt.Client, _ud: Any, _flags: Any, reason: Any,
                       _props: Any) -> None:
        self._connected.clear()
        if not self._stop.is_set():
            self._state("offline", f"lost the broker ({reason}); retrying")

    def _on_publish(self, _client: mqtt.Client, _ud: Any, mid: int, _reason: Any,
                    _props: Any) -> None:
        with self._lock:
            seq = self._mids.pop(mid, None)
            if seq is None:
                self._early.add(mid)  # an entry whose publish call has not returned yet
                return
        self._acknowledged(seq)

    def _acknowledged(self, seq: int) -> None:
        with self._lock:
            if seq not in self._pending:
                return
            self._pending[seq] = True
            done = 0
            while self._pending and self._pending[next(iter(self._pending))]:
                done, _ = self._pending.popitem(last=False)
        if done:
            self._store_acked(done)

    def _on_message(self, _client: mqtt.Client, _ud: Any, msg: mqtt.MQTTMessage) -> None:
        if msg.topic == self.start_topic:
            self._start_message(msg.payload)
            return
        if not msg.payload:  # the server cleared its request: the gap is filled
            return
        try:
            request = decode(Resend, msg.payload)
        except ValueError as exc:
            log.warning("club: ignoring a resend request: %s", exc)
            return
        if request.log == self.log_id:
            with self._lock:
                self._rewind = request.after

    def _start_message(self, payload: bytes | bytearray) -> None:
        """The club asks for a game (a round of its tournament): kept until the table can
        start it; each one is started once (its id is kept in the log)."""
        if not payload:  # the server cleared it: the game has arrived
            with self._lock:
                self._start = None
            return
        try:
            start = decode(StartGame, payload)
        except ValueError as exc:
            log.warning("club: ignoring a start: %s", exc)
            return
        if self._started(start):
            return
        with self._lock:
            if self._start is None or self._start.id != start.id:  # heard again: the same one
                self._start = start

    def _started(self, start: StartGame) -> bool:
        done = self._gamelog.meta("club_start")
        return done is not None and done.isdigit() and start.id <= int(done)

    def _start_game(self) -> None:
        """Hand the club's game to the table (``on_start``), until it takes it: it says no
        while a game of its own is still being played."""
        with self._lock:
            start = self._start
        if start is None or self._on_start is None:
            return
        if self._started(start):  # taken already (this start heard again meanwhile)
            with self._lock:
                self._start = None
            return
        try:
            taken = self._on_start(start)
        except Exception as exc:  # a game the table cannot start: said once, never retried
            log.warning("club: cannot start %s: %s", start.game, exc)
            self._state("online", f"cannot start the club's game {start.game}: {exc}")
            taken = True
        if taken:
            self._gamelog.set_meta("club_start", str(start.id))
            with self._lock:
                if self._start is not None and self._start.id <= start.id:
                    self._start = None

    # -- the sender ------------------------------------------------------------------------
    def start(self) -> ClubLink:
        self._state("offline", f"connecting to {self.broker}")
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=KEEPALIVE_S)
        self.client.loop_start()
        self._thread = threading.Thread(target=self._run, name="club link", daemon=True)
        self._thread.start()
        return self

    def stop(self, drain_s: float = 0.0) -> None:
        """Stop publishing; with ``drain_s`` first wait that long for the backlog to go out."""
        deadline = time.monotonic() + drain_s
        while drain_s and time.monotonic() < deadline and self.backlog() > 0:
            time.sleep(0.02)
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.client.disconnect()
        self.client.loop_stop()
        self._gamelog.close()

    def backlog(self) -> int:
        """Entries of the log not yet acknowledged by the broker."""
        try:
            return max(0, self._gamelog.last_seq() - self.acked)
        except LogError:
            return 0

    def _heartbeat(self) -> None:
        """The retained ``online`` status with the log's last entry (club.protocol.Status)."""
        try:
            last = self._gamelog.last_seq()
        except LogError:
            last = None
        self._beat = time.monotonic()
        self.client.publish(self.status_topic, Status(state="online", t=time.time(),
                                                      log=self.log_id, seq=last
                                                      ).model_dump_json(), qos=1, retain=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self._start_game()
                if self._connected.is_set():
                    self._publish_some()
                    if time.monotonic() - self._beat >= HEARTBEAT_S:
                        self._heartbeat()
            except LogError as exc:  # the table log is the table's problem; keep trying
                log.warning("club: cannot read the table log: %s", exc)
            except Exception:  # the link must never stop, nor stop the table
                log.exception("club link: publishing failed; trying again")
            self._stop.wait(self._poll_s)

    def _publish_some(self) -> None:
        with self._lock:
            if self._rewind is not None:  # the server asked again from here
                after, self._rewind = self._rewind, None
                self._pending.clear()
                self._mids.clear()
                self._early.clear()
                self._sent = self._prev = min(self._sent, after)
            room = self._window - len(self._pending)
            after = self._sent
        if room <= 0:
            return
        for entry in self._gamelog.entries(after=after, limit=room):
            game = self._game(entry.game_id) if entry.game_id is not None else None
            msg = LogMessage(log=self.log_id, seq=entry.seq, prev=self._prev, game=game,
                             t=entry.t, kind=entry.kind, source=entry.source, body=entry.body,
                             frame=entry.frame)
            with self._lock:
                self._pending[entry.seq] = False
                self._sent = self._prev = entry.seq
            # Not under our lock: paho calls on_publish holding its own message lock, and
            # publish takes that lock (held across both, the two threads would deadlock).
            info = self.client.publish(self.log_topic, msg.encode(), qos=1)
            with self._lock:
                if info.mid in self._early:  # acknowledged before we got here
                    self._early.discard(info.mid)
                    early = True
                else:
                    self._mids[info.mid] = entry.seq
                    early = False
            if early:
                self._acknowledged(entry.seq)

    def _game(self, game_id: int) -> GameHeader | None:
        """The game's header as published; read again while it is active (its status moves)."""
        known = self._games.get(game_id)
        if known is not None and known.status != "active":
            return known
        row: GameRow | None = self._gamelog.game(game_id)
        if row is None:
            return None
        header = GameHeader(id=row.id, name=row.game, options=row.options, names=row.names,
                            started=row.started, status=row.status,
                            ended=row.ended, outcome=self._outcome(row))
        self._games[game_id] = header
        return header

    def _outcome(self, row: GameRow) -> dict[str, Any] | None:
        """The result the table states for a game that is over (folded once from its events);
        the club folds them again itself and compares."""
        if row.status == "active":
            return None
        from engine.errors import EngineError
        from engine.registry import game_class

        try:
            game = game_class(row.game).replay(self._gamelog.event_texts(row.id), row.options)
        except (EngineError, LogError, ValueError) as exc:
            log.warning("club: game %s cannot be folded for its result: %s", row.id, exc)
            return None
        out = game.outcome
        return {"finished": out.finished, "winner": out.winner, "totals": list(out.totals)}

    def _store_acked(self, seq: int) -> None:
        self.acked = max(self.acked, seq)
        try:
            self._gamelog.set_acked(self.target, self.acked)
        except LogError as exc:  # sent again after a restart; the server drops the doubles
            log.warning("club: cannot store the acknowledged entry: %s", exc)

    def _state(self, state: str, detail: str) -> None:
        log.info("club link %s: %s", state, detail)
        if self._on_state is not None:
            try:
                self._on_state(state, detail)
            except Exception:  # a display callback must not stop the link
                log.exception("club link state callback failed")

