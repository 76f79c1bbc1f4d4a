"""``cardtable status`` and ``cardtable history`` as a user runs them: real processes, real files.

Why: these commands are how an organiser gets results out of the table (and how a script checks
on it), so their output must match what the engine says about the logged game, and every mistake
(a wrong path, a damaged file, a game that does not exist) must be one readable line, never a
traceback.
"""

from __future__ import annotations

import csv
import io
import json
import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from _random_inputs import random_input

from controller.core import Controller
from controller.log import SCHEMA_VERSION, GameLog
from engine import record
from engine.registry import game_class

ROOT = Path(__file__).resolve().parent.parent


def cardtable(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full = dict(os.environ, **(env or {}))
    full["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [full.get("PYTHONPATH")])])
    full["COLUMNS"] = "200"
    return subprocess.run([sys.executable, "-m", "cardtable", *args], capture_output=True,
                          text=True, cwd=ROOT, env=full, timeout=60)


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A log with a finished Belot game (1), an abandoned Durak game (2), an active Joker (3)."""
    path = tmp_path_factory.mktemp("history") / "table.sqlite"
    log = GameLog(path)
    ctl = Controller(log)
    pick = random.Random(7).randrange
    ctl.new_game("belot2", {"game_type": "301"}, names=["Аня", "Boris"])
    for _ in range(5000):
        if ctl.game.is_over:
            break
        ctl.submit(random_input(ctl, pick))
    assert ctl.game.is_over and ctl.game_status == "finished"
    ctl.new_game("durak2", names=["Вера", "Gleb"])
    for _ in range(30):
        ctl.submit(random_input(ctl, pick))
    ctl.new_game("joker")  # abandons the Durak game
    for _ in range(20):
        ctl.submit(random_input(ctl, pick))
    log.close()
    return path


def replayed(path: Path, game_id: int):
    log = GameLog(path, readonly=True)
    row = log.game(game_id)
    assert row is not None
    game = game_class(row.game).replay(log.event_texts(row.id), row.options)
    log.close()
    return game


def test_list(table: Path) -> None:
    res = cardtable("history", "list", "--json", "--db", str(table))
    assert res.returncode == 0, res.stderr
    games = json.loads(res.stdout)
    assert [(g["id"], g["game"], g["status"]) for g in games] == [
        (1, "belot2", "finished"), (2, "durak2", "abandoned"), (3, "joker", "active")]
    assert games[0]["names"] == ["Аня", "Boris"] and games[0]["options"] == {"game_type": "301"}
    assert games[0]["totals"] == replayed(table, 1).score_sheet().totals
    human = cardtable("history", "list", "--db", str(table))
    assert human.returncode == 0 and "belot2" in human.stdout and "abandoned" in human.stdout


def test_show(table: Path) -> None:
    sheet = replayed(table, 1).score_sheet()
    res = cardtable("history", "show", "1", "--json", "--db", str(table))
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout) == json.loads(json.dumps(sheet.to_dict()))
    human = cardtable("history", "show", "1", "--db", str(table))
    assert human.returncode == 0, human.stderr
    assert "total" in human.stdout and str(sheet.totals[0]) in human.stdout
    assert "Аня" in human.stdout


def test_export_csv_totals_match_the_sheet(table: Path, tmp_path: Path) -> None:
    sheet = replayed(table, 1).score_sheet()
    out = tmp_path / "g.csv"
    res = cardtable("history", "export", "1", "--format", "csv", "-o", str(out), "--db", str(table))
    assert res.returncode == 0, res.stderr
    rows = list(csv.reader(io.StringIO(out.read_text(encoding="utf-8"))))
    assert rows[0] == ["deal", *sheet.sides]
    assert [[int(x) for x in r] for r in rows[1:-1]] == [[d.number, *d.points] for d in sheet.deals]
    assert rows[-1] == ["total", *(str(t) for t in sheet.totals)]
    assert len(rows) == len(sheet.deals) + 2 and len(sheet.deals) >= 1


def test_export_record_and_json(table: Path, tmp_path: Path) -> None:
    game = replayed(table, 1)
    rec = tmp_path / "g.rec"
    res = cardtable("history", "export", "1", "--format", "record", "-o", str(rec),
                    "--db", str(table))
    assert res.returncode == 0, res.stderr
    back = record.read(rec)
    assert back.game.snapshot() == game.snapshot() and back.meta["names"] == "Аня,Boris"
    score = cardtable("score", str(rec), "--json")  # the record is a normal engine record
    assert json.loads(score.stdout)["totals"] == game.score_sheet().totals

    res = cardtable("history", "export", "2", "--format", "json", "--db", str(table))
    assert res.returncode == 0, res.stderr
    data = json.loads(res.stdout)
    durak = replayed(table, 2)
    assert data["events"] == [str(e) for e in durak.raw_log]
    assert data["sheet"] == json.loads(json.dumps(durak.score_sheet().to_dict()))
    assert (data["id"], data["status"]) == (2, "abandoned")


def test_status_of_the_active_game(table: Path) -> None:
    res = cardtable("status", "--json", "--db", str(table))
    assert res.returncode == 0, res.stderr
    seen = json.loads(res.stdout)
    ctl = Controller(GameLog(table, readonly=True))
    public = ctl.public_state()
    assert seen["seq"] == ctl.seq == GameLog(table, readonly=True).last_seq()
    for key in ("game_id", "status", "view", "pending", "names", "cursor", "last_trick"):
        assert seen[key] == public[key], key
    assert seen["game_id"] == 3 and seen["view"]["game"] == "joker"
    # the default place: $CARDTABLE_DATA_DIR/table.sqlite; and the human form
    human = cardtable("status", env={"CARDTABLE_DATA_DIR": str(table.parent)})
    assert human.returncode == 0, human.stderr
    assert "game 3" in human.stdout and f"seq {ctl.seq}" in human.stdout


def test_status_of_an_empty_log(tmp_path: Path) -> None:
    GameLog(tmp_path / "t.sqlite").close()
    res = cardtable("status", "--json", "--db", str(tmp_path / "t.sqlite"))
    assert res.returncode == 0, res.stderr
    assert json.loads(res.stdout)["game_id"] is None and json.loads(res.stdout)["seq"] == 0


def _bad_files(tmp: Path, good: Path) -> dict[str, Path]:
    garbage = tmp / "garbage.sqlite"
    garbage.write_bytes(os.urandom(8192))
    text = tmp / "text.sqlite"
    text.write_text("scores: Аня 151, Boris 90\n", encoding="utf-8")
    newer = tmp / "newer.sqlite"
    newer.write_bytes(good.read_bytes())
    with sqlite3.connect(newer) as db:
        db.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    damaged = tmp / "damaged.sqlite"
    data = bytearray(good.read_bytes())
    data[8192:8192 + 4096 * 4] = b"\xff" * (4096 * 4)
    damaged.write_bytes(bytes(data))
    return {"missing": tmp / "nothing.sqlite", "directory": tmp, "garbage": garbage,
            "text": text, "newer": newer, "damaged": damaged}


BAD_FILES = ["missing", "directory", "garbage", "text", "newer", "damaged"]


@pytest.mark.parametrize("command, what", [
    *((["status"], w) for w in BAD_FILES if w != "damaged"),  # status may miss damaged pages
    *((["history", "list"], w) for w in ("garbage", "newer", "damaged")),
    (["history", "show", "1"], "damaged"), (["history", "show", "1"], "missing"),
    (["history", "export", "1", "--format", "csv"], "text"),
    (["history", "export", "1", "--format", "record"], "damaged"),
], ids=lambda v: v if isinstance(v, str) else "-".join(v[:2]))
def test_bad_database_is_one_line(table: Path, tmp_path: Path, what: str,
                                  command: list[str]) -> None:
    bad = _bad_files(tmp_path, table)[what]
    res = cardtable(*command, "--db", str(bad))
    assert_one_line_error(res)


@pytest.mark.parametrize("args, needle", [
    (["history", "show", "99"], "no game 99"),
    (["history", "show", "first"], "must be a number"),
    (["history", "export", "99", "--format", "csv"], "no game 99"),
    (["history", "export", "1", "--format", "xlsx"], "--format"),
    (["history", "export", "1", "--format", "csv", "-o", "/nonexistent-dir/x.csv"], "cannot write"),
    (["history", "show"], "GAME"),
    (["history"], "ACTION"),
])
def test_bad_arguments_are_one_line(table: Path, args: list[str], needle: str) -> None:
    res = cardtable(*args, "--db", str(table)) if len(args) > 1 else cardtable(*args)
    assert_one_line_error(res)
    assert needle in res.stderr


def test_no_database_yet_by_default(tmp_path: Path) -> None:
    res = cardtable("status", env={"CARDTABLE_DATA_DIR": str(tmp_path / "fresh")})
    assert_one_line_error(res)
    assert "no table log" in res.stderr and not (tmp_path / "fresh").exists()


def assert_one_line_error(res: subprocess.CompletedProcess[str]) -> None:
    assert res.returncode == 2, (res.returncode, res.stdout, res.stderr)
    assert "Traceback" not in res.stderr
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
    assert res.stdout == ""


def test_clip_of_a_deal_and_the_frames_its_cards_came_from(tmp_path: Path) -> None:
    import numpy as np

    from controller.archive import FootageArchive
    from controller.inputs import ShoeCard

    db = tmp_path / "table.sqlite"
    ctl = Controller(GameLog(db))
    gid = ctl.new_game("durak2")
    archive = FootageArchive(tmp_path / "footage")
    frame = np.zeros((48, 64, 3), np.uint8)
    codes = [e.cards[0].code for e in ctl.game.legal_actions()[:3]]
    for n in range(30):
        archive.add(gid, 1, n, n / 30, frame)
        if n in (10, 20):
            ctl.submit(ShoeCard(card=codes[n // 10 - 1], frame=n))
    archive.close()
    ctl.log.close()
    out = tmp_path / "clip.mp4"
    res = cardtable("history", "clip", str(gid), "1", "-o", str(out), "--db", str(db))
    assert res.returncode == 0, res.stderr
    assert out.read_bytes() == archive.find(gid, 1)[0].path.read_bytes()
    assert f"shoe card {codes[0]} decided at camera frame 10" in res.stdout
    assert f"shoe card {codes[1]} decided at camera frame 20" in res.stdout
    missing = cardtable("history", "clip", str(gid), "2", "--db", str(db))
    assert_one_line_error(missing)
    assert "no footage" in missing.stderr
