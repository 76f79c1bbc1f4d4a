"""`cardtable club demo` as the README runs it: a broker, the club server and three simulated
tables; the room page shows all three playing; Ctrl-C stops every part it started."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from table_ui.testing import free_port


@pytest.mark.timeout(180)
def test_the_club_demo_shows_three_tables_and_stops_cleanly(tmp_path: Path) -> None:
    port = free_port()
    env = {**os.environ, "CARDTABLE_DATA_DIR": str(tmp_path)}
    proc = subprocess.Popen([sys.executable, "-m", "cardtable", "club", "demo", "--port",
                             str(port), "--speed", "20"], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    room: list = []
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            try:
                room = httpx.get(f"http://127.0.0.1:{port}/api/room", timeout=2).json()
            except httpx.HTTPError:
                room = []
            if len(room) == 3 and all(t["online"] and t["game"] and t["check"] == "ok"
                                      for t in room):
                break
            time.sleep(0.5)
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=60)
    assert sorted(t["game"] for t in room) == ["bazar", "belot2", "durak2"]
    # the tables play the demo's registered players, in tonight's evening
    assert sorted(n for t in room for n in t["players"]) == sorted(
        ["Аня", "Боря", "Вера", "Глеб", "Дина", "Егор", "Женя", "Зоя"])
    assert f"http://127.0.0.1:{port}/" in out
    assert "/admin   PIN " in out
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    left = subprocess.run(["pgrep", "-f", "cardtable-club-demo-"], capture_output=True, text=True)
    assert left.stdout.strip() == ""  # no broker or table left running
    assert (tmp_path / "club-demo.sqlite").is_file()
