"""Benchmark of the club's transport: many light tables publishing at a recorded pace through a
real Mosquitto into the club server, and a broker outage.

    python bench/bench_club.py [--tables 256] [--pace 1] [--seconds 60] [--db sqlite|postgres]
    python bench/bench_club.py --outage 600 --tables 50

Each light table is what a real one publishes, without cameras: its own SQLite log, into which
game after game (random legal Durak playouts) is appended event by event at ``--pace`` times a
recorded table's rate (one entry every 1.4 s, the simulated players' pace), and its own
``ClubLink`` (the same outbox code as ``cardtable run --club``), in ``--procs`` processes. The club
server (`cardtable club serve`) runs in a process of its own on PostgreSQL (started here on a
free port, as the tests do) or SQLite.

Figures: entry appended at the table -> committed at the club (what the room page shows within
``club.web.LIVE_POLL_S`` more): p50, p95, max; entries stored per second; with ``--outage S``
the broker is stopped S seconds mid-game while the tables play on, and the time for the backlog
to drain once it returns (and that nothing was lost or doubled).
"""

from __future__ import annotations

import argparse
import multiprocessing as mp
import random
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from _services import Mosquitto, Postgres  # noqa: E402

from club.models import EntryRow  # noqa: E402
from club.protocol import Broker  # noqa: E402
from club.store import Store, sqlite_url  # noqa: E402
from controller.club_link import ClubLink  # noqa: E402
from controller.log import GameLog, NewEntry  # noqa: E402
from engine.playout import play_out  # noqa: E402
from engine.registry import game_class  # noqa: E402

STEP_S = 1.4  # a recorded table's pace: one logged entry per simulated player's action
DRAIN_S = 300.0  # a table waits at most this long at the end for its backlog to go out


def table(folder: Path, name: str, broker: Broker, stop: threading.Event, pace: float,
          seed: int, sent: dict[tuple[str, int], float]) -> None:
    log = GameLog(folder / f"{name}.sqlite")
    link = ClubLink(log.path, broker, "bench", name, poll_s=0.2).start()
    rng = random.Random(seed)
    stop.wait(rng.uniform(0, STEP_S / pace))  # tables do not start in step
    try:
        while not stop.is_set():  # a game, then the next, until the bench ends
            game = play_out(game_class("durak2")({}), random.Random(rng.randrange(1 << 30)))
            gid, _ = log.new_game("durak2", {}, ["a", "b"])
            for e in (str(e) for e in game.raw_log):
                if stop.is_set():
                    break
                t = time.time()
                seq = log.append(gid, [NewEntry("event", {"event": e})], t=t)
                sent[(name, seq)] = t
                stop.wait(STEP_S / pace)
    finally:
        link.stop(drain_s=DRAIN_S)  # the backlog out before the table goes
        log.close()


def tables(folder: Path, numbers: list[int], url: str, pace: float, until: float
           ) -> dict[tuple[str, int], float]:
    """One process's tables, playing until ``until`` (epoch s); when each entry was appended."""
    stop = threading.Event()
    sent: dict[tuple[str, int], float] = {}
    broker = Broker.parse(url)
    threads = [threading.Thread(target=table, args=(folder, f"t{i}", broker, stop, pace, i,
                                                    sent), daemon=True) for i in numbers]
    for th in threads:
        th.start()
    time.sleep(max(0.0, until - time.time()))
    stop.set()
    for th in threads:
        th.join(DRAIN_S + 10)
    return sent


def stored_count(store: Store) -> int:
    from sqlalchemy import func, select

    with store._session() as s:
        return int(s.scalar(select(func.count(EntryRow.id))) or 0)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tables", type=int, default=256)
    ap.add_argument("--pace", type=float, default=1.0)
    ap.add_argument("--seconds", type=float, default=60.0)
    ap.add_argument("--db", choices=("postgres", "sqlite"), default="postgres")
    ap.add_argument("--procs", type=int, default=8, help="processes the light tables run in")
    ap.add_argument("--outage", type=float, default=0.0, help="stop the broker this long")
    ap.add_argument("--keep", action="store_true", help="keep the broker's folder (its log)")
    args = ap.parse_args()

    work = Path(tempfile.mkdtemp(prefix="bench-club-"))
    mosq = Mosquitto(conf_extra="allow_anonymous true\nmax_queued_messages 100000\n").start()
    pg = Postgres().start() if args.db == "postgres" else None
    store = Store(pg.database("bench") if pg else sqlite_url(work / "club.sqlite"))
    # The server in its own process, as in a club (its own machine): the light tables here
    # would otherwise share one interpreter's lock with it.
    server = subprocess.Popen([sys.executable, "-m", "cardtable", "club", "serve", "--no-web",
                               "--db", store.url, "--broker", mosq.url],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    # The light tables in several processes: one process holds a table's SQLite files, its
    # socket and paho's wake-up pair, and paho's select() takes no descriptor past 1,024
    # (a real table runs one link in its own process).
    sent: dict[tuple[str, int], float] = {}
    groups = [list(range(g, args.tables, args.procs)) for g in range(args.procs)]
    pool = ProcessPoolExecutor(max_workers=args.procs, mp_context=mp.get_context("spawn"))
    t0 = time.time()
    futures = [pool.submit(tables, work, group, mosq.url, args.pace, t0 + args.seconds)
               for group in groups if group]
    if args.outage:
        time.sleep(min(10.0, args.seconds / 3))
        mosq.stop()
        time.sleep(args.outage)
        mosq.start()
        back = time.time()
    for fut in futures:
        sent.update(fut.result())
    pool.shutdown()
    deadline = time.time() + 120
    while time.time() < deadline and stored_count(store) < len(sent):
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
          f"{len(sent)} entries appended, {stored} stored "
          f"({len(set(sent) - {(streams[r.stream_id], r.seq) for r in rows})} missing)")
    print(f"  append -> stored: p50 {pct(0.5) * 1000:.0f} ms, p95 {pct(0.95) * 1000:.0f} ms, "
          f"max {lat[-1] * 1000 if lat else float('nan'):.0f} ms")
    print(f"  ingest: {stored / max(span, 1e-6):.0f} entries/s over {span:.1f} s "
          f"(offered {len(sent) / args.seconds:.0f}/s)")
    if args.outage:
        # the backlog: entries appended before the broker returned; drained when the last
        # of them was stored
        backlog = [r.received for r in rows
                   if sent.get((streams[r.stream_id], r.seq), back + 1) <= back]
        drain = max(backlog) - back if backlog else 0.0
        print(f"  outage {args.outage:.0f} s: the backlog of {len(backlog)} entries stored "
              f"{drain:.1f} s after the broker returned (the tables playing on); at the end "
              f"{len(sent) - stored} lost")
    server.terminate()
    _, err = server.communicate(timeout=30)
    if "Traceback" in err:
        print(err, file=sys.stderr)
    store.close()
    if args.keep:
        print("broker folder", mosq.folder)
        mosq.stop()
    else:
        mosq.close()
    if pg:
        pg.close()
    return 0 if stored == len(sent) else 1


if __name__ == "__main__":
    sys.exit(main())
