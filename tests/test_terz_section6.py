"""Terz illegal plays as RULES.md §6 reads them («байд с картами»: the opponent scores every point
of the deal, the offender 0), and the score sheet naming each illegal play and false declaration.

The deals are the worked deal of test_terz_scoring with seat 1's revoke in trick 9 (FOUL_FINISH of
test_terz_play): card points seat 0 44, seat 1 96 + last trick 10; declarations seat 0 150
(четверик 50 + пятерик 100), seat 1 70 (marriage 20 + четверик 50).
"""

from __future__ import annotations

from typing import Any

from _terz_kit import FIRST_SEVEN, FOUL_FINISH, LAST_NINE, SEAT0, SEAT1, TURNED, deal, run

from engine.events import ev
from engine.scoresheet import CLAIMED, LET_GO, PENALISED
from engine.terz import Terz

REVOKE = "held ♣, did not follow suit"
# Lead 4: seat 1 leads A♥ silently; seat 0 declares a терц 7-8-9♠ it does not hold (it holds
# 10♦ В♦ Д♦ К♦ 8♥ К♣ 9♦ 10♣ В♣ then): a false declaration, its 20 go to seat 1.
AT_LEAD_4 = FIRST_SEVEN.index("1 play AH") + 1


def foul_deal(false_terz: bool = False, **options: Any) -> Terz:
    game = Terz(**options)
    deal(game, SEAT1, SEAT0, TURNED)
    if false_terz:
        run(game, *FIRST_SEVEN[:AT_LEAD_4])
        v = game.record(ev("0 declare 7S 8S 9S"))
        assert not v.legal and v.rule == "false-declaration"
        run(game, *FIRST_SEVEN[AT_LEAD_4:])
    else:
        run(game, *FIRST_SEVEN)
    run(game, *LAST_NINE[:5], "0 play TC")
    v = game.record(ev("1 play 9H"))  # trick 9: seat 1 holds Д♣
    assert not v.legal and v.rule == "follow-suit" and v.message == REVOKE
    run(game, *FOUL_FINISH)
    return game


def test_the_opponent_scores_every_point_of_the_deal_by_rules_md_section_6() -> None:
    game = foul_deal()
    # Every point of the deal: card points 44 + 96, last trick 10, seat 0's declarations 150 and
    # seat 1's 70 (its marriage included) = 370, all to seat 0; the offender, seat 1, scores 0.
    assert game.score_sheet().deals[0].points == [370, 0]
    items = game.score_sheet().deals[0].items
    # seat 1's own 96 + 10 + 70 = 176 move over
    assert [(i.side, i.points) for i in items if i.rule == "foul"] == [(1, -176), (0, 176)]


def test_the_offender_keeps_not_even_a_false_declarations_value_by_rules_md_section_6() -> None:
    game = foul_deal(false_terz=True)
    # Seat 0's false терц gives seat 1 20 (penalize). Deal before the revoke: seat 0 44 + 150 =
    # 194; seat 1 96 + 10 + 70 + 20 = 196. The revoke gives seat 0 every point: 194 + 196 = 390,
    # seat 1 0 (the old reading moved only 96 + 10 + 70 and left seat 1 the 20).
    assert game.score_sheet().deals[0].points == [390, 0]
    assert game.totals == [390, 0]


def test_claimed_under_on_claim_the_opponent_scores_every_point_by_rules_md_section_6() -> None:
    game = foul_deal(policy="on_claim")
    run(game, "0 claim", "1 confirm", "0 confirm")
    # as under penalize: 44 + 96 + 10 + 150 + 70 = 370 to seat 0, seat 1 0
    assert game.score_sheet().deals[0].points == [370, 0]


def test_foul_penalty_cards_keeps_its_house_reading() -> None:
    game = foul_deal(foul_penalty="cards")
    # the setting moves only the offender's 96 + 10: seat 0 44 + 150 + 106 = 300, seat 1 its 70
    assert game.score_sheet().deals[0].points == [300, 70]


# ----------------------------------------------------------------- the sheet names each one

