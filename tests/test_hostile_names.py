"""Names are text, never commands; one table, one log whatever the path; one bad game hides no
other. Players' names with rich markup, terminal escapes, line breaks and bidi overrides, at
every way in (the controller, the web admin, `cardtable run --names`) and in every output
(`status`, `history list`, `history show`, `history export`), including names already in a log
written before they were checked."""

from __future__ import annotations

import os
import random
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from controller.core import BadNames, Controller
from controller.log import GameLog, LogError, NewEntry
from engine.playout import play_out
from engine.registry import game_class
from table_ui.app import create_app
from table_ui.security import hash_pin

ESC = "\x1b[2J\x1b[31m"
HOSTILE = ["[/bold]", "[link=http://x]a[/link]", f"Аня{ESC}", "a\rb", "a\nоption x=1",
           "bidi\u202eevil", "x" * 41]


def cli(db: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "CARDTABLE_DATA_DIR": str(db.parent)}
    return subprocess.run([sys.executable, "-m", "cardtable", *args, "--db", str(db)], env=env,
                          capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("name", HOSTILE[2:])
def test_the_controller_refuses_names_that_are_not_text(tmp_path: Path, name: str) -> None:
    log = GameLog(tmp_path / "t.sqlite")
    ctl = Controller(log)
    with pytest.raises(BadNames):
        ctl.new_game("durak2", {}, ["Боря", name])
    assert ctl.game is None and log.games() == []  # nothing changed
    log.close()


def test_markup_is_a_name_like_any_other(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    log = GameLog(db)
    ctl = Controller(log)
    ctl.new_game("durak2", {}, ["[/bold]", "[link=http://x]a[/link]"])
    log.close()
    for args in (("status",), ("history", "list"), ("history", "show", "1")):
        run = cli(db, *args)
        assert run.returncode == 0, (args, run.stderr)
        assert "[/bold]" in run.stdout and "Traceback" not in run.stderr


def test_names_already_in_a_log_never_reach_the_terminal_raw(tmp_path: Path) -> None:
    """A log written before names were checked: every output shows the escapes as codes, and
    an exported record keeps each name on its own line (a line break cannot add an option)."""
    db = tmp_path / "t.sqlite"
    log = GameLog(db)
    game = play_out(game_class("durak2")({}), random.Random(2))
    gid, _ = log.new_game("durak2", {}, [f"Аня{ESC}", "a\noption limit=1"])
    log.append(gid, [NewEntry("event", {"event": str(e)}) for e in game.raw_log],
               finish="finished")
    log.close()
    for args in (("status",), ("history", "list"), ("history", "show", "1")):
        run = cli(db, *args)
        assert run.returncode == 0, (args, run.stderr)
        assert "\x1b" not in run.stdout and "\\u001b" in run.stdout, args
    record = cli(db, "history", "export", "1", "--format", "record")
    assert record.returncode == 0
    assert [ln for ln in record.stdout.splitlines() if ln.startswith("option")] == []
    from engine import record as rec

    replayed = rec.loads(record.stdout)
    assert replayed.game.outcome == game.outcome  # the same rules, the same result


def test_the_web_admin_and_the_command_line_refuse_them(tmp_path: Path) -> None:
    log = GameLog(tmp_path / "t.sqlite")
    app = create_app(Controller(log), admin_pin_hash=hash_pin("111111"))
    with TestClient(app) as tc:
        csrf = tc.post("/api/admin/login", json={"pin": "111111"}).json()["csrf"]
        r = tc.post("/api/admin/new_game", json={"game": "durak2", "names": ["a", f"b{ESC}"]},
                    headers={"X-CSRF-Token": csrf})
        assert r.status_code == 422
    log.close()
    run = subprocess.run([sys.executable, "-m", "cardtable", "run", "--no-web", "--names",
                          "Аня,b\x1b[2J"], capture_output=True, text=True, timeout=60,
                         env={**os.environ, "CARDTABLE_DATA_DIR": str(tmp_path)})
    assert run.returncode == 2 and "control characters" in run.stderr


def test_a_game_that_cannot_be_replayed_hides_no_other(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite"
    log = GameLog(db)
    bad, _ = log.new_game("durak2", {}, ["A", "B"])
    log.append(bad, [NewEntry("event", {"event": "0 frobnicate"})], finish="abandoned")
    log.new_game("belot2", {}, ["C", "D"])
    log.close()
    run = cli(db, "history", "list")
    assert run.returncode == 0, run.stderr
    assert "belot2" in run.stdout and "durak2" in run.stdout
    import json

    listed = json.loads(cli(db, "history", "list", "--json").stdout)
    assert [g["game"] for g in listed] == ["durak2", "belot2"]
    assert listed[0]["result"].startswith("cannot be replayed")


def test_one_log_one_table_whatever_the_path(tmp_path: Path) -> None:
    from cardtable.table_commands import _lock_table

    real = tmp_path / "t.sqlite"
    GameLog(real).close()
    link = tmp_path / "link.sqlite"
    link.symlink_to(real)
    held = _lock_table(real)
    try:
        with pytest.raises(LogError):
            _lock_table(link)
    finally:
        held.close()
