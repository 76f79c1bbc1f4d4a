"""The admin PIN's rate limit cannot be raced (the table's and the club's): 40 wrong PINs sent at
once from one address through a real server: at most 5 are checked, the rest refused with 429;
the right PIN is refused too until the minute has passed (it would be a 6th check)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest

from club.store import Store, sqlite_url
from club.web import create_club_app
from controller.core import Controller
from controller.log import GameLog
from table_ui.app import create_app, server
from table_ui.security import RateLimiter, hash_pin
from table_ui.testing import free_port

PIN = "135790"


def serve(app) -> Iterator[str]:
    port = free_port()
    srv = server(app, port=port)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield f"http://127.0.0.1:{port}"
    srv.should_exit = True
    thread.join(10)


@pytest.fixture
def table(tmp_path: Path) -> Iterator[str]:
    log = GameLog(tmp_path / "t.sqlite")
    yield from serve(create_app(Controller(log), admin_pin_hash=hash_pin(PIN)))
    log.close()


@pytest.fixture
def club(tmp_path: Path) -> Iterator[str]:
    store = Store(sqlite_url(tmp_path / "club.sqlite"))
    store.organiser.set_pin_hash(hash_pin(PIN))
    yield from serve(create_club_app(store, "spb"))
    store.close()


def burst(send) -> list[int]:
    with ThreadPoolExecutor(40) as pool:
        return list(pool.map(lambda _: send(), range(40)))


def test_forty_wrong_pins_at_once_at_the_table(table: str) -> None:
    codes = burst(lambda: httpx.post(table + "/api/admin/login", json={"pin": "000000"},
                                     timeout=30).status_code)
    assert codes.count(401) <= 5 and codes.count(401) + codes.count(429) == 40
    assert httpx.post(table + "/api/admin/login", json={"pin": PIN}).status_code == 429


def test_forty_wrong_pins_at_once_at_the_club(club: str) -> None:
    codes = burst(lambda: httpx.post(club + "/admin/login", data={"pin": "000000"},
                                     timeout=30).status_code)
    assert codes.count(401) <= 5 and codes.count(401) + codes.count(429) == 40


def test_the_limit_counts_every_address_together() -> None:
    clock = [0.0]
    limiter = RateLimiter(limit=5, overall=8, clock=lambda: clock[0])
    tries = [limiter.attempt(f"10.0.0.{k}") for k in range(20)]  # one try each from 20 hosts
    assert tries.count(True) == 8
    clock[0] = 61.0
    assert limiter.attempt("10.0.0.99")  # a minute later it is open again
