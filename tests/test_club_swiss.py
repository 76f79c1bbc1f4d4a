"""Swiss pairings and standings (club.swiss): an 8-player, 3-round evening worked by hand, and
properties over random events (hypothesis): everyone plays each round but one bye, byes go to
different entrants, and nobody meets twice while a pairing without a rematch exists."""

from __future__ import annotations

import networkx as nx
from hypothesis import given, settings
from hypothesis import strategies as st

from club.swiss import Game, pair_round, standings

SEEDS = list(range(1, 9))


def won(rnd: int, a: int, b: int) -> Game:
    return Game(rnd, a, b, 1.0, 0.0)


def drew(rnd: int, a: int, b: int) -> Game:
    return Game(rnd, a, b, 0.5, 0.5)


def test_eight_players_three_rounds_by_hand() -> None:
    """Round 1 splits the seeds: 1–5, 2–6, 3–7, 4–8. Results: 1 beats 5, 6 beats 2, 3 and 7
    draw, 4 beats 8. Scores 1, 4, 6: 1; 3, 7: ½; 2, 5, 8: 0; 3 and 7 have met, so the score
    groups cannot pair inside: the least squared score difference (2 half-points² in all) is
    1–4, 6–3 (the top group's odd one floats down), 7–2, 5–8, each pair also next to each other
    in the standings (1, 4, 6, 3, 7, 2, 5, 8 by score, then Buchholz, then seed). 1 had sat
    first once, 4 once: 1 (placed higher) sits first; 3 sat first in round 1, 6 not: 6 first.

    Round 2: 1 beats 4, 3 beats 6, 7 beats 2, 5 and 8 draw. Scores 1: 2; 3, 7: 1½; 4, 6: 1;
    5, 8: ½; 2: 0; ranked 1, 3, 7, 4, 6, 5, 8, 2 (3 above 7 and 4 above 6 and 5 above 8 on
    Buchholz 2½ against 1½). Every score differs from its neighbour's by one half-point and the
    pairs of consecutive places have not met: 1–3, 7–4, 6–5, 8–2. 1 sat first twice, 3 once:
    3 first; 8 never sat first: 8 first.

    Round 3: 1 beats 3, 7 beats 4, 6 beats 5, 8 beats 2. Final scores 1: 3, 7: 2½, 6: 2,
    3 and 8: 1½ (3 first on Buchholz 7½ against 1½), 4: 1, 5: ½, 2: 0."""
    r1 = pair_round(SEEDS, [])
    assert (r1.pairs, r1.bye) == ([(1, 5), (2, 6), (3, 7), (4, 8)], None)
    games = [won(1, 1, 5), Game(1, 2, 6, 0.0, 1.0), drew(1, 3, 7), won(1, 4, 8)]
    r2 = pair_round(SEEDS, games)
    assert (r2.pairs, r2.bye) == ([(1, 4), (6, 3), (7, 2), (5, 8)], None)
    games += [won(2, 1, 4), Game(2, 6, 3, 0.0, 1.0), won(2, 7, 2), drew(2, 5, 8)]
    r3 = pair_round(SEEDS, games)
    assert r3.pairs == [(3, 1), (7, 4), (6, 5), (8, 2)]
    games += [Game(3, 3, 1, 0.0, 1.0), won(3, 7, 4), won(3, 6, 5), won(3, 8, 2)]
    final = standings(SEEDS, games)
    assert [s.entrant for s in final] == [1, 7, 6, 3, 8, 4, 5, 2]
    assert [s.score for s in final] == [3, 2.5, 2, 1.5, 1.5, 1, 0.5, 0]
    by = {s.entrant: s for s in final}
    assert (by[3].buchholz, by[8].buchholz, by[1].buchholz) == (7.5, 1.5, 3.0)
    # Sonneborn–Berger of 1: beat 5 (½), 4 (1) and 3 (1½)
    assert by[1].sonneborn_berger == 3.0


def test_an_odd_field_gives_the_bye_to_the_lowest_without_one() -> None:
    seeds = [1, 2, 3, 4, 5]
    r1 = pair_round(seeds, [])
    assert r1.bye == 5 and r1.pairs == [(1, 3), (2, 4)]
    games = [won(1, 1, 3), won(1, 2, 4), Game(1, 5, None)]
    r2 = pair_round(seeds, games)
    # 3 and 4 have 0 points, 5 had the bye: 4 (lower in the standings) gets it
    assert r2.bye == 4


def perfect_without_rematch(entrants: list[int], games: list[Game]) -> bool:
    """Whether a round exists with no rematch and the bye (if any) to an entrant without one
    (byes to different entrants come first: checked on their own)."""
    met = {frozenset((g.a, g.b)) for g in games if g.b is not None}
    had_bye = {g.a for g in games if g.b is None}
    g = nx.Graph()
    g.add_nodes_from(entrants)
    for i, a in enumerate(entrants):
        for b in entrants[i + 1:]:
            if frozenset((a, b)) not in met:
                g.add_edge(a, b)
        if len(entrants) % 2 and (a not in had_bye or len(had_bye) == len(entrants)):
            g.add_edge(a, -1)
    m = nx.max_weight_matching(g, maxcardinality=True)
    return 2 * len(m) == len(entrants) + len(entrants) % 2


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 13), data=st.data())
def test_random_events_keep_the_swiss_rules(n: int, data: st.DataObject) -> None:
    entrants = list(range(1, n + 1))
    rounds = data.draw(st.integers(1, min(n, 7)), label="rounds")
    games: list[Game] = []
    bye_takers: list[int] = []
    for rnd in range(1, rounds + 1):
        p = pair_round(entrants, games)
        seen = [e for pair in p.pairs for e in pair] + ([p.bye] if p.bye is not None else [])
        assert sorted(seen) == entrants  # everyone once
        assert (p.bye is not None) == (n % 2 == 1)  # one bye, and only in an odd field
        met = {frozenset((g.a, g.b)) for g in games if g.b is not None}
        if any(frozenset(pair) in met for pair in p.pairs):
            assert not perfect_without_rematch(entrants, games)
        if p.bye is not None:
            assert p.bye not in bye_takers  # rounds <= n: someone always had none
            bye_takers.append(p.bye)
            games.append(Game(rnd, p.bye, None))
        for a, b in p.pairs:
            outcome = data.draw(st.sampled_from([(1.0, 0.0), (0.5, 0.5), (0.0, 1.0)]))
            games.append(Game(rnd, a, b, *outcome))
    table = standings(entrants, games)
    assert sum(s.score for s in table) == len(games)  # every game and bye gives out one point
