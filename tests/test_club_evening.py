"""A whole simulated club evening through a real Mosquitto and a real PostgreSQL: 12 registered
players, a 3-round Swiss tournament of two-player Durak on 6 tables. The club server publishes
each round's games to the tables; each table (its own SQLite log and club link, the engine
playing the game out) starts the game with the players it was given and publishes it back. The
standings equal what the tables' own logs give; a round cannot start before the last one ended;
a corrected result changes the standings and the ratings and the original stays on record."""

from __future__ import annotations

import random
import time
import uuid
from pathlib import Path

import pytest
from _services import Mosquitto, Postgres, wait_until

from club.organiser import ClubError, Kind
from club.protocol import Broker, StartGame
from club.ratings import rate
from club.server import ClubServer
from club.store import Store
from controller.club_link import ClubLink
from controller.log import GameLog, NewEntry
from engine.playout import play_out
from engine.registry import game_class

NAMES = ["Аня", "Боря", "Вера", "Глеб", "Дина", "Егор", "Женя", "Зоя", "Игорь", "Катя",
         "Лёва", "Маша"]
TABLES = [f"t{k}" for k in range(1, 7)]


class LightTable:
    """A table as the club meets it: its own log file and club link; when the club starts a
    game, the engine plays it out and the table logs it, event by event, as finished."""

    def __init__(self, folder: Path, name: str, broker: str) -> None:
        self.path = folder / f"{name}.sqlite"
        self.log = GameLog(self.path)
        self.starts: list[StartGame] = []
        self.link = ClubLink(self.path, Broker.parse(broker), "spb", name,
                             on_start=self.on_start, poll_s=0.05).start()

    def on_start(self, start: StartGame) -> bool:
        self.starts.append(start)
        game = play_out(game_class(start.game)(start.options), random.Random(start.id))
        gid, _ = self.log.new_game(start.game, start.options, start.names)
        self.log.append(gid, [NewEntry("event", {"event": str(e)}) for e in game.raw_log],
                        finish="finished")
        return True

    def outcomes(self) -> list[tuple[list[str], int | None]]:
        """(names by seat, the winning seat) of every game in the table's own log."""
        out = []
        for g in self.log.games():
            events = self.log.event_texts(g.id)
            out.append((g.names, game_class(g.game).replay(events, g.options).outcome.winner))
        return out

    def close(self) -> None:
        self.link.stop(drain_s=5)
        self.log.close()


@pytest.mark.timeout(300)
def test_a_swiss_evening_on_six_tables(tmp_path: Path) -> None:
    broker, pg = Mosquitto().start(), Postgres().start()
    store = Store(pg.database("club_evening"))
    server = ClubServer(store, Broker.parse(broker.url),
                        client_id=f"server-{uuid.uuid4().hex[:6]}").start()
    tables = [LightTable(tmp_path, name, broker.url) for name in TABLES]
    org, tours = store.organiser, store.tournaments
    try:
        assert server.connected.wait(10)
        ids = [org.add_player(n).id for n in NAMES]
        org.open_evening("Пятница")
        t = tours.create("durak2", 3, [[i] for i in ids], [("spb", n) for n in TABLES])
        for rnd in (1, 2, 3):
            rows = tours.start_round(t.id)
            assert len(rows) == 6 and all(r.table for r in rows)  # 12 players: no bye
            if rnd == 1:
                with pytest.raises(ClubError) as err:  # its games have not been played yet
                    tours.start_round(t.id)
                assert err.value.code == "round-open"
                assert len(tours.view(t.id).pairings) == 6  # nothing changed
            wait_until(lambda: tours.view(t.id).round_over, timeout=60)
        view = tours.view(t.id)
        assert view.over and len(view.pairings) == 18
        # every table was given its pairings' players, and played them
        for p in view.pairings:
            (table,) = [tb for tb in tables if tb.link.table == p.table]
            assert p.names in [s.names for s in table.starts]
        # met nobody twice
        pairs = [frozenset((p.first, p.second)) for p in view.pairings]
        assert len(set(pairs)) == len(pairs)

        # the standings are what the tables' own logs say: a win 1, a draw ½
        want = dict.fromkeys(NAMES, 0.0)
        for table in tables:
            for names, winner in table.outcomes():
                for seat, name in enumerate(names):
                    want[name] += 0.5 if winner is None else float(seat == winner)
        got = {view.entrants[s.entrant]: s.score for s in view.table}
        assert got == want
        assert sum(got.values()) == 18

        org.close_evening()
        before = {r.name: r.mu for r in rate(org.results())["durak2"]}
        # the organiser corrects a game of round 3: its loser is given the win
        p = next(p for p in view.pairings if p.round == 3 and p.points != (0.5, 0.5))
        assert p.game_id is not None and p.result is not None
        loser = 1 if p.points == (1.0, 0.0) else 0
        org.record(p.game_id, Kind.CORRECT, totals=[1, 0] if loser == 0 else [0, 1],
                   winner=loser, by="organiser", why="ошибка в протоколе")
        after_view = tours.view(t.id)
        after = {after_view.entrants[s.entrant]: s.score for s in after_view.table}
        first, second = p.first, p.second
        assert second is not None
        swing = 1.0 if loser == 1 else -1.0
        assert after[first] == got[first] - swing and after[second] == got[second] + swing
        ratings = {r.name: r.mu for r in rate(org.results())["durak2"]}
        assert ratings[first] != before[first] and ratings[second] != before[second]
        result = org.result(p.game_id)
        assert result is not None and result.table_totals == p.result.table_totals  # kept
        assert [e.kind for e in result.ledger] == ["correct"]
    finally:
        for table in tables:
            table.close()
        server.stop()
        store.close()
        broker.close()
        pg.close()


