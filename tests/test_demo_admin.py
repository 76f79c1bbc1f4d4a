"""The demo does not swallow the organiser's game: while the simulated table replays its
recordings, the admin's «Начать игру» is refused with a message saying why (in Russian; English
with ``?lang=en``), the page says so before anyone presses it, and the game being replayed goes
on. A real ``cardtable run`` (the simulated table) over HTTP, and the app alone for the words."""

from __future__ import annotations

import http.cookiejar
import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from fastapi.testclient import TestClient

from controller.core import Controller
from controller.log import GameLog
from table_ui.app import create_app
from table_ui.security import hash_pin
from table_ui.testing import free_port

ROOT = Path(__file__).resolve().parents[1]
PIN = "2468"


def test_the_demo_refuses_a_new_game_and_says_why(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "CARDTABLE_DATA_DIR": str(tmp_path), "CARDTABLE_ADMIN_PIN": PIN}
    proc = subprocess.Popen([sys.executable, "-m", "cardtable", "run", "--no-panels", "--port",
                             str(port), "--bundle", str(ROOT / "controller" / "data" / "durak2")],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True)
    url = f"http://127.0.0.1:{port}"
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))

    def call(path: str, body: dict | None = None, csrf: str = "") -> tuple[int, dict]:
        req = urllib.request.Request(url + path, data=None if body is None else
                                     json.dumps(body).encode(), method="GET" if body is None
                                     else "POST", headers={"Content-Type": "application/json",
                                                           "X-CSRF-Token": csrf})
        try:
            with opener.open(req, timeout=5) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as exc:
            return exc.code, json.loads(exc.read())

    try:
        deadline = time.monotonic() + 60
        state: dict = {}
        while time.monotonic() < deadline:
            try:
                _, state = call("/api/state")
                if state.get("game_id"):
                    break
            except OSError:
                pass
            time.sleep(0.3)
        game = state["game_id"]
        status, login = call("/api/admin/login", {"pin": PIN})
        assert status == 200, login
        csrf = login["csrf"]
        _, admin = call("/api/admin/state")
        assert admin["table"]["replaying"] is True  # the page greys «Начать игру» out
        status, body = call("/api/admin/new_game", {"game": "joker", "names": ["Зоя"]}, csrf)
        assert status == 409 and body["rule"] == "demo-replays-recordings"
        assert "воспроизводит записанные партии" in body["detail"]
        _, state = call("/api/state")
        assert state["game_id"] == game and state["view"]["game"] == "durak2"  # still replayed
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def test_a_real_table_starts_the_admins_game(tmp_path: Path) -> None:
    ctl = Controller(GameLog(tmp_path / "table.sqlite"))
    for replaying, expected in ((True, 409), (False, 200)):
        app = create_app(ctl, admin_pin_hash=hash_pin(PIN), replaying=replaying)
        with TestClient(app) as client:
            csrf = client.post("/api/admin/login", json={"pin": PIN}).json()["csrf"]
            r = client.post("/api/admin/new_game?lang=en", json={"game": "durak2"},
                            headers={"X-CSRF-Token": csrf})
            assert r.status_code == expected, r.text
            if replaying:
                assert "replays recorded games" in r.json()["detail"] and ctl.game is None
            else:
                assert ctl.game is not None and ctl.game.name == "durak2"
            assert client.get("/api/admin/state").json()["table"]["replaying"] is replaying
