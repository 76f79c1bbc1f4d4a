"""Players' ratings with OpenSkill, one rating list per game (Belot, Durak, Joker, ...).

The model is ``openskill.models.PlackettLuce`` with the library's defaults (μ 25, σ 25/3,
β 25/6, no τ), which rates any number of sides of any size: two players, fixed pairs
(Bazar-Belot: seats 0 & 2 against 1 & 3) and four players each on their own (Joker). A game's
sides are ranked by its result: the winner first, then by totals, equal totals sharing a place.

Ratings are recomputed from the stored results every time, in the order the games ended, so the
same results always give the same ratings and a correction made later changes every rating after
it. Only *final* results count (their evening is closed: see ``club.organiser``) and only games
where every seat is a registered player (a guest has no rating to carry from game to game).
The number shown is the rating's ordinal, μ − 3σ: 0 for a new player, rising as the club learns
the player's strength.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from openskill.models import PlackettLuce

from club.organiser import Result, ResultState


@dataclass
class Rating:
    player_id: int
    name: str
    mu: float
    sigma: float
    games: int = 0
    history: list[tuple[int, float, float]] = field(default_factory=list)  # game, when, ordinal

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma


def rateable(r: Result) -> bool:
    return (r.state == ResultState.FINAL and len(r.totals) >= 2
            and bool(r.seats) and all(s.player_id is not None for s in r.seats)
            and all(r.sides))


def rate(results: Iterable[Result]) -> dict[str, list[Rating]]:
    """Every game's ratings, best first, from these results (those that count, oldest first)."""
    model = PlackettLuce()
    by_game: dict[str, dict[int, Rating]] = {}
    done = sorted((r for r in results if rateable(r)),
                  key=lambda r: (r.ended if r.ended is not None else r.started, r.game_id))
    for r in done:
        table = by_game.setdefault(r.game, {})
        sides = r.sides
        teams = []
        for side in sides:
            team = []
            for seat in side:
                assert seat.player_id is not None
                known = table.get(seat.player_id)
                if known is None:
                    known = table[seat.player_id] = Rating(seat.player_id, seat.name,
                                                           model.mu, model.sigma)
                known.name = seat.name
                team.append(model.rating(mu=known.mu, sigma=known.sigma))
            teams.append(team)
        new = model.rate(teams, ranks=[float(k) for k in r.ranks()])
        when = r.ended if r.ended is not None else r.started
        for side, team in zip(sides, new, strict=True):
            for seat, rating in zip(side, team, strict=True):
                assert seat.player_id is not None
                known = table[seat.player_id]
                known.mu, known.sigma = rating.mu, rating.sigma
                known.games += 1
                known.history.append((r.game_id, when, known.ordinal))
    return {game: sorted(table.values(), key=lambda x: (-x.ordinal, x.name))
            for game, table in sorted(by_game.items())}


def chart_svg(history: list[tuple[int, float, float]], width: int = 560, height: int = 180) -> str:
    """A player's rating over their games as a small SVG line (no script, no library)."""
    if not history:
        return ""
    values = [0.0] + [v for _, _, v in history]
    lo, hi = min(values), max(values)
    span = (hi - lo) or 1.0
    pad = 24
    step = (width - 2 * pad) / max(1, len(values) - 1)

    def y(v: float) -> float:
        return height - pad - (v - lo) / span * (height - 2 * pad)

    points = " ".join(f"{pad + i * step:.1f},{y(v):.1f}" for i, v in enumerate(values))
    zero = y(0.0)
    dots = "".join(f'<circle cx="{pad + i * step:.1f}" cy="{y(v):.1f}" r="3"/>'
                   for i, v in enumerate(values) if i)
    return (f'<svg class="chart" viewBox="0 0 {width} {height}" width="100%" '
            f'role="img" xmlns="http://www.w3.org/2000/svg">'
            f'<line class="axis" x1="{pad}" y1="{zero:.1f}" x2="{width - pad}" y2="{zero:.1f}"/>'
            f'<text x="2" y="{y(hi) + 4:.1f}">{hi:.1f}</text>'
            f'<text x="2" y="{y(lo) + 4:.1f}">{lo:.1f}</text>'
            f'<polyline points="{points}"/>{dots}</svg>')
