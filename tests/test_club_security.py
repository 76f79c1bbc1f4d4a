"""The broker's accounts with a real Mosquitto: accounts made by `cardtable club tables add` and
`club server-account` (its password file through mosquitto_passwd, its ACL); a table publishes
under its own topics only, and nobody gets in without a password."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from _services import Mosquitto, wait_until
from paho.mqtt.enums import CallbackAPIVersion

from club.protocol import Broker, GameHeader, LogMessage, topic
from club.server import ClubServer
from club.store import Store, sqlite_url
from controller.club_link import ClubLink
from controller.log import GameLog, NewEntry


def account(*args: str) -> dict[str, str]:
    out = subprocess.run([sys.executable, "-m", "cardtable", "club", *args], capture_output=True,
                         text=True, check=True).stdout
    if "server-account" in args:
        url = out.split("--broker '")[1].split("'")[0]
        return {"url": url}
    fields = dict(line.split(" = ", 1) for line in out.splitlines() if " = " in line)
    return {k: v.strip('"') for k, v in fields.items()}


@pytest.fixture
def secured(tmp_path: Path) -> Iterator[tuple[Mosquitto, dict, dict, str]]:
    broker = Mosquitto(conf_extra="allow_anonymous false\n")  # not started: its files first
    passwd, acl = broker.folder / "passwd", broker.folder / "acl"
    server = account("server-account", "--passwd", str(passwd), "--acl", str(acl))
    t1 = account("tables", "add", "t1", "--club", "spb", "--passwd", str(passwd), "--acl", str(acl))
    t2 = account("tables", "add", "t2", "--club", "spb", "--passwd", str(passwd), "--acl", str(acl))
    passwd.chmod(0o644)
    with broker.conf.open("a") as f:
        f.write(f"password_file {passwd}\nacl_file {acl}\n")
    broker.start()
    yield broker, t1, t2, server["url"].replace("127.0.0.1:1883", f"127.0.0.1:{broker.port}")
    broker.close()




def test_a_table_publishes_only_under_its_own_topic(secured, tmp_path):
    broker, t1, t2, server_url = secured
    store = Store(sqlite_url(tmp_path / "club.sqlite"))
    server = ClubServer(store, Broker.parse(server_url)).start()
    log = GameLog(tmp_path / "t1.sqlite")
    log.new_game("durak2", {}, ["Аня", "Боря"])
    game = log.active_game()
    assert game is not None
    url = f"mqtt://{t1['username']}:{t1['password']}@127.0.0.1:{broker.port}"
    lk = ClubLink(log.path, Broker.parse(url), "spb", "t1", poll_s=0.02).start()
    forger = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"t2-{uuid.uuid4().hex[:6]}")
    forger.username_pw_set(t2["username"], t2["password"])
    try:
        assert server.connected.wait(10)
        seqs = [log.append(game.id, [NewEntry("input", {"n": i})]) for i in range(5)]
        wait_until(lambda: len(store.entries("spb", "t1")) == 5)
        forger.connect("127.0.0.1", broker.port)
        forger.loop_start()
        head = GameHeader(id=9, name="durak2", started=1.0, status="active")
        forged = LogMessage(log="forged-log-01", seq=1, prev=0, game=head, t=1.0, kind="event",
                            body={"event": "shoe AS"}).encode()
        forger.publish(topic("spb", "t1", "log"), forged, qos=1).wait_for_publish(5)
        # and its own topic works, to show the forger was connected and heard
        forger.publish(topic("spb", "t2", "log"), forged, qos=1).wait_for_publish(5)
        wait_until(lambda: len(store.entries("spb", "t2")) == 1)
        time.sleep(0.5)
        assert [e.seq for e in store.entries("spb", "t1")] == seqs  # nothing of t2's in t1's
    finally:
        forger.loop_stop()
        lk.stop()
        server.stop()
        store.close()
        log.close()


def test_nobody_gets_in_without_a_password(secured):
    broker, *_ = secured
    refused: list[str] = []
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="anonymous")
    c.on_connect = lambda _c, _u, _f, reason, _p: refused.append(str(reason))
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    try:
        wait_until(lambda: bool(refused))
    finally:
        c.loop_stop()
    assert refused[0] != "Success"
