"""The Bazar-Belot auction state machine (RULES.md §4 «Auction»)."""

from __future__ import annotations

import pytest
from _bazar_kit import SUITS_DEAL, args, deal, new_game, run

from engine.bazar import BazarBelot
from engine.errors import ActionNotAllowedError, BidNotAllowedError, OutOfTurnError


def dealt(**options: object) -> BazarBelot:
    game = new_game(**options)
    deal(game, SUITS_DEAL)
    return game


def test_first_dealer_by_lot_event_then_the_deal_passes_clockwise() -> None:
    game = BazarBelot()
    assert game.phase == "lot" and not game.expects_shoe and game.to_act() is None
    assert [str(e) for e in game.legal_actions()] == [f"{s} dealer" for s in range(4)]
    run(game, "2 dealer")
    assert game.dealer == 2 and game.expects_shoe
    with pytest.raises(ActionNotAllowedError):
        run(game, "1 dealer")
    deal(game, SUITS_DEAL)
    assert game.to_act() == 3  # the dealer's left speaks first
    run(game, "3 bid pass; 0 bid pass; 1 bid pass; 2 bid pass")
    assert game.dealer == 3 and game.expects_shoe  # four passes: void, the next seat deals
    assert game.score_sheet().deals[0].notes == ["all four passed: redeal"]


def test_four_passes_same_dealer_setting() -> None:
    game = dealt(four_passes="same_dealer")
    run(game, "1 bid pass; 2 bid pass; 3 bid pass; 0 bid pass")
    assert game.dealer == 0 and game.expects_shoe


def test_deal_pattern_3_2_3_puts_the_packets_where_they_belong() -> None:
    game = new_game(deal_pattern="3+2+3")
    order = "7D 8D 9D 7H 8H 9H 7S 8S 9S 7C 8C 9C TD JD TH JH TS JS TC JC QD KD AD QH KH AH QS KS AS QC KC AC"
    run(game, *(f"shoe {c}" for c in order.split()))
    assert [" ".join(c.code for c in game.hand(s)) for s in range(4)] == [
        "7C 8C 9C TC JC QC KC AC", "7D 8D 9D TD JD QD KD AD",
        "7H 8H 9H TH JH QH KH AH", "7S 8S 9S TS JS QS KS AS"]


def test_minimums_and_seniority() -> None:
    game = dealt()
    first = args(game, 1)
    assert "8:H" in first and "8:BK" in first and "20:VK" in first
    assert "7:H" not in first and "19:VK" not in first
    run(game, "1 bid 12:S")
    # Suits are not ranked: 12 in another suit is not senior; 13 in any game is; ВК needs 20.
    second = args(game, 2)
    assert "12:H" not in second and "13:H" in second and "13:BK" in second
    assert "20:VK" in second and "13:VK" not in second
    assert "kapo:C" in second and "hand:C" in second
    run(game, "2 bid kapo:C")
    third = args(game, 3)
    # Any Капо beats any normal bid; a Капо needs a larger K to beat a Капо; Капо с руки beats
    # any Капо (seat 3's partner, seat 1, has spoken, so seat 3 may not say it).
    assert not any(a[0].isdigit() for a in third)
    assert "kapo:VK" not in third and "kapo:VK+1" in third and "kapo:H+1" in third
    assert "hand:C" not in third
    assert "contra" in third
    run(game, "3 bid kapo:H+1")
    # Seat 0's partner (seat 2) has spoken: no Капо с руки for seat 0 either.
    assert "hand:S" not in args(game, 0)
    assert "kapo:S+1" not in args(game, 0) and "kapo:S+2" in args(game, 0)


def test_kapo_s_ruki_out_of_turn_before_the_partner_speaks() -> None:
    game = dealt()
    run(game, "1 bid 8:H")
    # Seat 0 is not to speak, but his partner (seat 2) has not spoken: «Капо с руки» now.
    assert "0 bid hand:C" in {str(e) for e in game.legal_actions()}
    with pytest.raises(OutOfTurnError):
        run(game, "0 bid 9:C")
    run(game, "0 bid hand:C")
    assert game.to_act() == 1  # the word goes on from the bidder
    run(game, "1 bid pass")
    with pytest.raises(BidNotAllowedError):
        run(game, "2 bid hand:H+1")  # seat 2's partner, seat 0, has spoken
    run(game, "2 bid pass; 3 bid pass; 0 bid pass")
    assert game.phase == "play" and game.out == 2 and game.to_act() == 0
    assert game.legal_actions(2) == []


def test_kapo_s_ruki_refused_after_the_partner_passed() -> None:
    game = dealt()
    run(game, "1 bid pass")
    with pytest.raises(BidNotAllowedError) as err:
        run(game, "3 bid hand:S")
    assert err.value.rule == "kapo-hand"


