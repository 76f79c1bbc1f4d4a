"""The club's database: every table's log entries, stored once, in order, through SQLAlchemy 2.

PostgreSQL for a club (``postgresql+psycopg://...``); with no URL, a SQLite file under the
user's data dir (``default_url``) so one laptop can run a small club. The schema is made and
upgraded by Alembic (``club/migrations``) when the store opens.

Tables: ``tables`` (club, name, online, last seen), ``streams`` (one per table log file: the
highest sequence number up to which every entry is stored, ``contiguous``), ``games`` (the
table's game as its entries describe it) and ``entries`` (unique by table, log and sequence
number: an entry delivered twice is stored once). ``Store.ingest`` reports what it did with each
message: stored, a double, or stored with a gap before it (the server then asks the table to
send again from ``contiguous``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy import create_engine, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError, OperationalError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from club.models import EntryRow, GameRow, StreamRow, TableRow
from club.organiser import Organiser
from club.protocol import LogMessage, Status
from club.referee import Referee
from club.tournament import Tournaments


class StoreError(RuntimeError):
    """The club database cannot be reached or written."""


@dataclass(frozen=True)
class Stored:
    """What ``ingest`` did: ``stored`` (False for a double) and, when entries before it are
    missing, ``resend_after`` (the stream's contiguous sequence number)."""
    stored: bool
    resend_after: int | None = None
    contiguous: int = 0


def default_url() -> str:
    """The embedded default: ``club.sqlite`` in the data dir (``CARDTABLE_DATA_DIR`` or the
    user's, as the table's own log)."""
    import os

    import platformdirs

    folder = Path(os.environ.get("CARDTABLE_DATA_DIR") or platformdirs.user_data_dir("cardtable"))
    folder.mkdir(parents=True, exist_ok=True)
    return sqlite_url(folder / "club.sqlite")


def sqlite_url(path: Path) -> str:
    return f"sqlite:///{path}"


class _Batch:
    """What one ``ingest_many`` transaction has looked up already."""

    def __init__(self, s: Session) -> None:
        self.session = s
        self.tables: dict[tuple[str, str], TableRow] = {}
        self.streams: dict[tuple[int, str], StreamRow] = {}
        self.games: dict[tuple[int, int], GameRow] = {}
        self.advanced: dict[StreamRow, int] = {}  # stream -> its contiguous before the batch


class Store:
    """The club database at ``url`` (made or upgraded to the current schema on open)."""

    def __init__(self, url: str) -> None:
        self.url = url
        try:
            self.engine: Engine = create_engine(url, pool_pre_ping=True)
            upgrade(self.engine)
        except (SQLAlchemyError, OSError) as exc:
            raise StoreError(f"cannot open the club database {safe_url(url)}: "
                             f"{_reason(exc)}") from None
        self._session = sessionmaker(self.engine, expire_on_commit=False)
        self.referee = Referee()
        self.changes = 0  # bumped after every committed change (the room page's live feed)
        self.organiser = Organiser(self._session, self._bump)
        self.tournaments = Tournaments(self._session, self.organiser, self._bump)

    def _bump(self) -> None:
        self.changes += 1

    def close(self) -> None:
        self.engine.dispose()

    # -- writing ---------------------------------------------------------------------------
    def ingest(self, club: str, table: str, msg: LogMessage, now: float | None = None) -> Stored:
        return self.ingest_many([(club, table, msg)], now)[0]

    def ingest_many(self, items: Sequence[tuple[str, str, LogMessage]],
                    now: float | None = None) -> list[Stored]:
        """Store entries (club, table, message) in one transaction, each as ``ingest`` would:
        a batch costs one commit, and the tables, streams and games it touches are looked up
        once. Should the batch meet an entry stored meanwhile by someone else, it is stored
        again one entry at a time."""
        now = time.time() if now is None else now
        try:
            with self._session.begin() as s:
                batch = _Batch(s)
                done = [self._one(s, batch, club, table, msg, now) for club, table, msg in items]
                for stream, before in batch.advanced.items():
                    self._judge(s, stream, before)
            self.changes += 1
            return done
        except IntegrityError:  # a double stored meanwhile by another server
            if len(items) > 1:
                return [self.ingest(*item, now=now) for item in items]
            return [Stored(False)]
        except (OperationalError, SQLAlchemyError) as exc:
            raise StoreError(f"cannot write the club database: {_reason(exc)}") from None

    def _one(self, s: Session, batch: _Batch, club: str, table: str, msg: LogMessage,
             now: float) -> Stored:
        key = (club, table)
        trow = batch.tables.get(key)
        if trow is None:
            trow = batch.tables[key] = self._table(s, club, table)
        trow.last_seen = now
        skey = (trow.id, msg.log)
        stream = batch.streams.get(skey)
        if stream is None:
            stream = batch.streams[skey] = self._stream(s, trow.id, msg.log)
        exists = s.scalar(select(EntryRow.id).where(
            EntryRow.stream_id == stream.id, EntryRow.seq == msg.seq))
        if exists is not None:
            return Stored(False, contiguous=stream.contiguous)
        game = None
        if msg.game is not None:
            gkey = (stream.id, msg.game.id)
            game = batch.games.get(gkey)
            if game is None or msg.game.status != game.status:
                game = batch.games[gkey] = self._game(s, stream.id, msg, club, table)
        s.add(EntryRow(stream_id=stream.id, seq=msg.seq, prev=msg.prev,
                       game_id=game.id if game else None, t=msg.t, kind=msg.kind,
                       source=msg.source, body=msg.body, frame=msg.frame, received=now))
        s.flush()
        if game is not None and msg.kind == "alert":
            Organiser.table_said(s, game, msg.body, msg.t)
        stream.last_seq = max(stream.last_seq, msg.seq)
        before = stream.contiguous
        stream.contiguous = self._advance(s, stream, msg)
        if stream.contiguous > before:
            batch.advanced.setdefault(stream, before)
        gap = stream.contiguous < msg.seq
        return Stored(True, stream.contiguous if gap else None, stream.contiguous)

    def status(self, club: str, table: str, status: Status, now: float | None = None
               ) -> int | None:
        """Record a table's status; when it names its log's last entry and entries up to it are
        missing here, the contiguous sequence number to ask again after (else None)."""
        try:
            with self._session.begin() as s:
                trow = self._table(s, club, table)
                trow.online = status.state == "online"
                trow.last_seen = time.time() if now is None else now
                missing = None
                if status.log is not None and status.seq:
                    stream = self._stream(s, trow.id, status.log)
                    missing = stream.contiguous if stream.contiguous < status.seq else None
            self.changes += 1
            return missing
        except SQLAlchemyError as exc:
            raise StoreError(f"cannot write the club database: {_reason(exc)}") from None

    @staticmethod
    def _table(s: Session, club: str, name: str) -> TableRow:
        row = s.scalar(select(TableRow).where(TableRow.club == club, TableRow.name == name))
        if row is None:
            row = TableRow(club=club, name=name, online=False)
            s.add(row)
            s.flush()
        return row

    @staticmethod
    def _stream(s: Session, table_id: int, log: str) -> StreamRow:
        row = s.scalar(select(StreamRow).where(StreamRow.table_id == table_id,
                                               StreamRow.log == log))
        if row is None:
            row = StreamRow(table_id=table_id, log=log, contiguous=0, last_seq=0)
            s.add(row)
            s.flush()
        return row

    @staticmethod
    def _game(s: Session, stream_id: int, msg: LogMessage, club: str, table: str) -> GameRow:
        head = msg.game
        assert head is not None
        row = s.scalar(select(GameRow).where(GameRow.stream_id == stream_id,
                                             GameRow.table_game == head.id))
        if row is None:
            row = GameRow(stream_id=stream_id, table_game=head.id, name=head.name,
                          options=head.options, names=head.names, started=head.started,
                          status=head.status, ended=head.ended, stated=head.outcome,
                          check="ok", finished=False, totals=[])
            s.add(row)
            s.flush()
            Organiser.link_seats(s, row)
            Tournaments.link_game(s, row, club, table)
        elif row.status == "active" or head.status != "active":
            # the newest word on a game's status wins; a late double cannot re-open it
            renamed = list(row.names or []) != list(head.names)
            row.status, row.ended, row.names = head.status, head.ended, head.names
            if head.outcome is not None:
                row.stated = head.outcome
            if renamed:
                Organiser.link_seats(s, row)
        return row

    def _judge(self, s: Session, stream: StreamRow, before: int) -> None:
        """Fold the games whose entries just became contiguous (club.referee)."""
        touched = s.scalars(select(EntryRow.game_id).where(
            EntryRow.stream_id == stream.id, EntryRow.seq > before,
            EntryRow.seq <= stream.contiguous, EntryRow.game_id.is_not(None)).distinct())
        for game_id in list(touched):
            game = s.get(GameRow, game_id)
            if game is None:
                continue
            events = [(seq, str(body.get("event", ""))) for seq, body in s.execute(
                select(EntryRow.seq, EntryRow.body).where(
                    EntryRow.game_id == game.id, EntryRow.kind == "event",
                    EntryRow.seq > self.referee.folded(game.id),
                    EntryRow.seq <= stream.contiguous).order_by(EntryRow.seq)).all()]
            judged = self.referee.fold(game.id, game.name, game.options, events,
                                       game.stated if game.status != "active" else None)
            game.check, game.problem = judged.check, judged.problem
            game.finished, game.winner, game.totals = (judged.finished, judged.winner,
                                                       judged.totals)
            game.to_act = judged.to_act

    @staticmethod
    def _advance(s: Session, stream: StreamRow, msg: LogMessage) -> int:
        """The stream's contiguous sequence number after this entry: follow ``prev`` links
        from the old one through entries stored since (out-of-order arrivals fill in)."""
        at = stream.contiguous
        if msg.prev == at and stream.last_seq == msg.seq:
            return msg.seq  # the next entry in order, and nothing stored beyond it
        links = dict(s.execute(select(EntryRow.prev, EntryRow.seq).where(
            EntryRow.stream_id == stream.id, EntryRow.seq > at)).all())
        while at in links:
            at = links[at]
        return at

    # -- reading ---------------------------------------------------------------------------
    def entries(self, club: str, table: str, log: str | None = None) -> list[EntryRow]:
        with self._session() as s:
            q = (select(EntryRow).join(StreamRow, EntryRow.stream_id == StreamRow.id)
                 .join(TableRow, StreamRow.table_id == TableRow.id)
                 .where(TableRow.club == club, TableRow.name == table))
            if log is not None:
                q = q.where(StreamRow.log == log)
            return list(s.scalars(q.order_by(StreamRow.id, EntryRow.seq)))

    def tables(self) -> list[TableRow]:
        with self._session() as s:
            return list(s.scalars(select(TableRow).order_by(TableRow.club, TableRow.name)))

    def streams(self) -> list[tuple[TableRow, StreamRow]]:
        with self._session() as s:
            return [(t, st) for t, st in s.execute(
                select(TableRow, StreamRow).join(StreamRow, StreamRow.table_id == TableRow.id)
                .order_by(TableRow.club, TableRow.name, StreamRow.id)).all()]

    def games(self) -> list[GameRow]:
        with self._session() as s:
            return list(s.scalars(select(GameRow).order_by(GameRow.id)))

    def table_games(self, since: float | None = None) -> list[tuple[TableRow, GameRow]]:
        """Every game with its table, oldest first (those started at or after ``since``)."""
        with self._session() as s:
            q = (select(TableRow, GameRow).join(StreamRow, StreamRow.table_id == TableRow.id)
                 .join(GameRow, GameRow.stream_id == StreamRow.id))
            if since is not None:
                q = q.where(GameRow.started >= since)
            return [(t, g) for t, g in s.execute(q.order_by(GameRow.started, GameRow.id)).all()]

    def room(self) -> list[tuple[TableRow, GameRow | None]]:
        """Every table with its latest game (None before its first)."""
        latest: dict[int, GameRow] = {}
        for table, game in self.table_games():
            latest[table.id] = game
        return [(t, latest.get(t.id)) for t in self.tables()]

    def game(self, game_id: int) -> tuple[TableRow, GameRow, list[EntryRow]] | None:
        """A game, its table and its entries in log order."""
        with self._session() as s:
            row = s.execute(select(TableRow, GameRow)
                            .join(StreamRow, StreamRow.table_id == TableRow.id)
                            .join(GameRow, GameRow.stream_id == StreamRow.id)
                            .where(GameRow.id == game_id)).first()
            if row is None:
                return None
            entries = list(s.scalars(select(EntryRow).where(EntryRow.game_id == game_id)
                                     .order_by(EntryRow.seq)))
            return row[0], row[1], entries


def upgrade(engine: Engine) -> None:
    """Make or upgrade the schema to Alembic's head, on ``engine``."""
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(Path(__file__).with_name("migrations")))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "head")


def safe_url(url: str) -> str:
    """The URL without its password (for messages)."""
    from sqlalchemy.engine import make_url

    try:
        return make_url(url).render_as_string(hide_password=True)
    except Exception:
        return "(an unreadable database URL)"


def _reason(exc: BaseException) -> str:
    orig = getattr(exc, "orig", None)
    text = str(orig if orig is not None else exc).strip().splitlines()
    return text[0] if text else type(exc).__name__
