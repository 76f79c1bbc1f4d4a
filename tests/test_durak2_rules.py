"""Two-player Durak, RULES.md §2, worked by hand on scripted deals (see tests/_durak2_kit.py)."""

from __future__ import annotations

import pytest
from _durak2_kit import (
    A_BOUT2,
    A_DRAW1,
    BOUT1,
    DEAL,
    codes,
    hand,
    run,
    scenario_a,
    scenario_b,
    shoe,
)

from engine.cards import card
from engine.durak2 import Durak2
from engine.events import ev


# ----------------------------------------------------------------------------- deal
def test_deal_three_and_three_then_the_turned_card_sets_trump_no_bidding_unlike_seed() -> None:
    # Seed 000 says «Далее происходит заказ игры» here (copied from Belot); RULES.md §2: ignore it.
    game = Durak2()
    run(game, shoe("6C 6D 6H 8C 8D 8H"))
    # First batch: 3 to the non-dealer (seat 0), 3 to the dealer (seat 1).
    assert hand(game, 0) == codes("6C 6D 6H") and hand(game, 1) == codes("8C 8D 8H")
    assert game.expects_shoe and game.to_act() is None
    run(game, shoe("6S 7C 7D 7S 9C 9D 8S"))
    assert hand(game, 0) == codes("6C 6D 6H 6S 7C 7D")
    assert hand(game, 1) == codes("8C 8D 8H 7S 9C 9D")
    d = game.describe()
    assert d["trump"] == "S" and d["trump_card"] == "8S"
    # The turned card lies under the talon: 36 - 12 dealt = 24 cards to draw (23 in the shoe + 8S).
    assert d["talon"] == 24 and d["trump_card_in_talon"]
    assert not game.expects_shoe


def test_first_attacker_is_the_holder_of_the_lowest_trump() -> None:
    # 6S (seat 0) is lower than 7S (seat 1).
    game = run(Durak2(), shoe(DEAL))
    assert game.to_act() == 0 and game.describe()["attacker"] == 0
    # Swap the batches: seat 1 now holds 6S and attacks, although seat 0 holds the 7S.
    game = run(Durak2(), shoe("8C 8D 8H 6C 6D 6H 7S 9C 9D 6S 7C 7D 8S"))
    assert "6S" in hand(game, 1) and "7S" in hand(game, 0)
    assert game.to_act() == 1


def test_redeal_when_neither_player_holds_a_trump() -> None:
    game = Durak2()
    # No spade among the twelve dealt cards and the 13th card is the AS: redeal.
    run(game, shoe("6C 6D 6H 7C 7D 7H 8C 8D 8H 9C 9D 9H AS"))
    assert game.expects_shoe and game.hands == [0, 0]
    assert game.describe()["redeals"] == 1 and game.describe()["trump"] is None
    # The deck is gathered and shuffled: the same cards may come out of the shoe again.
    run(game, shoe(DEAL))
    assert game.to_act() == 0 and game.describe()["trump"] == "S"
    run(game, BOUT1)
    assert hand(game, 0) == set()


def test_the_turned_card_is_drawn_last_without_a_shoe_event() -> None:
    game = scenario_a()
    # Seat 1 (attacker of bout 2) drew 9S TS QH KS AS 7H; seat 0 drew AC AD 9H AH KH and then the
    # turned 8S was assigned automatically: 12 + 12 + 11 shoe events in all, 8S never from the shoe.
    assert hand(game, 1) == codes("9S TS QH KS AS 7H")
    assert hand(game, 0) == codes("AC AD 9H AH KH 8S")
    assert sum(1 for e in game.raw_log if e.kind == "shoe") == 13 + 12 + 11
    assert game.describe()["talon"] == 0 and not game.describe()["trump_card_in_talon"]
    # No more cards are due from the shoe; 8S is not a card the shoe may deliver.
    assert not game.expects_shoe


# ----------------------------------------------------------------------------- beating
# seat 0: 6C 6D 6H 6S 9C 9D, seat 1: 8C 8D 8H 7S 7C 7D, trump ♠ (8S turned); 6S < 7S: seat 0 leads.
BEAT_DEAL = "6C 6D 6H 8C 8D 8H 6S 9C 9D 7S 7C 7D 8S"


