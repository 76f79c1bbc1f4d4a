"""Two-player Belot: the shoe deal protocol, bidding and redeals, first speaker, seven swap,
combinations and their comparison, bella, play duties and the table policies (RULES.md §1)."""

from __future__ import annotations

import pytest
from _belot2_helpers import (
    SWEEP,
    SWEEP_PLAY_1_LEADS,
    SWEEP_TURNED,
    confirm,
    deal,
    finish_with_first_legal,
    items,
    mask,
    plays,
    shoe_order,
)

from engine.belot2 import Belot2
from engine.errors import ActionNotAllowedError, IllegalPlayError, SettingsError
from engine.events import ev

SHOE20 = ["AS", "KS", "QS", "JS", "TS", "9S", "8S", "7S", "AH", "KH",
          "QH", "JH", "TH", "9H", "8H", "7H", "AD", "KD", "QD", "JD"]


def shoe(game: Belot2, codes: list[str]) -> None:
    for code in codes:
        game.apply(ev(f"shoe {code}"))


def test_shoe_protocol_and_second_open_card_is_the_next_shoe_card_not_the_bottom_card_of_seed_000() -> None:
    g = Belot2()  # seat 0 deals: seat 1 is the non-dealer
    shoe(g, SHOE20[:12])
    assert g.expects_shoe and g.describe()["trump_card"] is None
    # Cards 1-3 and 7-9 to the non-dealer, 4-6 and 10-12 to the dealer.
    assert g.hands[1] == mask("AS KS QS 8S 7S AH")
    assert g.hands[0] == mask("JS TS 9S KH QH JH")
    shoe(g, SHOE20[12:13])
    assert g.describe()["trump_card"] == "TH" and not g.expects_shoe and g.to_act() == 1
    g.apply(ev("1 bid play"))
    shoe(g, SHOE20[13:19])
    # Cards 14-16 to the non-dealer, 17-19 to the dealer; card 20 is the second open card.
    assert g.hands[1] == mask("AS KS QS 8S 7S AH 9H 8H 7H")
    assert g.hands[0] == mask("JS TS 9S KH QH JH AD KD QD")
    assert g.expects_shoe
    shoe(g, SHOE20[19:])
    assert g.describe()["second_open"] == "JD" and g.phase == 3 and g.to_act() == 1
    assert g.legal_actions() and not g.expects_shoe


def test_shoe_protocol_follows_the_dealer_in_the_next_deal() -> None:
    g = Belot2(first_dealer=1)
    shoe(g, SHOE20[:6])
    assert g.hands[0] == mask("AS KS QS") and g.hands[1] == mask("JS TS 9S")


@pytest.mark.parametrize("options", [{"rozaliev": True}, {"second_open_card": False}])
def test_no_second_open_card_play_starts_after_nineteen_cards(options: dict) -> None:
    g = Belot2(options)
    shoe(g, SHOE20[:13])
    g.apply(ev("1 bid play"))
    shoe(g, SHOE20[13:19])
    assert not g.expects_shoe and g.phase == 3 and g.describe()["second_open"] is None


def test_rozaliev_contradicting_options_are_refused() -> None:
    with pytest.raises(SettingsError, match="rozaliev"):
        Belot2(rozaliev=True, game_type="301")
    with pytest.raises(SettingsError, match="rozaliev"):
        Belot2(rozaliev=True, first_speaker="loser")
    assert Belot2(rozaliev=True)._target == 501


def test_game_type_accepts_numbers_as_in_records() -> None:
    assert Belot2(game_type=301)._target == 301
    assert Belot2({"game_type": "301"}).settings.game_type == "301"


def test_round_one_second_speaker_plays_on_the_turned_suit() -> None:
    g = Belot2()
    shoe(g, SHOE20[:13])
    assert g.legal_actions() == [ev("1 bid play"), ev("1 bid pass")]
    g.apply(ev("1 bid pass"))
    g.apply(ev("0 bid play"))
    assert g.trump_suit == "H" and g.declarer == 0 and g.expects_shoe


