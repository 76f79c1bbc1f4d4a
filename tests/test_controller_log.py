"""The durable table log (controller/log.py) and the controller's use of it, on real SQLite files.

Why: the log is the table's memory. These tests pin what the rest of the table relies on — what
is appended comes back, the schema is versioned and old files are upgraded with their rows, a log
that cannot be written makes the controller refuse the input and change nothing, and a fresh
controller on the same file is the same table (the property test).

Inputs come from ``random_input`` (tests/_random_inputs.py, shared with the crash test's
driver): the inputs that make sense now (shoe cards, plays, bids) plus some noise (unsure cards,
undo, stray buttons).
"""

from __future__ import annotations

import json
import sqlite3
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from _random_inputs import Pick, random_input, sensible_inputs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from controller.core import Controller
from controller.inputs import ShoeCard
from controller.log import MIGRATIONS, SCHEMA_VERSION, GameLog, LogError, NewEntry


def comparable(state: dict[str, Any], *, alert_times: bool = True) -> dict[str, Any]:
    out = {k: v for k, v in state.items() if k != "devices"}
    if not alert_times:
        out["alerts"] = [{k: v for k, v in a.items() if k not in ("seq", "t")}
                         for a in state["alerts"]]
    return out


def play(ctl: Controller, pick: Pick, steps: int) -> None:
    for _ in range(steps):
        reply = ctl.submit(random_input(ctl, pick))
        assert not any(a.rule == "log-not-writable" for a in reply.alerts), reply


