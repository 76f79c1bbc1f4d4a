"""Helpers for the UI tests and benchmark: a live uvicorn server in a thread, a game driver.

Why here and not in tests/: ``bench/bench_ui.py`` needs the same live server and the same way of
driving a game through ``Controller.submit`` as the browser tests.
"""

from __future__ import annotations

import random
import socket
import threading
import time
from typing import Any

from controller.core import Controller, Reply
from controller.inputs import Admin, ShoeCard
from engine.events import Event
from engine.view import table_view
from table_ui.app import create_app, server
from table_ui.security import hash_pin

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--no-first-run", "--disable-sync"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """``create_app(controller)`` served by uvicorn on 127.0.0.1:port in a daemon thread."""

    def __init__(self, controller: Controller, port: int | None = None, pin: str = "2468",
                 **app_kw: Any) -> None:
        self.controller = controller
        self.port = port or free_port()
        self.app = create_app(controller, admin_pin_hash=hash_pin(pin), **app_kw)
        self.server = server(self.app, port=self.port, timeout_graceful_shutdown=1)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 15
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(15)

    def __exit__(self, *exc: Any) -> None:
        self.stop()


def step(ctl: Controller, rng: random.Random) -> Reply | None:
    """One random legal input: a shoe card when the shoe deals, else a legal engine action."""
    g = ctl.game
    if g is None or g.is_over:
        return None
    if g.expects_shoe:
        return ctl.submit(ShoeCard(card=rng.choice(g.unseen_cards()).code))
    actions = g.legal_actions(g.to_act())
    if not actions:
        return None
    return ctl.submit(Admin(action="event", event=str(rng.choice(actions))))


def deal_until_play(ctl: Controller, rng: random.Random, limit: int = 200) -> None:
    """Feed shoe cards until the game wants a play."""
    for _ in range(limit):
        g = ctl.game
        if g is None or not g.expects_shoe:
            return
        step(ctl, rng)


def play_until(ctl: Controller, rng: random.Random, done: Any, limit: int = 2000) -> bool:
    for _ in range(limit):
        if done(ctl):
            return True
        if step(ctl, rng) is None:
            return bool(done(ctl))
    return bool(done(ctl))


def at_defence(ctl: Controller) -> bool:
    """Durak: the defender is to act on an uncovered attacking card."""
    g = ctl.game
    assert g is not None
    v = table_view(g)
    return (bool(v.trick) and not g.expects_shoe and v.trick[-1].covered_by is None
            and g.to_act() == v.extra.get("defender"))


def illegal_beat(ctl: Controller) -> str:
    """A defender's 'beat' that the rules forbid, in the current Durak bout."""
    g = ctl.game
    assert g is not None
    v = table_view(g)
    seat = g.to_act()
    assert seat is not None
    for card in g.hand(seat):
        for t in v.trick:
            text = f"{seat} beat {card.code} {t.card}"
            if not g.judge(Event.parse(text)).legal:
                return text
    raise AssertionError("no illegal beat in this position")
