"""`cardtable replay --check`: a recording replayed through today's readers and controller and
compared with the game it holds. The bundled recordings replay exactly as recorded (so a change
to a reader that alters a bundled game fails here, with the report); a recording whose truth
differs from what the readers make of it is exit 1 with the differences named; a truth that is
not a game is exit 2."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from controller.check import CheckError, check_game
from engine.playout import play_out
from engine.registry import game_class

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "controller" / "data"


def replay(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "cardtable", "replay", *args, "--no-progress"],
                          capture_output=True, text=True, timeout=600,
                          env={**os.environ})


@pytest.mark.timeout(600)
def test_the_bundled_recordings_replay_as_recorded() -> None:
    run = replay(str(DATA), "--check", "--json")
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-2000:]
    reports = json.loads(run.stdout)
    assert sorted(r["name"] for r in reports) == ["bazar", "belot2", "durak2"]
    for r in reports:
        assert r["ok"] and r["shoe_read"] == r["shoe_cards"] > 0, r


def test_a_recording_that_replays_differently_is_exit_1(tmp_path: Path) -> None:
    """The recorded game ends 6 events earlier than the footage plays: the replay has events
    the record lacks, and the score differs: both named, exit 1."""
    bundle = tmp_path / "durak2"
    shutil.copytree(DATA / "durak2", bundle)
    for shared in ("deck.json", "deck.table.npz"):
        shutil.copy(DATA / shared, bundle / shared)
    meta = json.loads((bundle / "game.json").read_text())
    meta["events"] = meta["events"][:-6]
    (bundle / "game.json").write_text(json.dumps(meta, ensure_ascii=False))
    run = replay(str(bundle), "--check")
    assert run.returncode == 1, run.stderr[-2000:]
    assert "DIFFERS" in run.stdout and "extra" in run.stdout


def test_a_truth_that_is_not_a_game_is_exit_2(tmp_path: Path) -> None:
    bundle = tmp_path / "durak2"
    shutil.copytree(DATA / "durak2", bundle)
    for shared in ("deck.json", "deck.table.npz"):
        shutil.copy(DATA / shared, bundle / shared)
    meta = json.loads((bundle / "game.json").read_text())
    meta["events"] = [meta["events"][0], *meta["events"]]  # the first card dealt twice
    (bundle / "game.json").write_text(json.dumps(meta, ensure_ascii=False))
    run = replay(str(bundle), "--check")
    assert run.returncode == 2 and "cannot be replayed" in run.stderr


def test_what_each_difference_is_called() -> None:
    done = play_out(game_class("durak2")({}), random.Random(4))
    events = [str(e) for e in done.raw_log]
    shoe = [i for i, e in enumerate(events) if e.startswith("shoe ")]
    cut = shoe[20]  # the replay stopped before the 21st card left the shoe
    got = game_class("durak2").replay(events[:cut], {})
    report = check_game("cut", "durak2", {}, events, got)
    assert not report.ok
    assert report.shoe_read == 20 and report.counts["unread"] == len(shoe) - 20
    assert report.counts["score"] == 1 and report.counts.get("missing", 0) > 0
    assert report.differences[0].kind == "unread" and report.differences[0].index == 20
    same = check_game("same", "durak2", {}, events, game_class("durak2").replay(events, {}))
    assert same.ok and same.shoe_read == len(shoe)
    with pytest.raises(CheckError):
        check_game("bad", "durak2", {}, ["shoe 6S", "shoe 6S"], got)
