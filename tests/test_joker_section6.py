"""Joker illegal plays as RULES.md §6 settles them, and the score sheet naming each one.

§6: the offender's deal scores −200 (setting ``foul_penalty``) instead of its result; the offender
cannot earn that pulka's premium; a seat whose highest deal score in the pulka is negative loses
nothing to another player's premium. Every sheet names each illegal play penalised, claimed or
let go: seat, card, trick, rule and message.
"""

from __future__ import annotations

from typing import Any

from _joker_kit import bid, deal, new, plays, scripted_deal, skip_to_deal

from engine.events import ev, shoe
from engine.joker import Joker
from engine.scoresheet import CLAIMED, LET_GO, PENALISED

REVOKE_MESSAGE = "held ♥, did not follow suit"


def revoke_deal(**options: Any) -> Joker:
    """Deal 2 (dealer seat 1, seat 2 leads, no trump) in which seat 3 fails to follow hearts."""
    g = skip_to_deal(new(**options), 2)
    deal(g, ["7H 7C", "8H 8C", "9H 9C", "TH TC"], turned="RJ")
    bid(g, [0, 1, 0, 0])  # seats 2, 3, 0 bid 0; the dealer 1 bids 1 (total 1 ≠ 2)
    g.apply(ev("2 play 9H"))
    v = g.record(ev("3 play TC"))  # seat 3 holds TH: a revoke in trick 1
    assert not v.legal and v.rule == "follow-suit" and v.message == REVOKE_MESSAGE
    # 9H 103, TC 0 (off suit), 7H 101, 8H 102: seat 2 wins; then 9C 103, TH 0, 7C 101, 8C 102.
    plays(g, "0 play 7H", "1 play 8H", "2 play 9C", "3 play TH", "0 play 7C", "1 play 8C")
    assert g.results[-1][4] == (0, 0, 2, 0)
    return g


def test_foul_penalty_setting_replaces_the_offenders_result_by_rules_md_section_6() -> None:
    g = revoke_deal(foul_penalty=150)
    # seat 0 bid 0 took 0: 50; seat 1 bid 1 took 0: хишт −200; seat 2 bid 0 took 2: 10 × 2 = 20;
    # seat 3 bid 0 took 0 would be 50, but its illegal play scores −150 (foul_penalty) instead.
    assert g.deal_scores()[-1] == [50, -200, 20, -150]
    item = g.score_sheet().deals[-1].items[3]
    assert item.rule == "foul" and item.points == -150


def foul_deal_two(g: Joker) -> None:
    """Deal 2 (dealer 1, seat 2 leads, no trump): seat 0 revokes yet takes exactly the 1 it bid."""
    deal(g, ["7H 8C", "9S 8S", "TC 7C", "9D 8D"], turned="RJ")
    bid(g, [1, 1, 1, 0])  # order 2, 3, 0, 1: 1 + 0 + 1 = 2, so the dealer may not bid 0: bids 1
    g.apply(ev("2 play TC"))
    g.apply(ev("3 play 9D"))
    assert not g.record(ev("0 play 7H")).legal  # seat 0 holds 8C: did not follow clubs
    g.apply(ev("1 play 9S"))
    # TC 104 wins (9D, 7H, 9S off suit): seat 2 leads 7C; 8D and 8S off suit, 8C 102 > 7C 101.
    plays(g, "2 play 7C", "3 play 8D", "0 play 8C", "1 play 8S")
    assert g.results[-1][4] == (1, 0, 1, 0)


def test_an_offender_who_made_every_bid_earns_no_premium_by_rules_md_section_6() -> None:
    g = new()
    scripted_deal(g, [0], [1, 0, 0, 1])          # deal 1, dealer 0 (may not bid 0): bids 1
    foul_deal_two(g)
    scripted_deal(g, [0, 1, 2], [1, 0, 0, 1])    # dealer 2 may not bid 1: bids 0, takes 1
    scripted_deal(g, [0, 0, 1, 2], [2, 1, 1, 1])
    for n in range(5, 9):
        scripted_deal(g, [0] * n, [n, 0, 0, 1])
    # Deal scores by hand (RULES.md §3, §6):
    # deal 1: seat 0 bid 1 took all 1: 100 × 1 = 100; seats 1, 2 «пас» 50; seat 3 хишт −200.
    # deal 2: seat 0 bid 1 took 1 would be 50 × 2 = 100, but the revoke scores −200; seat 1 хишт
    #         −200; seat 2 bid 1 took 1: 100; seat 3 «пас» 50.
    # deal 3: seat 0 bid 1 took 1: 100; seats 1, 2 bid 0 took 1: 10 each; seat 3 хишт −200.
    # deal 4: seat 0 bid 2 took 2: 150; seats 1, 2 bid 1 took 1: 100; seat 3 хишт −200.
    # deals 5–8: seat 0 all n tricks: 100 × n = 500, 600, 700, 800; seats 1, 2: 50; seat 3 −200.
    # sums: seat 0 100 − 200 + 100 + 150 + 500 + 600 + 700 + 800 = 2750
    #       seat 1 50 − 200 + 10 + 100 + 4 × 50 = 160
    #       seat 2 50 + 100 + 10 + 100 + 4 × 50 = 460
    #       seat 3 −200 + 50 − 200 − 200 + 4 × −200 = −1350
    assert [sum(c) for c in zip(*g.deal_scores(), strict=True)] == [2750, 160, 460, -1350]
    # Seat 0 took exactly its bid in all 8 deals, but its illegal play in deal 2 bars the premium
    # (it would have been + 800 and the others − 100, − 100, − 0). Nobody else made every bid
    # (seat 1 missed in deal 2, seat 2 in deal 3, seat 3 in deal 1): no premium, nobody loses.
    assert g.premiums()[0][1] == [0, 0, 0, 0]
    assert g.totals() == [2750, 160, 460, -1350]
    rules = {i.rule for d in g.score_sheet().deals for i in d.items}
    assert "premium" not in rules and "premium-loss" not in rules


