"""Benchmark of the club's transport: many light tables publishing at a recorded pace through a
real Mosquitto into the club server, and a broker outage.

    python bench/bench_club.py [--tables 256] [--pace 1] [--seconds 60] [--db sqlite|postgres]
    python bench/bench_club.py --outage 600 --tables 50

Each light table is what a real one publishes, without cameras: its own SQLite log, into which a
whole game's events (a random legal Durak playout) are appended one by one at ``--pace`` times a
recorded table's rate (one entry every 1.4 s, the simulated players' pace), and its own
``ClubLink`` (the same outbox code as ``cardtable run --club``). The club server runs in this
process on PostgreSQL (started here on a free port, as the tests do) or SQLite.

Figures: entry appended at the table -> committed at the club (what the room page shows within
``club.web.LIVE_POLL_S`` more): p50, p95, max; entries stored per second; with ``--outage S``
the broker is stopped S seconds mid-game while the tables play on, and the time for the backlog
to drain once it returns (and that nothing was lost or doubled).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from _services import Mosquitto, Postgres  # noqa: E402

from club.protocol import Broker  # noqa: E402
from club.server import ClubServer  # noqa: E402
from club.store import EntryRow, Store, sqlite_url  # noqa: E402
from controller.club_link import ClubLink  # noqa: E402
from controller.log import GameLog, NewEntry  # noqa: E402
from engine.playout import play_out  # noqa: E402
from engine.registry import game_class  # noqa: E402

STEP_S = 1.4  # a recorded table's pace: one logged entry per simulated player's action


def table(folder: Path, name: str, broker: Broker, stop: threading.Event, pace: float,
          seed: int, sent: dict[tuple[str, int], float]) -> None:
    log = GameLog(folder / f"{name}.sqlite")
    events = [str(e) for e in play_out(game_class("durak2")({}), random.Random(seed)).raw_log]
    gid, _ = log.new_game("durak2", {}, ["a", "b"])
    link = ClubLink(log.path, broker, "bench", name, poll_s=0.05).start()
    rng = random.Random(seed)
    stop.wait(rng.uniform(0, STEP_S / pace))  # tables do not start in step
    try:
        for e in events:
            if stop.is_set():
                break
            t = time.time()
            seq = log.append(gid, [NewEntry("event", {"event": e})], t=t)
            sent[(name, seq)] = t
            stop.wait(STEP_S / pace)
    finally:
        link.stop(drain_s=5)
        log.close()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=256)
    ap.add_argument("--pace", type=float, default=1.0)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--db", choices=("postgres", "sqlite"), default="postgres")
    ap.add_argument("--outage", type=float, default=0.0, help="stop the broker this long")
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="bench-club-"))
    mosq = Mosquitto(conf_extra="allow_anonymous true\nmax_queued_messages 100000\n").start()
    pg = Postgres().start() if args.db == "postgres" else None
    store = Store(pg.database("bench") if pg else sqlite_url(work / "club.sqlite"))
    broker = Broker.parse(mosq.url)
    server = ClubServer(store, broker).start()
    server.connected.wait(10)
    stop = threading.Event()
    sent: dict[tuple[str, int], float] = {}
    threads = [threading.Thread(target=table, args=(work, f"t{i}", broker, stop, args.pace, i,
                                                    sent), daemon=True)
               for i in range(args.tables)]
    t0 = time.time()
    for th in threads:
        th.start()
    if args.outage:
        time.sleep(min(10.0, args.seconds / 3))
        mosq.stop()
        time.sleep(args.outage)
        mosq.start()
        back = time.time()
        backlog = sum(1 for t in list(sent.values()) if t <= back)
        while server.counts["stored"] < backlog and time.time() - back < 300:
            time.sleep(0.1)
        drain = time.time() - back
    time.sleep(max(0.0, args.seconds - (time.time() - t0)))
    stop.set()
    for th in threads:
        th.join(30)
    deadline = time.time() + 120
    while time.time() < deadline and server.counts["stored"] < len(sent):
        time.sleep(0.2)
    with store._session() as s:  # the bench reads the raw rows
        rows = s.query(EntryRow.stream_id, EntryRow.seq, EntryRow.received).all()
    stored = len(rows)
    streams = {st.id: t.name for t, st in store.streams()}
    lat = sorted(r.received - sent[(streams[r.stream_id], r.seq)] for r in rows
                 if (streams[r.stream_id], r.seq) in sent)
    span = max(r.received for r in rows) - min(r.received for r in rows) if rows else 1.0

    def pct(p: float) -> float:
        return lat[min(len(lat) - 1, int(p * len(lat)))] if lat else float("nan")

    print(f"tables {args.tables}, pace {args.pace}x, {args.seconds:.0f} s, db {args.db}: "
          f"{len(sent)} entries appended, {stored} stored, doubles dropped "
          f"{server.counts['doubles']}, refused {server.counts['refused']}")
    print(f"  append -> stored: p50 {pct(0.5) * 1000:.0f} ms, p95 {pct(0.95) * 1000:.0f} ms, "
          f"max {lat[-1] * 1000 if lat else float('nan'):.0f} ms")
    print(f"  ingest: {stored / max(span, 1e-6):.0f} entries/s over {span:.1f} s "
          f"(offered {len(sent) / args.seconds:.0f}/s)")
    if args.outage:
        print(f"  outage {args.outage:.0f} s: the backlog of {backlog} entries stored "
              f"{drain:.1f} s after the broker returned (the tables playing on); at the end "
              f"lost {len(sent) - stored}")
    server.stop()
    store.close()
    mosq.close()
    if pg:
        pg.close()
    return 0 if stored == len(sent) else 1


if __name__ == "__main__":
    sys.exit(main())
