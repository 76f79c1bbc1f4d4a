"""Joker: тузование, the 24-deal structure, the deal protocol from the shoe, trump, bids (RULES.md §3)."""

from __future__ import annotations

import random

import pytest
from _joker_kit import bid, deal, new, shoe_order, skip_to_deal

from engine.cards import card
from engine.errors import ActionNotAllowedError, BidNotAllowedError
from engine.events import Event, ev, shoe
from engine.joker import DEAL_SIZES, Joker
from engine.playout import play_out


def test_ace_draw_gives_the_first_deal_to_whoever_gets_the_first_ace() -> None:
    g = Joker()
    assert g.phase == "ace_draw" and g.expects_shoe and g.to_act() is None
    # Face up, one each from seat 0 clockwise: 7H→0, KD→1, BJ→2 (a joker is no ace), AS→3.
    for code in ("7H", "KD", "BJ", "AS"):
        g.apply(shoe(code))
    assert g.dealer == 3 and g.phase == "deal"
    assert g.describe()["ace_draw"] == [{"seat": 0, "card": "7H"}, {"seat": 1, "card": "KD"},
                                        {"seat": 2, "card": "BJ"}, {"seat": 3, "card": "AS"}]
    # The pack is gathered again: the same ace may come out in the first deal, to the dealer's
    # left (seat 0) first.
    g.apply(shoe("AS"))
    assert g.hand(0) == [card("AS")]


def test_ace_draw_goes_round_more_than_once_and_can_start_at_another_seat() -> None:
    g = Joker(ace_draw_first_seat=2)
    for code in ("7H", "8H", "9H", "TH", "JH", "AC"):  # seats 2 3 0 1 2 3
        g.apply(shoe(code))
    assert g.dealer == 3


def test_ace_draw_has_no_centre_card_by_default_unlike_the_seed_which_sets_one_aside() -> None:
    # RULES.md only says "deal face up until someone gets an ace"; the seed's centre card is a setting.
    plain = Joker()
    plain.apply(shoe("AD"))
    assert plain.dealer == 0
    seed_way = Joker(ace_draw_center_card=True)
    seed_way.apply(shoe("AD"))  # to the centre: it counts for nobody
    assert seed_way.dealer == -1 and seed_way.phase == "ace_draw"
    seed_way.apply(shoe("7C"))  # seat 0
    seed_way.apply(shoe("AH"))  # seat 1
    assert seed_way.dealer == 1


def test_deal_sizes_and_dealer_rotation_over_the_whole_partie() -> None:
    assert DEAL_SIZES == (1, 2, 3, 4, 5, 6, 7, 8, 9, 9, 9, 9, 8, 7, 6, 5, 4, 3, 2, 1, 9, 9, 9, 9)
    g = play_out(new(first_dealer=2), random.Random(3))
    assert g.is_over and g.to_act() is None and g.legal_actions() == []
    assert [r[0] for r in g.results] == list(DEAL_SIZES)
    assert [r[1] for r in g.results] == [(2 + d) % 4 for d in range(24)]
    sheet = g.score_sheet()
    assert len(sheet.deals) == 24 and sheet.finished
    with pytest.raises(ActionNotAllowedError):
        g.apply(shoe("7H"))


def test_cards_go_one_at_a_time_clockwise_from_the_dealers_left_then_one_is_turned() -> None:
    g = skip_to_deal(new(), 3)  # 3 cards each; dealer of deal 3 is seat 2
    assert g.dealer == 2 and g.n == 3
    for code in ["7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH", "6D", "7D", "8D", "9D"]:
        g.apply(shoe(code))
    # k-th card to seat (2 + 1 + k) % 4: seat 3 gets 7H JH 6D, seat 0 8H QH 7D, seat 1 9H KH 8D,
    # seat 2 TH AH 9D.
    assert [c.code for c in g.hand(3)] == ["6D", "7H", "JH"]
    assert [c.code for c in g.hand(0)] == ["7D", "8H", "QH"]
    assert [c.code for c in g.hand(2)] == ["9D", "TH", "AH"]
    assert g.phase == "deal" and g.expects_shoe  # the turned card is still to come
    g.apply(shoe("QS"))
    assert g.describe()["trump"] == "S" and g.describe()["trump_card"] == "QS"
    assert g.phase == "bid" and g.to_act() == 3  # the dealer's left bids first
    with pytest.raises(ActionNotAllowedError):
        g.apply(shoe("KS"))  # nothing more is due from the shoe


def test_a_turned_joker_means_no_trump() -> None:
    g = new()
    deal(g, ["7H", "8H", "9H", "TH"], turned="RJ")
    assert g.trump == -1 and g.describe()["trump"] == "none"


