"""Standings: who won what over a period (an evening, a month, a season, everything), per game.

A line per player (a registered player by id, a guest by name) over the counted results of the
period (provisional and final, see ``club.organiser``): games played, won, drawn, lost, the score
(a win 1, a draw ½: a side shares first place with another) and the games' own points (the
totals the player's side made). Lines are ordered by score, then points, then fewer games.
Multi-player games (Joker) give the win to the first place alone; every other place is a loss.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass, field

from club.organiser import Result, ResultState


@dataclass
class Line:
    key: str
    name: str
    player_id: int | None
    played: int = 0
    won: int = 0
    drawn: int = 0
    lost: int = 0
    points: int = 0
    provisional: int = 0  # how many of the games are still provisional
    games: list[int] = field(default_factory=list)

    @property
    def score(self) -> float:
        return self.won + self.drawn / 2


def standings(results: Iterable[Result], game: str) -> list[Line]:
    lines: dict[str, Line] = {}
    for r in results:
        if r.game != game or not r.counted:
            continue
        ranks = r.ranks()
        firsts = ranks.count(1)
        for k, side in enumerate(r.sides):
            for seat in side:
                line = lines.setdefault(seat.key, Line(seat.key, seat.name, seat.player_id))
                line.name = seat.name
                line.played += 1
                line.games.append(r.game_id)
                line.points += r.totals[k] if k < len(r.totals) else 0
                line.provisional += r.state == ResultState.PROVISIONAL
                if ranks[k] == 1 and firsts == 1:
                    line.won += 1
                elif ranks[k] == 1:
                    line.drawn += 1
                else:
                    line.lost += 1
    return sorted(lines.values(), key=lambda x: (-x.score, -x.points, x.played, x.name))


def month_span(year: int, month: int) -> tuple[float, float]:
    """[start, end) of a calendar month in local time."""
    nxt = (year + month // 12, month % 12 + 1)
    return (time.mktime((year, month, 1, 0, 0, 0, 0, 0, -1)),
            time.mktime((*nxt, 1, 0, 0, 0, 0, 0, -1)))


def season_span(year: int) -> tuple[float, float]:
    """[start, end) of a season: a calendar year in local time."""
    return (time.mktime((year, 1, 1, 0, 0, 0, 0, 0, -1)),
            time.mktime((year + 1, 1, 1, 0, 0, 0, 0, 0, -1)))
