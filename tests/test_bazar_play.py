"""Trick duties, Бэла, constructions and illegal-play policies of Bazar-Belot (RULES.md §4)."""

from __future__ import annotations

import pytest
from _bazar_kit import (
    DUTY_DEAL,
    DUTY_TRICKS,
    FOUL_REST,
    SUITS_DEAL,
    deal,
    new_game,
    play_duty_deal_with_a_foul,
    run,
)

from engine.bazar import BazarBelot
from engine.errors import ActionNotAllowedError, IllegalPlayError
from engine.events import ev


def hearts_game(**options: object) -> BazarBelot:
    game = new_game(**options)
    deal(game, DUTY_DEAL)
    run(game, "1 bid 8:H; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    return game


def plays(game: BazarBelot) -> set[str]:
    return {e.cards[0].code for e in game.legal_actions() if e.kind == "play"}


def test_trump_led_must_overtrump_even_over_the_partner() -> None:
    game = hearts_game()
    run(game, "1 play 7H")
    assert plays(game) == {"QH", "AH"}  # both beat the 7
    run(game, "2 play AH")
    assert plays(game) == {"8H", "TH"}  # cannot beat the ace: any trump
    run(game, "3 play 8H")
    # Seat 0's partner (seat 2) wins with the ace, but seat 0 must still beat it with the 9.
    assert plays(game) == {"9H"}
    verdict = game.judge(ev("0 play KH"))
    assert not verdict.legal and verdict.rule == "overtrump"
    verdict = game.judge(ev("0 play AC"))
    assert not verdict.legal and verdict.rule == "follow-suit"


def test_plain_suit_led_follow_then_trump_when_the_opponents_win() -> None:
    game = hearts_game()
    run(game, *DUTY_TRICKS[:3], "0 play KS")
    # Seat 1 is void in spades, an opponent is winning, seat 1 holds the trump jack: must trump.
    assert plays(game) == {"JH"}
    verdict = game.judge(ev("1 play 7D"))
    assert not verdict.legal and verdict.rule == "must-trump"
    run(game, "1 play JH; 2 play 9S; 3 play JS")
    run(game, "1 play 8C; 2 play JC")
    assert plays(game) == {"KC"}  # follow suit; beating is not required: only one club
    run(game, "3 play KC")
    assert plays(game) == {"KH"}  # void in clubs, seat 3 (opponent) wins: trump
    run(game, "0 play KH; 0 play QS")
    assert plays(game) == {"9C", "7D", "8D"}  # void, no trump: any card
    run(game, "1 play 9C")
    # Seat 2 is void in spades and his partner (seat 0) is winning: any card, trump or not.
    assert plays(game) == {"QH", "9D", "TD"}


def test_void_partner_winning_is_exempt_and_cannot_overtrump_means_any_card() -> None:
    # Spades game by seat 1. Seat 1 leads ♣; seat 2 trumps with J♠; seat 3 (void, partner not
    # winning) holds only the 7♠ which cannot beat the J: any card.
    hands = {
        0: "7C 8C 9C TC 7D 8D 9D TD",
        1: "JC QC KC AC JD QD KD AD",
        2: "JS 7H 8H 9H TH JH QH KH",
        3: "7S 8S 9S TS QS KS AS AH",
    }
    game = new_game()
    deal(game, hands)
    run(game, "1 bid 8:S; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    run(game, "1 play AC")
    assert plays(game) == {"JS"}  # void in ♣, opponent winning, has a trump
    run(game, "2 play JS")
    assert plays(game) == {"7S", "8S", "9S", "TS", "QS", "KS", "AS", "AH"}  # none beats J♠
    run(game, "3 play AH")
    assert plays(game) == {"7C", "8C", "9C", "TC"}
    run(game, "0 play 7C")
    run(game, "2 play 7H")  # seat 2 won with the J♠ and leads a heart
    assert plays(game) == {"7S", "8S", "9S", "TS", "QS", "KS", "AS"}  # void: any trump beats
    run(game, "3 play 7S")
    assert plays(game) == {"8C", "9C", "TC", "7D", "8D", "9D", "TD"}  # void, no trump: any
    run(game, "0 play 8C")
    # Seat 1 is void in hearts and could not beat anyway; his partner (seat 3) wins: any card.
    assert plays(game) == {"JC", "QC", "KC", "JD", "QD", "KD", "AD"}


def test_bk_only_follow_suit() -> None:
    game = new_game()
    deal(game, DUTY_DEAL)
    run(game, "1 bid 8:BK; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    run(game, "1 play 7S")
    assert plays(game) == {"8S", "9S"}
    run(game, "2 play 8S; 3 play TS; 0 play QS")
    # 10♠ wins (БК order A 10 K Q J 9 8 7); seat 3 leads hearts; seat 0 follows with any heart.
    run(game, "3 play 8H")
    assert plays(game) == {"9H", "KH"}


def test_vk_the_suit_led_is_trump_so_following_means_beating() -> None:
    game = new_game()
    deal(game, DUTY_DEAL)
    run(game, "1 bid 20:VK; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    run(game, "1 play 7C")
    assert plays(game) == {"TC", "JC"}  # both beat the 7
    run(game, "2 play JC")
    assert plays(game) == {"QC", "KC"}  # nothing beats the J: any club
    run(game, "3 play QC")
    assert plays(game) == {"AC"}
    run(game, "0 play AC; 2 play 9D")
    # Seat 3 holds J♦ (beats 9♦? no: 9 is the second highest after J, J beats 9) and Q♦.
    assert plays(game) == {"JD"}
    run(game, "3 play JD")
    assert plays(game) == {"AD", "KD"}  # nobody beats the J: any diamond
    run(game, "0 play KD; 1 play 8D")
    assert game.to_act() == 3 and game.tricks == [1, 1]


def test_bela_in_vk_only_in_the_suit_led() -> None:
    game = new_game()
    deal(game, SUITS_DEAL)
    run(game, "1 bid 20:VK; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    run(game, "1 play 7D; 2 play 7H; 3 play 7S")
    # Seat 0 plays K♣ on a diamond lead: not a Бэла in ВК.
    with pytest.raises(ActionNotAllowedError) as err:
        run(game, "0 play KC bela")
    assert err.value.rule == "bela"
    assert "0 play KC bela" not in {str(e) for e in game.legal_actions()}
    run(game, "0 play KC")
    run(game, "1 play QD bela")  # on his own lead: always
    assert {str(e) for e in game.legal_actions()} >= {"2 play QH", "2 play 8H"}
    assert "2 play QH bela" not in {str(e) for e in game.legal_actions()}


def test_bela_needs_both_words() -> None:
    game = new_game()
    deal(game, SUITS_DEAL)
    run(game, "1 bid 8:D; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    run(game, "1 play QD; 2 play 7H; 3 play 7S; 0 play 7C")  # Q♦ without the word
    with pytest.raises(ActionNotAllowedError):
        run(game, "1 play KD bela")  # the first card was not announced: no Бэла any more
    run(game, "1 play KD")
    assert game.belas == [0, 0]


def test_constructions_only_before_ones_first_card_and_only_real_ones() -> None:
    game = new_game()
    deal(game, SUITS_DEAL)
    run(game, "1 bid 8:D; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    offered = {str(e) for e in game.legal_actions() if e.kind == "declare"}
    assert "1 declare 7D 8D 9D TD JD QD KD AD" in offered and "1 declare 7D 8D 9D" in offered
    with pytest.raises(ActionNotAllowedError) as err:
        run(game, "1 declare 7D 9D JD")
    assert err.value.rule == "not-a-construction"
    run(game, "1 declare 7D 8D 9D TD JD")
    with pytest.raises(ActionNotAllowedError) as err:
        run(game, "1 declare 9D TD JD")  # a card in one sequence only
    assert err.value.rule == "declared-twice"
    run(game, "1 play 7D")
    with pytest.raises(Exception):  # noqa: B017 - out of turn or too late, both refused
        run(game, "1 declare QD KD AD")
    run(game, "2 play 7H; 3 play 7S; 0 play 7C")
    assert game.constr_winner == 1
    with pytest.raises(ActionNotAllowedError):
        run(game, "1 declare QD KD AD")


def test_ramki_7_voids_the_deal_and_the_deal_passes_on() -> None:
    hands = {
        0: "8C 9C TC JC 8D 9D TD JD",
        1: "7C 7D 7H 7S QC KC AC QD",
        2: "8H 9H TH JH 8S 9S TS JS",
        3: "KD AD QH KH AH QS KS AS",
    }
    game = new_game()
    deal(game, hands)
    run(game, "1 bid 8:C; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    assert "1 declare 7C 7D 7H 7S" in {str(e) for e in game.legal_actions()}
    run(game, "1 declare 7C 7D 7H 7S")
    assert game.expects_shoe and game.dealer == 1 and game.totals == [0, 0]
    assert "Рамки 7" in game.score_sheet().deals[0].notes[0]


def test_four_nines_are_not_ramki_in_bk() -> None:
    hands = {
        0: "9C 9D 9H 9S 7C 8C 7D 8D",
        1: "TC JC QC KC AC TD JD QD",
        2: "KD AD 7H 8H TH JH QH KH",
        3: "AH 7S 8S TS JS QS KS AS",
    }
    game = new_game()
    deal(game, hands)
    run(game, "1 bid 8:BK; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    run(game, "1 play TC; 2 play KD; 3 play AH")
    assert "0 declare 9C 9D 9H 9S" not in {str(e) for e in game.legal_actions()}
    with pytest.raises(ActionNotAllowedError):
        run(game, "0 declare 9C 9D 9H 9S")


def test_penalize_the_offending_pair_loses_the_deal_by_rules_md_section_6() -> None:
    game = hearts_game(policy="penalize")
    play_duty_deal_with_a_foul(game)
    run(game, *FOUL_REST)
    # Updated for RULES.md §6 (it was: the offender's 86 висты went over, 1 × 8 + 162/10 = 24).
    # Seat 0 (defender) broke a rule: pair 0 & 2 loses the deal, so 8 ♥ is made although pair
    # 1 & 3 has only 76 висты (< 80): 1 × 8 + 76 / 10 (7.6 → 8) = 16; the defenders score 0.
    assert game.deals[-1][1] == (0, 16)


def test_on_claim_no_claim_no_penalty_then_claim_before_confirm() -> None:
    game = hearts_game(policy="on_claim")
    play_duty_deal_with_a_foul(game)
    assert {str(e) for e in game.legal_actions() if e.kind == "claim"} == {"1 claim", "3 claim"}
    run(game, *FOUL_REST)
    assert game.phase == "confirm" and not game.deals
    snapshot = game.copy()
    run(snapshot, "2 confirm")
    # Unclaimed: 76 < 80, 8 ♥ failed: pair 0 & 2 scores 1 × 8 + 16 = 24.
    assert snapshot.deals[-1][1] == (24, 0)
    with pytest.raises(ActionNotAllowedError):
        run(game, "0 claim")  # seat 0's pair made the foul, not the victims
    run(game, "3 claim; 0 confirm")
    # Claimed (RULES.md §6): the defenders lose the deal: 1 × 8 + 76 / 10 → 8 = 16; pair 0 & 2: 0.
    assert game.deals[-1][1] == (0, 16)
    assert game.expects_shoe and game.dealer == 1


def test_retract_blocks_until_the_illegal_play_is_taken_back() -> None:
    game = hearts_game(policy="retract")
    run(game, *DUTY_TRICKS, "1 play 8C; 2 play JC; 3 play KC")
    with pytest.raises(IllegalPlayError):
        game.apply(ev("0 play AD"))
    game.record(ev("0 play AD"))
    assert [str(e) for e in game.legal_actions()] == ["undo"]
    with pytest.raises(ActionNotAllowedError):
        run(game, "0 play KH")
    game.record(ev("undo"))
    run(game, "0 play KH")
    assert game.fouls == []
