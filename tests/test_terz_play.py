"""Terz deal protocol, refills, the trump seven, trick play and its duties (RULES.md §5), and the
bad input every game must refuse without touching the state or the log."""

from __future__ import annotations

import pytest
from _refusal import untouched
from _terz_kit import (
    B0,
    B1,
    FIRST_SEVEN,
    FOUL_FINISH,
    LAST_NINE,
    SEAT0,
    SEAT1,
    TURNED,
    deal,
    game_b,
    hand,
    run,
)

from engine.cards import card, cards
from engine.errors import (
    ActionNotAllowedError,
    BadEventError,
    CardNotInHandError,
    DuplicateCardError,
    IllegalPlayError,
    OutOfTurnError,
    UnknownCardError,
)
from engine.events import Event, ev, shoe
from engine.terz import Terz

ORDER_32 = [c.code for c in cards(
    "7C 8C 9C TC JC QC KC AC 7D 8D 9D TD JD QD KD AD 7H 8H 9H TH JH QH KH AH 7S 8S 9S TS JS QS KS AS")]


def worked_through(tricks: int) -> Terz:
    """The worked deal of test_terz_scoring after ``tricks`` tricks from trick 8 on."""
    game = Terz()
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, *FIRST_SEVEN, *LAST_NINE[:3 + 2 * tricks])
    return game


# ----------------------------------------------------------------------------- the deal


def test_deal_protocol_packets_of_three_dealer_last_then_the_turned_trump() -> None:
    game = Terz()                    # first dealer seat 0: seat 1 gets the first packet
    for n, code in enumerate(ORDER_32[:18], start=1):
        game.apply(shoe(code))
        assert game.expects_shoe and game.to_act() is None
        packet = (n - 1) // 3        # cards 1-3, 7-9, 13-15 to seat 1; 4-6, 10-12, 16-18 to seat 0
        seat = 1 if packet % 2 == 0 else 0
        assert code in hand(game, seat)
    assert hand(game, 1) == set(ORDER_32[0:3] + ORDER_32[6:9] + ORDER_32[12:15])
    assert hand(game, 0) == set(ORDER_32[3:6] + ORDER_32[9:12] + ORDER_32[15:18])
    game.apply(shoe(ORDER_32[18]))   # card 19 is turned: 9♥, hearts are trumps
    d = game.describe()
    assert d["trump"] == "H" and d["trump_card"] == "9H" and d["talon"] == 14   # 13 in the shoe + 9♥
    assert d["hand_sizes"] == [9, 9] and not game.expects_shoe
    assert game.to_act() == 1        # the dealer's opponent leads
    assert len(game.unseen_cards()) == 13


def test_deal_protocol_settings_packet_and_who_receives_first() -> None:
    game = Terz(deal_packet=1, dealer_last=False, first_dealer=1, leader="dealer")
    for code in ORDER_32[:19]:
        game.apply(shoe(code))
    # dealer seat 1 receives first, one card at a time: cards 1, 3, 5 … to seat 1
    assert hand(game, 1) == set(ORDER_32[0:18:2]) and hand(game, 0) == set(ORDER_32[1:18:2])
    assert game.to_act() == 1        # leader="dealer"


def test_six_card_hands_setting() -> None:
    game = Terz(hand_size=6)
    for code in ORDER_32[:13]:
        game.apply(shoe(code))
    assert game.describe()["hand_sizes"] == [6, 6] and game.talon == 32 - 12


def test_settings_must_fit_together() -> None:
    from engine.errors import SettingsError
    with pytest.raises(SettingsError):
        Terz(hand_size=9, deal_packet=2)
    with pytest.raises(SettingsError):
        Terz(colour="red")


