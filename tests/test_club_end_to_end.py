"""End to end with real parts: simulated tables (`cardtable run --club`, whole bundled games)
publish through a real Mosquitto into a real PostgreSQL, and the club has exactly each table's
log — every entry once, in order, the game's status as the table has it."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from _services import Mosquitto, Postgres

from club.protocol import Broker
from club.server import ClubServer
from club.store import Store
from controller.log import GameLog

ROOT = Path(__file__).resolve().parents[1]
BUNDLES = ROOT / "controller" / "data"


@pytest.mark.timeout(300)
def test_simulated_tables_publish_whole_games_into_the_club(tmp_path: Path) -> None:
    broker, pg = Mosquitto().start(), Postgres().start()
    store = Store(pg.database("club_e2e"))
    server = ClubServer(store, Broker.parse(broker.url),
                        client_id=f"server-{uuid.uuid4().hex[:6]}").start()
    tables = {"t1": "durak2", "t2": "belot2"}
    try:
        assert server.connected.wait(10)
        procs = {}
        for name, bundle in tables.items():
            env = {**os.environ, "CARDTABLE_DATA_DIR": str(tmp_path / name)}
            procs[name] = subprocess.Popen(
                [sys.executable, "-m", "cardtable", "run", "--no-web", "--no-panels", "--once",
                 "--speed", "1000", "--bundle", str(BUNDLES / bundle), "--db",
                 str(tmp_path / f"{name}.sqlite"), "--club", broker.url, "--club-name", "spb",
                 "--table-name", name], env=env, stdout=subprocess.PIPE,
                stderr=subprocess.PIPE, text=True)
        for proc in procs.values():
            _, err = proc.communicate(timeout=240)
            assert proc.returncode == 0, err
            assert "Traceback" not in err
        for name, bundle in tables.items():
            log = GameLog(tmp_path / f"{name}.sqlite", readonly=True)
            try:
                want = [(e.seq, e.kind, e.body) for e in log.entries()]
                (game,) = log.games()
            finally:
                log.close()
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                got = [(e.seq, e.kind, e.body) for e in store.entries("spb", name)]
                if len(got) >= len(want):
                    break
                time.sleep(0.2)
            assert got == want, name
            (club_game,) = [g for g in store.games() if g.name == bundle]
            assert (club_game.status, club_game.names) == (game.status, game.names)
            assert game.status == "finished"
            # the club's result (the engine's fold of what arrived) is the table's own
            own = json.loads(subprocess.run(
                [sys.executable, "-m", "cardtable", "status", "--json", "--db",
                 str(tmp_path / f"{name}.sqlite")], capture_output=True, text=True,
                check=True).stdout)["view"]["outcome"]
            assert own["finished"]
            assert (club_game.check, club_game.finished, club_game.winner, club_game.totals) == (
                "ok", True, own["winner"], own["totals"])
    finally:
        server.stop()
        store.close()
        broker.close()
        pg.close()
