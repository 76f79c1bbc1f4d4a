"""The club server's systemd unit: unprivileged, after the broker and the database, secrets from
an environment file (not the command line), and a command line that parses."""

from __future__ import annotations

import configparser
import shlex
from pathlib import Path

from cardtable.cli import build_parser

UNIT = Path(__file__).parent.parent / "deploy" / "cardtable-club.service"


def test_the_club_unit() -> None:
    parser = configparser.ConfigParser(strict=False, interpolation=None)
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read(UNIT, encoding="utf-8")
    unit, service = parser["Unit"], parser["Service"]
    assert {"mosquitto.service", "postgresql.service"} <= set(unit["After"].split())
    assert service["User"] == "cardtable"
    assert service["EnvironmentFile"] == "/etc/cardtable/club.env"
    argv = shlex.split(service["ExecStart"])
    assert argv[0].endswith("/.venv/bin/cardtable") and argv[1:3] == ["club", "serve"]
    assert "--broker" not in argv and "--db" not in argv  # no password in `ps`
    args = build_parser("club").parse_args(argv[1:])
    assert (args.host, args.port) == ("0.0.0.0", 8100)


def test_serve_takes_broker_and_database_from_the_environment(monkeypatch) -> None:
    monkeypatch.setenv("CARDTABLE_CLUB_BROKER", "mqtt://club-server:pw@127.0.0.1:1884")
    monkeypatch.setenv("CARDTABLE_CLUB_DB", "postgresql+psycopg://club@/club")
    args = build_parser("club").parse_args(["club", "serve"])
    assert args.broker == "mqtt://club-server:pw@127.0.0.1:1884"
    assert args.db == "postgresql+psycopg://club@/club"
