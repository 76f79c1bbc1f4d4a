"""Rule ids are one enumeration (``engine.rules.Rule``) shared by the five games and the
controller, one id for one rule: every id written in engine/ and controller/ is a member, every
member is used, and the same case has the same id in every game (a card out of the shoe when none
is due: ``shoe-not-expected``; an action the phase does not allow: ``not-allowed-now``)."""

from __future__ import annotations

import random

import pytest
from _rule_scan import rule_ids

from engine.errors import EngineError
from engine.events import Event
from engine.registry import GAMES, game_class
from engine.rules import Rule
from table_ui.rule_texts import TEXTS


def test_the_enumeration_is_every_rule_id_and_only_those() -> None:
    used = rule_ids()
    members = {r.value for r in Rule}
    assert sorted(used - members) == [], "ids written but not in engine.rules.Rule"
    assert sorted(members - used) == [], "members of engine.rules.Rule nothing uses"
    assert members <= set(TEXTS)
    assert not {"no-card-due", "not-dealing", "wrong-phase"} & members  # merged


@pytest.mark.parametrize("name", GAMES)
def test_a_card_from_the_shoe_when_none_is_due_has_one_id(name: str) -> None:
    rng = random.Random(name)
    options = {"first_dealer": 0} if name in ("joker", "bazar") else {}
    g = game_class(name)(options)
    while g.expects_shoe:
        actions = g.legal_actions()
        g.apply(actions[rng.randrange(len(actions))])
    # a card still in the shoe (Bazar-Belot deals all 32: any card, the phase is checked first)
    spare = next(iter(g.unseen_cards()), g.deck_cards()[0])
    with pytest.raises(EngineError) as refused:
        g.record(Event.parse(f"shoe {spare.code}"))
    assert refused.value.rule == Rule.SHOE_NOT_EXPECTED


@pytest.mark.parametrize(("name", "event"), [("durak2", "0 take"), ("terz", "0 pass"),
                                            ("belot2", "0 confirm")])
def test_an_action_the_phase_does_not_allow_has_one_id(name: str, event: str) -> None:
    g = game_class(name)({})  # still dealing
    with pytest.raises(EngineError) as refused:
        g.record(Event.parse(event))
    assert refused.value.rule == Rule.NOT_ALLOWED_NOW
