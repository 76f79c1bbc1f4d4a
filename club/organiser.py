"""What the organiser keeps beside the tables' games: the players' register, who sat where,
evenings, and the result ledger.

Every organiser action is a named operation that either does all it says or raises
:class:`ClubError` with the reason and changes nothing (a player picked twice at one table, a
correction of a game that does not exist, an evening closed with a dispute open).

**Results.** A game's result is a fold (:func:`fold_result`): the engine's result of the table's
events (``club.referee``), then the ledger's entries in order: a side confirms or disputes, the
organiser corrects the totals, awards an adjusted score, voids the game or reinstates it. The
ledger is never changed, so the table's result and every later word on it stay on record.

A result is *provisional* while its evening is open and *final* once the organiser closes the
evening; a game started outside any evening is *casual* (shown, never in standings or ratings).
A disputed result counts nowhere until the organiser corrects, adjusts or the disputing side
confirms it.

**Seats.** When a game arrives its seats are linked to the register by the names the table
gives (a registered player's name or nickname, any case); any other name is a guest. The
organiser can put another player or a guest on a seat; that is a ledger entry too.
"""

from __future__ import annotations

import functools
import time
import unicodedata
from collections.abc import Callable, Iterable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from enum import StrEnum

from sqlalchemy import func, select
from sqlalchemy.exc import IntegrityError, SQLAlchemyError
from sqlalchemy.orm import Session, sessionmaker

from club.models import (
    EveningRow,
    GameRow,
    PlayerRow,
    ResultRow,
    SeatRow,
    SettingRow,
    StreamRow,
    TableRow,
)

NAME_MAX = 80
WHY_MAX = 500
PIN_KEY = "admin_pin_hash"
ORGANISER = "organiser"  # the ledger's ``by`` for the organiser's entries (shown translated)
TABLE_CONFIRMED = "result-confirmed"  # the table's alert (controller.core.RESULT_CONFIRMED)


class ClubError(ValueError):
    """An organiser's request that cannot be done; nothing was changed. ``code`` is a stable
    id; ``text(lang)`` says it in Russian or English (``club.i18n.ERRORS``)."""

    def __init__(self, code: str, **params: object) -> None:
        self.code, self.params = code, params
        super().__init__(self.text("en"))

    def text(self, lang: str = "ru") -> str:
        from club.i18n import error_text

        return error_text(self.code, self.params, lang)


class ResultState(StrEnum):
    PLAYING = "playing"  # the game is still on
    PROVISIONAL = "provisional"  # counted; its evening is still open
    FINAL = "final"  # counted; its evening is closed
    CASUAL = "casual"  # played outside any evening: shown, not counted
    DISPUTED = "disputed"  # a side disputes it: counted nowhere until the organiser settles it
    VOID = "void"  # voided by the organiser
    NOT_COUNTED = "not-counted"  # abandoned, or refused by the rules, and not corrected


class Kind(StrEnum):
    """The kinds of ledger entries."""
    CONFIRM = "confirm"
    DISPUTE = "dispute"
    CORRECT = "correct"
    ADJUST = "adjust"
    VOID = "void"
    REINSTATE = "reinstate"
    SEAT = "seat"


@dataclass(frozen=True)
class Seat:
    seat: int
    name: str
    player_id: int | None  # None: a guest

    @property
    def key(self) -> str:
        """Who this is across games: ``p<id>`` for a registered player, ``g:<name>`` a guest."""
        return f"p{self.player_id}" if self.player_id is not None else f"g:{self.name}"


@dataclass(frozen=True)
class LedgerEntry:
    id: int
    kind: str
    side: int | None
    totals: list[int] | None
    winner: int | None
    player: str | None
    by: str
    at: float
    why: str