# ------------------------------------------------------------------------------ round trip
def test_append_and_read_back(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    log = GameLog(path)
    assert log.last_seq() == 0 and log.active_game() is None and log.games() == []
    gid, seq = log.new_game("belot2", {"game_type": "151"}, ["Аня", "Boris"],
                            [NewEntry("state", {"pending": None})], t=100.0)
    assert seq == 1
    body = {"event": "shoe 7D", "note": "ё ♠"}
    seq2 = log.append(gid, [NewEntry("input", {"kind": "shoe", "card": "7D"}, "shoe", 42),
                            NewEntry("event", body, "shoe", 42)], t=101.0)
    assert seq2 == 3 == log.last_seq()
    log.append(gid, [NewEntry("event", {"event": "shoe TH"})], t=102.0, finish="finished")
    log.close()

    again = GameLog(path)
    row = again.game(gid)
    assert row is not None
    assert (row.game, row.options, row.names, row.status, row.started, row.ended) == (
        "belot2", {"game_type": "151"}, ["Аня", "Boris"], "finished", 100.0, 102.0)
    entries = list(again.entries(gid))
    assert [(e.seq, e.kind, e.source, e.frame, e.t) for e in entries] == [
        (1, "state", "", None, 100.0), (2, "input", "shoe", 42, 101.0),
        (3, "event", "shoe", 42, 101.0), (4, "event", "", None, 102.0)]
    assert entries[2].body == body
    assert again.event_texts(gid) == ["shoe 7D", "shoe TH"]
    assert [e.seq for e in again.entries(gid, after=2, kinds=("event",))] == [3, 4]
    # a new game abandons the active one; both stay in the history
    gid2, _ = again.new_game("durak2", {}, ["a", "b"], t=103.0)
    assert again.active_game().id == gid2  # type: ignore[union-attr]
    assert [(g.id, g.status) for g in again.games()] == [(gid, "finished"), (gid2, "active")]
    # durability settings the docs promise
    assert again._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert again._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    again.close()

    ro = GameLog(path, readonly=True)
    assert ro.last_seq() == 4 and ro.latest_game().id == gid2  # type: ignore[union-attr]
    with pytest.raises(LogError, match="read-only"):
        ro.append(gid2, [NewEntry("event", {"event": "x"})])
    ro.close()


# ------------------------------------------------------------------------------ schema
def _user_version(path: Path) -> int:
    with sqlite3.connect(path) as db:
        return int(db.execute("PRAGMA user_version").fetchone()[0])


def test_fresh_file_has_current_schema(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    GameLog(path).close()
    assert _user_version(path) == SCHEMA_VERSION
    with sqlite3.connect(path) as db:
        columns = [r[1] for r in db.execute("PRAGMA table_info(entries)")]
    assert columns == ["seq", "game_id", "t", "kind", "source", "body", "frame"]


def test_migration_from_version_1_keeps_rows(tmp_path: Path) -> None:
    path = tmp_path / "v1.sqlite"
    db = sqlite3.connect(path)
    db.executescript(MIGRATIONS[1])
    db.execute("PRAGMA user_version=1")
    db.execute("INSERT INTO games(game, options, names, started) VALUES "
               "('belot2', '{}', '[\"A\", \"B\"]', 5.0)")
    events = ["shoe 7D", "shoe TH", "shoe AS"]
    for i, e in enumerate(events):
        db.execute("INSERT INTO entries(game_id, t, kind, source, body) VALUES (1, ?, 'event', "
                   "'shoe', ?)", (6.0 + i, json.dumps({"event": e})))
    db.commit()
    db.close()

    with pytest.raises(LogError, match="old schema 1"):  # a reader never upgrades
        GameLog(path, readonly=True)
    log = GameLog(path)
    assert _user_version(path) == SCHEMA_VERSION
    assert log.event_texts(1) == events
    assert [(e.seq, e.t, e.frame) for e in log.entries(1)] == [(1, 6.0, None), (2, 7.0, None),
                                                               (3, 8.0, None)]
    ctl = Controller(log)
    assert ctl.game_id == 1 and ctl.names == ["A", "B"] and len(ctl.game.raw_log) == 3
    seq = log.append(1, [NewEntry("event", {"event": "shoe KS"}, "shoe", 7)])
    assert next(iter(log.entries(1, after=seq - 1))).frame == 7
    log.close()


def test_newer_schema_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite"
    GameLog(path).close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA journal_mode=DELETE")
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    before = path.read_bytes()
    for readonly in (False, True):
        with pytest.raises(LogError, match="newer than this program"):
            GameLog(path, readonly=readonly)
    assert path.read_bytes() == before


def test_damaged_files_are_log_errors(tmp_path: Path) -> None:
    garbage = tmp_path / "garbage.sqlite"
    garbage.write_bytes(b"this is not a database, just some bytes\n" * 200)
    for readonly in (False, True):
        with pytest.raises(LogError, match="unusable"):
            GameLog(garbage, readonly=readonly)
    with pytest.raises(LogError, match="no table log"):
        GameLog(tmp_path / "missing.sqlite", readonly=True)
    blocked = tmp_path / "file"
    blocked.write_text("a file where the data directory should be")
    with pytest.raises(LogError, match="cannot open"):
        GameLog(blocked / "t.sqlite")

    # a valid header over damaged pages: the reads fail, as LogError (not a raw sqlite3 error)
    path = tmp_path / "t.sqlite"
    log = GameLog(path)
    ctl = Controller(log)
    ctl.new_game("belot2")
    play(ctl, _seeded(3), 300)
    log.close()
    with open(path, "r+b") as f:
        f.seek(4096 * 2)
        f.write(b"\xff" * 4096 * 3)
    ro = GameLog(path, readonly=True)
    with pytest.raises(LogError, match="malformed"):
        ro.event_texts(1)
    ro.close()


def _seeded(seed: int) -> Pick:
    import random

    rng = random.Random(seed)
    return rng.randrange


# ------------------------------------------------------------------------------ not writable
def _disk_full(log: GameLog) -> Callable[[], None]:
    pages = log._db.execute("PRAGMA page_count").fetchone()[0]
    log._db.execute(f"PRAGMA max_page_count={pages}")  # SQLite raises SQLITE_FULL for real
    return lambda: log._db.execute("PRAGMA max_page_count=1073741823")


def _query_only(log: GameLog) -> Callable[[], None]:
    log._db.execute("PRAGMA query_only=ON")  # SQLITE_READONLY on every write
    return lambda: log._db.execute("PRAGMA query_only=OFF")


@pytest.mark.parametrize("break_log", [_disk_full, _query_only], ids=["disk-full", "read-only"])
def test_unwritable_log_refuses_and_changes_nothing(tmp_path: Path, break_log: Any) -> None:
    path = tmp_path / "t.sqlite"
    log = GameLog(path)
    ctl = Controller(log)
    ctl.new_game("belot2", names=["Аня", "Boris"])
    pick = _seeded(11)
    play(ctl, pick, 40)
    repair = break_log(log)
    for _ in range(500):
        inp = random_input(ctl, pick)
        snap, raw, state = ctl.game.snapshot(), list(ctl.game.raw_log), ctl.public_state()
        reply = ctl.submit(inp)
        if any(a.rule == "log-not-writable" for a in reply.alerts):
            break
    else:
        pytest.fail("the log never refused a write")
    assert not reply.accepted and reply.seq == state["seq"] == ctl.seq
    assert ctl.game.snapshot() == snap and ctl.game.raw_log == raw
    after = ctl.public_state()
    assert after["log_error"] and ("full" in after["log_error"] or "readonly" in after["log_error"])
    assert after["held"] == 1 and reply.held  # kept, to be applied once the log takes it
    assert comparable({**after, "log_error": None, "held": 0}) == comparable(
        {**state, "log_error": None})

    # nothing acknowledged is lost, nothing refused was kept
    fresh = Controller(GameLog(path, readonly=True))
    assert fresh.seq == ctl.seq and fresh.game.raw_log == ctl.game.raw_log
    assert fresh.game.snapshot() == snap
    assert comparable(fresh.public_state(), alert_times=False) == comparable(
        {**ctl.public_state(), "log_error": None, "held": 0}, alert_times=False)

    repair()  # the disk has room again: the held input goes through and the error clears
    deadline = time.monotonic() + 10
    while ctl.public_state()["held"] and time.monotonic() < deadline:
        time.sleep(0.1)  # retried by itself, no new input needed
    assert ctl.seq > state["seq"] and ctl.public_state()["log_error"] is None
    log.close()


def test_controller_on_a_read_only_log_refuses(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    log = GameLog(path)
    ctl = Controller(log)
    ctl.new_game("durak2")
    play(ctl, _seeded(5), 30)
    log.close()
    ro = Controller(GameLog(path, readonly=True))
    snap, seq = ro.game.snapshot(), ro.seq
    reply = ro.submit(sensible_inputs(ro)[0])
    assert [a.rule for a in reply.alerts] == ["log-not-writable"] and not reply.accepted
    assert ro.game.snapshot() == snap and ro.seq == seq == GameLog(path).last_seq()
    assert "read-only" in ro.public_state()["log_error"]


# ------------------------------------------------------------------------------ resume property
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), game=st.sampled_from(["belot2", "durak2", "joker"]),
       steps=st.integers(1, 150))
def test_fresh_controller_is_the_same_table(data: st.DataObject, game: str, steps: int) -> None:
    """Any sequence of inputs, then a fresh controller on the file: the same game and display."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.sqlite"
        log = GameLog(path)
        ctl = Controller(log)
        ctl.new_game(game)
        play(ctl, lambda n: data.draw(st.integers(0, n - 1)), steps)
        fresh = Controller(GameLog(path, readonly=True))
        assert fresh.game.raw_log == ctl.game.raw_log
        assert fresh.game.snapshot() == ctl.game.snapshot()
        assert fresh.game.problems() == []
        assert comparable(fresh.public_state(), alert_times=False) == comparable(
            ctl.public_state(), alert_times=False)
        fresh.log.close()
        log.close()


def test_resumed_alerts_keep_their_seq_and_time(tmp_path: Path) -> None:
    path = tmp_path / "t.sqlite"
    ctl = Controller(GameLog(path))
    ctl.new_game("belot2")
    ctl.submit(ShoeCard(card="??", candidates=["AS", "KS"]))  # an alert and a state entry
    fresh = Controller(GameLog(path, readonly=True))
    assert fresh.public_state()["alerts"] == ctl.public_state()["alerts"]
