"""A table whose deck profile has not passed its self-check asks the organiser to confirm every
card the shoe reader names below ``UNVERIFIED_BAR``, its reading offered first; a verified deck's
cards go straight in. The shoe loop tells the admin page which it is."""

from __future__ import annotations

from controller.footage import BUNDLES
from controller.inputs import Admin
from controller.table import UNVERIFIED_BAR, ShoeLoop, shoe_input
from vision.cards import UNKNOWN, ReaderFlag
from vision.profile import DeckProfile
from vision.reader import CardEvent, ShoeReader


def _bundled(verified: bool) -> DeckProfile:
    profile = DeckProfile.model_validate_json((BUNDLES / "deck.json").read_bytes())
    assert profile.verified  # the bundled deck passed its self-check (scripts/make-bundles)
    if verified:
        return profile
    check = profile.verification
    assert check is not None
    return profile.model_copy(update={"verification": check.model_copy(
        update={"verified": False, "why": "no verification pass"})})


def test_an_unverified_deck_turns_a_card_below_the_bar_into_a_question():
    ev = CardEvent(40, "QS", 0.95, [("QS", 0.93), ("QC", 0.71)])
    asked = shoe_input(ev, 1.5, verified=False)
    assert asked.card == UNKNOWN and asked.flag == ReaderFlag.UNVERIFIED_PROFILE
    assert asked.candidates == ["QS", "QC"]  # the reader's pick first
    assert shoe_input(ev, 1.5, verified=True).card == "QS"
    sure = CardEvent(41, "QS", UNVERIFIED_BAR, [("QS", 0.99)])
    assert shoe_input(sure, 1.6, verified=False).card == "QS"


def test_the_table_waits_for_the_organiser_then_deals_the_confirmed_card(make_controller):
    c = make_controller("durak2", {}, ["Аня", "Боря"])
    loop = ShoeLoop(c, ShoeReader(_bundled(verified=False)))
    assert c.public_state()["devices"]["deck"]["state"] == "unverified"
    card = c.game.legal_actions()[0].cards[0].code
    loop.card(CardEvent(12, card, 0.93, [(card, 0.9)]), 0.4)
    assert len(c.game.raw_log) == 0  # nothing dealt yet
    assert c.admin_state()["pending"]["candidates"][0] == card
    c.submit(Admin(action="confirm_card", card=card))
    assert [str(e) for e in c.game.raw_log] == [f"shoe {card}"]


def test_a_verified_deck_deals_the_same_card_at_once(make_controller):
    c = make_controller("durak2", {}, ["Аня", "Боря"])
    loop = ShoeLoop(c, ShoeReader(_bundled(verified=True)))
    assert c.public_state()["devices"]["deck"]["state"] == "verified"
    card = c.game.legal_actions()[0].cards[0].code
    loop.card(CardEvent(12, card, 0.93, [(card, 0.9)]), 0.4)
    assert [str(e) for e in c.game.raw_log] == [f"shoe {card}"]
    assert c.public_state()["pending"] is None