@pytest.mark.parametrize(
    ("lead", "defence", "legal"),
    [
        ("6C", "8C", True),   # a higher card of the same suit
        ("6C", "7C", True),
        ("6C", "7S", True),   # any trump beats a plain card
        ("6C", "8D", False),  # another plain suit never beats, however high
        ("9C", "7C", False),  # a lower card of the same suit
        ("9C", "8C", False),
        ("9C", "7S", True),   # the trump 7 beats the plain 9
        ("6S", "7S", True),   # a trump by a higher trump
        ("6S", "8C", False),  # a trump is not beaten by a plain card
    ],
)
def test_beating(lead: str, defence: str, legal: bool) -> None:
    game = run(Durak2(), [*shoe(BEAT_DEAL), f"0 play {lead}"])
    verdict = game.judge(ev(f"1 beat {defence} {lead}"))
    assert verdict.legal is legal
    listed = ev(f"1 beat {defence} {lead}") in game.legal_actions(1)
    assert listed is legal
    if not legal:
        assert verdict.rule == "beat" and card(defence).pretty() in verdict.message


def test_a_lower_trump_does_not_beat_a_higher_trump() -> None:
    # seat 0: 7S 6D 6H 6C 7C 7D, seat 1: 6S 9S 8H 8C 9C 9D, trump ♠ (8S turned).
    # 6S (seat 1) is the lowest trump: seat 1 leads its 9S; seat 0's 7S is a lower trump.
    game = run(Durak2(), [*shoe("7S 6D 6H 6S 9S 8H 6C 7C 7D 8C 9C 9D 8S"), "1 play 9S"])
    verdict = game.judge(ev("0 beat 7S 9S"))
    assert not verdict.legal and verdict.rule == "beat" and "higher trump" in verdict.message
    assert [str(e) for e in game.legal_actions(0)] == ["0 take"]


def test_a_trump_is_beaten_only_by_a_higher_trump() -> None:
    # Seat 0 leads its 6S trump; seat 1's 7S beats it, its 9C (a plain card) does not.
    game = run(Durak2(), [*shoe(DEAL), "0 play 6S"])
    assert game.judge(ev("1 beat 7S 6S")).legal
    verdict = game.judge(ev("1 beat 9C 6S"))
    assert not verdict.legal and verdict.rule == "beat" and "higher trump" in verdict.message
    # In scenario A seat 0 leads its 8S; seat 1's 9S is a higher trump, its 7H is not a trump.
    game = run(scenario_a(), ["0 play 8S"])
    assert game.judge(ev("1 beat 9S 8S")).legal
    assert not game.judge(ev("1 beat 7H 8S")).legal


# ----------------------------------------------------------------------------- throw-ins
def test_throw_in_only_by_a_rank_already_on_the_table() -> None:
    game = run(Durak2(), [*shoe(DEAL), "0 play 6C", "1 beat 8C 6C"])
    # Ranks on the table: 6 (attack) and 8 (defence). 6D may be thrown in, 7C may not.
    assert game.judge(ev("0 play 6D")).legal
    verdict = game.judge(ev("0 play 7C"))
    assert not verdict.legal and verdict.rule == "throw-in-rank"
    # The defender's rank counts too: after 6S is beaten by 7S, the 7C may follow.
    run(game, ["0 play 6S", "1 beat 7S 6S"])
    assert game.judge(ev("0 play 7C")).legal
    listed = {str(e) for e in game.legal_actions(0)}
    assert listed == {"0 play 6D", "0 play 6H", "0 play 7C", "0 play 7D", "0 done"}


