"""Joker bad input: each case is refused (or judged) with a clear rule and leaves state and log as they were."""

from __future__ import annotations

import random

import pytest
from _joker_kit import bid, deal, new, plays, skip_to_deal
from _refusal import refused as check_refused

from engine.errors import (
    ActionNotAllowedError,
    BadEventError,
    BidNotAllowedError,
    CardNotInHandError,
    DuplicateCardError,
    EngineError,
    IllegalPlayError,
    OutOfTurnError,
    UnknownCardError,
)
from engine.events import Event, ev, shoe
from engine.joker import Joker, JokerModeError
from engine.playout import play_out


def refused(g: Joker, text: str, error: type[EngineError], rule: str | None = None) -> EngineError:
    """``apply`` and ``record`` both refuse the event and nothing changes."""
    return check_refused(g, text, error, rule=rule)


def playing(**options: object) -> Joker:
    """Deal 4 (dealer seat 3), bids all 0, seat 0 to lead."""
    g = skip_to_deal(new(**options), 4)
    deal(g, ["BJ KH 7D 8D", "RJ AH 7C 8C", "TH TD JD QD", "JH TC JC QC"], turned="7S")
    bid(g, [0, 0, 0, 0])
    return g


# ----------------------------------------------------------------- joker modes that do not fit

def test_want_when_not_on_lead_is_refused() -> None:
    g = playing()
    g.apply(ev("0 play KH"))
    err = refused(g, "1 play RJ want H", JokerModeError, "joker-mode")
    assert "only for a joker on lead" in str(err)


def test_give_when_not_on_lead_is_refused() -> None:
    g = playing()
    g.apply(ev("0 play KH"))
    refused(g, "1 play RJ give C", JokerModeError, "joker-mode")


def test_high_or_low_on_lead_is_refused_when_the_lead_modes_are_on() -> None:
    g = playing()
    refused(g, "0 play BJ high", JokerModeError, "joker-mode")
    refused(g, "0 play BJ low", JokerModeError, "joker-mode")


def test_want_on_lead_is_refused_when_the_lead_modes_are_off() -> None:
    g = playing(joker_lead_modes=False)
    refused(g, "0 play BJ want H", JokerModeError, "joker-mode")


def test_a_joker_without_a_mode_or_with_an_unknown_one_is_refused() -> None:
    g = playing()
    assert "say how the joker plays" in str(refused(g, "0 play BJ", JokerModeError))
    refused(g, "0 play BJ sideways", JokerModeError)
    refused(g, "0 play BJ want X", JokerModeError)


def test_both_jokers_cannot_stand_for_the_same_six() -> None:
    g = playing()
    g.apply(ev("0 play BJ nominal 6C"))
    refused(g, "1 play RJ nominal 6C", JokerModeError, "joker-mode")


def test_nominal_joker_refused_when_the_setting_is_off() -> None:
    g = playing(joker_nominal=False)
    refused(g, "0 play BJ nominal 6S", JokerModeError, "joker-mode")


def test_a_plain_card_with_a_mode_is_refused() -> None:
    g = playing()
    refused(g, "0 play KH want H", BadEventError)


# ----------------------------------------------------------------- cards

def test_unknown_card_is_refused() -> None:
    g = new()
    refused(g, "shoe XQ", UnknownCardError, "unknown-card")
    deal(g, ["7H", "8H", "9H", "TH"], turned="7S")
    bid(g, [0, 0, 0, 0])
    refused(g, "1 play 1Z", UnknownCardError, "unknown-card")


def test_card_dealt_twice_is_refused() -> None:
    g = new()
    g.apply(shoe("7H"))
    refused(g, "shoe 7H", DuplicateCardError, "card-dealt-twice")
    refused(g, "shoe 6C", DuplicateCardError, "card-not-in-deck")  # replaced by a joker


