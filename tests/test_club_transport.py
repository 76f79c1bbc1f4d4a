"""The club's transport with real parts: a table's SQLite log published through a real Mosquitto
into a real PostgreSQL (``tests/_services.py``), and what goes wrong on a club evening: the
broker away, the table or the server restarted, doubles, gaps, bad payloads, a database down."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import paho.mqtt.client as mqtt
import pytest
from _services import Mosquitto, Postgres, free_port, wait_until
from paho.mqtt.enums import CallbackAPIVersion

from club.protocol import Broker, GameHeader, LogMessage, topic
from club.server import ClubServer
from club.store import Store
from controller.club_link import ClubLink
from controller.log import GameLog, NewEntry

CLUB, TABLE = "spb", "t1"


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    pg = Postgres().start()
    yield pg
    pg.close()


@pytest.fixture
def broker() -> Iterator[Mosquitto]:
    m = Mosquitto().start()
    yield m
    m.close()


@pytest.fixture
def store(postgres: Postgres) -> Iterator[Store]:
    s = Store(postgres.database(f"club_{uuid.uuid4().hex[:10]}"))
    yield s
    s.close()


def start_server(store: Store, broker: Mosquitto) -> ClubServer:
    server = ClubServer(store, Broker.parse(broker.url),
                        client_id=f"server-{uuid.uuid4().hex[:8]}").start()
    assert server.connected.wait(10)
    return server


@pytest.fixture
def server(store: Store, broker: Mosquitto) -> Iterator[ClubServer]:
    s = start_server(store, broker)
    yield s
    s.stop()


@pytest.fixture
def table_log(tmp_path: Path) -> Iterator[GameLog]:
    log = GameLog(tmp_path / "table.sqlite")
    log.new_game("durak2", {}, ["Аня", "Боря"])
    yield log
    log.close()


def write(log: GameLog, n: int) -> list[int]:
    """``n`` entries of the active game, each its own transaction as the controller writes."""
    game = log.active_game()
    assert game is not None
    return [log.append(game.id, [NewEntry("input", {"kind": "button", "seat": i % 2,
                                                    "button": "ok", "n": i})])
            for i in range(n)]




def stored(store: Store) -> list[int]:
    return [e.seq for e in store.entries(CLUB, TABLE)]


def link(log: GameLog, broker: Mosquitto, **kw) -> ClubLink:
    return ClubLink(log.path, Broker.parse(broker.url), CLUB, TABLE, poll_s=0.02, **kw).start()


def test_a_tables_entries_reach_the_club_in_order_and_once(table_log, broker, store, server):
    seqs = write(table_log, 30)
    states: list[str] = []
    lk = link(table_log, broker, on_state=lambda state, _detail: states.append(state))
    try:
        wait_until(lambda: len(stored(store)) == 30)
        wait_until(lambda: table_log.acked(lk.target) == seqs[-1])
    finally:
        lk.stop()
    assert stored(store) == seqs
    entries = store.entries(CLUB, TABLE)
    assert [e.body["n"] for e in entries] == list(range(30))
    (game,) = store.games()
    assert (game.name, game.names, game.status) == ("durak2", ["Аня", "Боря"], "active")
    assert "online" in states
    (_, stream), = store.streams()
    assert stream.contiguous == stream.last_seq == seqs[-1]


def test_the_broker_away_mid_game_loses_and_doubles_nothing(table_log, broker, store, server):
    lk = link(table_log, broker)
    try:
        first = write(table_log, 10)
        wait_until(lambda: len(stored(store)) == 10)
        broker.stop()
        more = write(table_log, 20)  # the table plays on
        time.sleep(0.5)
        broker.start()
        wait_until(lambda: len(stored(store)) == 30, timeout=40)
        wait_until(lambda: table_log.acked(lk.target) == more[-1], timeout=20)
    finally:
        lk.stop()
    assert stored(store) == first + more


def test_a_table_restarted_while_the_broker_is_down_sends_its_backlog(table_log, broker, store,
                                                                       server):
    lk = link(table_log, broker)
    first = write(table_log, 10)
    wait_until(lambda: table_log.acked(lk.target) == first[-1])
    lk.stop()
    broker.stop()
    more = write(table_log, 15)
    lk = link(table_log, broker)  # the table comes back before the broker does
    try:
        time.sleep(0.3)
        broker.start()
        wait_until(lambda: len(stored(store)) == 25, timeout=40)
    finally:
        lk.stop()
    assert stored(store) == first + more


def test_the_server_killed_and_restarted_loses_nothing(table_log, broker, store, tmp_path):
    cmd = [sys.executable, "-m", "cardtable", "club", "serve", "--db", store.url,
           "--broker", broker.url]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lk = link(table_log, broker)
    try:
        first = write(table_log, 10)
        wait_until(lambda: len(stored(store)) == 10, timeout=30)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait()
        more = write(table_log, 20)
        wait_until(lambda: table_log.acked(lk.target) == more[-1])  # the broker holds them
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        wait_until(lambda: len(stored(store)) == 30, timeout=30)
    finally:
        lk.stop()
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    assert stored(store) == first + more
    assert "Traceback" not in err
    assert proc.returncode == 0


def raw_client(broker: Mosquitto) -> mqtt.Client:
    c = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"raw-{uuid.uuid4().hex[:6]}")
    c.connect("127.0.0.1", broker.port)
    c.loop_start()
    return c


def message(seq: int, prev: int, log: str = "log-0001") -> bytes:
    game = GameHeader(id=1, name="durak2", names=["Аня", "Боря"], started=1.0, status="active")
    return LogMessage(log=log, seq=seq, prev=prev, game=game, t=float(seq), kind="input",
                      body={"n": seq}).encode()


def test_doubles_are_stored_once_and_a_gap_is_asked_for_again(broker, store, server):
    requests: list[bytes] = []
    watcher = raw_client(broker)
    watcher.on_message = lambda _c, _u, m: requests.append(m.payload)
    watcher.subscribe(topic(CLUB, TABLE, "resend"), qos=1)
    sender = raw_client(broker)
    log_topic = topic(CLUB, TABLE, "log")
    try:
        for seq, prev in ((1, 0), (3, 2), (2, 1), (2, 1), (1, 0)):  # out of order, and doubled
            sender.publish(log_topic, message(seq, prev), qos=1).wait_for_publish(5)
        wait_until(lambda: server.counts["stored"] + server.counts["doubles"] == 5)
        wait_until(lambda: len(requests) >= 2)  # the request, then its clearing once filled
    finally:
        sender.loop_stop()
        watcher.loop_stop()
    assert stored(store) == [1, 2, 3]
    assert server.counts == {"stored": 3, "doubles": 2, "refused": 0, "gaps": 1}
    assert b'"after":1' in requests[0]
    assert requests[-1] == b""  # filled: no request stays retained
    (_, stream), = store.streams()
    assert stream.contiguous == 3


def test_bad_payloads_are_refused_and_the_server_goes_on(broker, store, server):
    sender = raw_client(broker)
    try:
        for payload in (b"not json", b'{"v": 1}', message(1, 0).replace(b'"input"', b'"nope"')):
            sender.publish(topic(CLUB, TABLE, "log"), payload, qos=1).wait_for_publish(5)
        sender.publish(topic(CLUB, TABLE, "log"), message(1, 0), qos=1).wait_for_publish(5)
        wait_until(lambda: server.counts["stored"] == 1)
    finally:
        sender.loop_stop()
    assert server.counts["refused"] == 3
    assert stored(store) == [1]
    assert any("kind" in e for e in server.errors)


def test_a_database_down_mid_evening_holds_the_entries_until_it_returns(table_log, broker):
    pg = Postgres().start()
    try:
        store = Store(pg.database("club_down"))
        server = start_server(store, broker)
        lk = link(table_log, broker)
        try:
            first = write(table_log, 5)
            wait_until(lambda: len(stored(store)) == 5)
            pg.stop()
            more = write(table_log, 10)
            wait_until(lambda: any("cannot write" in e for e in server.errors), timeout=20)
            pg.start()
            wait_until(lambda: len(stored(store)) == 15, timeout=40)
        finally:
            lk.stop()
            server.stop()
            store.close()
        assert [e.seq for e in Store(store.url).entries(CLUB, TABLE)] == first + more
    finally:
        pg.close()


def test_a_broker_that_does_not_answer_never_stops_the_table(table_log, tmp_path):
    states: list[tuple[str, str]] = []
    lk = ClubLink(table_log.path, Broker.parse(f"mqtt://127.0.0.1:{free_port()}"), CLUB, TABLE,
                  on_state=lambda s, d: states.append((s, d))).start()
    try:
        seqs = write(table_log, 5)  # the game goes on
        time.sleep(1.5)
        assert lk.backlog() == 5
        assert table_log.last_seq() == seqs[-1]
    finally:
        lk.stop()
    assert states and all(s == "offline" for s, _ in states)


def test_the_embedded_default_is_a_sqlite_file_in_the_data_dir(data_home):
    from club.store import default_url

    store = Store(default_url())
    try:
        assert (data_home / "club.sqlite").is_file()
        first = store.ingest(CLUB, TABLE, LogMessage.model_validate_json(message(1, 0)))
        again = store.ingest(CLUB, TABLE, LogMessage.model_validate_json(message(1, 0)))
        gap = store.ingest(CLUB, TABLE, LogMessage.model_validate_json(message(3, 2)))
    finally:
        store.close()
    assert (first.stored, again.stored) == (True, False)
    assert (gap.stored, gap.resend_after) == (True, 1)


def test_club_status_with_a_database_that_is_down_is_one_clear_line():
    url = f"postgresql+psycopg://cardtable@127.0.0.1:{free_port()}/club"
    done = subprocess.run([sys.executable, "-m", "cardtable", "club", "status", "--db", url],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith("error: cannot open the club database")
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_server_started_after_the_table_published_asks_for_what_it_missed(table_log, broker,
                                                                             store):
    lk = link(table_log, broker)
    try:
        seqs = write(table_log, 12)
        wait_until(lambda: table_log.acked(lk.target) == seqs[-1])  # no server had subscribed
        server = start_server(store, broker)  # hears the table's retained status, and asks
        try:
            wait_until(lambda: len(stored(store)) == 12, timeout=30)
        finally:
            server.stop()
    finally:
        lk.stop()
    assert stored(store) == seqs


def test_a_forged_game_is_stored_flagged_and_not_judged_ok(broker, store, server):
    """A table (or someone with its password) publishes an event no game could log."""
    sender = raw_client(broker)
    game = GameHeader(id=1, name="durak2", started=1.0, status="finished", ended=2.0,
                      outcome={"finished": True, "winner": 0, "totals": [1, 0]})
    try:
        for seq, event in ((1, "shoe AS"), (2, "shoe AS"), (3, "0 play 7C")):
            sender.publish(topic(CLUB, TABLE, "log"), LogMessage(
                log="log-0002", seq=seq, prev=seq - 1, game=game, t=float(seq), kind="event",
                body={"event": event}).encode(), qos=1).wait_for_publish(5)
        wait_until(lambda: len(stored(store)) == 3)
    finally:
        sender.loop_stop()
    (club_game,) = store.games()
    assert club_game.check == "refused"
    assert "entry 2" in (club_game.problem or "")


@pytest.mark.parametrize("args,needle", [
    (["--club", "ftp://club.local"], "write mqtt://host[:port]"),
    (["--club", "mqtt://club.local:99999"], "port"),
    (["--club", "mqtt://club.local", "--table-name", "стол 1"], "table name"),
])
def test_a_bad_club_address_or_name_is_one_clear_line(tmp_path, args, needle):
    done = subprocess.run([sys.executable, "-m", "cardtable", "run", "--no-web", "--no-panels",
                           "--once", "--db", str(tmp_path / "t.sqlite"), *args],
                          capture_output=True, text=True, timeout=120,
                          env={**os.environ, "CARDTABLE_DATA_DIR": str(tmp_path)})
    assert done.returncode == 2
    assert done.stderr.startswith("error: ") and needle in done.stderr
    assert "Traceback" not in done.stderr