def test_round_two_names_another_suit() -> None:
    g = Belot2()
    shoe(g, SHOE20[:13])
    for bid in ["1 bid pass", "0 bid pass", "1 bid pass"]:
        g.apply(ev(bid))
    assert {str(a) for a in g.legal_actions()} == {"0 bid C", "0 bid D", "0 bid S", "0 bid pass"}
    g.apply(ev("0 bid C"))
    assert g.trump_suit == "C" and g.declarer == 0
    # The first speaker still leads.
    shoe(g, SHOE20[13:20])
    assert g.to_act() == 1


def test_two_passes_in_round_two_redeal_and_the_first_word_passes() -> None:
    g = Belot2(game_type="501")
    shoe(g, SHOE20[:13])
    for bid in ["1 bid pass", "0 bid pass", "1 bid pass", "0 bid pass"]:
        g.apply(ev(bid))
    assert g.expects_shoe and g.deal_no == 2 and g.dealer == 1 and g.first == 0
    assert g.hands == [0, 0] and g.seen == 0  # the same cards may come out again
    sheet = g.score_sheet()
    assert sheet.deals[0].points == [0, 0] and "redeal" in sheet.deals[0].notes[0]
    shoe(g, SHOE20[:13])
    assert g.to_act() == 0  # the other player speaks first now


def test_first_speaker_is_the_loser_of_the_previous_deal() -> None:
    g = Belot2(game_type="501")
    deal(g, SWEEP, SWEEP_TURNED, ["1 bid play"])
    plays(g, SWEEP_PLAY_1_LEADS)
    confirm(g)
    # Seat 0 lost 0 : 108; it now deals as well (alternation) and speaks first anyway.
    assert g.dealer == 1 and g.first == 0


def test_first_speaker_non_dealer_setting() -> None:
    g = Belot2(game_type="501", first_speaker="non_dealer")
    deal(g, SWEEP, SWEEP_TURNED, ["1 bid play"])
    plays(g, SWEEP_PLAY_1_LEADS)
    confirm(g)
    assert g.dealer == 1 and g.first == 0
    g2 = Belot2(game_type="501", first_speaker="non_dealer", first_dealer=1)
    assert g2.first == 0


def test_lot_decides_the_first_speaker_of_the_first_deal() -> None:
    g = Belot2(lot=0)
    shoe(g, SHOE20[:13])
    assert g.to_act() == 0  # the dealer won the lot


def test_seven_swap_only_when_trump_is_the_turned_suit() -> None:
    g = Belot2()
    hands = {1: "JH 9H AH AS TS KS AC TC KC", 0: "8H KH 7S 8S 9S 7C 7H 8C 9C"}
    deal(g, hands, "QH", ["1 bid pass", "0 bid pass", "1 bid S"])
    assert not any(a.kind == "swap" for a in g.legal_actions())
    with pytest.raises(ActionNotAllowedError, match="round 2"):
        g.apply(ev("0 swap 7H"))


def test_seven_swap_comes_before_the_first_play_and_may_follow_a_declaration() -> None:
    g = Belot2(game_type="501")
    hands = {1: "JH 9H AH AS TS KS AC TC KC", 0: "8H KH 7S 8S 9S 7C 7H 8C 9C"}
    deal(g, hands, "QH", ["1 bid play"])
    # RULES.md: the swap comes "before their first play"; a declaration is not a play, and the
    # declared 7-8-9 of spades stays in the hand whatever the swap does to the hearts.
    g.apply(ev("0 declare 7S 8S 9S"))
    assert ev("0 swap 7H") in g.legal_actions(0)
    g.apply(ev("0 swap 7H"))
    assert g.hands[0] == mask("8H QH KH 7S 8S 9S 7C 8C 9C")
    # The swap brought QH to KH (bella); the declared terz scores, the clubs terz still may.
    assert ev("0 bella") in g.legal_actions(0)
    assert {str(a) for a in g.legal_actions(0) if a.kind == "declare"} == {"0 declare 7C 8C 9C"}
    finish_with_first_legal(g)
    confirm(g)
    assert items(g, 1, "combinations") == [(0, 20)]
    g = Belot2()
    deal(g, hands, "QH", ["1 bid play"])
    plays(g, "1 JH 0 8H")
    with pytest.raises(ActionNotAllowedError, match="first play"):
        g.apply(ev("0 swap 7H"))


