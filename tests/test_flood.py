"""A connection flood never stops the table (issue: the table keeps playing). The simulated
table (`cardtable run`, a bundled game replayed in real time) runs with its file limit set low
(256); more idle connections than that are opened to its display, each sending a request line
and then one header line every 2 s and never finishing (slowloris). The game goes on (its log
grows during the flood), the process does not stop or fill stderr, slow connections are
closed, and the display answers again once the flood is over. And the guard itself, in-process: slow headers
are closed after the deadline, connections past the bound at once, a normal request is served."""

from __future__ import annotations

import contextlib
import os
import resource
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
import uvicorn
from fastapi import FastAPI

from table_ui.guard import GuardCounts, guarded_protocol
from table_ui.testing import free_port

ROOT = Path(__file__).resolve().parents[1]
FILE_LIMIT = 256


def entries(db: Path) -> int:
    try:
        with sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=5) as c:
            return int(c.execute("SELECT count(*) FROM entries").fetchone()[0])
    except sqlite3.Error:
        return 0


def slow_clients(port: int, n: int, stop: threading.Event) -> list[socket.socket]:
    socks = []
    for _ in range(n):
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=2)
            s.sendall(b"GET / HTTP/1.1\r\nHost: table\r\n")
            socks.append(s)
        except OSError:
            continue  # refused or reset: the server is shedding them, as it should

    def trickle() -> None:
        k = 0
        while not stop.wait(2.0):
            for s in socks:
                with contextlib.suppress(OSError):
                    s.sendall(f"X-Slow-{k}: 1\r\n".encode())
            k += 1

    threading.Thread(target=trickle, daemon=True).start()
    return socks


def limit_files() -> None:
    resource.setrlimit(resource.RLIMIT_NOFILE, (FILE_LIMIT, FILE_LIMIT))


@pytest.mark.timeout(240)
def test_a_slowloris_flood_does_not_stop_the_table(tmp_path: Path) -> None:
    port = free_port()
    db = tmp_path / "table.sqlite"
    env = {**os.environ, "CARDTABLE_DATA_DIR": str(tmp_path)}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardtable", "run", "--no-panels", "--port", str(port),
         "--bundle", str(ROOT / "controller" / "data" / "durak2"), "--speed", "1",
         "--db", str(db)], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        preexec_fn=limit_files)
    stop = threading.Event()
    socks: list[socket.socket] = []
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.2)
        before = entries(db)
        socks = slow_clients(port, FILE_LIMIT + 100, stop)
        time.sleep(12)  # the flood, held open while the shoe deals
        assert proc.poll() is None, "the table stopped"
        during = entries(db)
        assert during > before, "the game did not go on"
        # slow connections were closed by the server: reading them gives EOF or a reset
        closed = 0
        for s in socks:
            s.settimeout(0.05)
            try:
                closed += s.recv(1) == b""
            except (ConnectionResetError, BrokenPipeError):
                closed += 1
            except OSError:
                pass
        assert closed >= len(socks) // 2
    finally:
        stop.set()
        for s in socks:
            s.close()
    try:
        answered = False
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not answered:
            try:
                answered = httpx.get(f"http://127.0.0.1:{port}/", timeout=2).status_code == 200
            except httpx.HTTPError:
                time.sleep(0.3)
        assert answered, "the display did not answer after the flood"
        assert proc.poll() is None
    finally:
        proc.terminate()
        _out, err = proc.communicate(timeout=30)
    assert b"Traceback" not in err
    assert len(err) < 64_000, f"stderr grew to {len(err)} bytes"


def closed_by_server(s: socket.socket) -> bool:
    s.settimeout(2)
    try:
        return s.recv(1) == b""
    except ConnectionResetError:
        return True


def run_guarded(app: FastAPI, max_connections: int, timeout: float
                ) -> tuple[uvicorn.Server, GuardCounts, int]:
    counts = GuardCounts()
    port = free_port()
    srv = uvicorn.Server(uvicorn.Config(app, port=port, log_level="critical",
                                        http=guarded_protocol(max_connections, timeout, counts)))
    threading.Thread(target=srv.run, daemon=True).start()
    deadline = time.monotonic() + 10
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.02)
    return srv, counts, port


def test_the_guard_closes_slow_headers_and_connections_past_the_bound() -> None:
    app = FastAPI()

    @app.get("/")
    def hello() -> dict:
        return {"ok": True}

    srv, counts, port = run_guarded(app, max_connections=5, timeout=1.0)
    try:
        slow = [socket.create_connection(("127.0.0.1", port)) for _ in range(5)]
        for s in slow:
            s.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        extra = socket.create_connection(("127.0.0.1", port))
        assert closed_by_server(extra)  # past the bound: closed at once
        time.sleep(1.6)
        assert all(closed_by_server(s) for s in slow)  # headers never completed: closed
        assert counts.slow == 5 and counts.over >= 1
        assert httpx.get(f"http://127.0.0.1:{port}/").json() == {"ok": True}
        # a keep-alive client that finishes its requests in time is never cut
        with httpx.Client(base_url=f"http://127.0.0.1:{port}") as c:
            assert [c.get("/").status_code for _ in range(3)] == [200] * 3
    finally:
        srv.should_exit = True


def test_a_repeated_error_is_written_once_then_counted() -> None:
    """asyncio logs a failed accept() with its traceback every time; the table writes it once,
    as one line (an OSError is the machine's state, not a bug), and counts the repeats."""
    import io
    import logging

    from table_ui.guard import RepeatFilter

    out = io.StringIO()
    handler = logging.StreamHandler(out)
    rf = RepeatFilter(window=60.0)
    handler.addFilter(rf)
    logger = logging.getLogger("test.flood.repeat")
    logger.addHandler(handler)
    logger.propagate = False
    try:
        for _ in range(50):
            try:
                raise OSError(24, "Too many open files")
            except OSError:
                logger.error("socket.accept() out of system resource", exc_info=True)
        text = out.getvalue()
        assert text.count("out of system resource") == 1 and "Traceback" not in text
        assert "Too many open files" in text
        rf.window = 0.0  # the window over: the next one says how many were held back
        try:
            raise OSError(24, "Too many open files")
        except OSError:
            logger.error("socket.accept() out of system resource", exc_info=True)
        assert "(and 49 more like it" in out.getvalue()
    finally:
        logger.removeHandler(handler)
