"""The wire between a table and the club server: MQTT topics and the JSON of each message.

One file, read by both ends (the table's publisher, ``controller.club_link``, and the club
server), as ``firmware_bridge/protocol.py`` is for the seat panels.

Topics, under ``cardtable/<club>/<table>/``:

* ``log`` — the table's log entries, one message each, QoS 1, in log order (:class:`LogMessage`).
  ``seq`` is the table log's sequence number and ``prev`` the one published before it, so the
  server sees a gap the moment an entry is missing. ``log`` names the table's log file (a new
  file starts its numbers again).
* ``status`` — retained: ``online`` with the log's last sequence number when the table connects
  and every ``HEARTBEAT_S`` after; its MQTT last will says ``offline``.
* ``resend`` — retained, from the server: publish again every entry after ``after`` of log ``log``
  (the server noticed a gap).
* ``start`` — retained, from the server: start this game with these players (a round of the
  evening's Swiss tournament, :class:`StartGame`); the table starts each ``id`` once, when no
  game of its own is still being played, and the server clears it once the game has arrived.

Club and table names are 1–64 letters, digits, ``-`` or ``_``: they are topic levels.
"""

from __future__ import annotations

import re
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

ROOT = "cardtable"
NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")
KINDS = ("input", "event", "alert", "state")
VERSION = 1
HEARTBEAT_S = 10.0


class ProtocolError(ValueError):
    """A message or topic that is not this protocol's."""


def check_name(what: str, name: str) -> str:
    if not NAME.match(name or ""):
        raise ProtocolError(f"{what} name {name!r}: use 1-64 letters, digits, '-' or '_'")
    return name


LEAVES = ("log", "status", "resend", "start")


def topic(club: str, table: str, leaf: Literal["log", "status", "resend", "start"]) -> str:
    return f"{ROOT}/{check_name('club', club)}/{check_name('table', table)}/{leaf}"


def subscription(leaf: str, club: str = "+") -> str:
    """Every table's ``leaf`` topic (of one club, or of all)."""
    return f"{ROOT}/{club}/+/{leaf}"


def parse_topic(text: str) -> tuple[str, str, str]:
    """(club, table, leaf) of a topic of this protocol."""
    parts = text.split("/")
    if len(parts) != 4 or parts[0] != ROOT or parts[3] not in LEAVES:
        raise ProtocolError(f"not a cardtable topic: {text!r}")
    return check_name("club", parts[1]), check_name("table", parts[2]), parts[3]


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


_M = TypeVar("_M", bound=_Message)


class GameHeader(_Message):
    """The table's game an entry belongs to, as the table's log has it when published."""
    id: int = Field(ge=1)
    name: str = Field(min_length=1, max_length=40)
    options: dict[str, Any] = {}
    names: list[str] = []
    started: float
    status: Literal["active", "finished", "abandoned"]
    ended: float | None = None
    # the result as the table has it, once the game is over: {finished, winner, totals}
    outcome: dict[str, Any] | None = None


class LogMessage(_Message):
    v: Literal[1] = 1  # VERSION
    log: str = Field(min_length=8, max_length=64, pattern=r"^[A-Za-z0-9-]+$")
    seq: int = Field(ge=1)
    prev: int = Field(ge=0)
    game: GameHeader | None
    t: float
    kind: Literal["input", "event", "alert", "state"]
    source: str = Field(default="", max_length=64)
    body: dict[str, Any]
    frame: int | None = None

    def encode(self) -> bytes:
        return self.model_dump_json().encode()


class Status(_Message):
    """A table's state; while online, re-published every few seconds with ``seq``, the last
    entry of its log, so a server that missed entries (started after them) asks for them."""
    state: Literal["online", "offline"]
    t: float | None = None
    log: str | None = None
    seq: int | None = Field(default=None, ge=0)


class Resend(_Message):
    log: str
    after: int = Field(ge=0)


class StartGame(_Message):
    """The server's word to a table: start game ``game`` with players ``names`` (per seat; the
    registered players' club ids in ``players``). ``id`` is the pairing's, unique in the club."""
    id: int = Field(ge=1)
    game: str = Field(min_length=1, max_length=40)
    options: dict[str, Any] = {}
    names: list[str] = Field(min_length=2, max_length=4)
    players: list[int | None] = []
    title: str = Field(default="", max_length=160)


def decode(model: type[_M], payload: bytes | bytearray) -> _M:
    """A message from its payload, or ProtocolError saying what is wrong with it."""
    try:
        return model.model_validate_json(payload)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "message"
        raise ProtocolError(f"bad {model.__name__}: {where}: {first['msg']}") from None



class Broker(_Message):
    """Where the broker is: ``mqtt://[user[:password]@]host[:port]`` (``mqtts://`` for TLS)."""
    host: str
    port: int
    tls: bool = False
    username: str | None = None
    password: str | None = None

    @classmethod
    def parse(cls, url: str) -> Broker:
        from urllib.parse import unquote, urlsplit

        parts = urlsplit(url if "://" in url else f"mqtt://{url}")
        if parts.scheme not in ("mqtt", "mqtts") or not parts.hostname:
            raise ProtocolError(f"broker {url!r}: write mqtt://host[:port] (or mqtts:// for TLS)")
        try:
            port = parts.port or (8883 if parts.scheme == "mqtts" else 1883)
        except ValueError:
            raise ProtocolError(f"broker {url!r}: the port is not a number from 1 to 65535") from None
        return cls(host=parts.hostname, port=port, tls=parts.scheme == "mqtts",
                   username=unquote(parts.username) if parts.username else None,
                   password=unquote(parts.password) if parts.password else None)

    def __str__(self) -> str:
        return f"{'mqtts' if self.tls else 'mqtt'}://{self.host}:{self.port}"
