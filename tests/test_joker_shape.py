"""Joker in the engine's one shape: a Phase enum, interned events with shared verdicts, typed rows."""

from __future__ import annotations

import random

import pytest
from _shape import assert_verdict_shared

from engine import verdict
from engine.errors import EngineError
from engine.events import Event
from engine.joker import ACE_DRAW, DEAL, OVER, DealResult, Foul, Joker, JokerPhase


def _expects_shoe(g: Joker) -> bool:
    """The shoe is due in the тузование and in a deal but while a 9-card trump choice is open."""
    if g.phase == DEAL:
        return not (g.n == 9 and g.trump == -2 and 9 <= g.dealt <= 12)
    return g.phase == ACE_DRAW


@pytest.mark.parametrize("options", [{}, {"policy": "on_claim"}, {"policy": "retract"},
                                     {"first_dealer": 1, "deck": "38"}])
def test_a_random_party_keeps_the_shape(options: dict) -> None:
    g = Joker(options)
    rng = random.Random(7)
    shared = set(verdict.SHARED_VERDICTS)
    while not g.is_over:
        assert isinstance(g.phase, JokerPhase) and g.Phase is JokerPhase
        assert g.expects_shoe == _expects_shoe(g) and g.is_over == (g.phase == OVER)
        actions = g.legal_actions()
        assert list(g.legal_moves) == actions
        if g.events and rng.random() < 0.03:
            g.undo()
            continue
        e = actions[rng.randrange(len(actions))]
        if e.kind != "undo":
            assert_verdict_shared(g, e)
        g.apply(e)
        if rng.random() < 0.02 and g.to_act() is not None:  # an illegal play, if there is one
            seat = g.to_act()
            for c in g.hand(seat):
                bad = Event("play", seat, (c,), "high" if c.is_joker else "")
                try:
                    if g.judge(bad).legal:
                        continue
                except EngineError:  # not a play this seat may make now at all
                    continue
                g.record(bad)
                if g.must_retract(g.verdicts[-1]):
                    g.undo()
                break
    assert set(verdict.SHARED_VERDICTS) == shared  # every listed event was interned at import
    assert len(g.results) == 24 and all(isinstance(r, DealResult) for r in g.results)
    sheet = g.score_sheet()
    for d, r in zip(sheet.deals, g.results, strict=True):
        assert [i.rule == "foul" for i in d.items[:4]] == [bool(p) for p in r.penalised]
        # a row still reads as the tuple it was: (cards, dealer, trump, bids, taken, pen, fouls)
        assert r[0] == r.cards and r[3] == r.bids and r[4] == r.taken
    for _deal, fouls in g.deal_fouls:
        assert all(isinstance(f, Foul) for f in fouls)


def test_the_claim_window_lists_claims_with_the_first_card() -> None:
    """Under on_claim the next deal's first card and the last deal's claims are both open."""
    g = Joker(policy="on_claim", first_dealer=0)
    rng = random.Random(3)
    def open_claims() -> bool:
        return any(f and not c for f, c in zip(g.fouls, g.claimed, strict=True))

    while not (g.phase == DEAL and g.dealt == 0 and g.deal_no and open_claims()):
        actions = [e for e in g.legal_actions() if e.kind != "foul"]
        seat = g.to_act()
        if seat is not None and g.phase == "play" and rng.random() < 0.3:
            bad = [e for c in g.hand(seat) if not c.is_joker
                   and not g.judge(e := Event("play", seat, (c,))).legal]
            if bad:
                g.record(bad[0])
                continue
        g.apply(actions[rng.randrange(len(actions))])
    listed = g.legal_actions()
    assert g.expects_shoe and {e.kind for e in listed} == {"shoe", "foul"}
    offender = next(s for s in range(4) if g.fouls[s] and not g.claimed[s])
    claimant = (offender + 1) % 4
    assert Event("foul", claimant, (), str(offender)) in g.legal_actions(claimant)
    assert all(e.kind == "foul" for e in g.legal_actions(claimant))