def test_refill_trick_winner_first_and_the_turned_card_drawn_last() -> None:
    game = Terz()
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, "1 play AC", "0 play 7C")        # seat 1 wins trick 1 (free play: no declarations)
    assert game.expects_shoe and game.to_act() is None and game.legal_actions(1) == []
    run(game, "shoe KS")
    assert "KS" in hand(game, 1) and game.expects_shoe
    run(game, "shoe 9D")
    assert "9D" in hand(game, 0) and game.describe()["hand_sizes"] == [9, 9]
    assert game.to_act() == 1 and game.talon == 12
    # the last refill: seat 1 (winner) draws the last shoe card, seat 0 takes the turned 7♠
    game = Terz()
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, *FIRST_SEVEN)
    assert "QH" in hand(game, 1) and "7S" in hand(game, 0)
    assert game.describe()["trump_card"] is None and game.talon == 0 and game.unseen_cards() == []


def test_refill_loser_first_setting() -> None:
    game = Terz(winner_draws_first=False)
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, "1 play AC", "0 play 7C", "shoe KS")
    assert "KS" in hand(game, 0)


# ----------------------------------------------------------------------------- the trump seven


def test_the_trump_seven_replaces_the_turned_card_at_any_time() -> None:
    game = game_b()                             # 10♦ turned; seat 0 holds 7♦; seat 1 is to act
    assert Event("swap", 0, (card("7D"),)) in game.legal_actions()
    run(game, "0 swap 7D")                      # out of turn is fine: «в любой момент»
    assert "TD" in hand(game, 0) and "7D" not in hand(game, 0)
    assert game.describe()["trump_card"] == "7D" and game.to_act() == 1
    with untouched(game), pytest.raises(CardNotInHandError):
        game.apply(ev("0 swap 7D"))             # it lies beside the talon now


def test_only_the_trump_seven_swaps_and_only_while_the_turned_card_is_there() -> None:
    game = game_b()
    with untouched(game), pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("0 swap 8D"))
    assert exc.value.rule == "swap-seven-only"
    game = Terz()
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, *FIRST_SEVEN)                     # the turned 7♠ went to seat 0
    with untouched(game), pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("0 swap 7S"))
    assert exc.value.rule == "swap-gone"


def test_the_swapped_seven_is_what_the_last_drawer_takes() -> None:
    # The worked deal with 8♠ turned and seat 0 holding 7♠ instead of К♣ (К♣ comes from the talon).
    game = Terz()
    deal(game, SEAT1, SEAT0.replace("KC", "7S"), "8S")
    run(game, "0 swap 7S")
    assert "8S" in hand(game, 0) and game.describe()["trump_card"] == "7S"
    run(game, *[line.replace("shoe 8S", "shoe KC") for line in FIRST_SEVEN])
    assert "7S" in hand(game, 0) and "8S" in hand(game, 0) and game.talon == 0


# ----------------------------------------------------------------------------- trick play


def test_free_play_while_the_talon_lasts() -> None:
    game = Terz()
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, "1 play AC")
    # seat 0 holds 7♣ and К♣ but may put any card on the lead while the talon lasts
    assert game.is_legal(ev("0 play 7H")) and game.is_legal(ev("0 play KD"))
    assert len([e for e in game.legal_actions(0) if e.kind == "play"]) == 9


def test_after_the_talon_follow_suit() -> None:
    game = worked_through(1)                    # trick 9: seat 0 leads 10♣, seat 1 holds Д♣
    run(game, "0 play TC")
    verdict = game.judge(ev("1 play 9H"))
    assert not verdict.legal and verdict.rule == "follow-suit" and "♣" in verdict.message
    with untouched(game), pytest.raises(IllegalPlayError):
        game.apply(ev("1 play 9H"))
    assert [e.cards[0].code for e in game.legal_actions(1) if e.kind == "play"] == ["QC"]


