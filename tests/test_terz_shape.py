"""Terz in the engine's one shape: a Phase enum, interned events with shared verdicts, typed rows."""

from __future__ import annotations

import random

import pytest
from _shape import assert_verdict_shared

from engine import verdict
from engine.errors import EngineError
from engine.events import Event
from engine.terz import PH_DRAW, PH_OVER, PH_PLAY, Declared, Terz, TerzDeal, TerzFoul, TerzPhase


@pytest.mark.parametrize("options", [{}, {"policy": "on_claim"}, {"policy": "retract"},
                                     {"foul_penalty": "cards", "target": 300}])
def test_a_random_game_keeps_the_shape(options: dict) -> None:
    g = Terz(options)
    rng = random.Random(11)
    shared = set(verdict.SHARED_VERDICTS)
    illegal = 0
    while not g.is_over:
        assert isinstance(g.phase, TerzPhase) and g.Phase is TerzPhase
        assert g.expects_shoe == (g.phase <= PH_DRAW) and g.is_over == (g.phase == PH_OVER)
        assert all(isinstance(f, TerzFoul) for f in g.fouls)
        assert all(isinstance(i, Declared) for i in g.items)
        actions = g.legal_actions()
        assert list(g.legal_moves) == actions and g.legal_moves(0) == g.legal_actions(0)
        if g.events and rng.random() < 0.03:
            g.undo()
            continue
        e = actions[rng.randrange(len(actions))]
        if e.kind != "undo":
            assert_verdict_shared(g, e)
        g.apply(e)
        seat = g.to_act()
        if g.phase == PH_PLAY and seat is not None and g.table and rng.random() < 0.2:
            for c in g.hand(seat):
                try:
                    if g.judge(bad := Event("play", seat, (c,))).legal:
                        continue
                except EngineError:  # not a play now (a declaration to answer first)
                    break
                g.record(bad)
                illegal += 1
                if g.must_retract(g.verdicts[-1]):
                    g.undo()
                break
    assert illegal
    # only declarations are interned as they first come up (one per seat and group, cached)
    assert {v.event.kind for k, v in verdict.SHARED_VERDICTS.items() if k not in shared} <= {"declare"}
    sheet = g.score_sheet()
    assert all(isinstance(d, TerzDeal) for d in g.history)
    for row, deal in zip(g.history, sheet.deals, strict=True):
        assert (row.number, list(row.points)) == (deal.number, deal.points)
        # a row still reads as the tuple it was: (number, points, items, notes)
        assert row[1] == row.points and row[2][2] == row.items[2]
