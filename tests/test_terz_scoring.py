"""Hand-worked Terz scoring (RULES.md §5): one full deal played card by card, the arithmetic in
comments, and the 150-point arithmetic of the 32-card deck."""

from __future__ import annotations

import pytest
from _terz_kit import FIRST_SEVEN, LAST_NINE, SEAT0, SEAT1, TURNED, deal, hand, run

from engine.cards import cards, composition
from engine.errors import ActionNotAllowedError
from engine.events import ev
from engine.terz import Terz, card_points

# Card points: seat 1: 11+0+11+11+10+1+1+5+13+30+3 = 96; seat 0: 24+12+3+2+3 = 44; 96+44 = 140.
# Last trick (seat 1) 10: 140 + 10 = 150.
# Declarations: seat 0: четверик 50 + пятерик 100 = 150; seat 1: marriage 20 + четверик 50 = 70.
# Deal: seat 0 = 44 + 150 = 194; seat 1 = 96 + 10 + 70 = 176.


def worked_deal(**options: object) -> Terz:
    game = Terz(**options)
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, *FIRST_SEVEN)
    run(game, *LAST_NINE)
    return game


def test_the_deck_holds_140_card_points_and_the_last_trick_makes_150() -> None:
    deck = 0
    for c in composition("32"):
        deck |= c.bit
    # a plain suit: A 11 + 10 10 + K 3 + Q 2 + J 1 = 27; trumps: J 20 + 9 13 + A 11 + 10 10 + K 3 + Q 2 = 59
    for trump in range(4):
        assert card_points(deck, trump) == 3 * 27 + 59 == 140
    assert card_points(deck & ~cards("JS")[0].bit, 3) == 120      # without the trump jack
    assert card_points(cards("9H")[0].bit, 2) == 13                # the trump nine
    assert card_points(cards("9H")[0].bit, 3) == 0                 # a plain nine
    assert card_points(cards("JH")[0].bit, 3) == 1                 # a plain jack


def test_worked_deal_card_points_declarations_and_totals() -> None:
    game = worked_deal()
    sheet = game.score_sheet()
    assert len(sheet.deals) == 1
    d = sheet.deals[0]
    by_rule = {(i.side, i.rule, i.points) for i in d.items}
    assert (1, "card-points", 96) in by_rule and (0, "card-points", 44) in by_rule
    assert (1, "last-trick", 10) in by_rule
    groups = sorted((i.side, i.points) for i in d.items if i.rule == "group")
    assert groups == [(0, 50), (0, 100), (1, 50)]          # seat 1's терц was beaten: no item
    assert [(i.side, i.points) for i in d.items if i.rule == "trump-marriage"] == [(1, 20)]
    assert d.points == [194, 176]
    assert sheet.totals == [194, 176]
    assert not sheet.finished and game.problems() == []


def test_worked_deal_the_last_trick_taker_deals_next() -> None:
    game = worked_deal()
    assert game.deal_no == 2 and game.dealer == 1 and game.expects_shoe
    assert game.leader == 0  # the new dealer's opponent will lead


def test_worked_deal_with_a_lower_target_ends_the_game() -> None:
    # 194 ≥ 190 > 176: seat 0 reaches the target, the game is over
    game = worked_deal(target=190)
    sheet = game.score_sheet()
    assert game.is_over and sheet.finished and sheet.winner == 0
    assert "194 : 176" in sheet.result
    assert game.legal_actions() == [] and game.to_act() is None
    with pytest.raises(ActionNotAllowedError):
        game.apply(ev("shoe 7H"))


def test_both_past_the_target_the_higher_total_wins() -> None:
    game = worked_deal(target=150)    # 194 and 176 both ≥ 150: seat 0 has more
    assert game.is_over and game.winner == 0


def test_group_values_are_settings() -> None:
    # терц 30, четверик 60, пятерик 120, marriage 40: seat 0 = 44 + 60 + 120 = 224;
    # seat 1 = 106 + 40 + 60 = 206
    game = worked_deal(terz_value=30, four_value=60, five_value=120, marriage_value=40)
    assert game.score_sheet().deals[0].points == [224, 206]


def test_declarations_refused_after_the_talon_ran_out_in_the_worked_deal() -> None:
    game = Terz()
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, *FIRST_SEVEN, *LAST_NINE[:3 + 2 * 3])   # through trick 10; seat 1 leads trick 11
    assert game.leader == 1 and game.to_act() == 1 and {"JH", "QH", "KH"} <= hand(game, 1)
    before, log = game.snapshot(), list(game.raw_log)
    with pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("1 declare JH QH KH"))       # a терц it holds, but too late
    assert exc.value.rule == "declarations-closed" and "talon" in str(exc.value)
    with pytest.raises(ActionNotAllowedError):
        game.record(ev("1 declare JH QH KH"))
    assert game.snapshot() == before and game.raw_log == log


def _seats_swapped(lines: list[str]) -> list[str]:
    return [("1" + line[1:] if line[0] == "0" else "0" + line[1:]) if line[0] in "01" else line
            for line in lines]


def three_deals(**options: object) -> Terz:
    """The worked deal three times. Deal 1: dealer 0 → seat 0 194, seat 1 176. Seat 1 took the
    last trick, so it deals deal 2: the same hands by role, the seats swapped → seat 0 176, seat 1
    194. Seat 0 (in seat 1's role) took the last trick of deal 2, deals deal 3 → 194 / 176 again."""
    game = Terz(**options)
    for n in range(3):
        if game.is_over:
            break
        assert game.dealer == n % 2
        deal(game, SEAT1, SEAT0, TURNED)
        script = [*FIRST_SEVEN, *LAST_NINE]
        run(game, *(script if n % 2 == 0 else _seats_swapped(script)))
    return game


def test_game_to_501_both_past_it_the_higher_total_wins() -> None:
    # after deal 2: 194 + 176 = 370 each (< 501, go on); after deal 3: 370 + 194 = 564 and
    # 370 + 176 = 546, both past 501: seat 0 has more and wins
    game = three_deals()
    sheet = game.score_sheet()
    assert [d.points for d in sheet.deals] == [[194, 176], [176, 194], [194, 176]]
    assert sheet.totals == [564, 546] and game.is_over and sheet.winner == 0
    assert "564 : 546" in sheet.result and "501" in sheet.result


def test_equal_totals_at_the_target_play_another_deal() -> None:
    # target 370: after deal 2 both have exactly 370 — at the target but equal, so no winner yet;
    # deal 3 decides: 564 against 546
    game = three_deals(target=370)
    assert len(game.history) == 3 and game.winner == 0 and game.totals == [564, 546]


def test_reaching_the_target_exactly_ends_the_game() -> None:
    # target 194: seat 0 has exactly 194 after deal 1 (176 for seat 1): "game to N" means reaching N
    game = three_deals(target=194)
    assert len(game.history) == 1 and game.is_over and game.winner == 0
