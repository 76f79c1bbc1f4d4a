"""Benchmark of the web display: engine event → browser DOM latency, and broadcast overhead.

1. p50/p95 of ``controller.submit`` → the real browser's ``body[data-seq]`` showing that seq
   (Debian chromium through Playwright; the page is the real display).
2. The controller's submit time with 0 and with 50 WebSocket displays connected (the listener
   must only hand snapshots to the event loop): prints the ratio, which should be < 1.10.

Run: ``python bench/bench_ui.py [--events 200] [--clients 50]``.
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from controller.core import Controller
from controller.log import GameLog
from table_ui.testing import CHROMIUM, CHROMIUM_ARGS, LiveServer, step


def new_controller(path: Path) -> Controller:
    c = Controller(GameLog(path))
    c.new_game("durak2", {}, ["A", "B"])
    return c


def next_step(c: Controller, rng: random.Random) -> float:
    """One input's submit time in ms (a new game when one ends)."""
    if c.game is None or c.game.is_over:
        c.new_game("durak2", {}, ["A", "B"])
    t0 = time.perf_counter()
    step(c, rng)
    return (time.perf_counter() - t0) * 1000


def dom_latency(n: int, tmp: Path) -> list[float]:
    from playwright.sync_api import sync_playwright

    c = new_controller(tmp / "dom.sqlite")
    rng = random.Random(1)
    out = []
    with LiveServer(c) as srv, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        page = browser.new_page(bypass_csp=True, viewport={"width": 1920, "height": 1080})
        page.goto(srv.url + "/")
        page.wait_for_function("document.body.dataset.online == '1'")
        for _ in range(n):
            t0 = time.perf_counter()
            next_step(c, rng)
            page.wait_for_function(f"Number(document.body.dataset.seq) >= {c.seq}",
                                   polling="raf")
            out.append((time.perf_counter() - t0) * 1000)
        browser.close()
    return out


def submit_times(c: Controller, n: int, seed: int) -> list[float]:
    rng = random.Random(seed)
    return [next_step(c, rng) for _ in range(n)]


def _displays(port: int, clients: int, ready: Any, stop: Any, counts: Any) -> None:
    """In another process, like real displays: ``clients`` sockets reading every message."""
    import asyncio

    from websockets.asyncio.client import connect

    async def one(i: int) -> None:
        async with connect(f"ws://127.0.0.1:{port}/ws") as ws:
            ready.release()
            while not stop.is_set():
                try:
                    await asyncio.wait_for(ws.recv(), 0.5)
                    counts[i] += 1
                except TimeoutError:
                    continue

    async def all_of_them() -> None:
        await asyncio.gather(*(one(i) for i in range(clients)))

    asyncio.run(all_of_them())


def broadcast_overhead(n: int, clients: int, tmp: Path) -> tuple[float, float, int]:
    ctx = mp.get_context("spawn")
    c = new_controller(tmp / "fan.sqlite")
    with LiveServer(c) as srv:
        submit_times(c, 50, 0)  # warm up
        base = statistics.median(submit_times(c, n, 1))
        ready, stop, counts = ctx.Semaphore(0), ctx.Event(), ctx.Array("i", clients)
        proc = ctx.Process(target=_displays, args=(srv.port, clients, ready, stop, counts))
        proc.start()
        for _ in range(clients):
            if not ready.acquire(timeout=30):
                raise RuntimeError("the display clients did not connect")
        time.sleep(0.5)
        loaded = statistics.median(submit_times(c, n, 2))
        time.sleep(1.0)
        stop.set()
        proc.join(10)
        received = list(counts)
    return base, loaded, min(received)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--events", type=int, default=200)
    ap.add_argument("--clients", type=int, default=50)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        lat = sorted(dom_latency(args.events, tmp))
        p50 = lat[len(lat) // 2]
        p95 = lat[min(len(lat) - 1, int(len(lat) * 0.95))]
        print(f"event → DOM: n={len(lat)} p50={p50:.1f} ms p95={p95:.1f} ms max={lat[-1]:.1f} ms")
        base, loaded, least = broadcast_overhead(args.events * 2, args.clients, tmp)
        print(f"submit median: {base:.3f} ms alone, {loaded:.3f} ms with {args.clients} displays "
              f"(each got ≥ {least} messages); ratio {loaded / base:.3f} "
              f"({'OK' if loaded / base < 1.10 else 'over'} the 1.10 budget)")


if __name__ == "__main__":
    main()