def entry(outcome: str) -> dict[str, Any]:
    return {"seat": 1, "card": "9H", "trick": 9, "rule": "follow-suit", "message": REVOKE,
            "outcome": outcome}


def assert_named(game: Terz, outcome: str) -> None:
    sheet = game.score_sheet()
    (play,) = sheet.deals[0].illegal
    assert (play.seat, play.card, play.trick, play.rule, play.message, play.outcome) == (
        1, "9H", 9, "follow-suit", REVOKE, outcome)
    assert sheet.to_dict()["deals"][0]["illegal"] == [entry(outcome)]
    assert f"seat 1: 9H in trick 9, {REVOKE} [follow-suit] — {outcome}" in sheet.render()


def test_sheet_names_a_penalised_illegal_play() -> None:
    assert_named(foul_deal(), PENALISED)


def test_sheet_names_a_claimed_illegal_play() -> None:
    game = foul_deal(policy="on_claim")
    run(game, "0 claim", "1 confirm", "0 confirm")
    assert_named(game, CLAIMED)


def test_sheet_names_an_unclaimed_illegal_play_as_let_go() -> None:
    game = foul_deal(policy="on_claim")
    run(game, "0 confirm", "1 confirm")
    assert game.score_sheet().deals[0].points == [194, 176]  # unpunished: 44 + 150, 96 + 10 + 70
    assert_named(game, LET_GO)


def test_sheet_names_a_false_declaration_too() -> None:
    game = foul_deal(false_terz=True)
    sheet = game.score_sheet()
    first, second = sheet.deals[0].illegal
    assert (first.seat, first.card, first.trick, first.rule, first.outcome) == (
        0, "", 4, "false-declaration", PENALISED)
    assert "7♠" in first.message and "false declaration" in first.message
    assert (second.seat, second.card, second.trick) == (1, "9H", 9)
    assert sheet.to_dict()["deals"][0]["illegal"][0]["rule"] == "false-declaration"


def test_retracted_illegal_plays_are_not_on_the_sheet() -> None:
    game = Terz(policy="retract")
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, *FIRST_SEVEN, *LAST_NINE[:5], "0 play TC")
    game.record(ev("1 play 9H"))
    game.record(ev("undo"))
    run(game, *LAST_NINE[6:])  # «1 play QC» follows suit, then the worked deal's finish
    sheet = game.score_sheet()
    assert len(sheet.deals) == 1 and sheet.deals[0].illegal == []
    assert sheet.to_dict()["deals"][0]["illegal"] == []


def test_both_seats_caught_each_scores_0_by_rules_md_section_6() -> None:
    game = Terz()
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, *FIRST_SEVEN, *LAST_NINE[:5], "0 play TC")
    assert game.record(ev("1 play 9H")).rule == "follow-suit"     # trick 9, as above
    run(game, *FOUL_FINISH[:8], "1 play QH")                     # tricks 10–13, seat 1 leads 14
    v = game.record(ev("0 play QD"))  # void in ♥, holds 8♠ 10♠: must trump
    assert v.rule == "must-trump"
    run(game, "1 play JS", "0 play TS", "1 play JH", "0 play 8S")
    # Card points: tricks 1–7 seat 1 45; T8 seat 0 24; T9 seat 0 10; T10 seat 0 5; T11 seat 1 12;
    # T12 seat 0 3; T13 seat 1 6; T14 (Д♥ + Д♦, led suit wins) seat 1 2 + 2 = 4; T15 seat 1 20 + 10
    # = 30; T16 seat 0 trumps В♥ with 8♠: 1, and the last trick 10. Seat 0 43 + 10 + 150 = 203,
    # seat 1 97 + 70 = 167 (43 + 97 = 140). Both seats are offenders: neither is an innocent
    # opponent, each scores 0 (as Belot reads §6).
    sheet = game.score_sheet()
    assert sheet.deals[0].points == [0, 0]
    assert [(i.side, i.points) for i in sheet.deals[0].items if i.rule == "foul"] == [
        (0, -203), (1, -167)]
    assert [(p.seat, p.trick) for p in sheet.deals[0].illegal] == [(1, 9), (0, 14)]
