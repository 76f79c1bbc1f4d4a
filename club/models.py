"""The club database's tables (SQLAlchemy 2 models; ``club/migrations`` makes them).

What the tables sent: ``tables``, ``streams`` (one per table log file), ``games`` (a table's game
as its entries describe it, judged by ``club.referee``) and ``entries`` (every log entry, once).

What the organiser keeps: ``players`` (the club's register), ``seats`` (who sat at each seat of
a game: a registered player or a guest), ``evenings`` (opened, closed; results are provisional
until their evening is closed) and ``results`` (the result ledger: confirmations, disputes,
corrections, adjusted scores, voids, seatings, each with who, when and why; never changed or
deleted, so the original result always stays on record). ``settings`` holds the admin PIN's hash.
``tournaments``, ``entrants`` and ``pairings``: an evening's Swiss tournament (``club.tournament``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import JSON, Boolean, Float, ForeignKey, Integer, String, UniqueConstraint
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class Base(DeclarativeBase):
    pass


class TableRow(Base):
    __tablename__ = "tables"
    __table_args__ = (UniqueConstraint("club", "name"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    club: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(64))
    online: Mapped[bool] = mapped_column(Boolean, default=False)
    last_seen: Mapped[float | None] = mapped_column(Float, nullable=True)


class StreamRow(Base):
    """One table log file as the club has it."""
    __tablename__ = "streams"
    __table_args__ = (UniqueConstraint("table_id", "log"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    table_id: Mapped[int] = mapped_column(ForeignKey("tables.id"))
    log: Mapped[str] = mapped_column(String(64))
    contiguous: Mapped[int] = mapped_column(Integer, default=0)  # every entry up to it is stored
    last_seq: Mapped[int] = mapped_column(Integer, default=0)


class GameRow(Base):
    __tablename__ = "games"
    __table_args__ = (UniqueConstraint("stream_id", "table_game"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    stream_id: Mapped[int] = mapped_column(ForeignKey("streams.id"))
    table_game: Mapped[int] = mapped_column(Integer)  # the game's id in the table's log
    name: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    names: Mapped[list[str]] = mapped_column(JSON, default=list)
    started: Mapped[float] = mapped_column(Float)
    status: Mapped[str] = mapped_column(String(16))
    ended: Mapped[float | None] = mapped_column(Float, nullable=True)
    stated: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)  # table's result
    # the engine's verdict on the game (club.referee): ok, refused or differs, and why
    check: Mapped[str] = mapped_column(String(16), default="ok")
    problem: Mapped[str | None] = mapped_column(String(500), nullable=True)
    finished: Mapped[bool] = mapped_column(Boolean, default=False)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    totals: Mapped[list[int]] = mapped_column(JSON, default=list)
    to_act: Mapped[int | None] = mapped_column(Integer, nullable=True)


class EntryRow(Base):
    __tablename__ = "entries"
    __table_args__ = (UniqueConstraint("stream_id", "seq"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    stream_id: Mapped[int] = mapped_column(ForeignKey("streams.id"), index=True)
    seq: Mapped[int] = mapped_column(Integer)
    prev: Mapped[int] = mapped_column(Integer)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), nullable=True,
                                                index=True)
    t: Mapped[float] = mapped_column(Float)
    kind: Mapped[str] = mapped_column(String(16))
    source: Mapped[str] = mapped_column(String(64), default="")
    body: Mapped[dict[str, Any]] = mapped_column(JSON)
    frame: Mapped[int | None] = mapped_column(Integer, nullable=True)
    received: Mapped[float] = mapped_column(Float)


class PlayerRow(Base):
    """A player of the club's register. Results point at the id, so a new name changes none."""
    __tablename__ = "players"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(80), unique=True)
    nickname: Mapped[str | None] = mapped_column(String(80), nullable=True)
    active: Mapped[bool] = mapped_column(Boolean, default=True)
    created: Mapped[float] = mapped_column(Float)