def test_bout_cap_is_six_cards_even_when_the_attacker_holds_more() -> None:
    # Deal: seat 0 6C 6D 6H 6S 7C 7D, seat 1 8C 8D 8H 7S 9C 9D, turned AS (trump ♠); 6S < 7S.
    game = run(Durak2(), shoe("6C 6D 6H 8C 8D 8H 6S 7C 7D 7S 9C 9D AS"))
    # Bout 1: 6C, «беру», then 6D 6H 6S thrown in: seat 1 takes 4 and holds 10; seat 0 draws 4.
    run(game, ["0 play 6C", "1 take", "0 play 6D", "0 play 6H", "0 play 6S", "0 done"])
    run(game, shoe("8S 9H TC TD"))
    # Bout 2 (same attacker): 7C beaten by 9C, «бито»; seat 0 draws 1 (JC); seat 1 keeps 9 cards.
    run(game, ["0 play 7C", "1 beat 9C 7C", "0 done", *shoe("JC")])
    assert hand(game, 0) == codes("7D 8S 9H TC TD JC")
    assert hand(game, 1) == codes("8C 8D 8H 7S 9D 6C 6D 6H 6S")
    # Bout 3: seat 1 attacks seat 0 (6 cards): the four sixes, seat 0 beats 6C with the 8S, so
    # the eights may follow: 6C 6D 6H 6S 8C 8D = 6 cards; the 8H would be the 7th.
    run(game, ["1 play 6C", "1 play 6D", "1 play 6H", "1 play 6S", "0 beat 8S 6C",
               "1 play 8C", "1 play 8D"])
    verdict = game.judge(ev("1 play 8H"))
    assert not verdict.legal and verdict.rule == "bout-cap" and "at most 6" in verdict.message
    assert ev("1 play 8H") not in game.legal_actions()


def test_cap_when_the_talon_is_empty_is_the_defenders_hand_at_the_start_of_the_bout() -> None:
    game = scenario_a()
    # Bout 3: seat 0 leads AC, seat 1 says «беру», seat 0 throws in AD and AH (rank A is on the
    # table; 3 cards <= cap 6) and ends: seat 1 takes 3 -> 6 + 3 = 9 cards, seat 0 has 9H KH 8S.
    run(game, ["0 play AC", "1 take", "0 play AD", "0 play AH", "0 done"])
    assert len(hand(game, 1)) == 9 and hand(game, 0) == codes("9H KH 8S")
    # After a take the same attacker attacks again. Bout 4: 9H beaten by QH, «бито».
    assert game.describe()["attacker"] == 0
    run(game, ["0 play 9H", "1 beat QH 9H", "0 done"])
    # Now seat 1 (8 cards: 9S TS KS AS 7H AC AD AH) attacks seat 0, who holds KH 8S: 2 cards,
    # the talon is empty, so at most 2 cards in this bout.
    assert game.describe()["attacker"] == 1 and game.describe()["cap"] == 2
    run(game, ["1 play AC", "0 beat 8S AC"])
    # Seat 0 now holds only KH; AD is card 2 of 2 - still within the cap of the bout's start.
    run(game, ["1 play AD", "0 take"])
    # A third ace after «беру» would be card 3 > 2.
    verdict = game.judge(ev("1 play AH"))
    assert not verdict.legal and verdict.rule == "bout-cap"
    assert "held 2" in verdict.message
    assert [str(e) for e in game.legal_actions(1)] == ["1 done"]
    run(game, ["1 done"])
    # Seat 0 takes AC 8S AD on top of KH.
    assert hand(game, 0) == codes("KH AC 8S AD")


def test_take_then_throw_ins_up_to_the_limit() -> None:
    game = scenario_a()
    run(game, ["0 play AC", "1 take"])
    # After «беру» the defender cannot beat any more, and the attacker may throw in by rank.
    listed = {str(e) for e in game.legal_actions()}
    assert listed == {"0 play AD", "0 play AH", "0 done"}
    run(game, ["0 play AD", "0 done"])
    assert codes("AC AD") <= hand(game, 1)
    assert game.describe()["table"] == []


# ----------------------------------------------------------------------------- drawing, next attacker
def test_drawing_order_when_the_talon_runs_short_attacker_first_defender_gets_none() -> None:
    game = scenario_b()
    # Talon: 3 shoe cards + the turned 8S = 4.
    assert game.describe()["talon"] == 4
    assert hand(game, 0) == codes("QC QD QH KS 7H 9H")
    assert hand(game, 1) == codes("KC KD KH AS 9S TS")
    # Bout 3: seat 0 attacks with four cards, seat 1 beats them all.
    run(game, ["0 play QC", "1 beat KC QC", "0 play QD", "1 beat KD QD",
               "0 play QH", "1 beat KH QH", "0 play KS", "1 beat AS KS", "0 done"])
    # Seat 0 (attacker) needs 4: the 3 shoe cards and then the turned 8S. Seat 1 needs 4, gets 0.
    run(game, shoe("AC AD AH"))
    assert hand(game, 0) == codes("7H 9H AC AD AH 8S")
    assert hand(game, 1) == codes("9S TS")
    assert not game.expects_shoe and game.describe()["talon"] == 0
    # After a beaten bout the defender attacks.
    assert game.describe()["attacker"] == 1 and game.to_act() == 1


