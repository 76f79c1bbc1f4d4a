"""The web server's guard against connection floods: a deadline for a request's headers and a
bound on open connections.

uvicorn has neither: its keep-alive timer starts again with every byte received, so a client
that sends a request line and then a header line every few seconds holds its connection, and a
file handle, for as long as it likes (uvicorn issue #157, open since 2018); ``limit_concurrency``
answers 503 only once a request is complete, so connections that never complete one are never
counted against it. About a thousand such connections used up a table's 1,024 file handles.

:func:`guarded_protocol` makes uvicorn's own HTTP/1.1 protocol (h11) with two additions, passed
as ``uvicorn.Config(http=...)``:

* a connection whose request headers are not complete ``header_timeout`` seconds after it
  opened (or after its previous response) is closed;
* a connection past ``max_connections`` open ones (WebSockets included) is closed at once, so
  the file handles the table needs for its log, cameras and archive stay free
  (:func:`max_connections_for_this_process` leaves room for them and for one accept batch,
  ``BACKLOG``, below the process's file limit).

:class:`GuardCounts` says how many were dropped, for the logs and the tests.
:class:`RepeatFilter` (:func:`quiet_repeats`) logs an error that repeats once, then its count:
asyncio logs a failed ``accept()`` with its traceback every time, and a flood's 123 MB of
them once filled a table's stderr (and a pipe that nobody read would block the server).
"""

from __future__ import annotations

import asyncio
import logging
import os
import resource
import threading
import time
from dataclasses import dataclass
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

log = logging.getLogger("cardtable.web")

HEADER_TIMEOUT_S = 5.0
MAX_CONNECTIONS = 400
BACKLOG = 64  # connections accepted in one go (uvicorn's 2,048 would overrun a low file limit)
FILES_KEPT = 64  # file handles left to the rest of the table (log, cameras, archive, serial)
REPEAT_WINDOW_S = 60.0


@dataclass
class GuardCounts:
    slow: int = 0  # closed: headers not complete in time
    over: int = 0  # closed at once: too many connections open


def max_connections_for_this_process(limit: int = MAX_CONNECTIONS) -> int:
    """``limit``, or fewer where the process may open fewer files (its ``RLIMIT_NOFILE``, less
    the files open now, one accept batch and ``FILES_KEPT``)."""
    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY:
        return limit
    try:
        open_now = len(os.listdir("/proc/self/fd"))
    except OSError:
        open_now = 32
    return max(8, min(limit, soft - open_now - BACKLOG - FILES_KEPT))


class RepeatFilter(logging.Filter):
    """Lets a log record through the first time; the same record again (logger, level,
    message, exception type) within ``window`` seconds is counted instead, and the count is
    added to the next one let through. An OSError's traceback (out of files, a full disk: the
    machine's state, not a bug) becomes one line."""

    def __init__(self, window: float = REPEAT_WINDOW_S) -> None:
        super().__init__()
        self.window = window
        self._seen: dict[tuple[Any, ...], list[float]] = {}  # key -> [first time, repeats]
        self._lock = threading.Lock()

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[0].__name__ if record.exc_info and record.exc_info[0] else ""
        key = (record.name, record.levelno, str(record.msg), exc)
        now = time.monotonic()
        with self._lock:
            seen = self._seen.get(key)
            if seen is not None and now - seen[0] < self.window:
                seen[1] += 1
                return False
            repeats = int(seen[1]) if seen is not None else 0
            self._seen[key] = [now, 0]
            if len(self._seen) > 1000:
                self._seen = {k: v for k, v in self._seen.items() if now - v[0] < self.window}
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, OSError):  # the machine's state (files, disk), not a bug: one line
            record.msg, record.args = f"{record.getMessage()}: {error}", ()
            record.exc_info, record.exc_text = None, None
        if repeats:
            record.msg = f"{record.msg} (and {repeats} more like it in the last " \
                         f"{self.window:.0f} s)"
        return True


def quiet_repeats(logger: logging.Logger | None = None) -> None:
    """Put a :class:`RepeatFilter` on every handler of ``logger`` (the root logger)."""
    for handler in (logger or logging.getLogger()).handlers:
        if not any(isinstance(f, RepeatFilter) for f in handler.filters):
            handler.addFilter(RepeatFilter())


def guarded_protocol(max_connections: int, header_timeout: float = HEADER_TIMEOUT_S,
                     counts: GuardCounts | None = None) -> type[H11Protocol]:
    """uvicorn's h11 protocol with the header deadline and the connection bound."""
    tally = counts if counts is not None else GuardCounts()

    class GuardedH11Protocol(H11Protocol):
        guard = tally

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            self._deadline: asyncio.TimerHandle | None = None
            super().connection_made(transport)
            if len(self.connections) > max_connections:
                tally.over += 1
                log.warning("web: more than %d connections open; closing new ones",
                            max_connections)
                transport.abort()
                return
            self._arm()

        def _arm(self) -> None:
            self._disarm()
            self._deadline = self.loop.call_later(header_timeout, self._expired)

        def _disarm(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
                self._deadline = None

        def _expired(self) -> None:
            self._deadline = None
            waiting = self.conn.their_state is h11.IDLE  # no complete request yet
            if waiting and not self.transport.is_closing() and (
                    self.cycle is None or self.cycle.response_complete):
                tally.slow += 1
                log.warning("web: a request's headers were not complete within %.0f s; "
                            "closing the connection", header_timeout)
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:
                self._disarm()  # the headers are in

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()  # the next request on this connection gets the same deadline

        def handle_websocket_upgrade(self, event: Any) -> None:
            self._disarm()
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return GuardedH11Protocol


def host_allowed(host: str, extra: frozenset[str] = frozenset()) -> bool:
    """Whether a request's ``Host`` names this machine as a browser on the room's network would:
    an IP address, a name without a dot (``localhost``, ``raspberrypi``), a ``.local`` (mDNS)
    name, or one of ``extra``. DNS rebinding needs a name in a public domain the attacker
    controls, which is none of these."""
    import ipaddress

    name = host.strip().lower()
    if name.startswith("["):  # [v6]:port
        name = name[1:].split("]", 1)[0]
    elif name.count(":") == 1:
        name = name.split(":", 1)[0]
    if not name:
        return False
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    return "." not in name or name.endswith(".local") or name in extra


class HostGuard:
    """ASGI middleware: HTTP requests and WebSockets whose ``Host`` is not this machine's (see
    :func:`host_allowed`) are refused (400, or the socket closed), so a page on another site
    cannot reach the table's API through DNS rebinding. Starlette's TrustedHostMiddleware takes
    a list of names and cannot say "any IP address", which a TV on the room's network uses."""

    def __init__(self, app: Any, extra_hosts: tuple[str, ...] = ()) -> None:
        self.app = app
        self.extra = frozenset(h.strip().lower() for h in extra_hosts if h.strip())

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] in ("http", "websocket"):
            host = next((v.decode("latin-1") for k, v in scope.get("headers", [])
                         if k == b"host"), "")
            if not host_allowed(host, self.extra):
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 1008})
                    return
                body = b"this host name is not the table's\n"
                await send({"type": "http.response.start", "status": 400,
                            "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                                        (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)
