"""Random table inputs for the controller tests: what a well-behaved table sends, plus noise.

Shared by tests/test_controller_crash.py (and the driver process it kills), test_controller_log.py
and test_history_cli.py. Imports nothing heavy beyond the controller: the driver loads it fast.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from controller.buttons import PLAY_KINDS
from controller.core import Controller
from controller.inputs import Admin, Button, Placed, Removed, ShoeCard

Pick = Callable[[int], int]  # random.Random().randrange, or hypothesis' choice


def sensible_inputs(ctl: Controller) -> list[Any]:
    """The inputs a well-behaved table would send now."""
    g, st_ = ctl.game, ctl.state
    assert g is not None
    if st_.cursor is not None:
        return [Button(seat=st_.cursor.seat, button="confirm"),
                Button(seat=st_.cursor.seat, button="bid_up")]
    if st_.pending is not None:
        p = st_.pending
        good = ([c.code for c in g.unseen_cards()] if p.source == "shoe"
                else ctl.hand(p.seat if p.seat is not None else 0))
        return [Admin(action="confirm_card", card=c) for c in good[:4]] + [Admin(action="skip_card")]
    if g.is_over:
        return [Removed()]
    acts = g.legal_actions()
    if g.expects_shoe:
        return [ShoeCard(card=e.cards[0].code) for e in acts if e.kind == "shoe"] or [Removed()]
    seat = g.to_act()
    out: list[Any] = []
    for e in acts:
        if e.seat != seat or e.kind == "claim":  # a blind claim ends most games at once
            continue
        if e.kind in PLAY_KINDS:
            covers = e.cards[1].code if e.kind == "beat" and len(e.cards) > 1 else None
            out.append(Placed(seat=e.seat, card=e.cards[0].code, covers=covers))
        else:
            out.append(Admin(action="event", event=str(e)))
    return out or [Removed()]


def noise_inputs(ctl: Controller) -> list[Any]:
    """Inputs a real table also sends: unsure readings, undo, stray buttons, wrong cards."""
    g = ctl.game
    assert g is not None
    unseen = [c.code for c in g.unseen_cards()][:3]
    seat = g.to_act() if g.to_act() is not None else 0
    foreign = next((c.code for c in g.deck_cards() if c.code not in ctl.hand(seat)), "AS")
    return [
        ShoeCard(card="??", candidates=unseen, confidence=0.4),
        ShoeCard(card=unseen[0] if unseen else "AS", seen_twice=True, candidates=unseen),
        Placed(seat=seat, card="??", candidates=ctl.hand(seat)[:3]),
        Placed(seat=seat, card=foreign),
        Button(seat=seat, button="undo"),
        Button(seat=seat, button="bid_up"),
        Button(seat=seat, button="pass"),
        Removed(),
        Admin(action="undo"),
    ]


def random_input(ctl: Controller, pick: Pick, noise: int = 8) -> Any:
    """One input: a sensible one, or (one time in ``noise``) a noisy one."""
    pool = noise_inputs(ctl) if pick(noise) == 0 else sensible_inputs(ctl)
    return pool[pick(len(pool))]