def test_drawing_goes_to_the_attacker_first() -> None:
    game = run(Durak2(), shoe(DEAL) + BOUT1)
    # Both hands are empty after bout 1; the first six cards go to seat 0 (the attacker).
    run(game, shoe("JC JD JH QS KC KD"))
    assert hand(game, 0) == codes("JC JD JH QS KC KD") and hand(game, 1) == set()
    run(game, shoe("TC TD TH JS QC QD"))
    assert hand(game, 1) == codes("TC TD TH JS QC QD")
    assert game.describe()["attacker"] == 1  # seat 1 beat everything


def test_after_a_take_the_same_attacker_attacks_again_and_both_draw() -> None:
    game = run(Durak2(), [*shoe(DEAL), "0 play 6C", "1 take", "0 play 6D", "0 done"])
    # Seat 0 played 2 and draws 2; seat 1 has 8 and draws none.
    assert game.expects_shoe
    run(game, shoe("AC AD"))
    assert not game.expects_shoe
    assert hand(game, 0) == codes("6H 6S 7C 7D AC AD")
    assert len(hand(game, 1)) == 8
    assert game.describe()["attacker"] == 0


# ----------------------------------------------------------------------------- end of a game
def test_both_players_out_of_cards_is_a_draw_no_point() -> None:
    game = scenario_a()
    # Bout 3: seat 0 attacks five cards, seat 1 beats all five:
    #   AC<9S, AD<TS (trumps on plain), 9H<QH (rank 9 on the table), AH<KS (rank A), KH<AS (rank K).
    run(game, ["0 play AC", "1 beat 9S AC", "0 play AD", "1 beat TS AD",
               "0 play 9H", "1 beat QH 9H", "0 play AH", "1 beat KS AH",
               "0 play KH", "1 beat AS KH", "0 done"])
    # The talon is empty, seat 0 holds 8S, seat 1 holds 7H: seat 1 attacks, the cap is 1.
    assert hand(game, 0) == {"8S"} and hand(game, 1) == {"7H"}
    run(game, ["1 play 7H", "0 beat 8S 7H", "1 done"])
    # Both out with the talon empty: a draw, no point (short game: the partie ends 0-0).
    assert game.is_over
    sheet = game.score_sheet()
    assert sheet.totals == [0, 0] and sheet.deals[0].points == [0, 0]
    assert sheet.finished and sheet.winner is None and "draw" in sheet.result
    assert any("draw" in n for n in sheet.deals[0].notes)


def test_the_player_without_cards_wins_one_point() -> None:
    game = scenario_a()
    run(game, ["0 play AC", "1 beat 9S AC", "0 play AD", "1 beat TS AD",
               "0 play 9H", "1 beat QH 9H", "0 play AH", "1 beat KS AH",
               "0 play KH", "1 beat AS KH", "0 done"])
    # Seat 0 takes the 7H instead of beating it: seat 1 is out of cards with the talon empty.
    run(game, ["1 play 7H", "0 take", "1 done"])
    sheet = game.score_sheet()
    # Seat 1 wins: 1 point; seat 0 is the durak.
    assert sheet.totals == [0, 1] and sheet.winner == 1
    assert [(i.side, i.points, i.rule) for i in sheet.deals[0].items] == [(1, 1, "durak-win")]


def test_the_game_does_not_end_while_the_talon_has_cards() -> None:
    # After BOUT1 both hands are empty, but the talon is full: they draw, nobody has won.
    game = run(Durak2(), shoe(DEAL) + BOUT1)
    assert not game.is_over and game.expects_shoe


# ----------------------------------------------------------------------------- game types
def test_super_short_one_deal_talon_never_used_first_out_wins() -> None:
    game = Durak2(game_type="super_short")
    run(game, shoe(DEAL))
    assert game.describe()["talon"] == 0
    # Seat 0 attacks with 5 cards, seat 1 beats all five and then the sixth is 7D, which it takes.
    run(game, ["0 play 6C", "1 beat 8C 6C", "0 play 6D", "1 beat 8D 6D",
               "0 play 6H", "1 beat 8H 6H", "0 play 6S", "1 beat 7S 6S",
               "0 play 7C", "1 beat 9C 7C", "0 play 7D", "1 take", "0 done"])
    # Seat 0 emptied its hand first: wins, no shoe card was ever due after the deal.
    assert game.is_over and not game.expects_shoe
    assert game.score_sheet().totals == [1, 0]


