"""The club server: every table's log entries from the broker into the club database.

It subscribes with a persistent session (the broker keeps what arrives while the server is
away) to every table's ``log`` and ``status`` topics (``club.protocol``), and acknowledges an
entry only once it is committed (paho's manual acks), so a server killed at any moment loses
nothing: the broker delivers the unacknowledged entries again and the store drops the doubles.
A gap (an entry whose ``prev`` is not stored) is answered with a retained ``resend`` request to
that table. Entries that queue up while one is stored go into one transaction together (up to
``BATCH``): a busy evening costs one commit per batch, not per entry. A payload that is not this protocol's is logged and dropped; it never stops the
server. A database that is down is retried (every ``RETRY_S``) with the entry held, not lost.
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from club.protocol import (
    Broker,
    LogMessage,
    ProtocolError,
    Resend,
    Status,
    decode,
    parse_topic,
    subscription,
    topic,
)
from club.store import Store, StoreError

log = logging.getLogger("cardtable.club.server")

RETRY_S = 2.0
BATCH = 200  # entries stored in one transaction at most
START_POLL_S = 0.5  # s between looks for a round's games to start


class ClubServer:
    """Entries of every table of ``club`` (``+``: every club) from ``broker`` into ``store``."""

    def __init__(self, store: Store, broker: Broker, club: str = "+",
                 client_id: str = "cardtable-club-server") -> None:
        self.store, self.broker, self.club = store, broker, club
        self.counts = {"stored": 0, "doubles": 0, "refused": 0, "gaps": 0}
        self.errors: list[str] = []  # the last few problems, for `club status` and the pages
        self._asked: set[tuple[str, str]] = set()  # tables asked to send again
        self._work: queue.Queue[mqtt.MQTTMessage | None] = queue.Queue()
        self._stop = threading.Event()
        self.connected = threading.Event()
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                                  clean_session=False, protocol=mqtt.MQTTv311,
                                  manual_ack=True)
        if broker.username:
            self.client.username_pw_set(broker.username, broker.password)
        if broker.tls:
            self.client.tls_set()
        self.client.reconnect_delay_set(1, 5)
        self.client.on_connect = self._on_connect
        self.client.on_disconnect = self._on_disconnect
        self.client.on_message = lambda _c, _u, msg: self._work.put(msg)
        self._worker = threading.Thread(target=self._run, name="club ingest", daemon=True)
        self._starter = threading.Thread(target=self._run_starts, name="club starts",
                                         daemon=True)

    def start(self) -> ClubServer:
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=15)
        self.client.loop_start()
        self._worker.start()
        self._starter.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._work.put(None)
        self._worker.join(timeout=5)
        self._starter.join(timeout=5)
        self.client.disconnect()
        self.client.loop_stop()

    # -- paho ------------------------------------------------------------------------------
    def _on_connect(self, client: mqtt.Client, _ud: Any, _flags: Any, reason: Any,
                    _props: Any) -> None:
        if reason.is_failure:
            self._problem(f"the broker {self.broker} refused the club server: {reason}")
            return
        client.subscribe([(subscription("log", self.club), 1),
                          (subscription("status", self.club), 1)])
        self.connected.set()
        log.info("club server connected to %s", self.broker)

    def _on_disconnect(self, _c: mqtt.Client, _ud: Any, _flags: Any, reason: Any,
                       _props: Any) -> None:
        self.connected.clear()
        if not self._stop.is_set():
            self._problem(f"lost the broker {self.broker} ({reason}); retrying")

    # -- the ingest worker -----------------------------------------------------------------
    def _run(self) -> None:
        while True:
            first = self._work.get()
            if first is None or self._stop.is_set():
                return
            batch = [first]  # what has queued up meanwhile goes into the same transaction
            while len(batch) < BATCH:
                try:
                    more = self._work.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    self._work.put(None)
                    break
                batch.append(more)
            while not self._stop.is_set():
                try:
                    self.handle_many([(m.topic, m.payload) for m in batch])
                    break
                except StoreError as exc:  # the database is down: hold the entries, try again
                    self._problem(f"{exc}; trying again in {RETRY_S:.0f} s")
                    self._stop.wait(RETRY_S)
            else:
                return  # stopping: not acknowledged, so the broker keeps them for next time
            for m in batch:
                if m.qos > 0:
                    self.client.ack(m.mid, m.qos)

    def _run_starts(self) -> None:
        """Publish each round's starts to their tables (retained, so a table that is away
        hears it when it comes back) and clear each once its game has arrived."""
        while not self._stop.wait(START_POLL_S):
            if not self.connected.is_set():
                continue
            try:
                self.publish_starts()
            except StoreError as exc:
                self._problem(f"cannot read the rounds to start: {exc}")
            except Exception:  # the ingest must go on whatever happens here
                log.exception("club server: publishing the starts failed")

    def publish_starts(self) -> int:
        """One pass: clear what has started, then publish what is to start (in that order:
        both are the table's one retained ``start``, and a clear sent after a newer start
        would remove it); how many were sent."""
        for club, table, pairing in self.store.tournaments.starts_to_clear():
            info = self.client.publish(topic(club, table, "start"), b"", qos=1, retain=True)
            info.wait_for_publish(timeout=5)
            if info.is_published():
                self.store.tournaments.mark(pairing, cleared=True)
        sent = 0
        for club, table, start in self.store.tournaments.starts_to_send():
            info = self.client.publish(topic(club, table, "start"), start.model_dump_json(),
                                       qos=1, retain=True)
            info.wait_for_publish(timeout=5)
            if info.is_published():
                self.store.tournaments.mark(start.id, sent=True)
                sent += 1
        return sent

    def handle(self, topic_name: str, payload: bytes | bytearray) -> str:
        """One message: stored, a double, a gap, refused (bad topic or payload), or a status."""
        return self.handle_many([(topic_name, payload)])[0]

    def handle_many(self, messages: list[tuple[str, bytes | bytearray]]) -> list[str]:
        """Messages in order; the log entries among them stored in one transaction."""
        out: list[str] = [""] * len(messages)
        entries: list[tuple[int, str, str, LogMessage]] = []
        for n, (topic_name, payload) in enumerate(messages):
            try:
                club, table, leaf = parse_topic(topic_name)
                if leaf == "status":
                    self._store_entries(entries, out)  # what came before it, first
                    entries = []
                    out[n] = self._status(club, table, payload)
                    continue
                if leaf != "log":
                    raise ProtocolError(f"the server does not take {leaf!r} messages")
                entries.append((n, club, table, decode(LogMessage, payload)))
            except ProtocolError as exc:
                self.counts["refused"] += 1
                self._problem(f"refused a message on {topic_name!r}: {exc}")
                out[n] = "refused"
        self._store_entries(entries, out)
        return out

    def _status(self, club: str, table: str, payload: bytes | bytearray) -> str:
        if not payload:  # a retained status cleared
            return "status"
        status = decode(Status, payload)
        missing = self.store.status(club, table, status)
        if missing is not None and status.log is not None:
            self._ask(club, table, status.log, missing)
        return "status"

    def _store_entries(self, entries: list[tuple[int, str, str, LogMessage]],
                       out: list[str]) -> None:
        if not entries:
            return
        results = self.store.ingest_many([(c, t, m) for _, c, t, m in entries])
        for (n, club, table, entry), done in zip(entries, results, strict=True):
            if not done.stored:
                self.counts["doubles"] += 1
                out[n] = "double"
                continue
            self.counts["stored"] += 1
            key = (club, table)
            if (done.resend_after is None and key in self._asked
                    and done.contiguous >= entry.seq):
                self._asked.discard(key)  # the gap is filled: no request may stay retained
                self.client.publish(topic(club, table, "resend"), b"", qos=1, retain=True)
            if done.resend_after is not None:
                self.counts["gaps"] += 1
                self._ask(club, table, entry.log, done.resend_after)
                out[n] = "gap"
            else:
                out[n] = "stored"

    def _ask(self, club: str, table: str, log_id: str, after: int) -> None:
        """Ask a table (retained, so it hears it when it next connects) for every entry of its
        log ``log_id`` after ``after``."""
        self._asked.add((club, table))
        log.info("table %s/%s: entries after %d missing, asking again", club, table, after)
        self.client.publish(topic(club, table, "resend"),
                            Resend(log=log_id, after=after).model_dump_json(), qos=1,
                            retain=True)

    def _problem(self, text: str) -> None:
        log.warning("%s", text)
        self.errors = [*self.errors[-19:], f"{time.strftime('%H:%M:%S')} {text}"]
