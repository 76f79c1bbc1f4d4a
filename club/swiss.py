"""A Swiss tournament's arithmetic: who plays whom in a round, and the standings.

Entrants are players (two-player games) or fixed pairs (Bazar-Belot), numbered in seed order.
A round's pairing is a maximum-weight matching (``networkx.max_weight_matching``, with maximum
cardinality) on a graph of the entrants plus one "bye" node when their count is odd:

* every entrant plays, but for one bye when the count is odd (maximum cardinality);
* nobody gets a second bye while someone has had none, and no two entrants meet again while a
  pairing without a rematch exists (each costs more than all the rules below together);
* the bye goes to the lowest entrant without one (lowest score, then lowest in the standings);
* then entrants meet others of their score (the squared score difference is the cost), then
  of their standing.

The first round splits the seed list in halves (1 against n/2 + 1, ...), as Swiss events do.

Why not a pairing library: ``caissify-pairings`` (Apache-2.0) has a FIDE Dutch engine whose
absolute colour rules mean nothing at a card table but still forbid pairings, and a "casual"
engine that pairs greedily: in 219 of 300 random 8-player 5-round events it gave two byes in a
round although a full pairing without rematches existed. ``pairing-core`` (MIT) is also a
FIDE-colour engine. The rules above are what a card club needs, and the matching itself is
networkx's.

Standings: a win 1, a draw ½, a bye 1 (a full-point bye), then Buchholz (the sum of the
opponents' scores), Sonneborn–Berger (the opponents' scores weighted by the result against
them), then the games' own points, then the seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

import networkx as nx

BYE = -1  # the bye node


@dataclass(frozen=True)
class Game:
    """A played pairing: entrant ``a`` against ``b`` (None: ``a`` had the bye), with each
    side's result (1 a win, ½ a draw, 0 a loss) and the game's own points."""
    round: int
    a: int
    b: int | None
    result_a: float = 0.0
    result_b: float = 0.0
    points_a: int = 0
    points_b: int = 0


@dataclass
class Standing:
    entrant: int
    score: float = 0.0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    points: int = 0
    played: int = 0
    byes: int = 0
    opponents: list[int] = field(default_factory=list)


def standings(entrants: Sequence[int], games: Iterable[Game]) -> list[Standing]:
    """Entrants (numbers, in seed order) ordered by score, Buchholz, Sonneborn–Berger, points,
    seed."""
    lines = {n: Standing(n) for n in entrants}
    played = list(games)
    for g in played:
        a = lines[g.a]
        if g.b is None:
            a.score += 1.0
            a.byes += 1
            continue
        b = lines[g.b]
        a.score += g.result_a
        b.score += g.result_b
        a.points += g.points_a
        b.points += g.points_b
        a.played += 1
        b.played += 1
        a.opponents.append(g.b)
        b.opponents.append(g.a)
    for g in played:
        if g.b is None:
            continue
        a, b = lines[g.a], lines[g.b]
        a.buchholz += b.score
        b.buchholz += a.score
        a.sonneborn_berger += g.result_a * b.score
        b.sonneborn_berger += g.result_b * a.score
    seed = {n: k for k, n in enumerate(entrants)}
    return sorted(lines.values(), key=lambda x: (-x.score, -x.buchholz, -x.sonneborn_berger,
                                                 -x.points, seed[x.entrant]))


@dataclass(frozen=True)
class Pairing:
    """One round: ``pairs`` (first, second) in table order (the first sits at seat 0, or holds
    seats 0 and 2) and ``bye`` (an entrant, or None)."""
    pairs: list[tuple[int, int]]
    bye: int | None


def pair_round(entrants: Sequence[int], games: Iterable[Game]) -> Pairing:
    """The next round's pairing of ``entrants`` (numbers, in seed order) after ``games``."""
    played = list(games)
    n = len(entrants)
    if n < 2:
        raise ValueError("a Swiss round needs at least two entrants")
    table = standings(entrants, played)
    rank = {s.entrant: k for k, s in enumerate(table)}
    score = {s.entrant: round(2 * s.score) for s in table}  # whole half-points
    met = {frozenset((g.a, g.b)) for g in played if g.b is not None}
    byes = {s.entrant: s.byes for s in table}
    first_seat = {e: 0 for e in entrants}
    for g in played:
        if g.b is not None:
            first_seat[g.a] += 1
    if not played:
        return _first_round(list(entrants))
    rounds = max(g.round for g in played) + 1
    # Costs in tiers, each tier's unit larger than everything below it can add up to in a
    # round: (0) score differences, then standing differences, of the pairs; (1) the bye's
    # score and standing (the lowest without one takes it); (2) a rematch; (3) a second bye.
    pair_max = (2 * rounds) ** 2 * 100 + n
    tier1 = (n // 2 + 1) * pair_max + 1
    tier2 = (2 * rounds + 2) * n * tier1 + tier1
    tier3 = (n // 2 + 1) * tier2 + tier2
    base = (n + 2) * tier3
    graph = nx.Graph()
    for i, a in enumerate(entrants):
        for b in entrants[i + 1:]:
            cost = (score[a] - score[b]) ** 2 * 100 + abs(rank[a] - rank[b])
            if frozenset((a, b)) in met:
                cost += tier2
            graph.add_edge(a, b, weight=base - cost)
        if n % 2:
            cost = tier3 * byes[a] + tier1 * (score[a] * n + (n - 1 - rank[a]))
            graph.add_edge(a, BYE, weight=base - cost)
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    pairs: list[tuple[int, int]] = []
    bye = None
    for u, v in matching:
        if BYE in (u, v):
            bye = v if u == BYE else u
            continue
        # the better placed sits first, unless they sat first more often
        hi, lo = (u, v) if rank[u] < rank[v] else (v, u)
        pairs.append((lo, hi) if first_seat[hi] > first_seat[lo] else (hi, lo))
    pairs.sort(key=lambda p: (-max(score[p[0]], score[p[1]]), min(rank[p[0]], rank[p[1]])))
    return Pairing(pairs, bye)


def _first_round(seeds: list[int]) -> Pairing:
    bye = seeds.pop() if len(seeds) % 2 else None  # the lowest seed
    half = len(seeds) // 2
    return Pairing(list(zip(seeds[:half], seeds[half:], strict=True)), bye)
