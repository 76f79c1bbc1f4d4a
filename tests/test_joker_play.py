"""Joker play: follow and trump duties, every joker mode, two jokers in one trick (RULES.md §3).

Each test deals deal 4 (4 cards each, dealer seat 3) from a stacked shoe, everyone bids 0, and
seat 0 (the dealer's left, first bidder) leads. Trick keys are worked out by hand in comments.
"""

from __future__ import annotations

from typing import Any

import pytest
from _joker_kit import bid, deal, new, plays, skip_to_deal

from engine.cards import card
from engine.errors import IllegalPlayError
from engine.events import Event, ev
from engine.joker import Joker


def table(hands: list[str], turned: str, **options: Any) -> Joker:
    g = skip_to_deal(new(**options), 4)
    assert g.dealer == 3 and g.n == 4
    deal(g, hands, turned=turned)
    bid(g, [0, 0, 0, 0])
    assert g.phase == "play" and g.to_act() == 0
    return g


def listed(g: Joker, seat: int) -> set[str]:
    return {f"{e.cards[0].code} {e.arg}".strip() for e in g.legal_actions(seat)}


# ----------------------------------------------------------------- plain duties

def test_must_follow_suit_and_a_revoke_is_recorded_with_its_rule() -> None:
    g = table(["KH 7D 8D 9D", "AH 7C 8C 9C", "TH TD JD QD", "JH TC JC QC"], turned="7S")
    g.apply(ev("0 play KH"))
    assert listed(g, 1) == {"AH"}
    with pytest.raises(IllegalPlayError) as exc:
        g.apply(ev("1 play 7C"))
    assert exc.value.rule == "follow-suit"
    verdict = g.record(ev("1 play 7C"))  # the table cannot refuse reality
    assert not verdict.legal and verdict.rule == "follow-suit" and "♥" in verdict.message
    assert g.fouls == [0, 1, 0, 0]


def test_void_must_trump_but_a_joker_is_not_a_trump() -> None:
    g = table(["KH 7D 8D 9D", "AS 7C 8C 9C", "BJ TD JD QD", "JH TC JC QC"], turned="7S")
    g.apply(ev("0 play KH"))
    # Seat 1 has no heart and holds the trump AS: only AS.
    assert listed(g, 1) == {"AS"}
    assert g.judge(ev("1 play 7C")).rule == "must-trump"
    g.apply(ev("1 play AS"))
    # Seat 2 has no heart and no trump: the joker does not count as one, so any card goes.
    assert listed(g, 2) == {"TD", "JD", "QD", "BJ high", "BJ low", "BJ nominal 6S", "BJ nominal 6C"}
    g.apply(ev("2 play TD"))
    g.apply(ev("3 play JH"))
    # Keys: KH 100+7, AS trump 500+8, TD 0 (off suit), JH 100+5 → seat 1 wins and leads.
    assert g.taken == [0, 1, 0, 0] and g.to_act() == 1


def test_highest_card_of_the_suit_led_wins_without_trump() -> None:
    g = table(["9H 7D 8D 9D", "JH 7C 8C 9C", "TH TD JD QD", "KD TC JC QC"], turned="RJ")
    plays(g, "0 play 9H", "1 play JH", "2 play TH", "3 play KD")
    assert g.taken == [0, 1, 0, 0]


# ----------------------------------------------------------------- jokers following

def test_a_joker_may_be_played_at_any_time_even_holding_the_suit_led() -> None:
    g = table(["KH 7D 8D 9D", "BJ AH 8C 9C", "TH TD JD QD", "JH TC JC QC"], turned="7S")
    g.apply(ev("0 play KH"))
    assert listed(g, 1) == {"AH", "BJ high", "BJ low"}  # as 6♠/6♣ it would not follow ♥
    assert g.judge(ev("1 play BJ nominal 6S")).rule == "follow-suit"


def test_both_jokers_taking_the_later_one_wins() -> None:
    g = table(["KH 7D 8D 9D", "BJ 7C 8C 9C", "AH TD JD QD", "RJ TC JC QC"], turned="7S")
    plays(g, "0 play KH", "1 play BJ high", "2 play AH", "3 play RJ high")
    # Keys: KH 107, BJ taking 1000+1, AH 108, RJ taking 1000+3 → seat 3.
    assert g.taken == [0, 0, 0, 1] and g.to_act() == 3
    assert g.describe()["table"] == []


def test_both_jokers_taking_then_discarding_the_taking_one_wins() -> None:
    g = table(["KH 7D 8D 9D", "BJ 7C 8C 9C", "AH TD JD QD", "RJ TC JC QC"], turned="7S")
    plays(g, "0 play KH", "1 play BJ high", "2 play AH", "3 play RJ low")
    # BJ taking 1001 beats AH 108; the discarding RJ (−1) loses to every card.
    assert g.taken == [0, 1, 0, 0]


def test_a_discarded_joker_loses_to_every_card() -> None:
    g = table(["7H 7D 8D 9D", "BJ 7C 8S 9S", "8C TD JD QD", "9C TC JC QC"], turned="RJ")
    # No trump. 8C and 9C are not of the suit led: they score 0, the joker −1; 7H (100) wins.
    plays(g, "0 play 7H", "1 play BJ low", "2 play 8C", "3 play 9C")
    assert g.taken == [1, 0, 0, 0]