def test_card_dealt_twice_in_the_ace_draw_is_refused() -> None:
    g = Joker()
    g.apply(shoe("7H"))
    refused(g, "shoe 7H", DuplicateCardError, "card-dealt-twice")


def test_card_not_in_hand_is_refused() -> None:
    g = playing()
    err = refused(g, "0 play AH", CardNotInHandError, "card-not-in-hand")
    assert "not in the hand" in str(err)
    g.apply(ev("0 play KH"))
    plays(g, "1 play AH", "2 play TH", "3 play JH")
    assert g.to_act() == 1
    assert "already played" in str(refused(g, "1 play AH", CardNotInHandError))


def test_out_of_turn_play_and_bid_are_refused() -> None:
    g = new()
    deal(g, ["7H", "8H", "9H", "TH"], turned="7S")
    refused(g, "2 bid 0", OutOfTurnError, "out-of-turn")  # seat 1 bids first
    bid(g, [0, 0, 0, 0])
    refused(g, "0 play 7H", OutOfTurnError, "out-of-turn")  # seat 1 leads
    refused(g, "play 8H", BadEventError)  # no seat at all


# ----------------------------------------------------------------- bids

def test_bids_not_allowed_are_refused() -> None:
    g = skip_to_deal(new(), 3)  # N = 3, dealer seat 2
    refused(g, "3 bid 1", BidNotAllowedError, "bid-not-allowed")  # nothing dealt yet
    deal(g, ["7H 8H 9H", "TH JH QH", "KH AH 6D", "7D 8D 9D"], turned="7S")
    refused(g, "3 bid 4", BidNotAllowedError, "bid-not-allowed")  # more than the cards
    refused(g, "3 bid pass", BidNotAllowedError, "bid-not-allowed")  # 0 is written 0
    for text in ("3 bid 2", "0 bid 1", "1 bid 0"):
        g.apply(ev(text))
    refused(g, "2 bid 0", BidNotAllowedError, "dealer-total")  # 2 + 1 + 0 + 0 = 3
    g.apply(ev("2 bid 1"))
    refused(g, "3 bid 1", BidNotAllowedError, "bid-not-allowed")  # bidding is over


# ----------------------------------------------------------------- illegal plays, phases

def test_illegal_play_is_refused_by_apply_and_nothing_changes() -> None:
    g = playing()
    g.apply(ev("0 play KH"))
    before, log = g.snapshot(), list(g.raw_log)
    with pytest.raises(IllegalPlayError) as exc:
        g.apply(ev("1 play 7C"))
    assert exc.value.rule == "follow-suit" and exc.value.verdict.message == "held ♥, did not follow suit"
    assert g.snapshot() == before and g.raw_log == log


def test_shoe_card_when_none_is_due_and_trump_naming_out_of_place_are_refused() -> None:
    g = new()
    refused(g, "1 trump H", ActionNotAllowedError, "trump-not-now")  # 1-card deal: turned card
    deal(g, ["7H", "8H", "9H", "TH"], turned="7S")
    refused(g, "shoe AS", ActionNotAllowedError, "shoe-not-expected")
    g9 = skip_to_deal(new(), 9)
    for code in ["6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"]:
        g9.apply(shoe(code))
    refused(g9, "2 trump H", OutOfTurnError, "out-of-turn")  # seat 1 names trump
    refused(g9, "1 trump X", BadEventError)


def test_unknown_event_kind_and_claims_without_on_claim_are_refused() -> None:
    g = playing()
    refused(g, "0 dance", BadEventError, "bad-event")
    refused(g, "1 foul 0", ActionNotAllowedError, "no-claims")
    refused(g, "confirm", ActionNotAllowedError)


def test_nothing_is_accepted_after_the_game_is_over() -> None:
    g = play_out(new(), random.Random(2))
    refused(g, "shoe 7H", ActionNotAllowedError, "game-over")
    refused(g, "0 bid 1", ActionNotAllowedError, "game-over")
    assert g.legal_actions() == [] and Event("confirm") not in g.legal_actions()