class SeatRow(Base):
    """Who sat at one seat of a game: a registered player, or a guest by name."""
    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("game_id", "seat"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    guest: Mapped[str | None] = mapped_column(String(80), nullable=True)


class EveningRow(Base):
    """A club evening: the games started while it was open belong to it."""
    __tablename__ = "evenings"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    title: Mapped[str] = mapped_column(String(120))
    opened: Mapped[float] = mapped_column(Float)
    closed: Mapped[float | None] = mapped_column(Float, nullable=True)
    hide_standings: Mapped[bool] = mapped_column(Boolean, default=False)


class ResultRow(Base):
    """One entry of the result ledger (append-only). ``kind``: confirm or dispute (by a side),
    correct (new totals and winner), adjust (an awarded score), void, reinstate, seat (a seat's
    player changed); ``by`` who, ``at`` when, ``why`` the reason given."""
    __tablename__ = "results"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    side: Mapped[int | None] = mapped_column(Integer, nullable=True)  # or the seat, for "seat"
    totals: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    player_id: Mapped[int | None] = mapped_column(ForeignKey("players.id"), nullable=True)
    guest: Mapped[str | None] = mapped_column(String(80), nullable=True)
    by: Mapped[str] = mapped_column(String(80))
    at: Mapped[float] = mapped_column(Float)
    why: Mapped[str] = mapped_column(String(500), default="")


class SettingRow(Base):
    __tablename__ = "settings"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(500))


class TournamentRow(Base):
    """A Swiss tournament of an evening: ``rounds`` rounds of ``game`` on ``tables``
    (``[[club, table], ...]``, in board order)."""
    __tablename__ = "tournaments"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    evening_id: Mapped[int] = mapped_column(ForeignKey("evenings.id"), index=True)
    game: Mapped[str] = mapped_column(String(40))
    options: Mapped[dict[str, Any]] = mapped_column(JSON, default=dict)
    rounds: Mapped[int] = mapped_column(Integer)
    tables: Mapped[list[list[str]]] = mapped_column(JSON, default=list)
    created: Mapped[float] = mapped_column(Float)


class EntrantRow(Base):
    """An entrant: one registered player, or a fixed pair (``players``), numbered in seed
    order."""
    __tablename__ = "entrants"
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    number: Mapped[int] = mapped_column(Integer)
    players: Mapped[list[int]] = mapped_column(JSON)


class PairingRow(Base):
    """One game of a round: entrant ``first`` (seat 0, or seats 0 and 2) against ``second`` at a
    table, or a bye (``second`` and the table None). ``sent``: when the server published the
    start to the table; ``game_id``: the table's game, once it arrived; ``cleared``: the
    retained start was removed; ``settled``: the organiser's points for it, when its game
    cannot be played or was lost."""
    __tablename__ = "pairings"
    __table_args__ = (UniqueConstraint("tournament_id", "round", "first"),)
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    tournament_id: Mapped[int] = mapped_column(ForeignKey("tournaments.id"), index=True)
    round: Mapped[int] = mapped_column(Integer)
    club: Mapped[str | None] = mapped_column(String(64), nullable=True)
    table: Mapped[str | None] = mapped_column(String(64), nullable=True)
    first: Mapped[int] = mapped_column(Integer)
    second: Mapped[int | None] = mapped_column(Integer, nullable=True)
    names: Mapped[list[str]] = mapped_column(JSON, default=list)
    players: Mapped[list[int]] = mapped_column(JSON, default=list)
    created: Mapped[float] = mapped_column(Float)
    sent: Mapped[float | None] = mapped_column(Float, nullable=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id"), nullable=True)
    cleared: Mapped[bool] = mapped_column(Boolean, default=False)
    # the organiser's result for a game that cannot be played or found (first's, second's)
    settled: Mapped[list[float] | None] = mapped_column(JSON, nullable=True)
    settled_why: Mapped[str | None] = mapped_column(String(500), nullable=True)