def test_three_passes_then_the_last_bidder_raises_in_the_same_game() -> None:
    game = dealt()
    run(game, "1 bid 8:H; 2 bid pass; 3 bid pass; 0 bid pass")
    # Passes by 2, 3, 0: pair 0 & 2 made two of them and may only pass or say Контра. The word
    # is back with the last bidder, seat 1.
    assert game.to_act() == 1 and game.muted == 0b01
    run(game, "1 bid 9:H")
    assert args(game, 2) == {"pass", "contra"}
    run(game, "2 bid pass")
    # The partner may only raise in hearts (incl. Капо ♥) or pass.
    partner = args(game, 3)
    assert "pass" in partner and "10:H" in partner and "kapo:H+3" in partner
    assert not {a for a in partner if a not in ("pass",) and not a.endswith(("H",)) and "H+" not in a}
    with pytest.raises(BidNotAllowedError) as err:
        run(game, "3 bid 10:S")
    assert err.value.rule == "raise-same-game"
    run(game, "3 bid pass")  # the partner's pass makes the raise final
    assert game.phase == "play" and game.contract_text() == "9 ♥ (seat 1)"


def test_three_passes_raise_then_partner_raises_and_bidder_pass_is_final() -> None:
    game = dealt()
    run(game, "1 bid 8:H; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid kapo:H")
    run(game, "2 bid pass; 3 bid kapo:H+1; 0 bid pass")
    assert args(game, 1) >= {"pass", "kapo:H+2"} and "kapo:S+2" not in args(game, 1)
    run(game, "1 bid pass")
    assert game.phase == "play" and game.contract_text() == "Капо ♥ + 1 (seat 3)"


def test_three_passes_then_the_last_bidder_bids_in_another_game() -> None:
    game = dealt()
    run(game, "1 bid 8:H; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid 9:S")
    assert game.locked == -1
    assert args(game, 2) == {"pass", "contra"}  # the opponents may only pass or say Контра
    run(game, "2 bid pass")
    assert "10:C" in args(game, 3)  # the partner bids freely
    run(game, "3 bid 10:C; 0 bid pass; 1 bid pass")
    with pytest.raises(BidNotAllowedError) as err:
        run(game, "2 bid 11:C")
    assert err.value.rule == "three-passes"
    run(game, "2 bid pass")  # passes by 0, 1, 2: the word is back with the last bidder, seat 3
    assert game.to_act() == 3
    run(game, "3 bid pass")
    assert game.phase == "play" and game.contract_text() == "10 ♣ (seat 3)"


def test_three_passes_before_any_bid_mute_the_pair_that_passed_twice() -> None:
    game = dealt()
    run(game, "1 bid pass; 2 bid pass; 3 bid pass")
    assert game.muted == 0b10  # seats 1 and 3
    run(game, "0 bid 8:C")
    assert args(game, 1) == {"pass", "contra"}
    run(game, "1 bid contra")
    assert game.contra_pending == [2, 0]
    run(game, "2 bid pass; 0 bid pass")
    assert game.contract_text() == "8 ♣ Контра (seat 0)"


def test_contra_ends_significant_bidding() -> None:
    game = dealt()
    run(game, "1 bid 8:H; 2 bid contra")
    with pytest.raises(BidNotAllowedError) as err:
        run(game, "3 bid 9:H")
    assert err.value.rule == "after-contra"
    with pytest.raises(OutOfTurnError):
        run(game, "1 bid pass")  # seat 3 answers first
    run(game, "3 bid pass; 1 bid pass")
    assert game.phase == "play" and game.contra == 1


def test_contra_after_passes_and_recontra_out_of_turn() -> None:
    game = dealt()
    run(game, "1 bid 8:H; 2 bid pass; 3 bid pass")
    run(game, "2 bid contra")  # out of turn (seat 0 to speak), no significant bid since 8 ♥
    assert game.contra_pending == [3, 1]
    run(game, "1 bid recontra")  # out of turn too: seat 3 had not answered yet
    assert game.phase == "play" and game.contra == 2


def test_recontra_without_contra_and_contra_without_bid_are_refused() -> None:
    game = dealt()
    for line in ("1 bid recontra", "1 bid contra"):
        with pytest.raises(BidNotAllowedError):
            run(game, line)


def test_no_auction_before_the_deal_or_during_play() -> None:
    game = new_game()
    with pytest.raises(ActionNotAllowedError):
        run(game, "1 bid pass")
    deal(game, SUITS_DEAL)
    run(game, "1 bid 8:D; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    with pytest.raises(ActionNotAllowedError):
        run(game, "2 bid pass")


def test_russian_bid_words_are_understood() -> None:
    game = dealt()
    run(game, "1 bid 8:H; 2 bid Контра; 3 bid пас; 1 bid Реконтра")
    assert game.contra == 2