def test_super_short_both_out_is_a_draw_and_nobody_draws_after_a_bout() -> None:
    game = Durak2(game_type="super_short")
    run(game, [*shoe(DEAL), "0 play 6C", "1 beat 8C 6C", "0 done"])
    # No drawing in super short: seat 0 now holds 5 cards, and seat 1 attacks.
    assert not game.expects_shoe and len(hand(game, 0)) == 5 and game.to_act() == 1
    game = Durak2(game_type="super_short")
    run(game, shoe(DEAL) + BOUT1)
    assert game.is_over and game.score_sheet().totals == [0, 0]


def test_long_game_winner_attacks_first_and_the_loser_deals() -> None:
    game = Durak2(game_type="long3")
    run(game, shoe(DEAL) + BOUT1 + shoe(A_DRAW1) + A_BOUT2 + shoe("9S TS QH KS AS 7H AC AD 9H AH KH"))
    run(game, ["0 play AC", "1 beat 9S AC", "0 play AD", "1 beat TS AD",
               "0 play 9H", "1 beat QH 9H", "0 play AH", "1 beat KS AH",
               "0 play KH", "1 beat AS KH", "0 done", "1 play 7H", "0 take", "1 done"])
    # Seat 1 won game 1 (1 point of 3): game 2 is dealt by seat 0 (the durak), so seat 1 gets
    # cards 1-3 and 7-9. Seat 1 attacks first as the winner, even though no one holds a trump
    # (no redeal in later games).
    assert not game.is_over and game.expects_shoe
    assert game.describe()["dealer"] == 0 and game.describe()["deal"] == 2
    run(game, shoe("6C 6D 6H 7C 7D 7H 8C 8D 8H 9C 9D 9H AS"))
    assert hand(game, 1) == codes("6C 6D 6H 8C 8D 8H")
    assert game.describe()["redeals"] == 0
    assert game.to_act() == 1 and game.describe()["attacker"] == 1
    assert game.score_sheet().totals == [0, 1]


@pytest.mark.parametrize(("game_type", "target"), [("long3", 3), ("long5", 5), ("long7", 7)])
def test_long_games_end_when_a_player_reaches_the_target(game_type: str, target: int) -> None:
    import random

    from engine.playout import play_out

    game = play_out(Durak2(game_type=game_type), random.Random(target))
    sheet = game.score_sheet()
    assert sheet.finished and max(sheet.totals) == target
    # Every game but the last left both players below the target.
    running = [0, 0]
    for deal in sheet.deals[:-1]:
        running = [r + p for r, p in zip(running, deal.points, strict=True)]
        assert max(running) < target


def test_short_game_is_one_game() -> None:
    game = scenario_a()
    run(game, ["0 play AC", "1 beat 9S AC", "0 play AD", "1 beat TS AD",
               "0 play 9H", "1 beat QH 9H", "0 play AH", "1 beat KS AH",
               "0 play KH", "1 beat AS KH", "0 done", "1 play 7H", "0 take", "1 done"])
    assert game.is_over and len(game.score_sheet().deals) == 1
    assert game.legal_actions() == []


# ----------------------------------------------------------------------------- records, displays
def test_a_record_with_a_redeal_replays_to_the_same_state() -> None:
    import json

    from engine import record as records

    game = Durak2(game_type="long3")
    run(game, [*shoe("6C 6D 6H 7C 7D 7H 8C 8D 8H 9C 9D 9H AS"), *shoe(DEAL), *BOUT1])
    text = records.dumps(game)
    assert "option game_type=long3" in text
    back = records.loads(text).game
    assert back.snapshot() == game.snapshot() and back.raw_log == game.raw_log
    # describe() is plain JSON for the table display.
    d = json.loads(json.dumps(game.describe()))
    assert d["redeals"] == 1 and d["expects_shoe"] and d["hand_sizes"] == [0, 0]


