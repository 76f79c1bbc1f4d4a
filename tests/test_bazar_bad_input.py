"""Bad input to Bazar-Belot: each is refused with a clear error and changes nothing."""

from __future__ import annotations

from _bazar_kit import SUITS_DEAL, deal, new_game, run, shoe_events
from _refusal import refused as check_refused

from engine.bazar import BazarBelot
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
from engine.events import Event


def refused(game: BazarBelot, text: str | Event, error: type[EngineError], rule: str | None = None,
            words: str = "") -> EngineError:
    return check_refused(game, text, error, rule=rule, words=words, via=(game.record,))


def auction() -> BazarBelot:
    game = new_game()
    deal(game, SUITS_DEAL)
    return game


def test_bid_below_the_minimum() -> None:
    game = auction()
    refused(game, "1 bid 7:H", BidNotAllowedError, "bid-below-minimum", "N ≥ 8")
    refused(game, "1 bid 19:VK", BidNotAllowedError, "bid-below-minimum", "N ≥ 20")


def test_bid_not_senior_and_unknown_bid() -> None:
    game = auction()
    run(game, "1 bid 10:H")
    refused(game, "2 bid 10:S", BidNotAllowedError, "bid-not-senior")
    refused(game, "2 bid 9:BK", BidNotAllowedError, "bid-not-senior")
    refused(game, "2 bid ten hearts", BadEventError, "bad-bid")
    refused(game, "2 bid 41:H", BidNotAllowedError, "bid-above-cap")


def test_contra_by_the_wrong_pair() -> None:
    game = auction()
    run(game, "1 bid 8:H; 2 bid pass")
    # Seat 3 is the bidder's partner: Контра is the opponents' word.
    refused(game, "3 bid contra", BidNotAllowedError, "contra-wrong-pair", "seat 1")


def test_declaration_of_cards_not_held() -> None:
    game = auction()
    run(game, "1 bid 8:D; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    refused(game, "1 declare 7H 8H 9H", CardNotInHandError, "card-not-in-hand", "7H 8H 9H")
    refused(game, "1 declare 7D 8D 9C", CardNotInHandError, "card-not-in-hand", "9C")


def test_unknown_card() -> None:
    game = new_game()
    refused(game, "shoe 1H", UnknownCardError, "unknown-card")
    refused(game, "shoe 6H", DuplicateCardError, "card-not-in-deck", "32-card")
    refused(game, "2 shoe 7H", BadEventError, "bad-event", "without a seat")
    deal(game, SUITS_DEAL)
    run(game, "1 bid 8:D; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    refused(game, "1 play XD", UnknownCardError, "unknown-card")


def test_card_dealt_twice() -> None:
    game = new_game()
    events = shoe_events(SUITS_DEAL, 0)
    for e in events[:10]:
        game.apply(e)
    refused(game, events[3], DuplicateCardError, "card-dealt-twice", "already came out")


def test_out_of_turn() -> None:
    game = auction()
    refused(game, "2 bid pass", OutOfTurnError, "out-of-turn", "seat 1 is to speak")
    refused(game, "2 bid 8:H", OutOfTurnError, "out-of-turn")
    run(game, "1 bid 8:D; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    refused(game, "2 play 7H", OutOfTurnError, "out-of-turn", "seat 1 is to play")
    refused(game, "2 declare 7H 8H 9H", OutOfTurnError, "out-of-turn")


def test_card_not_in_hand_and_wrong_phase() -> None:
    game = auction()
    refused(game, "1 play 7D", ActionNotAllowedError, "not-play")
    refused(game, "shoe 7D", ActionNotAllowedError, "shoe-not-expected")
    run(game, "1 bid 8:D; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    refused(game, "1 play 7H", CardNotInHandError, "card-not-in-hand")
    refused(game, "1 play 7D foo", BadEventError)
    refused(game, "1 play 7D bela", ActionNotAllowedError, "bela")
    refused(game, "1 jump", BadEventError)
    refused(game, "bid pass", BadEventError, "bad-seat")
    refused(game, "7 bid pass", BadEventError, "bad-seat")
    refused(game, "0 confirm", ActionNotAllowedError, "confirm")
    refused(game, "0 claim", ActionNotAllowedError, "claim")


def test_kapo_hand_partner_out_of_play_cannot_act() -> None:
    game = auction()
    run(game, "1 bid hand:D; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    run(game, "1 play 7D; 2 play 7H")
    refused(game, "3 play 7S", OutOfTurnError, "out-of-turn", "out of play")
