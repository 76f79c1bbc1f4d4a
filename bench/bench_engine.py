"""Random full deals per second, on one core, through the public API (legal_actions + apply).

    python bench/bench_engine.py                # every game that is built
    python bench/bench_engine.py --game belot2 --seconds 5

Each party is played to its end with the game's default settings except where a one-deal game type
exists (Belot short, Durak short), so "deals/s" counts complete deals including redeals' dealing.
Rates are per second of this process's CPU time (time.process_time), so a busy shared machine
does not distort them much; wall time is shown too. Issue targets (one core here): Belot-2 ≥ 5,000 deals/s, Durak-2 ≥ 2,000 games/s, Joker, Bazar-Belot,
Terz ≥ 2,000 deals/s. A Raspberry Pi 4 is roughly 4–6× slower.
"""

from __future__ import annotations

import argparse
import random
import time

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="game name (repeatable); default: all built")
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--seed", type=int, default=1)
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


if __name__ == "__main__":
    main()