def test_after_the_talon_void_must_trump() -> None:
    game = worked_through(2)                    # trick 10: 0 leads К♣; seat 1 void ♣, holds В♠ Д♠ К♠
    run(game, "0 play KC")
    verdict = game.judge(ev("1 play 9H"))
    assert not verdict.legal and verdict.rule == "must-trump"
    # the trump jack is not exempt here because other trumps are held; any trump will do
    plays = {e.cards[0].code for e in game.legal_actions(1) if e.kind == "play"}
    assert plays == {"JS", "QS", "KS"}


def test_trump_jack_exemption_void_in_the_suit_led() -> None:
    game = worked_through(6)                    # trick 14: 0 leads К♦; seat 1 holds 9♥ В♥ В♠
    run(game, "0 play KD")
    assert hand(game, 1) == {"9H", "JH", "JS"}
    # void in ♦, the only trump is the jack: it need not be played
    plays = {e.cards[0].code for e in game.legal_actions(1) if e.kind == "play"}
    assert plays == {"9H", "JH", "JS"}
    assert game.judge(ev("1 play 9H")).legal


def test_trump_jack_exemption_when_trumps_are_led_rules_md_reading_wider_than_the_seed() -> None:
    # The seed names only the void-suit case («на отсутствующую масть необходимо класть козыря»);
    # RULES.md: "the trump jack need not be played to a trump demand" — a trump lead demands too.
    game = worked_through(7)                    # trick 15: 0 leads 10♠ (trump); seat 1 holds В♥ В♠
    run(game, "0 play TS")
    assert game.judge(ev("1 play JH")).legal


def test_a_trump_led_must_be_followed_with_a_trump_other_than_a_lone_jack() -> None:
    game = worked_through(0)                    # trick 8 after the declaration: 1 leads Т♠
    run(game, "1 play AS")
    assert not game.judge(ev("0 play TD")).legal   # seat 0 holds 7♠ 8♠ 9♠ 10♠


def test_trick_winners_trump_order_j_9_a_and_plain_ten_over_king() -> None:
    game = worked_through(1)
    assert game.tricks == [1, 7] and game.leader == 0    # 9♠ beat А♠ in trick 8
    run(game, "0 play TC", "1 play QC")
    assert game.leader == 0                              # 10♣ above Д♣
    game = worked_through(8)
    assert game.leader == 1                              # В♠ beat 10♠ in trick 15


# Tricks 1–7 give seat 1 45 (11+0+11+11+10+1+1), trick 8 gives seat 0 24, trick 9 (10♣ + 9♥) seat 0 10.
# Seat 1: 45 + 12 + 6 + 30 + 3 = 96 (+10 last trick); seat 0: 24 + 10 + 5 + 3 + 2 = 44; 96 + 44 = 140.
# Declarations as in the worked deal: seat 0 150, seat 1 70.


@pytest.mark.parametrize("options, points", [
    # foul_penalty all: seat 1's 96 + 10 + 70 = 176 go to seat 0: 44 + 150 + 176 = 370, seat 1 0
    ({}, [370, 0]),
    # foul_penalty cards: 96 + 10 = 106 go: seat 0 44 + 150 + 106 = 300, seat 1 keeps its 70
    ({"foul_penalty": "cards"}, [300, 70]),
    # on_claim, never claimed: the deal scores as if nothing happened: 194 and 176
    ({"policy": "on_claim"}, [194, 176]),
])
def test_illegal_play_penalty_hand_worked(options: dict, points: list[int]) -> None:
    game = Terz(**options)
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, *FIRST_SEVEN, *LAST_NINE[:5], "0 play TC")
    assert not game.record(ev("1 play 9H")).legal
    run(game, *FOUL_FINISH)
    if options.get("policy") == "on_claim":
        run(game, "0 confirm", "1 confirm")       # the score step after the last trick
    assert game.score_sheet().deals[0].points == points


