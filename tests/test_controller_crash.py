"""kill -9 at random moments, with a real driver process: nothing acknowledged is ever lost.

Why: the controller promises that an input it acknowledged (and a display may have shown) is on
disk. Only a real process killed with SIGKILL while it writes tests that promise — no mock can.
A driver script opens a Controller on a file, starts a Belot game if none is active and feeds
random inputs forever, printing every acknowledged sequence number. After each kill a fresh
Controller must resume with every printed event, an engine game that replays to the same
snapshot, and ``cardtable status --json`` must agree with it; then the driver resumes the game.

The inputs come from ``random_input`` in tests/_random_inputs.py, which the driver imports too.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from controller.core import Controller

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent


DRIVER = """
import json, random, sys
sys.path.insert(0, sys.argv[3])
from _random_inputs import random_input
from controller.core import Controller
from controller.log import GameLog

ctl = Controller(GameLog(sys.argv[1]))
rng = random.Random(int(sys.argv[2]))

def start():
    ctl.new_game("belot2", names=["Аня", "Boris"])
    print(json.dumps({"new": ctl.game_id, "seq": ctl.seq}), flush=True)

if ctl.game is None or ctl.game_status != "active":
    start()
print(json.dumps({"resumed": ctl.game_id, "seq": ctl.seq, "raw": len(ctl.game.raw_log)}),
      flush=True)
while True:
    if ctl.game.is_over or ctl.game_status != "active":
        start()
    reply = ctl.submit(random_input(ctl, rng.randrange))
    if any(a.rule == "log-not-writable" for a in reply.alerts):
        sys.exit("log not writable: " + reply.alerts[0].message)
    print(json.dumps({"game": ctl.game_id, "seq": reply.seq, "events": reply.events}), flush=True)
"""

KILLS = 25
MIN_KILLS = 10


def _env() -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [env.get("PYTHONPATH")])])
    return env


def _lines(path: Path) -> list[dict[str, Any]]:
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:  # a line cut by the kill: it was never acknowledged
            continue
    return out


def test_kill_minus_nine_loses_nothing(tmp_path: Path) -> None:
    from controller.log import GameLog
    from engine.registry import game_class

    driver = tmp_path / "driver.py"
    driver.write_text(DRIVER, encoding="utf-8")
    db = tmp_path / "table.sqlite"
    rng = random.Random(2024)
    printed: dict[int, dict[int, str]] = {}  # game id -> {raw log index: acknowledged event}
    acked: set[int] = set()
    expect_resume: tuple[int, int] | None = None  # (game id, raw events) the driver must resume
    kills_mid_game = 0
    # The suite's time is bounded: past the deadline (a loaded machine) the test stops killing
    # once it has MIN_KILLS, and judges what it did; pytest-timeout guards against a hang.
    deadline = time.monotonic() + 80
    kills = 0
    for kill in range(KILLS):
        out, err = tmp_path / f"out{kill}.jsonl", tmp_path / f"err{kill}.txt"
        with open(out, "w") as fo, open(err, "w") as fe:
            proc = subprocess.Popen([sys.executable, str(driver), str(db), str(kill), str(TESTS)],
                                    stdout=fo, stderr=fe, cwd=ROOT, env=_env())
        started = time.monotonic()
        if rng.random() < 0.8:  # mostly while it works, sometimes while it starts or resumes
            while '"resumed"' not in out.read_text(encoding="utf-8"):
                assert proc.poll() is None, err.read_text()
                assert time.monotonic() - started < 20, "the driver did not start"
                time.sleep(0.005)
            time.sleep(rng.uniform(0.0, 0.3))
        else:
            time.sleep(rng.uniform(0.05, 0.6))
        assert proc.poll() is None, err.read_text()
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert "Traceback" not in err.read_text(), err.read_text()

        lines = _lines(out)
        at: dict[int, int] = {}  # game id -> its raw log length, as this run of the driver saw it
        for line in lines:
            if "new" in line:
                at[line["new"]] = 0
            elif "resumed" in line:
                if expect_resume is not None and line["resumed"] == expect_resume[0]:
                    assert line["raw"] == expect_resume[1], "the driver resumed another state"
                at[line["resumed"]] = line["raw"]
            else:
                gid = line["game"]
                for event in line["events"]:
                    printed.setdefault(gid, {})[at[gid]] = event
                    at[gid] += 1
                acked.add(line["seq"])
        kills_mid_game += any("game" in line for line in lines)
        if not db.exists():
            assert not acked
            continue

        log = GameLog(db)
        ctl = Controller(log)
        status = subprocess.Popen([sys.executable, "-m", "cardtable", "status", "--json", "--db",
                                   str(db)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  cwd=ROOT, env=_env(), text=True)
        # nothing acknowledged is lost
        assert not acked or ctl.seq >= max(acked)
        logged = {e.seq for e in log.entries()}
        assert acked <= logged, sorted(acked - logged)[:5]
        for gid, events in printed.items():
            texts = log.event_texts(gid)
            lost = {i: e for i, e in events.items() if i >= len(texts) or texts[i] != e}
            assert not lost, f"game {gid} lost acknowledged events {list(lost.items())[:3]}"
        # the resumed game is the fold of its logged events, and a sound one
        if ctl.game is not None:
            row = log.game(ctl.game_id)
            texts = log.event_texts(ctl.game_id)
            assert [str(e) for e in ctl.game.raw_log] == texts
            assert ctl.game.problems() == []
            assert game_class(row.game).replay(texts, row.options).snapshot() == \
                ctl.game.snapshot()
        # `cardtable status` (a reader, another process) sees the same table
        stdout, stderr = status.communicate(timeout=30)
        assert status.returncode == 0, stderr
        seen = json.loads(stdout)
        public = ctl.public_state()
        assert seen["seq"] == ctl.seq
        for key in ("game_id", "status", "view", "pending", "names", "cursor", "last_trick"):
            assert seen[key] == public[key], key
        expect_resume = ((ctl.game_id, len(ctl.game.raw_log))
                         if ctl.game is not None and ctl.game_status == "active" else None)
        log.close()
        kills = kill + 1
        if time.monotonic() > deadline and kills >= MIN_KILLS:
            break
    assert kills_mid_game >= kills // 2, "too few kills landed while the driver was working"
    assert sum(len(v) for v in printed.values()) > 4 * kills