@dataclass
class Result:
    """A game's result as the club counts it (see the module's docstring)."""
    game_id: int
    game: str
    table: str
    started: float
    ended: float | None
    seats: list[Seat]
    totals: list[int]
    winner: int | None
    finished: bool
    state: ResultState
    check: str
    evening_id: int | None = None
    table_totals: list[int] = field(default_factory=list)  # the engine's, before any correction
    table_winner: int | None = None
    confirmed: list[int] = field(default_factory=list)  # sides that confirmed
    disputed: list[int] = field(default_factory=list)  # sides disputing
    corrected: bool = False  # the organiser's totals replace the table's
    adjusted: bool = False  # an awarded score
    ledger: list[LedgerEntry] = field(default_factory=list)

    @property
    def counted(self) -> bool:
        return self.state in (ResultState.PROVISIONAL, ResultState.FINAL)

    @property
    def n_sides(self) -> int:
        return sides_count(self.game)

    @property
    def sides(self) -> list[list[Seat]]:
        """The seats of each side (pair games: seats 0 & 2 and 1 & 3)."""
        n = self.n_sides
        return [[s for s in self.seats if s.seat % n == k] for k in range(n)]

    def side_name(self, k: int) -> str:
        sides = self.sides
        return " & ".join(s.name for s in sides[k]) if 0 <= k < len(sides) else f"#{k + 1}"

    def ranks(self) -> list[int]:
        """Each side's place (1 best; equal totals share one): the winner first, then by
        totals; with two sides and no winner both are first (a draw)."""
        if self.winner is None and len(self.totals) == 2:
            return [1, 1]  # two sides and no winner: a draw, whatever the totals
        keys = [(0 if k == self.winner else 1, -v) for k, v in enumerate(self.totals)]
        return [1 + sum(1 for other in keys if other < mine) for mine in keys]


def fold_result(game: GameRow, table: str, seats: list[Seat], ledger: Sequence[ResultRow],
                evening: EveningRow | None, players: dict[int, str] | None = None) -> Result:
    """The result the club counts for ``game``: the engine's, then the ledger in order."""
    r = Result(game_id=game.id, game=game.name, table=table, started=game.started,
               ended=game.ended, seats=seats, totals=list(game.totals or []),
               winner=game.winner, finished=bool(game.finished), state=ResultState.PLAYING,
               check=game.check, evening_id=evening.id if evening else None,
               table_totals=list(game.totals or []), table_winner=game.winner)
    if game.check != "ok":
        r.totals, r.winner, r.finished = [], None, False
    void = False
    confirmed: set[int] = set()
    disputed: set[int] = set()
    for e in sorted(ledger, key=lambda e: e.id):
        player = (players or {}).get(e.player_id) if e.player_id is not None else e.guest
        r.ledger.append(LedgerEntry(e.id, e.kind, e.side, e.totals, e.winner, player, e.by,
                                    e.at, e.why))
        if e.kind == Kind.CONFIRM and e.side is not None:
            confirmed.add(e.side)
            if e.by == ORGANISER:  # a player's button (maybe sent late) settles no dispute
                disputed.discard(e.side)
        elif e.kind == Kind.DISPUTE and e.side is not None:
            disputed.add(e.side)
            confirmed.discard(e.side)
        elif e.kind in (Kind.CORRECT, Kind.ADJUST):
            r.totals, r.winner, r.finished = list(e.totals or []), e.winner, True
            r.corrected = r.corrected or e.kind == Kind.CORRECT
            r.adjusted = r.adjusted or e.kind == Kind.ADJUST
            disputed.clear()  # the organiser has settled it
        elif e.kind == Kind.VOID:
            void = True
        elif e.kind == Kind.REINSTATE:
            void = False
    r.confirmed, r.disputed = sorted(confirmed), sorted(disputed)
    settled = r.corrected or r.adjusted
    if void:
        r.state = ResultState.VOID
    elif game.status == "active" and not settled:
        r.state = ResultState.PLAYING
    elif not settled and (game.check != "ok" or not game.finished):
        r.state = ResultState.NOT_COUNTED
    elif disputed:
        r.state = ResultState.DISPUTED
    elif evening is None:
        r.state = ResultState.CASUAL
    elif evening.closed is None:
        r.state = ResultState.PROVISIONAL
    else:
        r.state = ResultState.FINAL
    return r


