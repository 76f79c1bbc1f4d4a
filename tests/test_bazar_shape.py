"""Bazar-Belot in the engine's one shape: a Phase enum, interned events with shared verdicts,
typed rows."""

from __future__ import annotations

import random

import pytest
from _shape import assert_verdict_shared

from engine import verdict
from engine.bazar import BazarBelot
from engine.bazar.constructions import Construction
from engine.bazar.game import DEAL, OVER, PLAY, BazarDeal, BazarFoul, BazarPhase, DealRaw
from engine.errors import EngineError
from engine.events import Event


@pytest.mark.parametrize("options", [{}, {"policy": "on_claim"}, {"policy": "retract"},
                                     {"first_dealer": 2, "deal_pattern": "3+2+3"}])
def test_a_random_partie_keeps_the_shape(options: dict) -> None:
    g = BazarBelot(options)
    rng = random.Random(5)
    shared = set(verdict.SHARED_VERDICTS)
    illegal = 0
    while not g.is_over and len(g.deals) < 12:
        assert isinstance(g.phase, BazarPhase) and g.Phase is BazarPhase
        assert g.expects_shoe == (g.phase == DEAL) and g.is_over == (g.phase == OVER)
        assert all(isinstance(f, BazarFoul) for f in g.fouls)
        assert all(isinstance(c, Construction) for c in g.constructions)
        actions = g.legal_actions()
        assert list(g.legal_moves) == actions and g.legal_moves(1) == g.legal_actions(1)
        if g.events and rng.random() < 0.03:
            g.undo()
            continue
        e = actions[rng.randrange(len(actions))]
        if e.kind != "undo":
            assert_verdict_shared(g, e)
        g.apply(e)
        seat = g.to_act()
        if g.phase == PLAY and seat is not None and g.trick and rng.random() < 0.2:
            for c in g.hand(seat):
                try:
                    if g.judge(bad := Event("play", seat, (c,))).legal:
                        continue
                except EngineError:
                    continue
                g.record(bad)
                illegal += 1
                if g.must_retract(g.verdicts[-1]):
                    g.undo()
                break
    assert illegal
    # only declarations are interned as they first come up (one per seat and group, cached)
    assert {v.event.kind for k, v in verdict.SHARED_VERDICTS.items() if k not in shared} <= {"declare"}
    sheet = g.score_sheet()
    assert g.deals and all(isinstance(d, BazarDeal) for d in g.deals)
    for row, deal in zip(g.deals, sheet.deals, strict=True):
        assert (row.number, list(row.points)) == (deal.number, deal.points)
        assert row.raw is None or isinstance(row.raw, DealRaw)
        # a row still reads as the tuple it was: (number, points, items, notes, raw)
        assert row[1] == row.points and row[4] == row.raw
