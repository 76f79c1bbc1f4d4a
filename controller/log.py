"""The durable game log: every input, engine event and alert of the table in SQLite on disk.

Why SQLite: one file, crash-safe transactions, readable by ``cardtable status`` while ``run`` is
writing (WAL lets readers in during a write). Every entry is committed with ``synchronous=FULL``
before the controller acknowledges it or shows it on a display, so a ``kill -9`` or a power cut
loses at most the input that was being handled, never one that was shown.

The log is append-only: corrections (``undo``, ``fix``, a confirmed card) are new entries. A game
is rebuilt by folding its ``event`` entries into a fresh engine game.

Schema (version in ``PRAGMA user_version``; ``MIGRATIONS`` upgrades older files in place):

* ``games(id, game, options, names, started, ended, status)`` — status ``active``, ``finished``
  or ``abandoned``;
* ``entries(seq, game_id, t, kind, source, body, frame)`` — ``seq`` is the log's sequence number,
  ``kind`` one of ``input``, ``event``, ``alert``, ``state``; ``body`` is JSON; ``frame`` is the
  camera frame an entry came from (dispute tracing), when it came from a camera;
* ``meta(key, value)`` — ``log_id``: this file's own random id (the club tells logs apart by it);
  ``club_start``: the last game the club started here (``controller.club_link``);
* ``outbox(target, acked)`` — per club link, the highest ``seq`` the broker acknowledged.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import threading
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

SCHEMA_VERSION = 3

MIGRATIONS: dict[int, str] = {
    # 0 -> 1: the first schema.
    1: """
    CREATE TABLE games (
        id INTEGER PRIMARY KEY,
        game TEXT NOT NULL,
        options TEXT NOT NULL DEFAULT '{}',
        names TEXT NOT NULL DEFAULT '[]',
        started REAL NOT NULL,
        ended REAL,
        status TEXT NOT NULL DEFAULT 'active'
    );
    CREATE TABLE entries (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id INTEGER REFERENCES games(id),
        t REAL NOT NULL,
        kind TEXT NOT NULL,
        source TEXT NOT NULL DEFAULT '',
        body TEXT NOT NULL DEFAULT '{}'
    );
    CREATE INDEX entries_game ON entries(game_id, seq);
    """,
    # 1 -> 2: the camera frame each entry came from, for the dispute archive.
    2: "ALTER TABLE entries ADD COLUMN frame INTEGER;",
    # 2 -> 3: the club outbox (controller.club_link): this file's own id, and per club link
    # the highest sequence number the broker acknowledged.
    3: """
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE outbox (target TEXT PRIMARY KEY, acked INTEGER NOT NULL DEFAULT 0);
    """,
}


class LogError(RuntimeError):
    """The log cannot be written (disk full, read-only, locked) or read (corrupt, too new)."""


def data_dir() -> Path:
    override = os.environ.get("CARDTABLE_DATA_DIR")
    return Path(override) if override else Path(platformdirs.user_data_dir("cardtable"))


def default_path() -> Path:
    return data_dir() / "table.sqlite"


@dataclass(frozen=True)
class GameRow:
    id: int
    game: str
    options: dict[str, Any]
    names: list[str]
    started: float
    ended: float | None
    status: str


@dataclass(frozen=True)
class Entry:
    seq: int
    game_id: int | None
    t: float
    kind: str
    source: str
    body: dict[str, Any]
    frame: int | None = None


@dataclass(frozen=True)
class NewEntry:
    kind: str
    body: dict[str, Any]
    source: str = ""
    frame: int | None = None


def _game_row(row: Sequence[Any]) -> GameRow:
    return GameRow(id=row[0], game=row[1], options=json.loads(row[2]), names=json.loads(row[3]),
                   started=row[4], ended=row[5], status=row[6])


def _entry(row: Sequence[Any]) -> Entry:
    return Entry(seq=row[0], game_id=row[1], t=row[2], kind=row[3], source=row[4],
                 body=json.loads(row[5]), frame=row[6])


class GameLog:
    """One table's log file. Thread-safe; one writer connection, cheap readers."""

    def __init__(self, path: str | Path | None = None, *, readonly: bool = False) -> None:
        self.path = Path(path) if path is not None else default_path()
        self.readonly = readonly
        self._lock = threading.RLock()
        try:
            if readonly:
                if not self.path.is_file():
                    raise LogError(f"no table log at {self.path} (has `cardtable run` been started?)")
                self._db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True,
                                           check_same_thread=False, timeout=5)
            else:
                if self.path.is_file() and self.path.stat().st_size == 0:
                    # an empty file is a log that lost everything, not a new one: say so
                    raise LogError(f"table log {self.path} is an empty file (0 bytes), not a "
                                   "table log; move it away to start a new log")
                self.path.parent.mkdir(parents=True, exist_ok=True)
                if not os.access(self.path.parent, os.W_OK) and not self.path.exists():
                    raise LogError(f"cannot make the table log {self.path}: the folder "
                                   f"{self.path.parent} is read-only (give another --db, or "
                                   "CARDTABLE_DATA_DIR)")
                self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=5,
                                           isolation_level=None)
                # Refuse a file from a newer program before changing anything in it (WAL mode
                # is written into the file's header).
                self._check_version()
                self._db.execute("PRAGMA journal_mode=WAL")
                # FULL: a commit is on disk before we acknowledge it (WAL + NORMAL could lose the
                # last commits on power loss, which at a table means a shown card vanishing).
                self._db.execute("PRAGMA synchronous=FULL")
                self._migrate()
            self._check_version()
        except BaseException as exc:
            # Do not leave a half-opened connection (an open file, a WAL lock) behind.
            db = getattr(self, "_db", None)
            if db is not None:
                db.close()
            if isinstance(exc, sqlite3.DatabaseError):
                raise LogError(f"table log {self.path} is unusable: {exc}") from exc
            if isinstance(exc, OSError):
                raise LogError(f"cannot open the table log {self.path}: {exc}") from exc
            raise

    # -- schema ----------------------------------------------------------------------------
    def _version(self) -> int:
        return int(self._db.execute("PRAGMA user_version").fetchone()[0])

    def _check_version(self) -> None:
        v = self._version()
        if v > SCHEMA_VERSION:
            raise LogError(f"table log {self.path} has schema {v}, newer than this program's "
                           f"{SCHEMA_VERSION}: upgrade cardtable")
        if self.readonly and v < SCHEMA_VERSION:
            raise LogError(f"table log {self.path} has the old schema {v}; start `cardtable run` "
                           "once to upgrade it")

    def _migrate(self) -> None:
        with self._lock:
            v = self._version()
            while v < SCHEMA_VERSION:
                v += 1
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    for statement in MIGRATIONS[v].split(";"):
                        if statement.strip():
                            self._db.execute(statement)
                    self._db.execute(f"PRAGMA user_version={v}")
                    self._db.execute("COMMIT")
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # -- writing ---------------------------------------------------------------------------
    def new_game(self, game: str, options: dict[str, Any], names: list[str],
                 entries: Sequence[NewEntry] = (), t: float | None = None) -> tuple[int, int]:
        """Start a game (any active game is abandoned first); returns (game id, last seq)."""
        t = time.time() if t is None else t
        with self._lock, self._tx():
            self._db.execute("UPDATE games SET status='abandoned', ended=? WHERE status='active'",
                             (t,))
            cur = self._db.execute(
                "INSERT INTO games(game, options, names, started) VALUES (?,?,?,?)",
                (game, json.dumps(options, ensure_ascii=False), json.dumps(names, ensure_ascii=False), t))
            gid = int(cur.lastrowid or 0)
            seq = self._insert(gid, entries, t)
        return gid, seq

    def append(self, game_id: int | None, entries: Sequence[NewEntry], t: float | None = None,
               finish: str | None = None) -> int:
        """Append entries in one durable transaction; returns the last sequence number.
        ``finish`` sets the game's status (``finished`` / ``abandoned``) in the same transaction."""
        t = time.time() if t is None else t
        with self._lock, self._tx():
            seq = self._insert(game_id, entries, t)
            if finish is not None and game_id is not None:
                self._db.execute("UPDATE games SET status=?, ended=? WHERE id=?",
                                 (finish, None if finish == "active" else t, game_id))
        return seq

    def _insert(self, game_id: int | None, entries: Sequence[NewEntry], t: float) -> int:
        seq = 0
        for e in entries:
            cur = self._db.execute(
                "INSERT INTO entries(game_id, t, kind, source, body, frame) VALUES (?,?,?,?,?,?)",
                (game_id, t, e.kind, e.source, json.dumps(e.body, ensure_ascii=False), e.frame))
            seq = int(cur.lastrowid or 0)
        return seq or self.last_seq()

    class _Tx:
        def __init__(self, log: GameLog) -> None:
            self.log = log

        def __enter__(self) -> None:
            if self.log.readonly:
                raise LogError("the table log is open read-only")
            try:
                self.log._db.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise LogError(f"cannot write the table log {self.log.path}: {exc}") from exc

        def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
            db = self.log._db
            if exc_type is None:
                try:
                    db.execute("COMMIT")
                    return
                except sqlite3.Error as err:
                    self._rollback(db)
                    raise LogError(f"cannot write the table log {self.log.path}: {err}") from err
            self._rollback(db)
            if isinstance(exc, sqlite3.Error):
                raise LogError(f"cannot write the table log {self.log.path}: {exc}") from exc

        @staticmethod
        def _rollback(db: sqlite3.Connection) -> None:
            # A failed ROLLBACK (an I/O error on a dying disk) must still surface as LogError,
            # which the controller handles, not as a raw sqlite3 error that stops the table.
            try:
                if db.in_transaction:
                    db.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    def _tx(self) -> GameLog._Tx:
        return GameLog._Tx(self)

    # -- reading ---------------------------------------------------------------------------
    def _read(self, sql: str, args: Sequence[Any] = ()) -> list[Any]:
        """Run a query; a damaged file (or a bad row in it) is a LogError, not a raw sqlite3 one."""
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                raise LogError(f"cannot read the table log {self.path}: {exc}") from exc

    @contextlib.contextmanager
    def reading(self) -> Iterator[None]:
        """Several reads from one snapshot of the log. Each query is its own read transaction
        otherwise, so a reader beside a running writer (``cardtable status``) could see the last
        sequence number of one commit and the entries of the next."""
        with self._lock:
            if self._db.in_transaction:
                yield
                return
            try:
                self._db.execute("BEGIN")
            except sqlite3.Error as exc:
                raise LogError(f"cannot read the table log {self.path}: {exc}") from exc
            try:
                yield
            finally:
                with contextlib.suppress(sqlite3.Error):
                    if self._db.in_transaction:
                        self._db.execute("ROLLBACK")

    def last_seq(self) -> int:
        row = self._read("SELECT MAX(seq) FROM entries")[0]
        return int(row[0] or 0)

    def active_game(self) -> GameRow | None:
        rows = self._read(
            "SELECT id, game, options, names, started, ended, status FROM games "
            "WHERE status='active' ORDER BY id DESC LIMIT 1")
        return self._game_row(rows[0]) if rows else None

    def latest_game(self) -> GameRow | None:
        rows = self._read(
            "SELECT id, game, options, names, started, ended, status FROM games "
            "ORDER BY id DESC LIMIT 1")
        return self._game_row(rows[0]) if rows else None

    def game(self, game_id: int) -> GameRow | None:
        rows = self._read(
            "SELECT id, game, options, names, started, ended, status FROM games WHERE id=?",
            (game_id,))
        return self._game_row(rows[0]) if rows else None

    def games(self) -> list[GameRow]:
        rows = self._read(
            "SELECT id, game, options, names, started, ended, status FROM games ORDER BY id")
        return [self._game_row(r) for r in rows]

    # -- the club outbox ---------------------------------------------------------------------
    def log_id(self) -> str:
        """This log file's own id, made the first time it is asked for."""
        rows = self._read("SELECT value FROM meta WHERE key='log_id'")
        if rows:
            return str(rows[0][0])
        import uuid

        with self._lock, self._tx():
            self._db.execute("INSERT OR IGNORE INTO meta(key, value) VALUES ('log_id', ?)",
                             (str(uuid.uuid4()),))
        return str(self._read("SELECT value FROM meta WHERE key='log_id'")[0][0])

    def meta(self, key: str) -> str | None:
        rows = self._read("SELECT value FROM meta WHERE key=?", (key,))
        return str(rows[0][0]) if rows else None

    def set_meta(self, key: str, value: str) -> None:
        with self._lock, self._tx():
            self._db.execute("INSERT INTO meta(key, value) VALUES (?, ?) ON CONFLICT(key) "
                             "DO UPDATE SET value=excluded.value", (key, value))

    def acked(self, target: str) -> int:
        """The highest sequence number the club link ``target`` has had acknowledged."""
        rows = self._read("SELECT acked FROM outbox WHERE target=?", (target,))
        return int(rows[0][0]) if rows else 0

    def set_acked(self, target: str, seq: int) -> None:
        with self._lock, self._tx():
            self._db.execute("INSERT INTO outbox(target, acked) VALUES (?, ?) ON CONFLICT(target) "
                             "DO UPDATE SET acked=MAX(acked, excluded.acked)", (target, seq))

    def entries(self, game_id: int | None = None, after: int = 0,
                kinds: Sequence[str] | None = None, limit: int | None = None) -> Iterator[Entry]:
        sql = "SELECT seq, game_id, t, kind, source, body, frame FROM entries WHERE seq > ?"
        args: list[Any] = [after]
        if game_id is not None:
            sql += " AND game_id = ?"
            args.append(game_id)
        if kinds:
            sql += f" AND kind IN ({','.join('?' * len(kinds))})"
            args.extend(kinds)
        rows = self._read(sql + " ORDER BY seq" + (f" LIMIT {int(limit)}" if limit else ""), args)
        try:
            entries = [_entry(r) for r in rows]
        except (ValueError, TypeError) as exc:
            raise LogError(f"table log {self.path} has an unreadable entry: {exc}") from exc
        return iter(entries)

    def event_texts(self, game_id: int) -> list[str]:
        try:
            return [str(e.body["event"]) for e in self.entries(game_id, kinds=("event",))]
        except (KeyError, TypeError) as exc:
            raise LogError(f"table log {self.path} has an event entry without an event: "
                           f"{exc}") from exc

    def _game_row(self, row: Sequence[Any]) -> GameRow:
        try:
            return _game_row(row)
        except (ValueError, TypeError) as exc:
            raise LogError(f"table log {self.path} has an unreadable game row: {exc}") from exc