def test_seven_swap_refused_when_the_seven_is_in_a_declared_combination() -> None:
    g = Belot2()
    hands = {1: "JH AH TH AS TS KS AC TC KC", 0: "7H 8H 9H 7S 8S 9S 7C 8C KD"}
    deal(g, hands, "QH", ["1 bid play"])
    assert ev("0 swap 7H") in g.legal_actions(0)
    g.apply(ev("0 declare 7H 8H 9H"))
    # The declared terz 7-8-9 of hearts must stay in the hand: no swap of its 7.
    assert ev("0 swap 7H") not in g.legal_actions(0)
    with pytest.raises(ActionNotAllowedError, match="declared"):
        g.apply(ev("0 swap 7H"))


# Combinations: each case gives both hands (trump hearts by seat 1's «играю»), the declarations in
# order, and the hand-worked winner with the points it scores.
COMBO_CASES = {
    "higher top card wins (K-Q-J over Q-J-10)": (
        {1: "KS QS JS 7D 9D JD 7H 9H JH", 0: "QC JC TC 8D TD QD 8H TH QH"}, "KH",
        ["1 declare KS QS JS", "0 declare QC JC TC"], [(1, 20)]),
    "same top: the trump run wins though declared second": (
        {1: "KH QH JH 7D 9D JD 7C 9C AS", 0: "KS QS JS 8D TD QD 8C TC QC"}, "7H",
        ["0 declare KS QS JS", "1 declare KH QH JH"], [(1, 20)]),
    "both plain, same top: the one declared first wins (seat 1)": (
        {1: "KS QS JS 7D 9D JD 7H 9H AC", 0: "KC QC JC 8D TD QD 8H TH AS"}, "KH",
        ["1 declare KS QS JS", "0 declare KC QC JC"], [(1, 20)]),
    "both plain, same top: the one declared first wins (seat 0)": (
        {1: "KS QS JS 7D 9D JD 7H 9H AC", 0: "KC QC JC 8D TD QD 8H TH AS"}, "KH",
        ["0 declare KC QC JC", "1 declare KS QS JS"], [(0, 20)]),
    "two terzes lower than the opponent's one terz score nothing": (
        {1: "AS KS QS 7H 9H JH 7C 8C KD", 0: "QC JC TC 9D 8D 7D 8H TH AH"}, "QH",
        ["1 declare AS KS QS", "0 declare QC JC TC", "0 declare 9D 8D 7D"], [(1, 20)]),
    "the winner scores all its combinations (fifty + terz = 70)": (
        {1: "AS KS QS JS 7D 8D 9D 7H 9H", 0: "AC KC QC 8H TH JH TD JD QD"}, "KH",
        ["1 declare AS KS QS JS", "1 declare 7D 8D 9D", "0 declare AC KC QC"], [(1, 50), (1, 20)]),
    "a run of five is longer than a fifty and scores 50": (
        {1: "7D 8D 9D TD JD 7H 9H AS 7S", 0: "AC KC QC JC 8H TH 8S 9S KD"}, "KH",
        ["0 declare AC KC QC JC", "1 declare 7D 8D 9D TD JD"], [(1, 50)]),
}


@pytest.mark.parametrize("case", list(COMBO_CASES))
def test_combination_comparison(case: str) -> None:
    hands, turned, declarations, expected = COMBO_CASES[case]
    g = Belot2(game_type="501")
    deal(g, hands, turned, ["1 bid play"])
    for d in declarations:
        g.apply(ev(d))
    finish_with_first_legal(g)
    confirm(g)
    assert items(g, 1, "combinations") == expected