def test_nine_card_deal_left_of_dealer_names_trump_after_three_cards() -> None:
    g = skip_to_deal(new(), 9)  # deal 9: dealer seat 0, the chooser is seat 1
    assert g.n == 9 and g.left == 1
    order = shoe_order(g, ["6H 7H 8H 9H TH JH QH KH AH", "6D 7D 8D 9D TD JD QD KD AD",
                           "7C 8C 9C TC JC QC KC AC BJ", "7S 8S 9S TS JS QS KS AS RJ"])
    for code in order[:8]:
        g.apply(shoe(code))
    # Seat 1 has seen two cards: too early.
    with pytest.raises(ActionNotAllowedError) as exc:
        g.apply(ev("1 trump H"))
    assert exc.value.rule == "trump-too-early"
    g.apply(shoe(order[8]))  # seat 1's third card
    assert not g.expects_shoe and g.to_act() == 1
    assert set(g.legal_actions(1)) == {Event("trump", 1, (), w) for w in ("C", "D", "H", "S", "none")}
    # The dealer may go on dealing meanwhile (cards 10–12 go to seats 2, 3, 0).
    assert shoe(order[9]) in g.legal_actions()
    for code in order[9:12]:
        g.apply(shoe(code))
    g.apply(ev("1 trump D"))
    for code in order[12:]:
        g.apply(shoe(code))
    assert g.trump == 1 and g.describe()["trump"] == "D" and g.trump_how == "named"
    assert g.phase == "bid" and g.to_act() == 1 and g.trump_card == -1


def test_nine_card_deal_is_no_trump_once_the_chooser_sees_a_fourth_card() -> None:
    g = skip_to_deal(new(), 10)  # deal 10: dealer seat 1, chooser seat 2
    for code in ["6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH", "6D", "7D", "8D"]:
        g.apply(shoe(code))
    assert g.to_act() == 2  # 12 cards out: the chooser still holds three
    g.apply(shoe("9D"))  # the 13th card is the chooser's fourth
    assert g.trump == -1 and g.trump_how == "fourth card seen"
    with pytest.raises(ActionNotAllowedError) as exc:
        g.apply(ev("2 trump H"))
    assert exc.value.rule == "trump-settled"
    # "none" may also be named on purpose
    g2 = skip_to_deal(new(), 11)
    for code in ["6H", "7H", "8H", "9H", "TH", "JH", "QH", "KH", "AH"]:
        g2.apply(shoe(code))
    g2.apply(ev(f"{g2.left} trump none"))
    assert g2.trump == -1 and g2.trump_how == "named"


def test_bids_go_clockwise_from_the_dealers_left_and_the_first_bidder_leads() -> None:
    g = skip_to_deal(new(), 2)  # dealer seat 1
    deal(g, ["7H 8H", "9H TH", "JH QH", "KH AH"], turned="7S")
    assert g.to_act() == 2
    bid(g, [2, 0, 1, 0])  # seats 2, 3, 0 then the dealer 1 (total 3 ≠ 2)
    assert g.bids == [2, 0, 1, 0] and g.phase == "play" and g.to_act() == 2


def test_dealer_is_forced_off_the_total_that_equals_the_cards_dealt() -> None:
    g = skip_to_deal(new(), 3)  # dealer seat 2, N = 3
    deal(g, ["7H 8H 9H", "TH JH QH", "KH AH 6D", "7D 8D 9D"], turned="7S")
    for text in ("3 bid 1", "0 bid 1", "1 bid 0"):
        g.apply(ev(text))
    # The others bid 1 + 1 + 0 = 2; the dealer may not bid 3 − 2 = 1.
    before, log = g.snapshot(), list(g.raw_log)
    with pytest.raises(BidNotAllowedError) as exc:
        g.apply(ev("2 bid 1"))
    assert exc.value.rule == "dealer-total" and "3" in str(exc.value)
    assert g.snapshot() == before and g.raw_log == log
    assert [e.arg for e in g.legal_actions(2)] == ["0", "2", "3"]
    assert g.describe()["banned_bid"] == 1
    g.apply(ev("2 bid 0"))  # «пихаловка»: total 2 ≠ 3
    assert g.phase == "play"


def test_dealer_is_unrestricted_when_the_others_already_bid_more_than_the_cards() -> None:
    g = new()  # deal 1: N = 1, dealer seat 0
    deal(g, ["7H", "8H", "9H", "TH"], turned="7S")
    for text in ("1 bid 1", "2 bid 1", "3 bid 0"):
        g.apply(ev(text))
    assert [e.arg for e in g.legal_actions(0)] == ["0", "1"]


def test_a_non_dealer_may_bid_anything_up_to_the_cards_dealt() -> None:
    g = new()
    deal(g, ["7H", "8H", "9H", "TH"], turned="7S")
    assert [e.arg for e in g.legal_actions(1)] == ["0", "1"]
    with pytest.raises(BidNotAllowedError):
        g.apply(ev("1 bid 2"))
