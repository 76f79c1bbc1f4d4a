"""An evening's Swiss tournament: entrants, rounds started on the tables, standings.

The organiser picks the game, the number of rounds, the entrants (registered players, or fixed
pairs for Bazar-Belot) and the tables, in board order. Entrants are seeded by their current
rating in that game (a pair by its players' mean), then in the order given. Each round is paired
by ``club.swiss``; each of its games is a *pairing* that the club server publishes to its table
(``club.protocol.StartGame``), and the table starts the game with those players. The table's
game is linked back to its pairing when it arrives (same table, same game, same players), and
its counted result (``club.organiser``: confirmations and corrections included) is the
pairing's result. A round may start only when every game of the previous one has a counted
result.

Refused, with nothing changed (``ClubError``): no open evening, a game that is not played by
two sides (Joker), a player picked twice, an unknown or retired player, too few tables, more
rounds than entrants can play, a round started before the last one ended.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, field

from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from club.models import (
    EntrantRow,
    EveningRow,
    GameRow,
    PairingRow,
    PlayerRow,
    TournamentRow,
)
from club.organiser import ClubError, Organiser, Result
from club.protocol import ProtocolError, StartGame, check_name
from club.ratings import rate
from club.swiss import Game, Standing, pair_round, standings


@dataclass
class PairingView:
    id: int
    round: int
    table: str | None
    first: str
    second: str | None
    names: list[str]
    game_id: int | None
    sent: bool
    result: Result | None = None
    points: tuple[float, float] | None = None  # (first, second) once counted


@dataclass
class TournamentView:
    id: int
    game: str
    rounds: int
    entrants: dict[int, str]
    pairings: list[PairingView]
    table: list[Standing]
    played: int  # rounds started
    round_over: bool  # every game of the last round started has a counted result

    @property
    def over(self) -> bool:
        return self.played >= self.rounds and self.round_over


@dataclass
class _Loaded:
    tournament: TournamentRow
    entrants: list[EntrantRow]
    pairings: list[PairingRow]
    names: dict[int, str] = field(default_factory=dict)  # entrant number -> its name


def sides_of(game: str) -> tuple[int, int]:
    """(seats, players per side) of a game played by two sides; ClubError for any other."""
    from engine.errors import EngineError
    from engine.registry import game_class

    try:
        g = game_class(game)({})
        sides = len(g.score_sheet().sides)
    except (EngineError, ValueError, TypeError):
        raise ClubError("swiss-game", game=game) from None
    if sides != 2:
        raise ClubError("swiss-game", game=game)
    return g.num_seats, g.num_seats // 2


class Tournaments:
    def __init__(self, session: sessionmaker[Session], organiser: Organiser,
                 on_change: Callable[[], None] | None = None) -> None:
        self._session = session
        self._organiser = organiser
        self._on_change = on_change

    def _begin(self) -> AbstractContextManager[Session]:
        return self._session.begin()

    def _changed(self) -> None:
        if self._on_change is not None:
            self._on_change()

    # -- the organiser's side --------------------------------------------------------------
    def create(self, game: str, rounds: int, entrants: Sequence[Sequence[int]],
               tables: Sequence[tuple[str, str]], options: dict | None = None) -> TournamentRow:
        _seats, per_side = sides_of(game)
        if len(entrants) < 2:
            raise ClubError("swiss-few")
        if not 1 <= rounds <= len(entrants) - 1 + len(entrants) % 2:
            raise ClubError("swiss-rounds", n=len(entrants) - 1 + len(entrants) % 2)
        needed = len(entrants) // 2
        if len(tables) < needed:
            raise ClubError("swiss-tables", pairs=needed, tables=len(tables))
        places = []
        for c, name in tables:
            try:
                places.append([check_name("club", c), check_name("table", name)])
            except ProtocolError:
                raise ClubError("swiss-table-name", name=f"{c}/{name}") from None
        if len({tuple(p) for p in places}) != len(places):
            raise ClubError("swiss-table-twice")
        with self._begin() as s:
            evening = s.scalar(select(EveningRow).where(EveningRow.closed.is_(None)))
            if evening is None:
                raise ClubError("no-evening")
            for other in s.scalars(select(TournamentRow).where(
                    TournamentRow.evening_id == evening.id)):
                if not self.view_in(s, other.id).over:
                    raise ClubError("swiss-running")
            players = {p.id: p for p in s.scalars(select(PlayerRow))}
            seen: set[int] = set()
            for entrant in entrants:
                if len(entrant) != per_side:
                    raise ClubError("swiss-side", n=per_side)
                for pid in entrant:
                    if pid not in players or not players[pid].active:
                        raise ClubError("no-player", id=pid)
                    if pid in seen:
                        raise ClubError("swiss-twice", player=players[pid].name)
                    seen.add(pid)
            ratings = {r.player_id: r.ordinal
                       for r in rate(self._organiser.results()).get(game, [])}
            order = sorted(range(len(entrants)), key=lambda k: (
                -sum(ratings.get(p, 0.0) for p in entrants[k]) / per_side, k))
            row = TournamentRow(evening_id=evening.id, game=game, options=dict(options or {}),
                                rounds=rounds, tables=places, created=time.time())
            s.add(row)
            s.flush()
            for number, k in enumerate(order, 1):
                s.add(EntrantRow(tournament_id=row.id, number=number,
                                 players=list(entrants[k])))
        self._changed()
        return row

    def current(self) -> TournamentRow | None:
        """The open evening's latest tournament."""
        with self._session() as s:
            return s.scalar(select(TournamentRow).join(
                EveningRow, TournamentRow.evening_id == EveningRow.id)
                .where(EveningRow.closed.is_(None)).order_by(TournamentRow.id.desc()))

    def of_evening(self, evening_id: int) -> list[TournamentRow]:
        with self._session() as s:
            return list(s.scalars(select(TournamentRow).where(
                TournamentRow.evening_id == evening_id).order_by(TournamentRow.id)))

    def start_round(self, tournament_id: int) -> list[PairingRow]:
        """Pair the next round and queue a start for each of its tables."""
        view = self.view(tournament_id)
        if view.played >= view.rounds:
            raise ClubError("swiss-done", rounds=view.rounds)
        if view.played and not view.round_over:
            waiting = [p.table or "" for p in view.pairings
                       if p.round == view.played and p.second is not None and p.points is None]
            raise ClubError("round-open", round=view.played, tables=", ".join(waiting))
        seats, _per_side = sides_of(view.game)
        try:
            rows = self._pair_next(tournament_id, view, seats)
        except IntegrityError:  # the same round paired meanwhile (a double click)
            raise ClubError("round-started") from None
        self._changed()
        return rows

    def _pair_next(self, tournament_id: int, view: TournamentView, seats: int
                   ) -> list[PairingRow]:
        with self._begin() as s:
            if s.scalar(select(PairingRow.id).where(PairingRow.tournament_id == tournament_id,
                                                    PairingRow.round > view.played).limit(1)):
                raise ClubError("round-started")
            loaded = self._load(s, tournament_id)
            entrants = [e.number for e in loaded.entrants]
            pairing = pair_round(entrants, self._games(view))
            players = {e.number: e.players for e in loaded.entrants}
            names = {p.id: p.name for p in s.scalars(select(PlayerRow))}
            rnd = view.played + 1
            now = time.time()
            rows = []
            for (first, second), (club, table) in zip(pairing.pairs, loaded.tournament.tables,
                                                       strict=False):
                # seats 0 and 2 are one side: pair (a, b) against (c, d) sits a, c, b, d
                ids = [(players[first] if k % 2 == 0 else players[second])[k // 2]
                       for k in range(seats)]
                rows.append(PairingRow(tournament_id=tournament_id, round=rnd, club=club,
                                       table=table, first=first, second=second,
                                       names=[names[i] for i in ids], players=ids,
                                       created=now))
            if pairing.bye is not None:
                rows.append(PairingRow(tournament_id=tournament_id, round=rnd, club=None,
                                       table=None, first=pairing.bye, second=None, names=[],
                                       players=list(players[pairing.bye]), created=now))
            s.add_all(rows)
        return rows

    def settle(self, pairing_id: int, first: float, second: float, why: str) -> None:
        """The organiser's result for a pairing whose game cannot be played or was lost (a
        forfeit: 1 and 0; both absent: 0 and 0; a draw: ½ and ½)."""
        allowed = {(1.0, 0.0), (0.0, 1.0), (0.5, 0.5), (0.0, 0.0)}
        if (first, second) not in allowed:
            raise ClubError("settle-points")
        reason = " ".join((why or "").split())
        if not reason:
            raise ClubError("why-missing")
        with self._begin() as s:
            p = s.get(PairingRow, pairing_id)
            if p is None or p.second is None:
                raise ClubError("no-pairing")
            p.settled, p.settled_why = [first, second], reason[:500]
        self._changed()

    # -- reading ---------------------------------------------------------------------------
    def view_in(self, s: Session, tournament_id: int) -> TournamentView:
        return self._view(self._load(s, tournament_id))

    def view(self, tournament_id: int) -> TournamentView:
        with self._session() as s:
            loaded = self._load(s, tournament_id)
        return self._view(loaded)

    def _view(self, loaded: _Loaded) -> TournamentView:
        game_ids = [p.game_id for p in loaded.pairings if p.game_id is not None]
        results = {r.game_id: r for r in self._organiser.results(ids=game_ids)}
        pairings = []
        for p in loaded.pairings:
            r = results.get(p.game_id) if p.game_id is not None else None
            points = None
            if p.second is None:
                points = (1.0, 0.0)
            elif p.settled is not None:
                points = (float(p.settled[0]), float(p.settled[1]))
            elif r is not None and r.counted and len(r.totals) == 2:
                ranks = r.ranks()
                points = ((1.0, 0.0) if ranks == [1, 2] else (0.0, 1.0) if ranks == [2, 1]
                          else (0.5, 0.5))
            pairings.append(PairingView(p.id, p.round, p.table, loaded.names[p.first],
                                        loaded.names.get(p.second) if p.second else None,
                                        list(p.names), p.game_id, p.sent is not None, r, points))
        played = max((p.round for p in loaded.pairings), default=0)
        view = TournamentView(loaded.tournament.id, loaded.tournament.game,
                              loaded.tournament.rounds, dict(loaded.names), pairings, [],
                              played, all(p.points is not None for p in pairings
                                          if p.round == played))
        view.table = standings([e.number for e in loaded.entrants], self._games(view))
        return view

    def _games(self, view: TournamentView) -> list[Game]:
        """The played pairings as ``club.swiss`` games (by entrant number)."""
        numbers = {name: n for n, name in view.entrants.items()}
        out = []
        for p in view.pairings:
            if p.points is None:
                continue
            a, b = numbers[p.first], numbers[p.second] if p.second else None
            totals = p.result.totals if p.result is not None else [0, 0]
            out.append(Game(p.round, a, b, p.points[0], p.points[1],
                            totals[0] if b else 0, totals[1] if b else 0))
        return out

    @staticmethod
    def _load(s: Session, tournament_id: int) -> _Loaded:
        row = s.get(TournamentRow, tournament_id)
        if row is None:
            raise ClubError("no-tournament", id=tournament_id)
        entrants = list(s.scalars(select(EntrantRow).where(
            EntrantRow.tournament_id == tournament_id).order_by(EntrantRow.number)))
        pairings = list(s.scalars(select(PairingRow).where(
            PairingRow.tournament_id == tournament_id).order_by(PairingRow.round,
                                                                 PairingRow.id)))
        names = {p.id: p.name for p in s.scalars(select(PlayerRow))}
        loaded = _Loaded(row, entrants, pairings)
        loaded.names = {e.number: " & ".join(names.get(p, "?") for p in e.players)
                        for e in entrants}
        return loaded

    # -- the server's side -----------------------------------------------------------------
    def starts_to_send(self) -> list[tuple[str, str, StartGame]]:
        """(club, table, message) for each pairing not yet published."""
        out = []
        with self._session() as s:
            for p in s.scalars(select(PairingRow).where(PairingRow.sent.is_(None),
                                                         PairingRow.table.is_not(None))):
                t = s.get(TournamentRow, p.tournament_id)
                evening = s.get(EveningRow, t.evening_id) if t is not None else None
                if t is None or p.club is None or p.table is None:
                    continue
                title = f"{evening.title if evening else ''} · {p.round}".strip(" ·")
                out.append((p.club, p.table, StartGame(
                    id=p.id, game=t.game, options=t.options, names=p.names,
                    players=list(p.players), title=title)))
        return out

    def starts_to_clear(self) -> list[tuple[str, str, int]]:
        """(club, table, pairing id) of published starts whose game has arrived (or that the
        organiser settled), unless a newer start has been published to that table since: that
        one replaced it, and clearing would remove the newer one (it is marked cleared)."""
        out = []
        with self._begin() as s:
            done = s.scalars(select(PairingRow).where(
                PairingRow.sent.is_not(None), PairingRow.cleared.is_(False),
                (PairingRow.game_id.is_not(None)) | (PairingRow.settled.is_not(None))))
            for p in list(done):
                newer = s.scalar(select(PairingRow.id).where(
                    PairingRow.club == p.club, PairingRow.table == p.table,
                    PairingRow.id > p.id, PairingRow.sent.is_not(None)).limit(1))
                if newer is not None:
                    p.cleared = True
                else:
                    out.append((p.club or "", p.table or "", p.id))
        return out

    def mark(self, pairing_id: int, *, sent: bool = False, cleared: bool = False) -> None:
        with self._begin() as s:
            p = s.get(PairingRow, pairing_id)
            if p is None:
                return
            if sent and p.sent is None:
                p.sent = time.time()
            if cleared:
                p.cleared = True
        self._changed()

    @staticmethod
    def link_game(s: Session, game: GameRow, club: str, table: str) -> None:
        """Link a game that just arrived to the pairing it plays: a pairing of this table not
        yet answered, of the same game and players (one already published first; a game that
        arrives before its publication was acknowledged, or that the organiser started by hand
        with the same players, is linked all the same)."""
        names = [" ".join(str(n).split()).casefold() for n in game.names or []]
        for p in s.scalars(select(PairingRow).where(
                PairingRow.club == club, PairingRow.table == table,
                PairingRow.game_id.is_(None), PairingRow.settled.is_(None))
                .order_by(PairingRow.sent.is_(None), PairingRow.id)):
            t = s.get(TournamentRow, p.tournament_id)
            if t is not None and t.game == game.name and \
                    [n.casefold() for n in p.names] == names:
                p.game_id = game.id
                return