# ----------------------------------------------------------------- jokers on lead

def test_joker_on_lead_offers_want_and_give_beyond_the_seed_and_the_nominal_sixes() -> None:
    g = table(["BJ 7D 8D 9D", "AH 7C 8C 9C", "TH TD JD QD", "JH TC JC QC"], turned="7S")
    jokers = {x for x in listed(g, 0) if x.startswith("BJ")}
    assert jokers == {f"BJ {m} {s}" for m in ("want", "give") for s in "CDHS"} | {
        "BJ nominal 6S", "BJ nominal 6C"}


def test_want_others_play_their_highest_of_the_suit_and_a_later_taking_joker_wins() -> None:
    g = table(["BJ 7H 8H 9H", "7D KD AD 7C", "RJ 8D 9D TD", "JD QD 8C 9C"], turned="7S")
    g.apply(ev("0 play BJ want D"))
    assert listed(g, 1) == {"AD"}
    v = g.judge(ev("1 play KD"))
    assert not v.legal and v.rule == "want-highest" and "A♦" in v.message
    g.apply(ev("1 play AD"))
    # As 6♣ the joker would not be the highest diamond: only high or low.
    assert listed(g, 2) == {"TD", "RJ high", "RJ low"}
    plays(g, "2 play RJ high", "3 play QD")
    # Keys: leading joker 1000, AD 108, RJ taking 1000+2, QD 106 → seat 2 (a later joker takes).
    assert g.taken == [0, 0, 1, 0] and g.to_act() == 2


def test_want_joker_wins_over_trumps_when_no_later_joker_takes() -> None:
    g = table(["BJ 7H 8H 9H", "AS 7C 8C 9C", "8D 9D TD JD", "RJ QC KC AC"], turned="7S")
    g.apply(ev("0 play BJ want D"))
    assert listed(g, 1) == {"AS"}  # no diamond: a trump
    g.apply(ev("1 play AS"))
    assert listed(g, 2) == {"JD"}  # the highest diamond
    plays(g, "2 play JD", "3 play RJ low")
    # Keys: BJ 1000, AS 508, JD 105, RJ −1 → seat 0.
    assert g.taken == [1, 0, 0, 0] and g.to_act() == 0


def test_give_joker_is_the_lowest_of_its_suit() -> None:
    g = table(["RJ 7D 8D 9D", "9H 7C 8C 9C", "BJ TD JD QD", "7H TC JC QC"], turned="7S")
    g.apply(ev("0 play RJ give H"))
    assert listed(g, 1) == {"9H"}  # follow hearts, any heart
    plays(g, "1 play 9H", "2 play BJ low", "3 play 7H")
    # Keys: RJ as the lowest heart 99, 9H 103, BJ −1, 7H 101 → seat 1.
    assert g.taken == [0, 1, 0, 0]


def test_give_joker_then_a_taking_joker_the_taking_one_wins() -> None:
    g = table(["RJ 7D 8D 9D", "9H 7C 8C 9C", "BJ TD JD QD", "7H TC JC QC"], turned="7S")
    plays(g, "0 play RJ give H", "1 play 9H")
    # Seat 2: no heart, no trump: anything, the joker in every mode (as 6♠ it would trump).
    assert listed(g, 2) == {"TD", "JD", "QD", "BJ high", "BJ low", "BJ nominal 6S", "BJ nominal 6C"}
    plays(g, "2 play BJ high", "3 play 7H")
    # Keys: RJ lowest heart 99, 9H 103, BJ taking 1000+2, 7H 101 → seat 2.
    assert g.taken == [0, 0, 1, 0] and g.to_act() == 2


def test_give_joker_takes_when_nobody_follows_or_trumps() -> None:
    g = table(["RJ 7D 8D 9D", "7C 8C 9C TC", "TD JD QD KD", "JC QC KC AC"], turned="7S")
    plays(g, "0 play RJ give H", "1 play 7C", "2 play TD", "3 play AC")
    assert g.taken == [1, 0, 0, 0]


def test_give_joker_loses_to_a_trump() -> None:
    g = table(["RJ 7D 8D 9D", "8S 8C 9C TC", "TD JD QD KD", "JC QC KC AC"], turned="7S")
    plays(g, "0 play RJ give H", "1 play 8S", "2 play TD", "3 play AC")
    assert g.taken == [0, 1, 0, 0]


# ----------------------------------------------------------------- «по номиналу»

def test_nominal_joker_leads_the_six_it_replaced() -> None:
    g = table(["BJ 7D 8D 9D", "7S 7C 8C 9C", "8H TD JD QD", "9S TC JC QC"], turned="7H")
    g.apply(ev("0 play BJ nominal 6S"))
    assert listed(g, 1) == {"7S"}
    # Seat 2 has no spade and holds the trump 8H: must trump.
    g.apply(ev("1 play 7S"))
    assert listed(g, 2) == {"8H"}
    plays(g, "2 play 8H", "3 play 9S")
    # Keys: joker as 6♠ 100, 7S 101, 8H trump 502, 9S 103 → seat 2.
    assert g.taken == [0, 0, 1, 0]