def test_bad_tournaments_are_refused_and_change_nothing(tmp_path: Path) -> None:
    from club.store import sqlite_url

    store = Store(sqlite_url(tmp_path / "club.sqlite"))
    org, tours = store.organiser, store.tournaments
    ids = [org.add_player(n).id for n in NAMES[:4]]
    tables = [("spb", "t1"), ("spb", "t2")]
    with pytest.raises(ClubError) as err:
        tours.create("durak2", 2, [[i] for i in ids], tables)
    assert err.value.code == "no-evening"
    org.open_evening()
    for args, code in [
        (("joker", 2, [[i] for i in ids], tables), "swiss-game"),
        (("durak2", 2, [[ids[0]], [ids[1]], [ids[0]]], tables), "swiss-twice"),
        (("durak2", 2, [[i] for i in ids], tables[:1]), "swiss-tables"),
        (("durak2", 9, [[i] for i in ids], tables), "swiss-rounds"),
        (("durak2", 2, [[i] for i in ids], [tables[0], tables[0]]), "swiss-table-twice"),
        (("bazar", 2, [[i] for i in ids], tables), "swiss-side"),
        (("durak2", 2, [*([i] for i in ids), [999]], [*tables, ("spb", "t3")]), "no-player"),
    ]:
        with pytest.raises(ClubError) as err:
            tours.create(*args)
        assert err.value.code == code, args
        assert err.value.text("ru") != err.value.text("en")
    assert tours.current() is None
    store.close()


def test_a_table_starts_each_club_game_once_and_not_over_its_own(tmp_path: Path) -> None:
    """The table's side (cardtable.table_commands's club link): a start offered while a game is still
    being played waits; once that game is over it is started, with the club's players; the same
    start again (a retained message heard after a restart) is not started twice."""
    import argparse

    from cardtable.table_commands import _club
    from controller.core import Controller

    broker = Mosquitto().start()
    log = GameLog(tmp_path / "table.sqlite")
    controller = Controller(log)
    controller.new_game("durak2", {}, ["своя", "партия"])
    args = argparse.Namespace(club=broker.url, club_name="spb", table_name="t1")
    link = _club(args, None, log, controller)
    try:
        start = StartGame(id=7, game="durak2", names=["Аня", "Боря"])
        link._start_message(start.model_dump_json().encode())
        time.sleep(0.5)
        assert controller.names == ["своя", "партия"]  # not over its own game
        link._start_message(start.model_dump_json().encode())  # heard again (a reconnect)
        assert "waits" in controller.devices["club"]["detail"]
        controller.game_status = "finished"
        wait_until(lambda: controller.names == ["Аня", "Боря"], timeout=5)
        started = controller.game_id
        link._start_message(start.model_dump_json().encode())  # heard again
        controller.game_status = "finished"
        time.sleep(0.5)
        assert controller.game_id == started  # started once
        assert len(log.games()) == 2
    finally:
        link.stop()
        log.close()
        broker.close()


def _four(tmp_path: Path) -> tuple[Store, int]:
    from club.store import sqlite_url

    store = Store(sqlite_url(tmp_path / "club.sqlite"))
    ids = [store.organiser.add_player(n).id for n in NAMES[:4]]
    store.organiser.open_evening()
    t = store.tournaments.create("durak2", 2, [[i] for i in ids], [("spb", "t1"), ("spb", "t2")])
    return store, t.id


def test_a_round_started_twice_at_once_is_started_once(tmp_path: Path) -> None:
    """Two presses of "start round" at once (a double click): one round, one start per table."""
    from concurrent.futures import ThreadPoolExecutor

    store, tid = _four(tmp_path)

    def press() -> str:
        try:
            store.tournaments.start_round(tid)
            return "started"
        except ClubError as exc:
            return exc.code

    with ThreadPoolExecutor(2) as pool:
        outcomes = sorted(pool.map(lambda _: press(), range(2)))
    assert outcomes[0] in ("round-open", "round-started") and outcomes[1] == "started"
    assert len(store.tournaments.view(tid).pairings) == 2
    assert len(store.tournaments.starts_to_send()) == 2
    with pytest.raises(ClubError) as err:  # a second tournament while this one is on
        store.tournaments.create("durak2", 1, [[1], [2]], [("spb", "t3")])
    assert err.value.code == "swiss-running"
    store.close()


def test_the_organiser_settles_a_game_the_table_cannot_play(tmp_path: Path) -> None:
    store, tid = _four(tmp_path)
    store.tournaments.start_round(tid)
    view = store.tournaments.view(tid)
    lost, played = view.pairings
    with pytest.raises(ClubError):
        store.tournaments.settle(lost.id, 1.0, 1.0, "оба выиграли?")
    with pytest.raises(ClubError):
        store.tournaments.settle(lost.id, 1.0, 0.0, "")
    store.tournaments.settle(lost.id, 1.0, 0.0, "соперник не пришёл")
    # the other table's game arrives before the server's publication was acknowledged
    from club.protocol import GameHeader, LogMessage

    game = play_out(game_class("durak2")({}), random.Random(1))
    head = GameHeader(id=1, name="durak2", names=played.names, started=time.time(),
                      status="finished", ended=time.time())
    store.ingest_many([("spb", played.table or "", LogMessage(
        log="log-table-0002", seq=i, prev=i - 1, game=head, t=float(i), kind="event",
        body={"event": str(e)})) for i, e in enumerate(game.raw_log, 1)])
    view = store.tournaments.view(tid)
    assert view.round_over
    assert dict((p.first, p.points) for p in view.pairings)[lost.first] == (1.0, 0.0)
    assert all(p.game_id for p in view.pairings if p.id == played.id)
    store.close()