def test_declaring_part_of_a_run_or_after_ones_first_card_is_refused_rules_md_not_first_trick() -> None:
    g = Belot2()
    deal(g, {1: "AS KS QS JS 7D 8D 9D 7H 9H", 0: "AC KC QC 8H TH JH TD JD QD"}, "KH",
         ["1 bid play"])
    declares = {str(a) for a in g.legal_actions() if a.kind == "declare"}
    assert declares == {"1 declare JS QS KS AS", "1 declare 7D 8D 9D", "0 declare QC KC AC",
                        "0 declare TD JD QD"}
    with pytest.raises(ActionNotAllowedError, match="not a combination"):
        g.apply(ev("1 declare KS QS JS"))
    plays(g, "1 7H")
    with pytest.raises(ActionNotAllowedError, match="before one's first card"):
        g.apply(ev("1 declare AS KS QS JS"))
    # The follower may still declare before its own first card.
    g.apply(ev("0 declare AC KC QC"))


def test_sequence_order_setting_ace_ten_king() -> None:
    hands = {1: "AS TS KS JD 9D 8D 7H 9H QC", 0: "AC KC 7C 8H TH JH TD QD 7S"}
    plain = Belot2()
    deal(plain, hands, "KH", ["1 bid play"])
    assert not any(a.kind == "declare" and a.seat == 1 for a in plain.legal_actions())
    rozaliev_order = Belot2(sequence_order="ATKQJ987")
    deal(rozaliev_order, hands, "KH", ["1 bid play"])
    # A-10-K and J-9-8 are runs when 10 sits between A and K.
    assert {str(a) for a in rozaliev_order.legal_actions() if a.kind == "declare"} == {
        "1 declare TS KS AS", "1 declare 8D 9D JD"}


def test_bella_is_announced_no_later_than_the_second_card() -> None:
    g = Belot2()
    hands = {1: "KH QH AH AS TS KS AC TC KC", 0: "7H 8H 9H 7S 8S 9S 7C 8C 9C"}
    deal(g, hands, "TH", ["1 bid play"])
    assert ev("1 bella") in g.legal_actions()
    plays(g, "1 KH 0 9H")  # 9H beats KH in trumps: seat 0 must beat and does
    plays(g, "0 7C 1 AC")
    plays(g, "1 QH 0 7H")  # the second of the pair is gone without bella
    with pytest.raises(ActionNotAllowedError, match="too late"):
        g.apply(ev("1 bella"))
    g2 = Belot2()
    deal(g2, hands, "TH", ["1 bid play"])
    with pytest.raises(ActionNotAllowedError, match="king and queen"):
        g2.apply(ev("0 bella"))


def test_bella_may_be_announced_between_the_first_and_the_second_card() -> None:
    g = Belot2()
    hands = {1: "KH QH AH AS TS KS AC TC KC", 0: "7H 8H 9H 7S 8S 9S 7C 8C 9C"}
    deal(g, hands, "TH", ["1 bid play"])
    plays(g, "1 KH 0 9H")  # KH is down; QH is still in seat 1's hand
    assert ev("1 bella") in g.legal_actions(1)
    g.apply(ev("1 bella"))
    finish_with_first_legal(g)
    confirm(g)
    # Announced no later than the second card (QH): bella scores 20 for seat 1.
    assert items(g, 1, "bella") == [(1, 20)]


