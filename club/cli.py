"""``cardtable club serve`` (the club server) and ``cardtable club status`` (what it has).

    cardtable club serve [--db URL] [--broker mqtt://host:port] [--club NAME]
    cardtable club status [--db URL]

``--db`` is an SQLAlchemy URL (``postgresql+psycopg://user@host/club`` for a club); without it,
``club.sqlite`` in the data dir. ``--broker`` defaults to ``mqtt://127.0.0.1:1883``.
"""

from __future__ import annotations

import argparse
import logging
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
    serve.add_argument("--db", default=None, help="database URL (default: club.sqlite in the "
                       "data dir; PostgreSQL: postgresql+psycopg://user@host/name)")
    serve.add_argument("--broker", default=DEFAULT_BROKER, help="mqtt://[user:pass@]host[:port]")
    serve.add_argument("--club", default="+", help="only this club's tables (default: all)")
    serve.set_defaults(func=cmd_serve)
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
    status.add_argument("--db", default=None, help="database URL (as for serve)")
    status.set_defaults(func=cmd_status)


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
    server = ClubServer(store, broker, club=args.club).start()
    print(f"cardtable club: storing into {safe_url(store.url)} from {broker}", flush=True)
    if not server.connected.wait(5):
        print(f"club: the broker {broker} does not answer yet; retrying meanwhile",
              file=sys.stderr, flush=True)

    def terminate(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminate)
    try:
        while True:
            time.sleep(1)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
        store.close()
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
