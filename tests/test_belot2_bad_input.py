"""Bad input to two-player Belot: each is refused with a precise error, state and log untouched."""

from __future__ import annotations

from _belot2_helpers import SWEEP, SWEEP_TURNED, confirm, deal, shoe_order
from _refusal import refused as check_refused

from engine.belot2 import Belot2
from engine.errors import (
    ActionNotAllowedError,
    BadEventError,
    BidNotAllowedError,
    CardNotInHandError,
    DuplicateCardError,
    EngineError,
    OutOfTurnError,
    UnknownCardError,
)
from engine.events import Event, ev


def bidding() -> Belot2:
    g = Belot2()
    first, _ = shoe_order(g, SWEEP, SWEEP_TURNED)
    for code in first:
        g.apply(ev(f"shoe {code}"))
    return g


def playing() -> Belot2:
    g = Belot2()
    deal(g, SWEEP, SWEEP_TURNED, ["1 bid play"])
    return g


def refused(game: Belot2, event: Event | str, error: type[EngineError], rule: str) -> str:
    """Both entry points refuse it and leave the state and both logs exactly as they were."""
    return str(check_refused(game, event, error, rule=rule))


def test_unknown_card_code_from_the_shoe() -> None:
    g = Belot2()
    g.apply(ev("shoe 9H"))
    message = refused(g, "shoe 1Z", UnknownCardError, "unknown-card")
    assert "1Z" in message


def test_unknown_card_code_played() -> None:
    message = refused(playing(), "1 play XH", UnknownCardError, "unknown-card")
    assert "XH" in message


def test_card_dealt_twice() -> None:
    g = Belot2()
    g.apply(ev("shoe 9H"))
    g.apply(ev("shoe KS"))
    message = refused(g, "shoe 9H", DuplicateCardError, "card-dealt-twice")
    assert "9H already came out" in message


def test_card_outside_the_32_card_deck() -> None:
    g = Belot2()
    refused(g, "shoe 6H", DuplicateCardError, "card-not-in-deck")


def test_card_dealt_twice_across_the_second_batch() -> None:
    g = bidding()
    g.apply(ev("1 bid play"))
    # AS went to seat 1 in the first batch; it cannot come out again in the second.
    refused(g, "shoe AS", DuplicateCardError, "card-dealt-twice")


def test_play_out_of_turn() -> None:
    message = refused(playing(), "0 play 7S", OutOfTurnError, "out-of-turn")
    assert "seat 1 is to play" in message


def test_bid_out_of_turn() -> None:
    refused(bidding(), "0 bid play", OutOfTurnError, "out-of-turn")


def test_card_not_in_hand() -> None:
    message = refused(playing(), "1 play 7S", CardNotInHandError, "card-not-in-hand")
    assert "does not hold" in message


def test_declaring_cards_not_in_hand() -> None:
    refused(playing(), "0 declare AS KS QS", CardNotInHandError, "card-not-in-hand")


def test_bid_naming_a_suit_in_round_one_is_not_allowed() -> None:
    message = refused(bidding(), "1 bid S", BidNotAllowedError, "bid-not-allowed")
    assert "round 1" in message


def test_bid_naming_the_refused_turned_suit_in_round_two_is_not_allowed_rules_md_not_seed_004() -> None:
    g = bidding()
    g.apply(ev("1 bid pass"))
    g.apply(ev("0 bid pass"))
    # Rozaliev (seed 004) lets round 2 name «любую масть»; RULES.md says any *other* suit.
    refused(g, "1 bid H", BidNotAllowedError, "bid-not-allowed")
    refused(g, "1 bid play", BidNotAllowedError, "bid-not-allowed")


def test_bid_during_play_is_not_allowed() -> None:
    message = refused(playing(), "1 bid pass", BidNotAllowedError, "bid-not-allowed")
    assert "no bidding now" in message


def test_unknown_bid_and_unknown_event_kind() -> None:
    refused(bidding(), "1 bid double", BadEventError, "bad-event")
    refused(playing(), "1 shout", BadEventError, "bad-event")


def test_wrong_phase_actions() -> None:
    refused(bidding(), "1 play AS", ActionNotAllowedError, "not-playing-now")
    refused(playing(), "shoe 7D", ActionNotAllowedError, "shoe-not-expected")
    refused(playing(), "0 confirm", ActionNotAllowedError, "not-allowed-now")
    short = Belot2(game_type="short")
    deal(short, SWEEP, SWEEP_TURNED, ["1 bid play"])
    short.apply(ev("1 play AS"))
    short.apply(ev("0 play 7S"))
    refused(short, "1 claim", ActionNotAllowedError, "claim")


def test_claim_without_a_trick_or_off_lead() -> None:
    g = playing()
    refused(g, "1 claim", ActionNotAllowedError, "claim")
    g.apply(ev("1 play AS"))
    refused(g, "0 claim", OutOfTurnError, "out-of-turn")


def test_a_finished_partie_accepts_nothing() -> None:
    from _belot2_helpers import SWEEP_PLAY_1_LEADS, plays

    g = Belot2(game_type="short")
    deal(g, SWEEP, SWEEP_TURNED, ["1 bid play"])
    plays(g, SWEEP_PLAY_1_LEADS)
    confirm(g)
    refused(g, "shoe 7S", ActionNotAllowedError, "game-over")


def test_confirm_needs_a_seat() -> None:
    from _belot2_helpers import SWEEP_PLAY_1_LEADS, plays

    g = playing()
    plays(g, SWEEP_PLAY_1_LEADS)
    refused(g, "confirm", BadEventError, "bad-event")


def test_card_events_take_no_words() -> None:
    refused(playing(), "1 play AS loudly", BadEventError, "bad-event")


def test_claim_bella_and_confirm_take_no_cards_or_words() -> None:
    from _belot2_helpers import plays

    g = playing()
    plays(g, "1 AS 0 7S")
    refused(g, "1 claim AS", BadEventError, "bad-event")
    refused(g, "1 claim now", BadEventError, "bad-event")
    refused(g, "1 bella loudly", BadEventError, "bad-event")
    g.apply(ev("1 claim"))
    refused(g, "0 confirm 7H", BadEventError, "bad-event")
