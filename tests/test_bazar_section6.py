"""Bazar-Belot readings of RULES.md §6, worked by hand, and the sheet naming each illegal play.

§6: «Капо <game> + K» tests the pair's real card points (162, ВК 258, for every trick) plus
constructions and Бэла against «10 × K more than the whole deck»; 252 / 348 counts only in the
score after the test. An illegal play loses the deal for the offending pair: the contract is
failed (contracting pair) or made with the defenders scoring 0 (defending pair).
"""

from __future__ import annotations

from typing import Any

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
from engine.events import ev
from engine.scoresheet import CLAIMED, LET_GO, PENALISED


@pytest.mark.parametrize(("plus", "bela", "expected"), [
    # Капо ВК + 10, seat 1's eight diamonds (a квинта, 100): real висты 258 + 100 = 358
    # ≥ 258 + 10 × 10 = 358: made. N 35 + 10 = 45; scored висты 348 + 100 = 448 → 45: 45 + 45 = 90.
    (10, False, (0, 90)),
    # Капо ВК + 11: 358 < 368: failed although a capot (252/348 would have made it: 448 ≥ 368).
    # The defenders took no trick: 1 × N 46 + 26 (ВК) = 72.
    (11, False, (72, 0)),
    # Капо ВК + 12 with Бэла (♦ led by seat 1 each time): 258 + 100 + 20 = 378 ≥ 378: made.
    # N 47; scored 348 + 120 = 468 → 47: 47 + 47 = 94.
    (12, True, (0, 94)),
])
def test_kapo_vk_plus_k_tests_real_card_points_by_rules_md_section_6(
        plus: int, bela: bool, expected: tuple[int, int]) -> None:
    game = new_game()
    deal(game, SUITS_DEAL)
    run(game, f"1 bid kapo:VK+{plus}; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    run(game, "1 declare 7D 8D 9D TD JD QD KD AD")
    for rank in "789TJQKA":
        word = " bela" if bela and rank in "QK" else ""
        run(game, f"1 play {rank}D{word}; 2 play {rank}H; 3 play {rank}S; 0 play {rank}C")
    assert game.deals[-1][1] == expected
    notes = game.score_sheet().deals[-1].notes
    assert any(n.startswith("висты of pair 1 & 3: capot 348 + constructions 100") and
               n.endswith("(8 tricks)") for n in notes)
    real = 358 + (20 if bela else 0)
    sign = "≥" if expected[1] else "<"
    assert any(f"real висты {real}" in n and f"{sign} 258 + 10 × {plus} = {258 + 10 * plus}" in n
               for n in notes)


@pytest.mark.parametrize(("plus", "expected"), [
    # Капо с руки ♦ + K Реконтра (M = 1 × 4 × 2 = 8, N = 25 + K), seat 1 declares the квинта ♦.
    # Seat 3's spades are out of play, so the tricks hold 162 − (A 11 + 10 10 + K 4 + Q 3 + J 2)
    # = 132 real card points: + 7: 132 + 100 = 232 ≥ 162 + 70 = 232: made; scored висты
    # 252 + 100 = 352 → 35: 8 × 32 + 35 = 291.
    (7, (0, 291)),
    # + 8: 232 < 242: failed; the defenders took no trick: 8 × 33 + 16 = 280.
    (8, (280, 0)),
])
def test_kapo_s_ruki_plus_k_tests_the_card_points_in_the_tricks_by_rules_md_section_6(
        plus: int, expected: tuple[int, int]) -> None:
    game = new_game()
    deal(game, SUITS_DEAL)
    run(game, f"1 bid hand:D+{plus}; 2 bid contra; 3 bid pass; 1 bid recontra")
    run(game, "1 declare 7D 8D 9D TD JD QD KD AD")
    for rank in "789TJQKA":
        run(game, f"1 play {rank}D; 2 play {rank}H; 0 play {rank}C")
    assert game.deals[-1][1] == expected


# ----------------------------------------------------------------- illegal plays
# The duty deal (hearts trump, seat 1 leads): seat 0 fails to trump in trick 5 (rule must-trump).
# Card points by hand (tests/_bazar_kit.py): pair 0 & 2 86 висты, pair 1 & 3 76, no construction.
MUST_TRUMP = "void in ♣, held trump ♥ and the opponents were winning"


def duty_deal(bidder: int, **options: Any) -> BazarBelot:
    game = new_game(**options)
    deal(game, DUTY_DEAL)
    if bidder == 1:
        run(game, "1 bid 8:H; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    else:  # seat 2 bids; after three passes the word returns to him and he passes too
        run(game, "1 bid pass; 2 bid 8:H; 3 bid pass; 0 bid pass; 1 bid pass; 2 bid pass")
    assert game.phase == "play" and game.to_act() == 1 and game.bidder == bidder
    play_duty_deal_with_a_foul(game)
    run(game, *FOUL_REST)
    return game


def test_a_foul_by_the_contracting_pair_fails_the_contract_by_rules_md_section_6() -> None:
    game = duty_deal(2)
    # 8 ♥ by pair 0 & 2 with 86 ≥ 80 висты would be made: 1 × 8 + 86 / 10 (8.6 → 9) = 17, the
    # defenders 76 / 10 → 8. Seat 0's illegal play fails it: pair 0 & 2 scores 0; pair 1 & 3
    # scores M 1 × N 8 + 16 (failed bonus) + constructions 0 = 24.
    assert game.deals[-1][1] == (0, 24)
    items = game.score_sheet().deals[-1].items
    assert [(i.side, i.points, i.rule) for i in items] == [
        (0, 0, "contract-failed"), (1, 8, "contract-failed"), (1, 16, "failed-bonus")]


def test_the_same_deal_with_the_foul_let_go_scores_as_played() -> None:
    game = duty_deal(2, policy="on_claim")
    run(game, "1 confirm")
    # Nobody claimed: 8 ♥ made on 86 ≥ 80: 8 + 9 = 17; pair 1 & 3: 76 → 8.
    assert game.deals[-1][1] == (17, 8)


def test_a_foul_by_the_defenders_makes_the_contract_and_they_score_0_by_rules_md_section_6() -> None:
    game = duty_deal(1)
    # 8 ♥ by pair 1 & 3 with 76 < 80 висты would fail. Seat 0 (a defender) broke a rule: made,
    # 1 × 8 + 76 / 10 (7.6 → 8) = 16; the defenders score 0 (their 86 висты do not count and do
    # not go over).
    assert game.deals[-1][1] == (0, 16)
    items = game.score_sheet().deals[-1].items
    assert [(i.side, i.points, i.rule) for i in items] == [
        (1, 8, "contract-made"), (1, 8, "visty"), (0, 0, "foul")]


def assert_named(game: BazarBelot, outcome: str) -> None:
    sheet = game.score_sheet()
    (play,) = sheet.deals[-1].illegal
    assert (play.seat, play.card, play.trick, play.rule, play.message, play.outcome) == (
        0, "AD", 5, "must-trump", MUST_TRUMP, outcome)
    assert sheet.to_dict()["deals"][-1]["illegal"] == [
        {"seat": 0, "card": "AD", "trick": 5, "rule": "must-trump", "message": MUST_TRUMP,
         "outcome": outcome}]
    assert f"seat 0: AD in trick 5, {MUST_TRUMP} [must-trump] — {outcome}" in sheet.render()


def test_sheet_names_a_penalised_illegal_play() -> None:
    assert_named(duty_deal(1), PENALISED)


def test_sheet_names_a_claimed_illegal_play() -> None:
    game = duty_deal(1, policy="on_claim")
    run(game, "3 claim; 0 confirm")
    assert game.deals[-1][1] == (0, 16)
    assert_named(game, CLAIMED)


def test_sheet_names_an_unclaimed_illegal_play_as_let_go() -> None:
    game = duty_deal(1, policy="on_claim")
    run(game, "2 confirm")
    # Unclaimed: 76 < 80, 8 ♥ failed: pair 0 & 2 scores 1 × 8 + 16 = 24.
    assert game.deals[-1][1] == (24, 0)
    assert_named(game, LET_GO)


def test_retracted_illegal_plays_are_not_on_the_sheet() -> None:
    game = new_game(policy="retract")
    deal(game, DUTY_DEAL)
    run(game, "1 bid 8:H; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    play_duty_deal_with_a_foul(game)
    game.record(ev("undo"))
    run(game, "0 play KH",  # K♥ trumps trick 5: seat 0 leads the rest
        "0 play AD; 1 play 7D; 2 play 9D; 3 play JD",
        "0 play KD; 1 play 8D; 2 play TD; 3 play QD",
        "2 play QH; 3 play TH; 0 play QS; 1 play 9C")  # 10♦ beat K♦: seat 2 leads trick 8
    # The illegal play was taken back and the deal played out legally: nothing to name.
    sheet = game.score_sheet()
    assert len(sheet.deals) == 1 and sheet.deals[0].illegal == []
    assert sheet.to_dict()["deals"][0]["illegal"] == []


def test_an_illegal_play_in_a_deal_voided_by_ramki_7_is_named_as_let_go() -> None:
    game = new_game()
    deal(game, {
        0: "8C 9C TC JC QC KC AC 8D",
        1: "8H 9H TH JH 9D TD JD QD",
        2: "QH KH AH KD AD 8S 9S TS",
        3: "7C 7D 7H 7S JS QS KS AS",
    })
    run(game, "1 bid 8:H; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass", "1 play 8H")
    v = game.record(ev("2 play KD"))  # seat 2 holds three hearts
    assert not v.legal and v.rule == "follow-suit"
    run(game, "3 declare 7C 7D 7H 7S")  # Рамки 7: the deal ends with no result
    sheet = game.score_sheet()
    assert sheet.deals[0].points == [0, 0] and game.phase == "deal" and game.dealer == 1
    assert sheet.to_dict()["deals"][0]["illegal"] == [
        {"seat": 2, "card": "KD", "trick": 1, "rule": "follow-suit",
         "message": "held ♥, did not follow suit", "outcome": LET_GO}]


def test_both_pairs_caught_the_contract_fails_and_the_defenders_score_0_by_rules_md_section_6() -> None:
    game = new_game()
    deal(game, DUTY_DEAL)
    run(game, "1 bid 8:H; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    run(game, *DUTY_TRICKS, "1 play 8C; 2 play JC")
    assert game.record(ev("3 play JD")).rule == "follow-suit"  # seat 3 (contracting) holds K♣
    run(game, "0 play AD")  # the partner's J♣ wins: any card
    run(game, "2 play 9D; 3 play QD")
    assert game.record(ev("0 play QS")).rule == "follow-suit"  # seat 0 (defender) holds K♦
    run(game, "1 play 8D",
        "3 play TH; 0 play KH; 1 play 7D; 2 play QH",
        "3 play KC; 0 play KD; 1 play 9C; 2 play TD")
    # Both pairs lose the deal (RULES.md §6): seat 3's play fails 8 ♥ (pair 1 & 3: 0) and seat 0's
    # makes the defenders score 0: 0 and 0, whatever the cards (85 and 77 висты).
    assert game.deals[-1][1] == (0, 0)
    assert [p.seat for p in game.score_sheet().deals[-1].illegal] == [3, 0]