def test_illegal_play_claimed_under_on_claim_hand_worked() -> None:
    game = Terz(policy="on_claim")
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, *FIRST_SEVEN, *LAST_NINE[:5], "0 play TC")
    game.record(ev("1 play 9H"))
    assert Event("claim", 0) in game.legal_actions(0)
    run(game, "0 claim", *FOUL_FINISH, "1 confirm", "0 confirm")
    assert game.score_sheet().deals[0].points == [370, 0]    # as under penalize


# ----------------------------------------------------------------------------- bad input


def test_bad_input_unknown_card() -> None:
    game = Terz()
    with untouched(game), pytest.raises(UnknownCardError):
        game.apply(ev("shoe 1Z"))
    with pytest.raises(UnknownCardError):
        shoe("XX")
    deal(game, SEAT1, SEAT0, TURNED)
    with untouched(game), pytest.raises(UnknownCardError):
        game.apply(ev("1 play ZZ"))
    with untouched(game), pytest.raises(UnknownCardError):
        game.record(ev("1 declare 9H TH JH QZ"))


def test_bad_input_card_dealt_twice_and_cards_not_in_this_deck() -> None:
    game = Terz()
    run(game, "shoe 9H", "shoe KS")
    with untouched(game), pytest.raises(DuplicateCardError) as exc:
        game.apply(ev("shoe 9H"))
    assert exc.value.rule == "card-dealt-twice"
    with untouched(game), pytest.raises(DuplicateCardError) as exc:
        game.record(ev("shoe 6H"))              # a six: not in the 32-card deck
    assert exc.value.rule == "card-not-in-deck"
    with untouched(game), pytest.raises(DuplicateCardError):
        game.record(ev("shoe BJ"))


def test_bad_input_a_drawn_card_seen_twice_in_the_refill() -> None:
    game = Terz()
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, "1 play AC", "0 play 7C")
    with untouched(game), pytest.raises(DuplicateCardError):
        game.apply(ev("shoe AC"))               # already played this deal
    with untouched(game), pytest.raises(DuplicateCardError):
        game.apply(ev("shoe 7S"))               # the turned card


def test_bad_input_out_of_turn() -> None:
    game = game_b()
    with untouched(game), pytest.raises(OutOfTurnError):
        game.apply(ev("0 play 7D"))             # seat 1 leads
    run(game, "1 declare 9H TH JH")
    with untouched(game), pytest.raises(OutOfTurnError):
        game.record(ev("1 play AS"))            # seat 0 must answer the declaration first
    with untouched(game), pytest.raises(ActionNotAllowedError):
        game.apply(ev("0 play 7D"))             # …by answering, not by playing
    with untouched(game), pytest.raises(OutOfTurnError):
        game.apply(ev("1 ask"))


def test_bad_input_card_not_in_hand_and_actions_before_the_deal() -> None:
    game = Terz()
    with untouched(game), pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("1 play AC"))             # nothing dealt yet
    assert exc.value.rule == "not-allowed-now"
    deal(game, B1, B0, "TD")
    with untouched(game), pytest.raises(CardNotInHandError):
        game.record(ev("1 play 7D"))
    with untouched(game), pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("shoe 7S"))               # no card is due from the shoe while playing
    assert exc.value.rule == "shoe-not-expected"
    for text in ("2 play AS", "play AS", "1 dance", "1 pass now"):
        with untouched(game), pytest.raises(BadEventError):
            game.apply(ev(text))


def test_refill_when_the_follower_wins_the_trick_it_draws_first_and_leads() -> None:
    game = game_b()                              # ♦ trumps; seat 1 leads
    run(game, "1 play 7C", "0 play 7D")          # seat 0 trumps the 7♣ and wins
    assert game.expects_shoe and game.leader == 0
    run(game, "shoe QS")
    assert "QS" in hand(game, 0) and "QS" not in hand(game, 1)
    run(game, "shoe KS")
    assert "KS" in hand(game, 1) and game.to_act() == 0
    assert ev("0 declare 7D 8D 9D") not in game.legal_actions(0)   # the 7♦ was played
    assert game.describe()["stage"] == "lead (may declare)"


