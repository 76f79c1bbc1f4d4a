"""Fan-out of the controller's public state to the display WebSockets.

Why it exists: the controller calls its listeners from its own thread, under its lock, after
every committed change. A slow or dead browser must never slow the table, so the listener here
does one thing — ``loop.call_soon_threadsafe`` — and all JSON encoding and queueing happen on
the web server's event loop. Each client has a small bounded queue; when it is full the oldest
message is dropped (every message is a full state, so the client still ends up current) and the
client is counted as having needed a resync. When changes come faster than the loop runs, the
newest snapshot replaces one not yet sent (latest wins), so a burst costs the loop one encoding.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import threading
import time
from typing import Any

from controller.public import PublicState

log = logging.getLogger("cardtable.table_ui")

QUEUE_SIZE = 16


def state_message(state: dict[str, Any], now: float | None = None) -> str:
    """The one message shape the display socket sends: a full public state with its seq."""
    return json.dumps({"type": "state", "seq": state.get("seq"), "now": now or time.time(),
                       "state": state}, ensure_ascii=False, separators=(",", ":"))


class Client:
    def __init__(self, size: int = QUEUE_SIZE) -> None:
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=size)
        self.dropped = 0

    def offer(self, message: str | None) -> None:
        """Queue a message (loop thread only); drop the oldest when the client lags."""
        if self.queue.full():
            with contextlib.suppress(asyncio.QueueEmpty):
                self.queue.get_nowait()
            self.dropped += 1
        self.queue.put_nowait(message)


class Hub:
    """Every connected display; ``publish`` may be called from any thread."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.clients: set[Client] = set()
        self.latest: dict[str, Any] | None = None
        self.latest_text: str | None = None
        self.published = 0
        self._pending: PublicState | None = None
        self._scheduled = False
        self._lock = threading.Lock()

    def attach(self, loop: asyncio.AbstractEventLoop, state: PublicState) -> None:
        self.loop = loop
        self._set_latest(state.to_json())

    def _set_latest(self, state: dict[str, Any]) -> None:
        self.latest = state
        self.latest_text = state_message(state)

    # -- controller thread ------------------------------------------------------------------
    def publish(self, state: PublicState) -> None:
        """The controller's listener: hand the snapshot to the event loop, nothing more (its JSON
        is made there)."""
        loop = self.loop
        if loop is None:
            return
        with self._lock:  # latest wins while the loop has not caught up
            self._pending = state
            if self._scheduled:
                return
            self._scheduled = True
        with contextlib.suppress(RuntimeError):  # a closed loop: the web server is stopping
            loop.call_soon_threadsafe(self._flush)

    def _flush(self) -> None:
        with self._lock:
            state, self._pending, self._scheduled = self._pending, None, False
        if state is not None:
            self._fanout(state.to_json())

    # -- event loop -------------------------------------------------------------------------
    def _fanout(self, state: dict[str, Any]) -> None:
        if self.latest is not None and (state.get("seq") or 0) < (self.latest.get("seq") or 0):
            return  # an older snapshot overtaken by a newer one
        self._set_latest(state)
        self.published += 1
        for client in self.clients:
            client.offer(self.latest_text)

    def add(self) -> Client:
        client = Client()
        self.clients.add(client)
        return client

    def remove(self, client: Client) -> None:
        self.clients.discard(client)

    def close_all(self) -> None:
        for client in list(self.clients):
            client.offer(None)  # None tells the client's sender to close the socket
