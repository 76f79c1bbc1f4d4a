"""Benchmark of the durable table log: how fast it commits, and how fast a table resumes.

Why: every input at the table waits for its log commit (WAL, ``synchronous=FULL``) before the
display changes, and after a crash or a power cut the table is back only once the active game
has been replayed from the log. Both must stay well inside what players notice on a Raspberry Pi.

    python bench/bench_log.py [--appends 2000] [--events 10000] [--dir DIR]

Figures: raw log appends (one input entry + its event entry per transaction, as the controller
writes them), whole ``Controller.submit`` calls (engine + log), and the time of
``Controller(GameLog(path))`` on a game of 10,000 logged events. The Pi estimate multiplies by
4–6 (a Pi 4/5 against a desktop core; SD-card fsync can be slower still — measure there with
``--dir`` on the card).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from controller.buttons import PLAY_KINDS
from controller.core import Controller
from controller.inputs import Admin, Placed, ShoeCard
from controller.log import GameLog, NewEntry

PI_LOW, PI_HIGH = 4, 6


def bench_appends(path: Path, n: int) -> float:
    log = GameLog(path)
    gid, _ = log.new_game("belot2", {}, ["a", "b"])
    t0 = time.perf_counter()
    for i in range(n):
        log.append(gid, [NewEntry("input", {"kind": "shoe", "card": "7D", "i": i}, "shoe", i),
                         NewEntry("event", {"event": "shoe 7D"}, "shoe", i)])
    dt = time.perf_counter() - t0
    log.close()
    return n / dt


def table_input(ctl: Controller, rng: random.Random, passing: bool):
    """A legal input; while ``passing``, every bid is a pass (deal after deal is thrown in),
    which makes a long game without undo."""
    g = ctl.game
    assert g is not None
    acts = g.legal_actions()
    if g.expects_shoe:
        return ShoeCard(card=acts[rng.randrange(len(acts))].cards[0].code)
    mine = [a for a in acts if a.seat == g.to_act() and a.kind != "claim"] or acts
    passes = [a for a in mine if a.kind == "bid" and a.arg == "pass"]
    e = (passes or mine)[rng.randrange(len(passes or mine))] if passing else \
        mine[rng.randrange(len(mine))]
    if e.kind in PLAY_KINDS:
        return Placed(seat=e.seat, card=e.cards[0].code)
    return Admin(action="event", event=str(e))


def build_game(path: Path, events: int) -> tuple[int, float]:
    """Submit inputs until the active game has ``events`` logged events; returns (inputs, s)."""
    ctl = Controller(GameLog(path))
    ctl.new_game("belot2")
    rng = random.Random(1)
    n = 0
    t0 = time.perf_counter()
    assert ctl.game is not None
    while len(ctl.game.raw_log) < events:
        ctl.submit(table_input(ctl, rng, passing=True))
        n += 1
        assert not ctl.game.is_over
    dt = time.perf_counter() - t0
    ctl.log.close()
    return n, dt


def bench_resume(path: Path, repeat: int = 5) -> tuple[float, int]:
    best = float("inf")
    events = 0
    for _ in range(repeat):
        t0 = time.perf_counter()
        log = GameLog(path)
        ctl = Controller(log)
        best = min(best, time.perf_counter() - t0)
        assert ctl.game is not None and ctl.game.problems() == []
        events = len(ctl.game.raw_log)
        log.close()
    return best, events


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--appends", type=int, default=2000)
    ap.add_argument("--events", type=int, default=10_000)
    ap.add_argument("--dir", type=Path, default=None, help="where to put the test databases "
                    "(the file system matters: fsync is most of a commit)")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        d = Path(tmp)
        rate = bench_appends(d / "appends.sqlite", args.appends)
        print(f"log append (input + event, 1 tx, WAL, synchronous=FULL): {rate:,.0f} tx/s "
              f"= {1000 / rate:.2f} ms each; Pi ≈ {1000 * PI_LOW / rate:.1f}–"
              f"{1000 * PI_HIGH / rate:.1f} ms")
        n, dt = build_game(d / "game.sqlite", args.events)
        print(f"Controller.submit (engine + log, {n} inputs): {n / dt:,.0f} inputs/s "
              f"= {1000 * dt / n:.2f} ms each; Pi ≈ {1000 * dt * PI_LOW / n:.1f}–"
              f"{1000 * dt * PI_HIGH / n:.1f} ms")
        best, events = bench_resume(d / "game.sqlite")
        print(f"resume Controller(GameLog(path)) of a {events:,}-event game: {best * 1000:.0f} ms "
              f"(best of 5); Pi ≈ {best * PI_LOW:.2f}–{best * PI_HIGH:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
