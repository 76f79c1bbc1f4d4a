"""The club server: every table's log entries from the broker into the club database.

It subscribes with a persistent session (the broker keeps what arrives while the server is
away) to every table's ``log`` and ``status`` topics (``club.protocol``), and acknowledges an
entry only once it is committed (paho's manual acks), so a server killed at any moment loses
nothing: the broker delivers the unacknowledged entries again and the store drops the doubles.
A gap (an entry whose ``prev`` is not stored) is answered with a retained ``resend`` request to
that table. A payload that is not this protocol's is logged and dropped; it never stops the
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

    def start(self) -> ClubServer:
        self.client.connect_async(self.broker.host, self.broker.port, keepalive=15)
        self.client.loop_start()
        self._worker.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        self._work.put(None)
        self._worker.join(timeout=5)
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
            msg = self._work.get()
            if msg is None or self._stop.is_set():
                return
            while not self._stop.is_set():
                try:
                    self.handle(msg.topic, msg.payload)
                    break
                except StoreError as exc:  # the database is down: hold the entry, try again
                    self._problem(f"{exc}; trying again in {RETRY_S:.0f} s")
                    self._stop.wait(RETRY_S)
            else:
                return  # stopping: not acknowledged, so the broker keeps it for next time
            if msg.qos > 0:
                self.client.ack(msg.mid, msg.qos)

    def handle(self, topic_name: str, payload: bytes | bytearray) -> str:
        """One message: stored, a double, refused (bad topic or payload), or a status."""
        try:
            club, table, leaf = parse_topic(topic_name)
            if leaf == "status":
                if not payload:  # a retained status cleared
                    return "status"
                status = decode(Status, payload)
                missing = self.store.status(club, table, status)
                if missing is not None and status.log is not None:
                    self._ask(club, table, status.log, missing)
                return "status"
            if leaf != "log":
                raise ProtocolError(f"the server does not take {leaf!r} messages")
            entry = decode(LogMessage, payload)
        except ProtocolError as exc:
            self.counts["refused"] += 1
            self._problem(f"refused a message on {topic_name!r}: {exc}")
            return "refused"
        done = self.store.ingest(club, table, entry)
        if not done.stored:
            self.counts["doubles"] += 1
            return "double"
        self.counts["stored"] += 1
        key = (club, table)
        if done.resend_after is None and key in self._asked and done.contiguous >= entry.seq:
            self._asked.discard(key)  # the gap is filled: the request must not stay retained
            self.client.publish(topic(club, table, "resend"), b"", qos=1, retain=True)
        if done.resend_after is not None:
            self.counts["gaps"] += 1
            self._ask(club, table, entry.log, done.resend_after)
            return "gap"
        return "stored"

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
