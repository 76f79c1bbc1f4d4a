"""``cardtable club serve`` (the club server) and ``cardtable club status`` (what it has).

    cardtable club serve [--db URL] [--broker mqtt://host:port] [--club NAME]
    cardtable club status [--db URL]
    cardtable club admin-pin [--db URL]      a new organiser's PIN for the club pages

``--db`` is an SQLAlchemy URL (``postgresql+psycopg://user@host/club`` for a club); without it,
``club.sqlite`` in the data dir. ``--broker`` defaults to ``mqtt://127.0.0.1:1883``.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any

DEFAULT_BROKER = "mqtt://127.0.0.1:1883"


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("club", help="the club server: every table's games in one database")
    csub = p.add_subparsers(dest="club_command", metavar="SUBCOMMAND", required=True)
    serve = csub.add_parser("serve", help="gather the tables' logs from the broker")
    serve.add_argument("--db", default=os.environ.get("CARDTABLE_CLUB_DB"),
                       help="database URL (default: $CARDTABLE_CLUB_DB, else club.sqlite in the "
                       "data dir; PostgreSQL: postgresql+psycopg://user@host/name)")
    serve.add_argument("--broker", default=os.environ.get("CARDTABLE_CLUB_BROKER", DEFAULT_BROKER),
                       help="mqtt://[user:pass@]host[:port] (default: $CARDTABLE_CLUB_BROKER, "
                       f"else {DEFAULT_BROKER}; the environment keeps a password out of ps)")
    serve.add_argument("--club", default="+", help="only this club's tables (default: all)")
    serve.add_argument("--host", default="127.0.0.1", help="address of the club pages "
                       "(0.0.0.0: the whole room's network)")
    serve.add_argument("--port", type=int, default=8100, help="port of the club pages (8100)")
    serve.add_argument("--no-web", action="store_true", help="no club pages")
    serve.set_defaults(func=cmd_serve)
    demo = csub.add_parser("demo", help="a simulated club: a broker, the server and three "
                           "simulated tables replaying the bundled games")
    demo.add_argument("--port", type=int, default=8100, help="port of the club pages (8100)")
    demo.add_argument("--speed", type=float, default=2.0, help="the tables' replay speed (2)")
    demo.set_defaults(func=cmd_demo)
    tables = csub.add_parser("tables", help="the tables' broker accounts")
    tsub = tables.add_subparsers(dest="tables_command", metavar="SUBCOMMAND", required=True)
    add = tsub.add_parser("add", help="a table's broker user, password and ACL lines")
    add.add_argument("name", help="the table's name in the club (letters, digits, - or _)")
    add.add_argument("--club", default="club", help="the club's name (default: club)")
    add.add_argument("--broker", default="mqtt://club-server.local:1883",
                     help="the broker's address, for the table's [club] section")
    add.add_argument("--passwd", type=Path, help="add it to this Mosquitto password file")
    add.add_argument("--acl", type=Path, help="add its lines to this Mosquitto ACL file")
    add.set_defaults(func=cmd_tables_add)
    account = csub.add_parser("server-account",
                              help="the club server's own broker user, password and ACL lines")
    account.add_argument("--passwd", type=Path, help="add it to this Mosquitto password file")
    account.add_argument("--acl", type=Path, help="add its lines to this Mosquitto ACL file")
    account.set_defaults(func=cmd_server_account)
    status = csub.add_parser("status", help="the tables the club has heard from")
    status.add_argument("--db", default=os.environ.get("CARDTABLE_CLUB_DB"),
                        help="database URL (as for serve)")
    status.set_defaults(func=cmd_status)
    pin = csub.add_parser("admin-pin", help="make a new PIN for the organiser's club pages "
                          "(printed once; the old one stops working)")
    pin.add_argument("--db", default=os.environ.get("CARDTABLE_CLUB_DB"),
                     help="database URL (as for serve)")
    pin.set_defaults(func=cmd_admin_pin)


def _error(text: str) -> int:
    print(f"error: {text}", file=sys.stderr)
    return 2


def _open(url: str | None, wait_s: float = 0.0) -> Any:
    """The store; a database that is down is retried for ``wait_s`` (a server started with its
    database, as systemd does) before the error is given."""
    from club.store import Store, StoreError, default_url

    deadline = time.monotonic() + wait_s
    while True:
        try:
            return Store(url or default_url())
        except StoreError as exc:
            if time.monotonic() >= deadline:
                raise
            print(f"club: {exc}; trying again", file=sys.stderr, flush=True)
            time.sleep(2)


def cmd_serve(args: argparse.Namespace) -> int:
    from club.protocol import Broker, ProtocolError, check_name
    from club.server import ClubServer
    from club.store import StoreError, safe_url

    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    from table_ui.guard import quiet_repeats

    quiet_repeats()
    try:
        broker = Broker.parse(args.broker)
        if args.club != "+":
            check_name("club", args.club)
    except ProtocolError as exc:
        return _error(str(exc))
    try:
        store = _open(args.db, wait_s=30)
    except StoreError as exc:
        return _error(str(exc))
    web = None
    if not args.no_web:
        if (problem := _port_taken(args.host, args.port)) is not None:
            store.close()
            return _error(problem)
        web = _web(store, args.host, args.port, "" if args.club == "+" else args.club)
        if store.organiser.pin_hash() is None:  # first start: the organiser needs a PIN
            print(f"club admin PIN: {_new_pin(store)} (kept; `cardtable club admin-pin` makes "
                  "a new one)", file=sys.stderr, flush=True)
    server = ClubServer(store, broker, club=args.club).start()
    print(f"cardtable club: storing into {safe_url(store.url)} from {broker}", flush=True)
    if web is not None:
        print(f"  club pages: http://{args.host}:{args.port}/   results: "
              f"http://{args.host}:{args.port}/results", flush=True)
    if not server.connected.wait(5):
        print(f"club: the broker {broker} does not answer yet; retrying meanwhile",
              file=sys.stderr, flush=True)
    return _serve_until_stopped(web, [server.stop, store.close])


def _web(store: Any, host: str, port: int, club: str) -> Any:
    import uvicorn

    from club.web import create_club_app
    from table_ui.guard import BACKLOG, guarded_protocol, max_connections_for_this_process

    config = uvicorn.Config(create_club_app(store, club), host=host, port=port,
                            log_level="warning", timeout_graceful_shutdown=2,
                            timeout_keep_alive=5, limit_concurrency=200, backlog=BACKLOG,
                            http=guarded_protocol(max_connections_for_this_process()))
    return uvicorn.Server(config)


def _port_taken(host: str, port: int) -> str | None:
    import socket

    with socket.socket() as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            return (f"cannot serve the club pages on {host}:{port} ({exc.strerror}); is the "
                    "club server already running? --port picks another")
    return None


def _serve_until_stopped(web: Any, closers: list[Any]) -> int:
    """Run the pages (or just wait) until Ctrl-C or SIGTERM, then close everything in order."""
    def terminate(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    try:
        if web is not None:
            web.run()
        else:
            while True:
                time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        for close in closers:
            try:
                close()
            except Exception as exc:  # one part failing to close must not hide the others
                print(f"club: while stopping: {exc}", file=sys.stderr)
    return 0


def cmd_status(args: argparse.Namespace) -> int:
    from club.store import StoreError

    try:
        store = _open(args.db)
    except StoreError as exc:
        return _error(str(exc))
    rows = store.streams()
    if not rows:
        print("no table has published yet")
        return 0
    now = time.time()
    print(f"{'club':12s} {'table':12s} {'state':8s} {'last seen':>10s} {'entries':>8s} "
          f"{'missing':>8s}")
    for table, stream in rows:
        seen = "-" if table.last_seen is None else f"{now - table.last_seen:.0f} s ago"
        print(f"{table.club:12s} {table.name:12s} {'online' if table.online else 'offline':8s} "
              f"{seen:>10s} {stream.last_seq:8d} {stream.last_seq - stream.contiguous:8d}")
    store.close()
    return 0


def _new_pin(store: Any) -> str:
    from table_ui.security import hash_pin, random_pin

    pin = random_pin()
    store.organiser.set_pin_hash(hash_pin(pin))
    return pin


def cmd_admin_pin(args: argparse.Namespace) -> int:
    from club.organiser import ClubError
    from club.store import StoreError

    try:
        store = _open(args.db)
        pin = _new_pin(store)
    except (StoreError, ClubError) as exc:
        return _error(str(exc))
    store.close()
    print(f"club admin PIN: {pin}")
    return 0


def cmd_tables_add(args: argparse.Namespace) -> int:
    from club.accounts import AccountError, add_to_broker, table_account
    from club.protocol import ProtocolError

    try:
        acc = table_account(args.club, args.name)
        add_to_broker(acc, args.passwd, args.acl)
    except (ProtocolError, AccountError, OSError) as exc:
        return _error(str(exc))
    print(f"# table {args.name!r} of club {args.club!r}: its [club] section (table config)")
    print(f'[club]\nbroker = "{args.broker}"\nclub = "{args.club}"\ntable = "{args.name}"')
    print(f'username = "{acc.username}"\npassword = "{acc.password}"')
    _broker_lines(acc, args.passwd, args.acl)
    return 0


def cmd_server_account(args: argparse.Namespace) -> int:
    from club.accounts import AccountError, add_to_broker, server_account

    acc = server_account()
    try:
        add_to_broker(acc, args.passwd, args.acl)
    except (AccountError, OSError) as exc:
        return _error(str(exc))
    print("# the club server: cardtable club serve --broker "
          f"'mqtt://{acc.username}:{acc.password}@127.0.0.1:1883'")
    _broker_lines(acc, args.passwd, args.acl)
    return 0


def _broker_lines(acc: Any, passwd: Path | None, acl: Path | None) -> None:
    if passwd is None:
        print("# on the broker: mosquitto_passwd -b /etc/mosquitto/passwd "
              f"{acc.username} '{acc.password}'")
    else:
        print(f"# added to the password file {passwd}")
    if acl is None:
        print("# and in the ACL file (/etc/mosquitto/acl):")
        print(acc.acl, end="")
    else:
        print(f"# added to the ACL file {acl}")


DEMO_TABLES = (("stol-1", "belot2", "Аня,Боря"), ("stol-2", "durak2", "Вера,Глеб"),
               ("stol-3", "bazar", "Дина,Егор,Женя,Зоя"))


def _bundles() -> Path:
    """The bundled recordings' folder, found without importing the table's packages (the club
    imports none of them)."""
    import importlib.util

    spec = importlib.util.find_spec("controller")
    if spec is None or not spec.submodule_search_locations:
        raise FileNotFoundError("the bundled recordings (controller/data) are not installed")
    return Path(next(iter(spec.submodule_search_locations))) / "data"


def cmd_demo(args: argparse.Namespace) -> int:
    """A broker (the system's mosquitto on a free port), the club server on a SQLite file and
    three simulated tables replaying the bundled games, until Ctrl-C."""
    import os
    import shutil
    import socket
    import subprocess
    import tempfile

    from club.protocol import Broker
    from club.server import ClubServer
    from club.store import Store, StoreError, default_url, sqlite_url

    mosquitto = shutil.which("mosquitto") or next(
        (p for p in ("/usr/sbin/mosquitto", "/usr/local/sbin/mosquitto") if Path(p).exists()),
        None)
    if mosquitto is None:
        return _error("the club demo needs Mosquitto, the MQTT broker (apt install mosquitto)")
    if (problem := _port_taken("127.0.0.1", args.port)) is not None:
        return _error(problem)
    try:
        bundles = _bundles()
    except FileNotFoundError as exc:
        return _error(str(exc))
    work = Path(tempfile.mkdtemp(prefix="cardtable-club-demo-"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    conf = work / "mosquitto.conf"
    conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\npersistence false\n"
                    + ("user root\n" if os.geteuid() == 0 else ""))
    children: list[subprocess.Popen] = []

    def stop_children() -> None:
        for child in reversed(children):
            if child.poll() is None:
                child.terminate()
        for child in children:
            try:
                child.wait(10)
            except subprocess.TimeoutExpired:
                child.kill()
        shutil.rmtree(work, ignore_errors=True)

    broker_proc = subprocess.Popen([mosquitto, "-c", str(conf)], stdout=subprocess.DEVNULL,
                                   stderr=subprocess.PIPE)
    children.append(broker_proc)
    deadline = time.monotonic() + 10
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            break
        except OSError:
            if broker_proc.poll() is not None or time.monotonic() > deadline:
                err = (broker_proc.stderr.read().decode(errors="replace").strip()
                       if broker_proc.stderr else "")
                stop_children()
                return _error(f"mosquitto did not start: {err or 'no answer'}")
            time.sleep(0.05)
    url = f"mqtt://127.0.0.1:{port}"
    db = Path(default_url().removeprefix("sqlite:///")).with_name("club-demo.sqlite")
    db.unlink(missing_ok=True)  # every demo starts an empty club
    try:
        store = Store(sqlite_url(db))
    except StoreError as exc:
        stop_children()
        return _error(str(exc))
    server = ClubServer(store, Broker.parse(url), client_id="cardtable-club-demo").start()
    server.connected.wait(5)
    for _table, _bundle, names in DEMO_TABLES:  # the register, and tonight's evening
        for player in names.split(","):
            store.organiser.add_player(player)
    store.organiser.open_evening("Демо-вечер")
    pin = _new_pin(store)
    for name, bundle, names in DEMO_TABLES:
        env = {**os.environ, "CARDTABLE_DATA_DIR": str(work / name)}
        children.append(subprocess.Popen(
            [sys.executable, "-m", "cardtable", "run", "--no-web", "--no-panels", "--new-game",
             "--bundle", str(bundles / bundle), "--names", names, "--speed", str(args.speed),
             "--pause", "10",
             "--footage-budget", "0", "--db", str(work / f"{name}.sqlite"), "--club", url,
             "--club-name", "demo", "--table-name", name],
            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    web = _web(store, "127.0.0.1", args.port, "demo")
    print(f"cardtable club demo: three simulated tables ({', '.join(b for _, b, _n in DEMO_TABLES)})"
          f" publishing through mosquitto on {url}", flush=True)
    print(f"  club pages: http://127.0.0.1:{args.port}/   results: "
          f"http://127.0.0.1:{args.port}/results   (database {db})", flush=True)
    print(f"  the organiser's page: http://127.0.0.1:{args.port}/admin   PIN {pin}", flush=True)
    print("  stop with Ctrl-C", flush=True)
    return _serve_until_stopped(web, [stop_children, server.stop, store.close])