# ----------------------------------------------------------------------------- review additions
def test_short_talon_the_attacker_draws_it_all_and_the_defender_out_of_cards_wins() -> None:
    # The seed's own example: the attacker must draw what the talon holds «даже если это может
    # привести к его автоматическому проигрышу».
    game = run(Durak2(), shoe(DEAL) + BOUT1)
    # Draw after bout 1 (talon 24 -> 12): seat 0 first, then seat 1.
    run(game, shoe("KC KD KH AS 7H 9S QC QD QH KS 9H TS"))
    # Bout 2, seat 1 attacks four: QC<KC QD<KD QH<KH, KS (rank K on the table) < AS (higher trump).
    run(game, ["1 play QC", "0 beat KC QC", "1 play QD", "0 beat KD QD",
               "1 play QH", "0 beat KH QH", "1 play KS", "0 beat AS KS", "1 done"])
    # Talon 12 - 4 - 4 = 4 (AC AD AH in the shoe + 8S): seat 1 draws 4 first, then seat 0 draws 4.
    run(game, shoe("JC JD JH QS TC TD TH JS"))
    assert hand(game, 0) == codes("7H 9S TC TD TH JS")
    assert hand(game, 1) == codes("9H TS JC JD JH QS")
    assert game.describe()["talon"] == 4 and game.describe()["attacker"] == 0
    # Bout 3, six cards, all beaten: 7H<9H, 9S<TS (rank 9 on the table; higher trump), TC<JC,
    # TD<JD, TH<JH (rank T), JS<QS (rank J; higher trump). Both hands are now empty.
    run(game, ["0 play 7H", "1 beat 9H 7H", "0 play 9S", "1 beat TS 9S",
               "0 play TC", "1 beat JC TC", "0 play TD", "1 beat JD TD",
               "0 play TH", "1 beat JH TH", "0 play JS", "1 beat QS JS", "0 done"])
    # Seat 0 (attacker) needs 6 and takes the whole talon: AC AD AH from the shoe, then the turned
    # 8S. Seat 1 gets nothing; the talon is empty and seat 1 holds no card: seat 1 wins, 0-1.
    run(game, shoe("AC AD AH"))
    assert hand(game, 0) == codes("AC AD AH 8S") and hand(game, 1) == set()
    assert game.is_over
    sheet = game.score_sheet()
    assert sheet.totals == [0, 1] and sheet.winner == 1
    assert [(i.side, i.points, i.rule) for i in sheet.deals[0].items] == [(1, 1, "durak-win")]


def test_after_take_a_rank_only_among_the_defending_cards_may_be_thrown_in() -> None:
    game = run(Durak2(), shoe(DEAL))
    # 6C is beaten by the trump 7S: ranks 6 and 7 are on the table; 6D follows and is taken.
    run(game, ["0 play 6C", "1 beat 7S 6C", "0 play 6D", "1 take"])
    # The 7s are on the table only as a defending card (7S), yet 7C and 7D may follow «беру».
    assert game.judge(ev("0 play 7C")).legal
    listed = {str(e) for e in game.legal_actions()}
    assert listed == {"0 play 6H", "0 play 6S", "0 play 7C", "0 play 7D", "0 done"}
    # 6C 6D 7C 7D 6H 6S: six cards, the cap (seat 1 held 6 when the bout began).
    run(game, ["0 play 7C", "0 play 7D", "0 play 6H", "0 play 6S", "0 done"])
    # Seat 1 takes all seven cards on the table (six attacks + 7S): 5 left + 7 = 12.
    assert len(hand(game, 1)) == 12 and hand(game, 0) == set()
    # Seat 0 draws six; seat 1 draws none; seat 0 attacks again.
    run(game, shoe("AC AD AH KC KD KH"))
    assert not game.expects_shoe and game.describe()["attacker"] == 0


def test_long_game_after_a_drawn_game_no_point_other_dealer_lowest_trump_again() -> None:
    # Reading where RULES.md is silent (docs/games/durak2.md): a drawn game has no winner to
    # attack first, so the lowest trump decides again (with its redeal) and the other player deals.
    game = Durak2(game_type="long3")
    run(game, shoe(DEAL) + BOUT1 + shoe(A_DRAW1) + A_BOUT2 + shoe("9S TS QH KS AS 7H AC AD 9H AH KH"))
    run(game, ["0 play AC", "1 beat 9S AC", "0 play AD", "1 beat TS AD",
               "0 play 9H", "1 beat QH 9H", "0 play AH", "1 beat KS AH",
               "0 play KH", "1 beat AS KH", "0 done", "1 play 7H", "0 beat 8S 7H", "1 done"])
    # Both out: a draw, 0-0, the partie goes on (3 wins needed).
    assert not game.is_over and game.score_sheet().totals == [0, 0]
    assert game.describe()["deal"] == 2 and game.describe()["dealer"] == 0
    # Dealer seat 0: seat 1 gets cards 1-3 and 7-9. No spade dealt: redeal.
    run(game, shoe("6C 6D 6H 7C 7D 7H 8C 8D 8H 9C 9D 9H AS"))
    assert game.describe()["redeals"] == 1 and game.expects_shoe
    run(game, shoe(DEAL))
    # Seat 1 now holds 6S (lowest trump) against seat 0's 7S: seat 1 attacks.
    assert "6S" in hand(game, 1) and "7S" in hand(game, 0)
    assert game.to_act() == 1 and game.describe()["attacker"] == 1