def test_play_duties_follow_trump_overtrump() -> None:
    g = Belot2()
    hands = {1: "JH 9H AH AS TS KS AC TC KC", 0: "7H 8H QH 7S 8S 9S 7C 8C 9C"}
    deal(g, hands, "TH", ["1 bid play"])
    plays(g, "1 AS")
    # Seat 0 must follow spades.
    assert {str(a) for a in g.legal_actions(0) if a.kind == "play"} == {
        "0 play 7S", "0 play 8S", "0 play 9S"}
    assert g.judge(ev("0 play 7H")).rule == "follow-suit"
    g = Belot2()
    deal(g, {1: "JH 9H AH AS TS KS AC TC KC", 0: "7H 8H QH 7D 8D 9D 7C 8C 9C"}, "TH",
         ["1 bid play"])
    plays(g, "1 AS")
    # Void in spades: must trump.
    assert {str(a) for a in g.legal_actions(0) if a.kind == "play"} == {
        "0 play 7H", "0 play 8H", "0 play QH"}
    assert g.judge(ev("0 play 7C")).rule == "must-trump"
    g = Belot2()
    deal(g, {1: "8H 9S AH AS TS KS AC TC KC", 0: "7H 9H QH 7D 8D 9D 7C 8C 9C"}, "TH",
         ["1 bid play"])
    plays(g, "1 8H")
    # Trump led: beat it if able (9H and QH beat 8H; 7H does not).
    assert {str(a) for a in g.legal_actions(0) if a.kind == "play"} == {"0 play 9H", "0 play QH"}
    assert g.judge(ev("0 play 7H")).rule == "overtrump"


def test_policy_retract_blocks_until_the_illegal_card_is_taken_back() -> None:
    g = Belot2(policy="retract")
    deal(g, SWEEP, SWEEP_TURNED, ["1 bid play"])
    plays(g, "1 AS")
    before = g.snapshot()
    with pytest.raises(IllegalPlayError) as info:
        g.apply(ev("0 play 7H"))
    assert info.value.rule == "follow-suit" and g.snapshot() == before
    verdict = g.record(ev("0 play 7H"))
    assert not verdict.legal and "did not follow suit" in verdict.message
    assert [str(a) for a in g.legal_actions()] == ["undo"]
    with pytest.raises(ActionNotAllowedError, match="taken back"):
        g.apply(ev("0 play 7S"))
    g.apply(ev("undo"))
    assert g.snapshot() == before
    g.apply(ev("0 play 7S"))


def test_foul_claims_only_under_on_claim_and_only_for_real_illegal_plays() -> None:
    g = Belot2(policy="on_claim")
    deal(g, SWEEP, SWEEP_TURNED, ["1 bid play"])
    plays(g, SWEEP_PLAY_1_LEADS)
    with pytest.raises(ActionNotAllowedError, match="legally"):
        g.apply(ev("1 foul 7S"))
    p = Belot2(policy="penalize")
    deal(p, SWEEP, SWEEP_TURNED, ["1 bid play"])
    plays(p, SWEEP_PLAY_1_LEADS)
    with pytest.raises(ActionNotAllowedError, match="on_claim"):
        p.apply(ev("1 foul 7S"))


def test_describe_and_score_sheet_name_the_state() -> None:
    g = Belot2(game_type="301")
    first, _ = shoe_order(g, SWEEP, SWEEP_TURNED)
    shoe(g, first)
    d = g.describe()
    assert d["phase"] == "bidding" and d["trump_card"] == "TH" and d["hand_sizes"] == [6, 6]
    assert d["to_act"] == 1 and d["target"] == 301
    sheet = g.score_sheet()
    assert not sheet.finished and sheet.options["game_type"] == "301"


def test_a_misread_shoe_card_is_fixed_and_the_deal_replayed() -> None:
    g = Belot2()
    shoe(g, SHOE20[:5])
    g.record(ev("fix 2 shoe 7C"))  # the camera read KS, the card was 7C
    assert g.hands[1] == mask("AS 7C QS") and g.raw_log[-1].kind == "fix"
    shoe(g, ["KS"])  # KS is still in the shoe
    assert g.hands[0] == mask("JS TS KS")