# ----------------------------------------------------------------------------- on_claim: the score step
# Common conventions: under on_claim the penalty applies if the victim claims "before the score is
# confirmed". After the last trick the deal waits for `S confirm` from both seats; until a seat
# confirms it may still claim.


def foul_deal_played_out(**options: object) -> Terz:
    game = Terz(policy="on_claim", **options)
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, *FIRST_SEVEN, *LAST_NINE[:5], "0 play TC")
    game.record(ev("1 play 9H"))                 # held Д♣, did not follow suit: not claimed in play
    run(game, *FOUL_FINISH)
    return game


def test_on_claim_a_foul_claimed_after_the_last_trick_before_confirming() -> None:
    game = foul_deal_played_out()
    assert game.history == [] and game.describe()["phase"] == "score"
    assert set(game.legal_actions()) == {Event("claim", 0), Event("confirm", 0), Event("confirm", 1)}
    run(game, "0 claim", "1 confirm", "0 confirm")
    # as under penalize: seat 1's 96 + 10 + 70 = 176 go to seat 0: 44 + 150 + 176 = 370, seat 1 0
    assert game.score_sheet().deals[0].points == [370, 0]
    assert game.deal_no == 2 and game.dealer == 1 and game.expects_shoe


def test_on_claim_confirmed_without_a_claim_the_deal_stands() -> None:
    game = foul_deal_played_out()
    run(game, "0 confirm")
    with untouched(game), pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("0 claim"))                # seat 0 accepted the score: too late
    assert exc.value.rule == "claim-too-late"
    with untouched(game), pytest.raises(ActionNotAllowedError):
        game.apply(ev("0 confirm"))              # once is enough
    run(game, "1 confirm")
    assert game.score_sheet().deals[0].points == [194, 176]    # 44 + 150, 96 + 10 + 70


def test_on_claim_a_false_declaration_claimed_at_the_count() -> None:
    # The worked deal, but at lead 1 seat 1 declares a терц 7-8-9♦ it does not hold (instead of
    # its true 9-10-J♥); seat 0 beats it with the четверик 10-K♦ as before, and claims at the count.
    game = Terz(policy="on_claim")
    deal(game, SEAT1, SEAT0, TURNED)
    game.record(ev("1 declare 7D 8D 9D"))        # seat 1 holds none of them (seat 0 holds 7♦)
    run(game, "0 declare TD JD QD KD", *FIRST_SEVEN[2:], *LAST_NINE)
    assert game.describe()["phase"] == "score"
    run(game, "0 claim", "0 confirm", "1 confirm")
    # seat 0: 44 + 150 + 20 (seat 1's false терц) = 214; seat 1: 96 + 10 + 70 = 176
    assert game.score_sheet().deals[0].points == [214, 176]


def test_without_on_claim_the_deal_is_scored_at_its_last_card_and_confirm_is_refused() -> None:
    game = Terz()
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, *FIRST_SEVEN, *LAST_NINE)
    assert len(game.history) == 1 and game.expects_shoe
    with untouched(game), pytest.raises(ActionNotAllowedError):
        game.apply(ev("0 confirm"))


def test_bad_input_in_the_score_step() -> None:
    game = foul_deal_played_out()
    for text, error in (("1 play AS", ActionNotAllowedError), ("shoe 7H", ActionNotAllowedError),
                        ("1 claim", ActionNotAllowedError),      # seat 0 made no foul
                        ("0 confirm now", BadEventError), ("0 declare 9H TH JH", ActionNotAllowedError)):
        with untouched(game), pytest.raises(error):
            game.apply(ev(text))
    game = Terz(policy="on_claim")
    deal(game, SEAT1, SEAT0, TURNED)
    with untouched(game), pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("1 confirm"))              # nothing to confirm while the deal is played
    assert exc.value.rule == "nothing-to-confirm"
