"""The table's web server answers only to its own host names (no DNS rebinding), and its admin
PIN is kept across restarts: made once and written to stderr, kept (hashed, owner-only) beside
the log, and made anew only by `cardtable admin-pin`."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.core import Controller
from controller.log import GameLog
from table_ui.app import create_app
from table_ui.guard import host_allowed
from table_ui.security import hash_pin, verify_pin


@pytest.mark.parametrize(("host", "ok"), [
    ("127.0.0.1:8000", True), ("192.168.1.20:8000", True), ("[::1]:8000", True),
    ("localhost:8000", True), ("raspberrypi", True), ("table-1.local:8000", True),
    ("evil.example.com", False), ("192.168.1.20.nip.io:8000", False), ("", False),
])
def test_host_names_of_this_machine_only(host: str, ok: bool) -> None:
    assert host_allowed(host) is ok


def test_a_rebound_name_gets_nothing(tmp_path: Path) -> None:
    log = GameLog(tmp_path / "t.sqlite")
    app = create_app(Controller(log), admin_pin_hash=hash_pin("111111"))
    with TestClient(app) as tc:
        assert tc.get("/api/state", headers={"host": "attacker.example"}).status_code == 400
        assert tc.get("/api/state", headers={"host": "192.168.0.7:8000"}).status_code == 200
        from starlette.websockets import WebSocketDisconnect

        with pytest.raises(WebSocketDisconnect), tc.websocket_connect(
                "/ws", headers={"host": "attacker.example"}) as ws:
            ws.receive_json()
    log.close()


def run(tmp: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CARDTABLE_DATA_DIR": str(tmp)}
    env.pop("CARDTABLE_ADMIN_PIN", None)
    return subprocess.run([sys.executable, "-m", "cardtable", *args], env=env,
                          capture_output=True, text=True, timeout=120)


def test_the_admin_pin_is_made_once_and_kept(tmp_path: Path) -> None:
    from table_ui.testing import free_port

    port = str(free_port())
    short = ["--bundle", str(Path(__file__).resolve().parents[1] / "controller" / "data" /
                             "durak2")]
    first = run(tmp_path, "run", "--once", "--speed", "500", "--no-panels", "--port", port,
                *short)
    assert first.returncode == 0, first.stderr
    pin = first.stderr.split("admin PIN: ")[1].split()[0]
    assert "admin PIN" not in first.stdout  # on stderr only, as the docs say
    kept = tmp_path / "admin-pin.hash"
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600
    assert verify_pin(pin, kept.read_text().strip())
    second = run(tmp_path, "run", "--once", "--speed", "500", "--no-panels", "--port", port,
                 "--new-game", *short)
    assert second.returncode == 0 and "admin PIN: " not in second.stderr  # the same PIN
    assert "as first printed" in second.stdout
    new = run(tmp_path, "admin-pin")
    assert new.returncode == 0
    new_pin = new.stdout.split("admin PIN: ")[1].split()[0]
    assert verify_pin(new_pin, kept.read_text().strip()) and not verify_pin(
        pin, kept.read_text().strip())