def test_penalize_records_the_illegal_play_and_play_goes_on() -> None:
    g = Belot2(policy="penalize")
    deal(g, SWEEP, SWEEP_TURNED, ["1 bid play"])
    plays(g, "1 AS")
    verdict = g.record(ev("0 play 7H"))
    assert not verdict.legal and verdict.rule == "follow-suit"
    assert g.describe()["fouls"] == [
        {"seat": 0, "card": "7H", "rule": "follow-suit", "trick": 1,
         "message": "held ♠, did not follow suit to A♠ with 7♥", "claimed": False}]
    assert g.to_act() == 0  # 7H trumped the ace: seat 0 won the trick and leads
    assert g.illegal_plays == [verdict]


def test_bid_words_in_any_case_and_in_russian() -> None:
    g = Belot2()
    shoe(g, SHOE20[:13])
    g.apply(ev("1 bid ПАС"))
    g.apply(ev("0 bid Pass"))
    g.apply(ev("1 bid пас"))
    g.apply(ev("0 bid c"))
    assert g.trump_suit == "C" and g.declarer == 0
    g2 = Belot2()
    shoe(g2, SHOE20[:13])
    g2.apply(ev("1 bid играю"))
    assert g2.trump_suit == "H" and g2.declarer == 1


def test_the_example_record_in_the_docs_replays_as_documented() -> None:
    import re
    from pathlib import Path

    from engine import record

    page = (Path(__file__).parents[1] / "docs" / "games" / "belot2.md").read_text(encoding="utf-8")
    block = page.split("## Example", 1)[1].split("```")[1]
    lines = [re.sub(r"\s*#.*$", "", line).strip() for line in block.strip().splitlines()]
    g = record.loads("\n".join(line for line in lines if line) + "\n").game
    assert isinstance(g, Belot2)
    # After the swap seat 0 holds TH, the 7H lies face up, and seat 1 has led JH.
    assert g.hands[0] == mask("TH 8H QH 7S 8S 9S 7C 8C 9C")
    assert g.hands[1] == mask("9H AH AS TS KS AC TC KC")
    assert g.describe()["trump_card"] == "7H" and g.describe()["table"] == ["JH"]
    assert g.describe()["second_open"] == "KD" and g.to_act() == 0


def test_bella_is_never_beaten_it_scores_for_the_loser_of_the_combinations() -> None:
    g = Belot2(game_type="501")
    deal(g, {1: "KS QS JS 7D 9D JD 7C 9C AC", 0: "QC JC TC 8D TD QD KH QH 8H"}, "7H",
         ["1 bid play"])
    for e in ["1 declare KS QS JS", "0 declare QC JC TC", "0 bella"]:
        g.apply(ev(e))
    finish_with_first_legal(g)
    confirm(g)
    # Seat 1's terz from the king beats seat 0's terz from the queen: 20 to seat 1 only;
    # seat 0's bella (trump K + Q) is 20 all the same.
    assert items(g, 1, "combinations") == [(1, 20)]
    assert items(g, 1, "bella") == [(0, 20)]


def test_rozaliev_redeal_passes_the_deal_and_the_first_word_to_the_other_player() -> None:
    g = Belot2(rozaliev=True)
    shoe(g, SHOE20[:13])
    for bid in ["1 bid pass", "0 bid pass", "1 bid pass", "0 bid pass"]:
        g.apply(ev(bid))
    assert g.dealer == 1 and g.first == 0
    shoe(g, SHOE20[:13])
    assert g.to_act() == 0


def test_the_view_shows_declared_combinations_as_cards_for_the_display() -> None:
    """The table view gives each declared combination typed, with its cards (the display words
    and draws them: «Боря: терц В♠ Д♠ К♠»), not a string of raw codes."""
    from engine.view import DeclarationView

    g = Belot2(game_type="501")
    deal(g, {1: "KS QS JS 7D 9D JD 7H 9H JH", 0: "QC JC TC 8D TD QD 8H TH QH"}, "KH",
         ["1 bid play"])
    g.apply(ev("1 declare KS QS JS"))
    assert g.table_view().declarations == [
        DeclarationView(seat=1, kind="combination", cards=["JS", "QS", "KS"])]  # low to high