def test_nominal_joker_as_the_six_of_trumps_is_a_trump() -> None:
    g = table(["KH 7D 8D 9D", "BJ 7C 8C 9C", "AH TD JD QD", "JH TC JC QC"], turned="7S")
    g.apply(ev("0 play KH"))
    plays(g, "1 play BJ nominal 6S", "2 play AH", "3 play JH")
    # Joker as 6♠ with spades trump: 500 beats AH 108 → seat 1.
    assert g.taken == [0, 1, 0, 0]


def test_nominal_joker_as_an_off_suit_six_loses() -> None:
    g = table(["KH 7D 8D 9D", "BJ 7C 8C 9C", "AH TD JD QD", "JH TC JC QC"], turned="7S")
    plays(g, "0 play KH", "1 play BJ nominal 6C", "2 play AH", "3 play JH")
    assert g.taken == [0, 0, 1, 0]


# ----------------------------------------------------------------- lead options off

def test_without_lead_modes_a_led_joker_is_high_or_low_and_the_first_plain_card_sets_the_suit() -> None:
    g = table(["BJ 7D 8D 9D", "7C 8H 9H TH", "8C JH QD KD", "AD TC JC QC"], turned="7S",
              joker_lead_modes=False)
    assert {x for x in listed(g, 0) if x.startswith("BJ")} == {
        "BJ high", "BJ low", "BJ nominal 6S", "BJ nominal 6C"}
    g.apply(ev("0 play BJ high"))
    assert listed(g, 1) == {"7C", "8H", "9H", "TH"}  # no suit yet: anything
    g.apply(ev("1 play 7C"))
    assert listed(g, 2) == {"8C"}  # clubs were set by the first plain card
    plays(g, "2 play 8C", "3 play TC")
    assert g.taken == [1, 0, 0, 0]


def test_without_lead_modes_a_led_low_joker_gives_the_trick_to_the_suit() -> None:
    g = table(["BJ 7D 8D 9D", "7C 8H 9H TH", "8C JH QD KD", "AD TC JC QC"], turned="7S",
              joker_lead_modes=False)
    plays(g, "0 play BJ low", "1 play 7C", "2 play 8C", "3 play TC")
    assert g.taken == [0, 0, 0, 1]


def test_joker_mode_arguments_accept_russian_words() -> None:
    g = table(["BJ 7D 8D 9D", "7C 8H 9H TH", "8C JH QD KD", "AD TC JC QC"], turned="7S")
    g.apply(Event("play", 0, (card("BJ"),), "хочу d"))
    assert g.describe()["led"] == "D" and g.describe()["table"] == [
        {"seat": 0, "card": "BJ", "mode": "want D"}]


# ----------------------------------------------------------------- a trump led (review fixes)

def test_a_trump_led_must_be_followed_with_a_trump() -> None:
    # RULES.md §3 "Follow suit": a led trump is the suit led, so a seat holding trumps must play one.
    g = table(["KS 7D 8D 9D", "AS 7C 8C 9C", "TH TD JD QD", "9S TC JC QC"], turned="7S")
    g.apply(ev("0 play KS"))
    assert g.describe()["led"] == "S"
    assert listed(g, 1) == {"AS"}
    v = g.judge(ev("1 play 7C"))
    assert not v.legal and v.rule == "follow-suit" and "♠" in v.message
    g.apply(ev("1 play AS"))
    assert listed(g, 2) == {"TH", "TD", "JD", "QD"}  # no spade: any card
    g.apply(ev("2 play TD"))
    assert listed(g, 3) == {"9S"}
    g.apply(ev("3 play 9S"))
    # Keys: KS trump 500+7, AS 500+8, TD 0, 9S 500+3 → seat 1.
    assert g.taken == [0, 1, 0, 0]


def test_nominal_six_of_trumps_led_must_be_followed_with_a_trump() -> None:
    g = table(["BJ 7D 8D 9D", "AS 7C 8C 9C", "TH TD JD QD", "9S TC JC QC"], turned="7S")
    g.apply(ev("0 play BJ nominal 6S"))
    # The joker stands for 6♠, a trump, and trump is the suit led: seat 1 must play its spade.
    assert listed(g, 1) == {"AS"}
    assert g.judge(ev("1 play 8C")).rule == "follow-suit"


def test_without_lead_modes_a_trump_as_the_first_plain_card_sets_trump_as_the_suit() -> None:
    g = table(["BJ 7D 8D 9D", "8S 8H 9H TH", "9S JH QD KD", "AD TC JC QC"], turned="7S",
              joker_lead_modes=False)
    plays(g, "0 play BJ high", "1 play 8S")
    assert listed(g, 2) == {"9S"}  # spades were set by the first plain card, a trump
    plays(g, "2 play 9S", "3 play AD")
    # Keys: BJ taking 1000, 8S 502, 9S 503, AD 0 → seat 0.
    assert g.taken == [1, 0, 0, 0]