@functools.cache
def sides_count(game: str) -> int:
    """How many sides a game has (2; Joker 4), by the engine's score sheet."""
    from engine.errors import EngineError
    from engine.registry import game_class

    try:
        return len(game_class(game)({}).score_sheet().sides) or 2
    except (EngineError, ValueError, TypeError):
        return 2


def clean_name(text: str, what: str = "name") -> str:
    name = " ".join((text or "").split())
    if not name:
        raise ClubError("name-empty", what=what)
    if len(name) > NAME_MAX:
        raise ClubError("name-long", what=what, max=NAME_MAX)
    if any(unicodedata.category(c)[0] == "C" for c in name):  # escapes, bidi overrides
        raise ClubError("name-control", what=what)
    return name


class Organiser:
    """The organiser's operations on the club database (``session``: a sessionmaker)."""

    def __init__(self, session: sessionmaker[Session],
                 on_change: Callable[[], None] | None = None) -> None:
        self._session = session
        self._on_change = on_change

    def _begin(self) -> AbstractContextManager[Session]:
        return self._session.begin()

    def _read(self) -> Session:
        return self._session()

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()

    # -- the register ----------------------------------------------------------------------
    def add_player(self, name: str, nickname: str | None = None) -> PlayerRow:
        name = clean_name(name)
        nick = clean_name(nickname, "nickname") if nickname else None
        try:
            with self._begin() as s:
                self._unique(s, name, None)
                if nick:
                    self._unique(s, nick, None)
                row = PlayerRow(name=name, nickname=nick, active=True, created=time.time())
                s.add(row)
                s.flush()
        except IntegrityError:
            raise ClubError("name-taken", name=name, other=name) from None
        self._changed()
        return row

    def update_player(self, player_id: int, *, name: str | None = None,
                      nickname: str | None = None, active: bool | None = None) -> PlayerRow:
        """Rename a player (past results keep pointing at the player, not the name), set or
        clear the nickname (``""``), or retire and bring back a player."""
        with self._begin() as s:
            row = s.get(PlayerRow, player_id)
            if row is None:
                raise ClubError("no-player", id=player_id)
            if name is not None:
                row.name = clean_name(name)
                self._unique(s, row.name, player_id)
            if nickname is not None:
                row.nickname = clean_name(nickname, "nickname") if nickname.strip() else None
                if row.nickname:
                    self._unique(s, row.nickname, player_id)
            if active is not None:
                row.active = active
        self._changed()
        return row

    @staticmethod
    def _unique(s: Session, name: str, player_id: int | None) -> None:
        low = name.casefold()
        for other in s.scalars(select(PlayerRow)):
            if other.id != player_id and low in (other.name.casefold(),
                                                 (other.nickname or "").casefold()):
                raise ClubError("name-taken", name=name, other=other.name)

    def players(self, *, active_only: bool = False) -> list[PlayerRow]:
        with self._read() as s:
            q = select(PlayerRow).order_by(func.lower(PlayerRow.name))
            if active_only:
                q = q.where(PlayerRow.active.is_(True))
            return list(s.scalars(q))

    def player(self, player_id: int) -> PlayerRow | None:
        with self._read() as s:
            return s.get(PlayerRow, player_id)

    def find_player(self, name: str) -> PlayerRow | None:
        """The registered player this name or nickname is (any case), or None."""
        low = " ".join(name.split()).casefold()
        if not low:
            return None
        with self._read() as s:
            return next((p for p in s.scalars(select(PlayerRow))
                         if low in (p.name.casefold(), (p.nickname or "").casefold())), None)

    # -- seats -----------------------------------------------------------------------------
    @staticmethod
    def link_seats(s: Session, game: GameRow) -> None:
        """Link a game's seats to the register by the names the table gives; a seat the
        organiser has set (a ``seat`` ledger entry) keeps the organiser's choice."""
        set_by_hand = set(s.scalars(select(ResultRow.side).where(
            ResultRow.game_id == game.id, ResultRow.kind == Kind.SEAT)))
        by_name: dict[str, int] = {}
        for p in s.scalars(select(PlayerRow).where(PlayerRow.active.is_(True))):
            by_name.setdefault(p.name.casefold(), p.id)
            if p.nickname:
                by_name.setdefault(p.nickname.casefold(), p.id)
        existing = {row.seat: row for row in s.scalars(
            select(SeatRow).where(SeatRow.game_id == game.id))}
        for seat, raw in enumerate(game.names or []):
            if seat in set_by_hand:
                continue
            name = " ".join(str(raw).split())[:NAME_MAX]
            pid = by_name.get(name.casefold())
            row = existing.get(seat)
            if row is None:
                row = SeatRow(game_id=game.id, seat=seat)
                s.add(row)
            row.player_id, row.guest = pid, (None if pid is not None else name or None)

    @staticmethod
    def table_said(s: Session, game: GameRow, alert: dict[str, object], t: float) -> None:
        """A table's alert that is a word on the result: a player's confirm button after the
        game (``result-confirmed``) is that player's side confirming it."""
        seat = alert.get("seat")
        if alert.get("rule") != TABLE_CONFIRMED or not isinstance(seat, int) or seat < 0:
            return
        names = list(game.names or [])
        who = names[seat] if seat < len(names) else f"#{seat + 1}"
        s.add(ResultRow(game_id=game.id, kind=Kind.CONFIRM, side=seat % sides_count(game.name),
                        by=str(who)[:NAME_MAX], at=t, why=""))

    def seat(self, game_id: int, seat: int, *, player_id: int | None = None,
             guest: str | None = None, by: str, why: str = "") -> None:
        """Put a registered player (or a guest, by name) on a seat of a game."""
        if (player_id is None) == (not guest):
            raise ClubError("seat-who")
        guest_name = clean_name(guest, "guest") if guest else None
        with self._begin() as s:
            game = self._game(s, game_id)
            seats = max(len(game.names or []), 1)
            if not 0 <= seat < seats:
                raise ClubError("seat-range", game=game_id, seats=seats, seat=seat + 1)
            if player_id is not None:
                player = s.get(PlayerRow, player_id)
                if player is None:
                    raise ClubError("no-player", id=player_id)
                other = s.scalar(select(SeatRow.seat).where(
                    SeatRow.game_id == game_id, SeatRow.player_id == player_id,
                    SeatRow.seat != seat))
                if other is not None:
                    raise ClubError("seat-twice", player=player.name, seat=other + 1, game=game_id)
            row = s.scalar(select(SeatRow).where(SeatRow.game_id == game_id,
                                                 SeatRow.seat == seat))
            if row is None:
                row = SeatRow(game_id=game_id, seat=seat)
                s.add(row)
            row.player_id, row.guest = player_id, guest_name
            s.add(ResultRow(game_id=game_id, kind=Kind.SEAT, side=seat, player_id=player_id,
                            guest=guest_name, by=clean_name(by, "by"),
                            at=time.time(), why=_why(why, required=False)))
        self._changed()

    # -- the ledger ------------------------------------------------------------------------
    def record(self, game_id: int, kind: Kind | str, *, by: str, why: str = "",
               side: int | None = None, totals: Sequence[int] | None = None,
               winner: int | None = None) -> Result:
        """Add one ledger entry to a game's result (checked against the game) and return the
        result as it now stands."""
        try:
            kind = Kind(kind)
        except ValueError:
            raise ClubError("no-kind", kind=kind, kinds=", ".join(k.value for k in Kind if k != Kind.SEAT)) from None
        if kind == Kind.SEAT:
            raise ClubError("no-kind", kind=kind, kinds=", ".join(k.value for k in Kind if k != Kind.SEAT))
        with self._begin() as s:
            game = self._game(s, game_id)
            current = self._result(s, game)
            n_sides = sides_count(game.name)
            if kind in (Kind.CONFIRM, Kind.DISPUTE):
                if side is None or not 0 <= side < n_sides:
                    raise ClubError("side-range", n=n_sides)
                if current.state in (ResultState.PLAYING, ResultState.VOID,
                                     ResultState.NOT_COUNTED):
                    raise ClubError("no-result", game=game_id, state=current.state.value)
            elif kind in (Kind.CORRECT, Kind.ADJUST):
                if totals is None or len(totals) != n_sides:
                    raise ClubError("totals-count", n=n_sides)
                if winner is not None and not 0 <= winner < n_sides:
                    raise ClubError("winner-range", n=n_sides)
                _why(why)
            elif kind == Kind.VOID:
                if current.state == ResultState.VOID:
                    raise ClubError("void-already", game=game_id)
                _why(why)
            elif kind == Kind.REINSTATE and current.state != ResultState.VOID:
                raise ClubError("not-void", game=game_id)
            if current.evening_id is not None and current.state == ResultState.FINAL \
                    and kind in (Kind.CONFIRM, Kind.DISPUTE):
                raise ClubError("evening-closed")
            s.add(ResultRow(game_id=game_id, kind=kind, side=side,
                            totals=list(totals) if totals is not None else None, winner=winner,
                            by=clean_name(by, "by"), at=time.time(),
                            why=_why(why, required=False)))
            s.flush()
            result = self._result(s, game)
        self._changed()
        return result

    def result(self, game_id: int) -> Result | None:
        with self._read() as s:
            game = s.get(GameRow, game_id)
            return None if game is None else self._result(s, game)

    def results(self, since: float | None = None, until: float | None = None,
                game: str | None = None, ids: Sequence[int] | None = None) -> list[Result]:
        """Every game's result, oldest first (started in [since, until), of one game, of the
        games ``ids``)."""
        with self._read() as s:
            q = select(GameRow)
            if ids is not None:
                q = q.where(GameRow.id.in_(list(ids)))
            if since is not None:
                q = q.where(GameRow.started >= since)
            if until is not None:
                q = q.where(GameRow.started < until)
            if game is not None:
                q = q.where(GameRow.name == game)
            games = list(s.scalars(q.order_by(GameRow.started, GameRow.id)))
            return self._results(s, games)

    def _result(self, s: Session, game: GameRow) -> Result:
        return self._results(s, [game])[0]

    def _results(self, s: Session, games: list[GameRow]) -> list[Result]:
        if not games:
            return []
        ids = [g.id for g in games]
        tables = dict(s.execute(select(GameRow.id, TableRow.name)
                                .join(StreamRow, GameRow.stream_id == StreamRow.id)
                                .join(TableRow, StreamRow.table_id == TableRow.id)
                                .where(GameRow.id.in_(ids))).all())
        players = {p.id: p.name for p in s.scalars(select(PlayerRow))}
        seats: dict[int, dict[int, SeatRow]] = {}
        for seat_row in s.scalars(select(SeatRow).where(SeatRow.game_id.in_(ids))):
            seats.setdefault(seat_row.game_id, {})[seat_row.seat] = seat_row
        ledger: dict[int, list[ResultRow]] = {}
        for e in s.scalars(select(ResultRow).where(ResultRow.game_id.in_(ids))
                           .order_by(ResultRow.id)):
            ledger.setdefault(e.game_id, []).append(e)
        evenings = list(s.scalars(select(EveningRow).order_by(EveningRow.opened)))
        out = []
        for g in games:
            names = list(g.names or [])
            of_game = seats.get(g.id, {})
            seat_list = []
            for k in range(max(len(names), max(of_game, default=-1) + 1)):
                row = of_game.get(k)
                if row is not None and row.player_id is not None:
                    seat_list.append(Seat(k, players.get(row.player_id, "?"), row.player_id))
                else:
                    guest = row.guest if row is not None and row.guest else (
                        names[k] if k < len(names) else "")
                    seat_list.append(Seat(k, guest or f"#{k + 1}", None))
            out.append(fold_result(g, tables.get(g.id, ""), seat_list, ledger.get(g.id, []),
                                   evening_of(evenings, g.started), players))
        return out

    @staticmethod
    def _game(s: Session, game_id: int) -> GameRow:
        game = s.get(GameRow, game_id)
        if game is None:
            raise ClubError("no-game", game=game_id)
        return game

    # -- evenings --------------------------------------------------------------------------
    def open_evening(self, title: str = "", now: float | None = None) -> EveningRow:
        now = time.time() if now is None else now
        with self._begin() as s:
            current = s.scalar(select(EveningRow).where(EveningRow.closed.is_(None)))
            if current is not None:
                raise ClubError("evening-open", title=current.title)
            title = clean_name(title, "title") if title.strip() else \
                time.strftime("%Y-%m-%d", time.localtime(now))
            row = EveningRow(title=title, opened=now, closed=None, hide_standings=False)
            s.add(row)
            s.flush()
        self._changed()
        return row

    def close_evening(self, now: float | None = None) -> EveningRow:
        """Close the open evening: its results become final. Refused while a game of it is
        still being played or a result is disputed."""
        now = time.time() if now is None else now
        with self._begin() as s:
            row = s.scalar(select(EveningRow).where(EveningRow.closed.is_(None)))
            if row is None:
                raise ClubError("no-evening")
            games = list(s.scalars(select(GameRow).where(GameRow.started >= row.opened)))
            open_ones = [r for r in self._results(s, games)
                         if r.state in (ResultState.DISPUTED, ResultState.PLAYING)]
            if open_ones:
                raise ClubError("settle-first", games=", ".join(
                    f"{r.game_id} ({r.table})" for r in open_ones))
            row.closed = now
        self._changed()
        return row

    def hide_standings(self, hide: bool) -> EveningRow:
        with self._begin() as s:
            row = s.scalar(select(EveningRow).where(EveningRow.closed.is_(None)))
            if row is None:
                raise ClubError("no-evening")
            row.hide_standings = hide
        self._changed()
        return row

    def evenings(self) -> list[EveningRow]:
        with self._read() as s:
            return list(s.scalars(select(EveningRow).order_by(EveningRow.opened.desc())))

    def open_evening_row(self) -> EveningRow | None:
        with self._read() as s:
            return s.scalar(select(EveningRow).where(EveningRow.closed.is_(None)))

    # -- the admin PIN ---------------------------------------------------------------------
    def pin_hash(self) -> str | None:
        with self._read() as s:
            row = s.get(SettingRow, PIN_KEY)
            return row.value if row else None

    def set_pin_hash(self, value: str) -> None:
        try:
            with self._begin() as s:
                row = s.get(SettingRow, PIN_KEY)
                if row is None:
                    s.add(SettingRow(key=PIN_KEY, value=value))
                else:
                    row.value = value
        except SQLAlchemyError as exc:
            raise ClubError("pin-store", reason=type(exc).__name__) from None


def evening_of(evenings: Iterable[EveningRow], started: float) -> EveningRow | None:
    """The evening a game started at ``started`` belongs to (open from ``opened`` until
    ``closed``), or None."""
    for e in evenings:
        if e.opened <= started and (e.closed is None or started < e.closed):
            return e
    return None


def _why(text: str, *, required: bool = True) -> str:
    why = " ".join((text or "").split())
    if required and not why:
        raise ClubError("why-missing")
    if len(why) > WHY_MAX:
        raise ClubError("why-long", max=WHY_MAX)
    return why