def test_super_short_cap_is_the_defenders_hand_though_the_unused_deck_is_not_empty_unlike_seed() -> None:
    # Seed 000 limits a bout to the defender's hand only «при условии, что в колоде больше не
    # осталось карт»; in super short the rest of the deck is never used but is not empty.
    # RULES.md §2: never more than the defender held at the start of the bout, always.
    # Trump ♠ (AS turned). Seat 0: 6C 6D 6H 7S 7C 8H, seat 1: 9C 9D 9H 8S JC JD; 7S < 8S: seat 0.
    game = run(Durak2(game_type="super_short"), shoe("6C 6D 6H 9C 9D 9H 7S 7C 8H 8S JC JD AS"))
    # Bout 1: 6C, «беру», 6D 6H thrown in: seat 1 takes 3 (9 cards), seat 0 keeps 7S 7C 8H.
    # Bout 2 (same attacker): 7C < 9C, «бито». Seat 0 holds 7S 8H: 2 cards, and defends next.
    run(game, ["0 play 6C", "1 take", "0 play 6D", "0 play 6H", "0 done",
               "0 play 7C", "1 beat 9C 7C", "0 done"])
    assert hand(game, 0) == codes("7S 8H") and game.describe()["attacker"] == 1
    assert game.describe()["cap"] == 2
    # Bout 3: seat 1 leads 6C and throws in 6D (2 of 2); the 6H would be card 3 > 2.
    run(game, ["1 play 6C", "1 play 6D"])
    verdict = game.judge(ev("1 play 6H"))
    assert not verdict.legal and verdict.rule == "bout-cap" and "held 2" in verdict.message
    assert ev("1 play 6H") not in game.legal_actions()
    # Seat 0 beats 6C with the trump 7S but cannot beat 6D (8H is a heart): «беру».
    run(game, ["0 beat 7S 6C", "0 take", "1 done"])
    assert hand(game, 0) == codes("8H 6C 7S 6D") and game.describe()["attacker"] == 1


def test_first_attacker_after_a_drawn_game_by_rules_md_section_6() -> None:
    """RULES.md §6: after a drawn game the holder of the lowest trump attacks first, as in the
    first game (redeal if neither holds one). Random long partie until some drawn games are seen;
    at the start of each following game the lowest trump is found here from the hands."""
    import random

    from engine.cards import card as card_of

    order = "6789TJQKA"
    after_draw = 0
    rng = random.Random(20261201)
    for _ in range(400):
        game = Durak2(game_type="long7")
        prev_phase, games_seen, drawn_before = game.phase, 0, False
        while not game.is_over:
            game.apply(rng.choice(game.legal_actions()))
            if len(game.games) > games_seen:
                games_seen = len(game.games)
                drawn_before = game.games[-1][6] == -1  # the winner field: -1 is a draw
            if prev_phase == "deal" and game.phase == "play" and drawn_before:
                trump = game.describe()["trump"]
                lows = {s: min((order.index(c.code[0]) for c in game.hand(s) if c.code[1] == trump),
                               default=99) for s in (0, 1)}
                assert min(lows.values()) < 99  # otherwise the engine must have redealt
                holder = min(lows, key=lambda s: lows[s])
                assert game.attacker == holder, (lows, game.attacker)
                assert card_of(f"{order[lows[holder]]}{trump}").code in {c.code for c in game.hand(holder)}
                after_draw += 1
                drawn_before = False
            prev_phase = game.phase
        if after_draw >= 5:
            break
    assert after_draw >= 5, "random partie produced too few drawn games to check"
