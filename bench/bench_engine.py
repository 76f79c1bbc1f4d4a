"""Random full deals per second, on one core, through the public API (legal_actions + apply).

    python bench/bench_engine.py                # every game that is built
    python bench/bench_engine.py --game belot2 --seconds 5

Each party is played to its end with the game's default settings except where a one-deal game type
exists (Belot short, Durak short), so "deals/s" counts complete deals including redeals' dealing.
Rates are per second of this process's CPU time (time.process_time), so a busy shared machine
does not distort them much; wall time is shown too. Issue targets (one core here): Belot-2 ≥ 5,000 deals/s, Durak-2 ≥ 2,000 games/s, Joker, Bazar-Belot,
Terz ≥ 2,000 deals/s. A Raspberry Pi 4 is roughly 4–6× slower.

    python bench/bench_engine.py --record       # also: load a 100,000-event record, 10% undo/fix

The record case plays one long party live (Bazar-Belot with a high target, so it does not end)
with an ``undo`` or a ``fix`` of the last event instead of a move one time in ten, writes it and
times ``record.loads``: the load must stay linear in the record's length.

    python bench/bench_engine.py --pop          # also: pop() at the end of a long game

``pop`` takes the last event back from the state saved nearest before it (engine/game.py), so its
cost must not grow with the game: each game is played to its end through ``record``, then the last
event is popped and recorded again, many times. Printed as microseconds and as a ratio to one
``record`` of the same event (machine-independent: about 1 + the events folded since the last
saved state, so a few tens at most).
"""

from __future__ import annotations

import argparse
import random
import time

from engine import record
from engine.errors import EngineError
from engine.events import Event
from engine.playout import play_out
from engine.registry import available_games, game_class

# One-deal game types where the game has them, so a "party" is a deal.
ONE_DEAL = {"belot2": {"game_type": "short"}, "durak2": {"game_type": "short"}}
TARGETS = {"belot2": 5000, "durak2": 2000, "joker": 2000, "bazar": 2000, "terz": 2000}


def bench(name: str, seconds: float, seed: int) -> tuple[int, int, float]:
    """Deals, parties and CPU seconds of random playouts for about ``seconds`` of CPU time."""
    cls = game_class(name)
    options = ONE_DEAL.get(name, {})
    try:
        cls(options)
    except Exception:  # the game has no such option: play full parties
        options = {}
    rng = random.Random(seed)
    deals = parties = 0
    start = time.process_time()
    while time.process_time() - start < seconds:
        game = play_out(cls(options), rng)
        deals += max(1, len(game.score_sheet().deals))
        parties += 1
    return deals, parties, time.process_time() - start


RECORD_GAME = ("bazar", {"target": 1_000_000})


def long_record(events: int, meta_share: float, seed: int,
                game: tuple[str, dict[str, object]] = RECORD_GAME) -> str:
    """A record of ``events`` lines played live, ``meta_share`` of them ``undo`` or ``fix``."""
    name, options = game
    g = game_class(name)(options)
    rng = random.Random(seed)
    previous: list[Event] = []
    while len(g.raw_log) < events and not g.is_over:
        last = g.raw_log[-1] if g.raw_log else None
        if last is not None and g.events and rng.random() < meta_share:
            others = [a for a in previous if a != last and a.kind == last.kind]
            if last.kind not in ("undo", "fix") and others and rng.random() < 0.5:
                try:  # the last event was misread: it was another of the choices it had
                    g.fix(len(g.raw_log), others[rng.randrange(len(others))])
                    continue
                except EngineError:
                    pass
            g.undo()
            previous = []
            continue
        previous = g.legal_actions()
        g.apply(previous[rng.randrange(len(previous))])
    return record.dumps(g)


def bench_record(events: int, meta_share: float, seed: int) -> None:
    wall = time.perf_counter()
    text = long_record(events, meta_share, seed)
    built = time.perf_counter() - wall
    lines = text.splitlines()
    meta = sum(1 for line in lines if line.startswith(("undo", "fix ")))
    start = time.process_time()
    rec = record.loads(text)
    elapsed = time.process_time() - start
    n = len(rec.game.raw_log)
    print(f"record   {n / elapsed:9.0f} events/s  (load of {n} events, {meta} undo/fix, "
          f"{len(rec.game.events)} effective, in {elapsed:.2f} s CPU; played live with the "
          f"corrections in {built:.1f} s wall)")


LONG = {"belot2": {"game_type": "501"}, "durak2": {"game_type": "long7"}}  # long parties


def bench_pop(name: str, seed: int, repeats: int = 300) -> None:
    g = game_class(name)(LONG.get(name, {}))
    rng = random.Random(seed)
    while not g.is_over:  # through record, as at a table: saved states are kept on the way
        actions = [a for a in g.legal_actions() if a.kind != "claim"] or g.legal_actions()
        g.record(actions[rng.randrange(len(actions))])  # (a blind «Партия!» ends a party early)
    n = len(g.raw_log)
    last = g.raw_log[-1]
    start = time.process_time()
    for _ in range(repeats):  # take the last event back and record it again
        g.pop()
        g.record(last)
    both = (time.process_time() - start) / repeats
    copies = [g.copy() for _ in range(20)]  # the same point, to time one record alone
    for c in copies:
        c.pop()
    start = time.process_time()
    for c in copies:
        c.record(last)
    one = max((time.process_time() - start) / len(copies), 1e-7)
    pop = max(both - one, 0.0)
    print(f"{name:8} pop {pop * 1e6:8.0f} µs at the end of a {n}-event game "
          f"({pop / one:5.1f}× one record of the same event)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="game name (repeatable); default: all built")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--record", action="store_true",
                        help="also time loading a long record with undo and fix")
    parser.add_argument("--record-events", type=int, default=100_000)
    parser.add_argument("--pop", action="store_true", help="also time pop() at the end of a long game")
    args = parser.parse_args()
    for name in args.game or available_games():
        wall = time.perf_counter()
        deals, parties, elapsed = bench(name, args.seconds, args.seed)
        wall = time.perf_counter() - wall
        rate = deals / elapsed
        target = TARGETS.get(name)
        verdict = "" if target is None else f"  target ≥ {target}: {'met' if rate >= target else 'NOT met'}"
        print(f"{name:8} {rate:9.0f} deals/s  ({parties} parties, {deals} deals in {elapsed:.1f} s CPU, "
              f"{wall:.1f} s wall)"
              f"{verdict}")
    if args.record:
        bench_record(args.record_events, 0.1, args.seed)
    if args.pop:
        for name in args.game or available_games():
            bench_pop(name, args.seed)


if __name__ == "__main__":
    main()