def test_a_negative_highest_deal_score_loses_nothing_to_a_premium_by_rules_md_section_6() -> None:
    g = new()
    deals = [
        ([0], [1, 0, 0, 1]),                    # dealer 0 must not bid 0: bids 1
        ([0, 1], [1, 1, 1, 1]),
        ([0, 1, 2], [1, 0, 0, 1]),              # dealer 2 must not bid 1: bids 0, takes 1
        ([0, 0, 1, 2], [2, 1, 1, 1]),
        *(([0] * n, [n, 0, 0, 1]) for n in range(5, 9)),
    ]
    for winners, by_seat in deals:
        scripted_deal(g, winners, by_seat)
    # seat 0: 100 + 100 + 100 + 150 + 500 + 600 + 700 + 800 = 3050, every bid made: premium + 800
    # seat 3: bid 1 and took nothing in all 8 deals: 8 × −200, highest −200: loses nothing.
    # seat 1: highest 100 (deals 2 and 4): − 100; seat 2: highest 100 (deal 4): − 100.
    assert g.premiums()[0][1] == [800, -100, -100, 0]
    loss = [i for i in g.score_sheet().deals[7].items if i.rule == "premium-loss" and i.side == 3]
    assert loss[0].points == 0 and "nothing lost" in loss[0].what


# ----------------------------------------------------------------- the sheet names each one

def expected_entry(outcome: str) -> dict[str, Any]:
    return {"seat": 3, "card": "TC", "trick": 1, "rule": "follow-suit", "message": REVOKE_MESSAGE,
            "outcome": outcome}


def assert_named(g: Joker, outcome: str) -> None:
    sheet = g.score_sheet()
    (play,) = sheet.deals[1].illegal
    assert (play.seat, play.card, play.trick, play.rule, play.message, play.outcome) == (
        3, "TC", 1, "follow-suit", REVOKE_MESSAGE, outcome)
    assert sheet.to_dict()["deals"][1]["illegal"] == [expected_entry(outcome)]
    assert f"seat 3: TC in trick 1, {REVOKE_MESSAGE} [follow-suit] — {outcome}" in sheet.render()
    assert all(not d.illegal for k, d in enumerate(sheet.deals) if k != 1)


def test_sheet_names_a_penalised_illegal_play() -> None:
    assert_named(revoke_deal(), PENALISED)


def test_sheet_names_an_unclaimed_illegal_play_as_let_go() -> None:
    g = revoke_deal(policy="on_claim")
    g.apply(shoe("7D"))  # deal 3's first card closes the claims of deal 2
    assert g.deal_scores()[1][3] == 50  # not penalised: seat 3 bid 0 took 0
    assert_named(g, LET_GO)


def test_sheet_names_a_claimed_illegal_play() -> None:
    g = revoke_deal(policy="on_claim")
    g.apply(ev("0 foul 3"))
    assert g.deal_scores()[1][3] == -200
    assert_named(g, CLAIMED)


def test_sheet_names_an_illegal_play_claimed_during_the_deal_with_its_trick_number() -> None:
    g = skip_to_deal(new(policy="on_claim"), 3)
    assert g.dealer == 2 and g.n == 3
    deal(g, ["7H 7C 7D", "8H 8C 8D", "9H 9C 9D", "TH TC TD"], turned="RJ")
    bid(g, [0, 0, 1, 3])  # order 3, 0, 1, 2: 3 + 0 + 0 = 3, so the dealer may not bid 0: bids 1
    plays(g, "3 play TH", "0 play 7H", "1 play 8H", "2 play 9H")  # TH 104 is highest: seat 3
    plays(g, "3 play TC", "0 play 7C")
    v = g.record(ev("1 play 8D"))  # seat 1 holds 8C: the revoke is in trick 2
    assert not v.legal and v.message == "held ♣, did not follow suit"
    g.apply(ev("2 foul 1"))  # claimed at once, during the deal
    plays(g, "2 play 9C", "3 play TD", "0 play 7D", "1 play 8C", "2 play 9D")
    (play,) = g.score_sheet().deals[2].illegal
    assert (play.seat, play.card, play.trick, play.rule, play.message, play.outcome) == (
        1, "8D", 2, "follow-suit", "held ♣, did not follow suit", CLAIMED)
    # seat 1 bid 0 took 0 would be 50; claimed, it scores −200.
    assert g.deal_scores()[2][1] == -200


def test_retracted_illegal_plays_leave_no_trace_on_the_sheet() -> None:
    g = skip_to_deal(new(policy="retract"), 2)
    deal(g, ["7H 7C", "8H 8C", "9H 9C", "TH TC"], turned="RJ")
    bid(g, [0, 1, 0, 0])
    g.apply(ev("2 play 9H"))
    g.record(ev("3 play TC"))
    g.undo()
    plays(g, "3 play TH", "0 play 7H", "1 play 8H", "3 play TC", "0 play 7C", "1 play 8C",
          "2 play 9C")
    sheet = g.score_sheet()
    assert len(sheet.deals) == 2 and sheet.deals[1].illegal == []
    assert sheet.to_dict()["deals"][1]["illegal"] == []
