"""Hand-worked scoring of two-player Belot (RULES.md §1); the arithmetic is in the comments.

Card values: trump J 20, 9 14, A 11, 10 10, K 4, Q 3, 8/7 0; plain A 11, 10 10, K 4, Q 3, J 2,
9/8/7 0. Seat 0 deals the first deal, so seat 1 is the non-dealer and (lot=1) speaks first.
"""

from __future__ import annotations

import pytest
from _belot2_helpers import (
    SWEEP,
    SWEEP_PLAY_0_LEADS,
    SWEEP_PLAY_1_LEADS,
    SWEEP_TURNED,
    TIE,
    TIE_PLAY,
    TIE_TURNED,
    confirm,
    deal,
    items,
    plays,
    shoe_order,
)

from engine.belot2 import Belot2
from engine.errors import ActionNotAllowedError
from engine.events import ev


def sweep_deal(game: Belot2, leader: int) -> None:
    """Seat 1 declares hearts and takes all nine tricks, whoever leads."""
    bids = ["1 bid play"] if game.first == 1 else ["0 bid pass", "1 bid play"]
    assert game.first == leader
    deal(game, SWEEP, SWEEP_TURNED, bids)
    plays(game, SWEEP_PLAY_1_LEADS if leader == 1 else SWEEP_PLAY_0_LEADS)


def test_a_sweep_by_the_declarer_scores_card_points_and_last_trick() -> None:
    g = Belot2(game_type="501")
    sweep_deal(g, leader=1)
    # Hearts: JH+7H 20, 9H+8H 14, AH+QH 11+3 = 48; spades 11+10+4 = 25; clubs 25 → 98.
    # Last trick 10 → 108. Seat 0: 0. Declarer 108 > 0: each scores their own.
    assert g.points == [0, 98]
    confirm(g)
    assert g.totals == [0, 108]
    assert items(g, 1, "card-points") == [(0, 0), (1, 98)]
    assert items(g, 1, "last-trick") == [(1, 10)]
    # Seat 0 held two terzes (7-8-9 of spades and of clubs) but never declared them.
    assert items(g, 1, "combinations") == []
    # The loser of the deal (seat 0) speaks first in deal 2; the dealer alternates.
    assert (g.deal_no, g.dealer, g.first) == (2, 1, 0)


def test_bayd_the_declarer_with_fewer_points_gives_them_to_the_defender() -> None:
    g = Belot2(game_type="501")
    deal(g, SWEEP, SWEEP_TURNED, ["1 bid pass", "0 bid play"])  # seat 0 declares hearts
    plays(g, SWEEP_PLAY_1_LEADS)
    confirm(g)
    # Declarer seat 0 has 0 < 108: байд, seat 1 scores 108 + 0.
    assert g.totals == [0, 108]
    assert items(g, 1, "bayd") == [(0, 0), (1, 0)]


def test_hanging_bayd_over_two_ties_goes_to_the_next_higher_scorer() -> None:
    g = Belot2(game_type="501")
    # Deal 1: tie. Seat 1: AS+7S 11, TS+8S 10, KS+JS 4+2, JC+7C 2, last trick 10 → 39.
    # Seat 0: AD+7D 11, TD+8D 10, KD+9D 4, TC+8C 10, KC+9C 4 → 39.
    deal(g, TIE, TIE_TURNED, ["1 bid play"])
    plays(g, TIE_PLAY)
    assert g.points == [39, 29]  # seat 1's 29 card points + last trick 10 = 39
    confirm(g)
    # 39 = 39: висячий байд. Seat 0 (defender) scores 39, seat 1's 39 hang.
    assert g.totals == [39, 0] and g.pot == 39
    assert items(g, 1, "hanging-bayd") == [(1, -39)]
    # Seat 1 lost the deal (0 < 39) and speaks first again; now seat 1 deals.
    assert (g.dealer, g.first) == (1, 1)

    # Deal 2: the same tie. The pot grows 39 + 39 = 78; seat 0 scores its own 39 again.
    deal(g, TIE, TIE_TURNED, ["1 bid play"])
    plays(g, TIE_PLAY)
    confirm(g)
    assert g.totals == [78, 0] and g.pot == 78

    # Deal 3: seat 1 sweeps: 108, more than seat 0's 0, so it takes the 78 hanging: 186.
    assert (g.dealer, g.first) == (0, 1)
    sweep_deal(g, leader=1)
    confirm(g)
    assert g.totals == [78, 108 + 78] and g.pot == 0
    assert items(g, 3, "hanging-bayd-won") == [(1, 78)]
    assert g.problems() == []


@pytest.mark.parametrize("bids", [["1 bid pass", "0 bid play"], ["1 bid play"]],
                         ids=["seat-0-declares", "seat-1-declares-and-is-bayd"])
def test_hanging_bayd_goes_to_the_other_player_when_it_scores_more_next_deal(
        bids: list[str]) -> None:
    g = Belot2(game_type="501")
    deal(g, TIE, TIE_TURNED, ["1 bid play"])
    plays(g, TIE_PLAY)
    confirm(g)
    # Deal 1: 39 = 39, seat 1 (declarer) has its 39 hanging; seat 0 (defender) scores 39.
    assert g.totals == [39, 0] and g.pot == 39 and (g.dealer, g.first) == (1, 1)
    # Deal 2: seat 0 holds the sweeping hand and takes all nine tricks though seat 1 leads:
    # 7H+JH 20, 9H+8H 14, AH+QH 14, AS+7S 11, TS+8S 10, KS+9S 4, AC+7C 11, TC+8C 10, KC+9C 4
    # = 98, last trick 10 → 108; seat 1 0. Seat 0 declaring: 108 > 0, each its own; seat 1
    # declaring: 0 < 108, байд, seat 0 scores 108 + 0. Either way seat 0 scores more in this
    # deal, so the 39 that hung from seat 1's tie go to seat 0: 108 + 39 = 147; 39 + 147 = 186.
    deal(g, {0: SWEEP[1], 1: SWEEP[0]}, SWEEP_TURNED, bids)
    plays(g, mirror(SWEEP_PLAY_0_LEADS))
    confirm(g)
    assert g.totals == [186, 0] and g.pot == 0
    assert items(g, 2, "hanging-bayd-won") == [(0, 39)]


def test_hanging_bayd_is_dropped_when_the_partie_ends_by_a_claim() -> None:
    g = Belot2(game_type="301")
    deal(g, TIE, TIE_TURNED, ["1 bid play"])
    plays(g, TIE_PLAY)
    confirm(g)
    assert g.pot == 39
    # Deal 2 (seat 1 deals, seat 1 first): seat 1 takes trick 1 and claims with 11 points.
    deal(g, TIE, TIE_TURNED, ["1 bid play"])
    plays(g, "1 AS 0 7S")
    g.apply(ev("1 claim"))
    confirm(g)
    # 0 + 11 < 301: the claim fails; seat 0 wins; the 39 hanging points go to nobody.
    assert g.is_over and g.winner == 0 and g.pot == 0
    assert g.totals == [39, 11]
    assert any("dropped" in n for n in g.score_sheet().deals[-1].notes)


def two_sweeps(game: Belot2) -> None:
    """Deals 1 and 2: seat 1 sweeps twice, 108 + 108 = 216; seat 0 speaks first in deal 3."""
    sweep_deal(game, leader=1)
    confirm(game)
    sweep_deal(game, leader=0)
    confirm(game)
    assert game.totals == [0, 216]
    assert (game.deal_no, game.dealer, game.first) == (3, 0, 0)


def test_failed_partie_claim_short_of_the_target_loses() -> None:
    g = Belot2(game_type="301")
    two_sweeps(g)
    deal(g, SWEEP, SWEEP_TURNED, ["0 bid pass", "1 bid play"])
    # Seven tricks: 7H+JH 20, 9H+8H 14, AH+QH 14, AS+7S 11, TS+8S 10, KS+9S 4, AC+7C 11 → 84.
    plays(g, "0 7H 1 JH 1 9H 0 8H 1 AH 0 QH 1 AS 0 7S 1 TS 0 8S 1 KS 0 9S 1 AC 0 7C")
    g.apply(ev("1 claim"))
    assert g.to_act() is not None and g.legal_actions(1) == [ev("1 confirm")]
    confirm(g)
    # 216 + 84 = 300 < 301 (the last trick's 10 is not counted): seat 1 loses the partie.
    assert g.is_over and g.winner == 0
    assert g.totals == [0, 300]
    assert "failed" in g.result


def test_partie_claim_that_reaches_the_target_wins() -> None:
    g = Belot2(game_type="301")
    two_sweeps(g)
    deal(g, SWEEP, SWEEP_TURNED, ["0 bid pass", "1 bid play"])
    # Eight tricks: 84 + TC+8C 10 = 94; 216 + 94 = 310 ≥ 301.
    plays(g, "0 7H 1 JH 1 9H 0 8H 1 AH 0 QH 1 AS 0 7S 1 TS 0 8S 1 KS 0 9S 1 AC 0 7C 1 TC 0 8C")
    g.apply(ev("1 claim"))
    confirm(g)
    assert g.is_over and g.winner == 1 and g.totals == [0, 310]


# Deal 3 of a 301 partie: seat 0 leads 8H, seat 1 under-plays 7H holding JH and 9H (illegal),
# then takes every other trick and claims before the last one.
CLAIM3 = {0: "8H QS JS 9S JC 9C 8C QD JD", 1: "JH 9H 7H AS TS KS AC KC QC"}
CLAIM3_PLAY = ("0 8H 1 7H 0 QS 1 AS 1 TS 0 JS 1 KS 0 9S 1 AC 0 JC 1 KC 0 9C 1 QC 0 8C "
               "1 JH 0 QD")


def claim_after_an_illegal_play(policy: str) -> Belot2:
    g = Belot2(game_type="301", policy=policy)
    two_sweeps(g)
    deal(g, CLAIM3, "AH", ["0 bid pass", "1 bid play"])
    g.apply(ev("1 declare AC KC QC"))
    verdicts = plays(g, CLAIM3_PLAY)
    assert [v.rule for v in verdicts if not v.legal] == ["overtrump"]
    g.apply(ev("1 claim"))
    return g


def test_partie_claim_stands_when_the_claimants_illegal_play_is_not_caught() -> None:
    g = claim_after_an_illegal_play("on_claim")
    confirm(g)
    # Seat 1: QS+AS 14, TS+JS 12, KS+9S 4, AC+JC 13, KC+9C 4, QC+8C 3, JH+QD 23 → 73;
    # terz A-K-Q of clubs 20 → 93. 216 + 93 = 309 ≥ 301: the claim stands.
    assert g.winner == 1 and g.totals == [0, 309]


def test_partie_claim_fails_when_the_claimants_illegal_play_is_caught() -> None:
    g = claim_after_an_illegal_play("on_claim")
    assert ev("0 foul 7H") in g.legal_actions()
    g.apply(ev("0 foul 7H"))
    confirm(g)
    # Caught: байд с картами moves seat 1's 73 card points and its 20 terz to seat 0 (93),
    # and a caught illegal play by the claimant makes the claim fail: seat 0 wins.
    assert g.winner == 0 and g.totals == [93, 216]
    assert items(g, 3, "wrong-play") == [(1, -93), (0, 93)]


def test_partie_claim_fails_under_penalize_without_anyone_pointing_at_the_card() -> None:
    g = claim_after_an_illegal_play("penalize")
    assert ev("0 foul 7H") not in g.legal_actions()
    confirm(g)
    # Under penalize every illegal play is caught: seat 1's 73 card points + 20 terz = 93 go to
    # seat 0, and the claimant's caught illegal play makes the claim fail: seat 0 wins 93 : 216.
    assert g.winner == 0 and g.totals == [93, 216] and "failed" in g.result


# Seat 0 wins the combinations (fifty 7-8-9-10 of clubs over seat 1's terz A-K-Q of spades),
# then revokes: TC on the ace of diamonds while holding 7D.
REVOKE = {1: "JH 9H AH AS KS QS AD TD KD", 0: "7H 8H QH 7C 8C 9C TC JS 7D"}
REVOKE_PLAY = ("1 JH 0 7H 1 9H 0 8H 1 AH 0 QH 1 AS 0 JS 1 KS 0 7C 1 QS 0 8C "
               "1 AD 0 TC 1 TD 0 7D 1 KD 0 9C")


def revoke_deal(policy: str) -> Belot2:
    g = Belot2(game_type="501", policy=policy)
    deal(g, REVOKE, "TH", ["1 bid play"], second_open="8D")
    g.apply(ev("1 declare AS KS QS"))
    g.apply(ev("0 declare 7C 8C 9C TC"))
    verdicts = plays(g, REVOKE_PLAY)
    bad = [v for v in verdicts if not v.legal]
    assert [(str(v.event), v.rule) for v in bad] == [("0 play TC", "follow-suit")]
    return g


def test_caught_revoke_by_the_player_who_won_the_combinations() -> None:
    g = revoke_deal("penalize")
    confirm(g)
    # Seat 1 tricks: 20, 14, 14, AS+JS 13, KS+7C 4, QS+8C 3, AD+TC 21, TD+7D 10, KD+9C 4 = 103,
    # last trick 10 → 113. Seat 0: fifty 50 beats the terz; card points 0.
    # Неправильный бой: seat 0's 0 card points + 50 go to seat 1: 113 + 50 = 163 : 0.
    assert items(g, 1, "combinations") == [(0, 50)]
    assert items(g, 1, "wrong-play") == [(0, -50), (1, 50)]
    assert g.totals == [0, 163]


def test_uncaught_revoke_under_on_claim_scores_the_deal_as_played() -> None:
    g = revoke_deal("on_claim")
    confirm(g)
    # No claim: seat 1 113, seat 0 its fifty 50. Declarer 113 > 50.
    assert g.totals == [50, 113]


def test_revoke_claimed_under_on_claim_is_penalized() -> None:
    g = revoke_deal("on_claim")
    assert ev("1 foul TC") in g.legal_actions(1)
    g.apply(ev("1 foul TC"))
    confirm(g)
    assert g.totals == [0, 163]


def test_seven_swap_when_the_seven_came_in_the_second_batch() -> None:
    g = Belot2(game_type="501")
    # Seat 0 (dealer) gets 7H only in the second batch (its last three cards); QH is turned.
    hands = {1: "JH 9H AH AS TS KS AC TC KC", 0: "8H KH 7S 8S 9S 7C 7H 8C 9C"}
    deal(g, hands, "QH", ["1 bid play"], second_open="7D")
    assert g.trump_suit == "H" and ev("0 swap 7H") in g.legal_actions(0)
    assert ev("0 bella") not in g.legal_actions(0)  # only KH so far
    g.apply(ev("0 swap 7H"))
    assert "QH" in [c.code for c in g.hand(0)] and "7H" not in [c.code for c in g.hand(0)]
    assert g.describe()["trump_card"] == "7H"
    g.apply(ev("0 bella"))  # the swap brought QH to KH
    plays(g, SWEEP_PLAY_1_LEADS.replace("0 7H", "0 8H", 1).replace("0 8H 1 AH", "0 KH 1 AH")
          .replace("1 9H 0 8H", "1 9H 0 KH"))
    confirm(g)
    # Seat 1: JH+8H 20, 9H+KH 18, AH+QH 14, spades 25, clubs 25 = 102, last trick 10 → 112.
    # Seat 0: bella 20. Declarer 112 > 20.
    assert g.totals == [20, 112]
    assert items(g, 1, "bella") == [(0, 20)]


def test_open_cards_bonus_is_given_once() -> None:
    g = Belot2(game_type="open150", proposer=0)
    assert g.totals == [150, 0]
    assert g.describe()["open_hand"]["seat"] == 0
    sweep_deal(g, leader=1)
    confirm(g)
    sweep_deal(g, leader=0)
    confirm(g)
    # 150 bonus (once) + 0 + 0 : 108 + 108.
    assert g.totals == [150, 216]
    sheet = g.score_sheet()
    assert sheet.deals[0].number == 0 and sheet.deals[0].points == [150, 0]
    assert [d.number for d in sheet.deals] == [0, 1, 2]
    assert sum(d.points[0] for d in sheet.deals) == 150


@pytest.mark.parametrize(("bids", "stake", "result"), [
    (["1 bid play"], 1, "wins"),                 # declarer 108 > 0: wins
    (["1 bid play"], 4, "wins the short partie: seat 0 pays 4"),  # wins 1 stake = 4
    (["1 bid pass", "0 bid play"], 3, "pays seat 1 2 stakes = 6"),  # declarer 0 < 108: 2 × 3
])
def test_short_partie_is_settled_in_stakes(bids: list[str], stake: int, result: str) -> None:
    g = Belot2(game_type="short", stake=stake)
    deal(g, SWEEP, SWEEP_TURNED, bids)
    plays(g, SWEEP_PLAY_1_LEADS)
    confirm(g)
    assert g.is_over and g.winner == 1 and result in g.result


def test_short_partie_tie_costs_the_declarer_one_stake() -> None:
    g = Belot2(game_type="short", stake=5)
    deal(g, TIE, TIE_TURNED, ["1 bid play"])
    plays(g, TIE_PLAY)
    confirm(g)
    # 39 = 39: the declarer (seat 1) pays 1 stake = 5; no hanging points in a short partie.
    assert g.is_over and g.winner == 0 and "1 stake = 5" in g.result and g.pot == 0


def test_short_partie_redeal_does_not_count_as_the_deal() -> None:
    g = Belot2(game_type="short")
    first, _ = shoe_order(g, SWEEP, SWEEP_TURNED)
    for code in first:
        g.apply(ev(f"shoe {code}"))
    for bid in ["1 bid pass", "0 bid pass", "1 bid pass", "0 bid pass"]:
        g.apply(ev(bid))
    assert not g.is_over and g.deal_no == 2 and g.expects_shoe
    assert g.score_sheet().deals[0].points == [0, 0]


def test_long_partie_ends_when_a_player_reaches_the_target() -> None:
    g = Belot2(game_type="301")
    two_sweeps(g)
    sweep_deal(g, leader=0)
    confirm(g)
    # 216 + 108 = 324 ≥ 301: seat 1 wins at the end of deal 3.
    assert g.is_over and g.winner == 1 and g.totals == [0, 324]
    assert g.legal_actions() == [] and g.to_act() is None


def test_rozaliev_settlement_is_501_minus_the_losers_points_times_the_stake() -> None:
    g = Belot2(rozaliev=True, stake=2)
    # Non-dealer (seat 1) speaks first in every deal; no second open card.
    deal(g, TIE, TIE_TURNED, ["1 bid play"])
    plays(g, TIE_PLAY)
    confirm(g)                 # 39 : 0, 39 hanging
    assert g.totals == [39, 0] and g.first == 0 and g.dealer == 1
    deal(g, SWEEP, SWEEP_TURNED, ["0 bid pass", "1 bid play"])
    plays(g, SWEEP_PLAY_0_LEADS)
    confirm(g)                 # seat 1: 108 + 39 hanging = 147
    assert g.totals == [39, 147] and g.first == 1
    # Seat 1 sweeps three more deals: 147 + 3 × 108 = 471 < 501, then one more: 579.
    for _ in range(4):
        leader = g.first
        bids = ["1 bid play"] if leader == 1 else ["0 bid pass", "1 bid play"]
        deal(g, SWEEP, SWEEP_TURNED, bids)
        plays(g, SWEEP_PLAY_1_LEADS if leader == 1 else SWEEP_PLAY_0_LEADS)
        confirm(g)
    assert g.is_over and g.winner == 1 and g.totals == [39, 579]
    # (501 − 39) × 2 = 924.
    assert "(501 − 39) × 2 = 924" in g.result


def test_rozaliev_tie_hangs_as_rules_md_says_though_seed_004_knows_only_bayd() -> None:
    g = Belot2(rozaliev=True)
    deal(g, TIE, TIE_TURNED, ["1 bid play"])
    plays(g, TIE_PLAY)
    confirm(g)
    # 39 = 39 under Rozaliev too: висячий байд, not a байд (seed 004 is silent on ties).
    assert g.totals == [39, 0] and g.pot == 39


def mirror(script: str) -> str:
    """The same plays with the seats swapped."""
    return " ".join({"0": "1", "1": "0"}.get(t, t) for t in script.split())


# Seat 1 (declarer, leading) 39 : seat 0 38. Spades AS+7S 11, TS+8S 10, KS+9S 4 → seat 1 25;
# diamonds AD+7D 11, TD+8D 10, KD+9D 4 → seat 0 25; TC+8C 10, QC+9C 3 → seat 0 38;
# 7C+KC 4 + last trick 10 → seat 1 39.
NARROW = {1: "AS TS KS 7D 8D 9D 8C 9C KC", 0: "7S 8S 9S AD TD KD TC QC 7C"}
NARROW_PLAY = ("1 AS 0 7S 1 TS 0 8S 1 KS 0 9S 1 7D 0 AD 0 TD 1 8D 0 KD 1 9D "
               "0 TC 1 8C 0 QC 1 9C 0 7C 1 KC")


def to_293_each(g: Belot2) -> None:
    """Six deals that leave both seats at 293 of 301, seat 1 to speak first and lead."""
    mirrored_sweep = {0: SWEEP[1], 1: SWEEP[0]}
    mirrored_narrow = {0: NARROW[1], 1: NARROW[0]}
    for _ in range(2):  # seat 1 sweeps (108), then seat 0 sweeps (108): the loser leads next
        assert g.first == 1
        deal(g, SWEEP, SWEEP_TURNED, ["1 bid play"])
        plays(g, SWEEP_PLAY_1_LEADS)
        confirm(g)
        assert g.first == 0
        deal(g, mirrored_sweep, SWEEP_TURNED, ["0 bid play"])
        plays(g, mirror(SWEEP_PLAY_1_LEADS))
        confirm(g)
    assert g.totals == [216, 216]
    deal(g, NARROW, "7H", ["1 bid play"])
    plays(g, NARROW_PLAY)
    confirm(g)                      # 216 + 38 = 254 : 216 + 39 = 255
    deal(g, mirrored_narrow, "7H", ["0 bid play"])
    plays(g, mirror(NARROW_PLAY))
    confirm(g)                      # 254 + 39 = 293 : 255 + 38 = 293
    assert g.totals == [293, 293] and not g.is_over and g.first == 1


def test_both_pass_the_target_in_one_deal_the_defender_wins() -> None:
    g = Belot2(game_type="301")
    to_293_each(g)
    deal(g, NARROW, "7H", ["1 bid play"])
    plays(g, NARROW_PLAY)
    confirm(g)
    # Declarer seat 1: 293 + 39 = 332; defender seat 0: 293 + 38 = 331. Both pass 301; the
    # defender's points are counted first, so seat 0 wins with the smaller total.
    assert g.totals == [331, 332] and g.is_over and g.winner == 0
    assert any("defender's points count first" in n for n in g.score_sheet().deals[-1].notes)


def test_the_victim_may_claim_until_it_confirms_the_score_itself() -> None:
    g = revoke_deal("on_claim")
    g.apply(ev("0 confirm"))  # the offender accepting the score does not end seat 1's right
    assert not g.is_over and g.deal_no == 1 and g.legal_actions(1) == [ev("1 confirm"),
                                                                       ev("1 foul TC")]
    g.apply(ev("1 foul TC"))
    g.apply(ev("1 confirm"))
    assert g.totals == [0, 163]
    late = revoke_deal("on_claim")
    late.apply(ev("1 confirm"))
    assert late.legal_actions(1) == []
    with pytest.raises(ActionNotAllowedError, match="too late"):
        late.apply(ev("1 foul TC"))
    with pytest.raises(ActionNotAllowedError, match="already confirmed"):
        late.apply(ev("1 confirm"))


def test_caught_illegal_play_by_the_declarer_gives_the_defender_every_point_by_rules_md_section_6() -> None:
    g = Belot2(game_type="501", lot=0, policy="penalize")  # seat 0 deals and speaks first
    deal(g, CLAIM3, "AH", ["0 bid pass", "1 bid play"])
    g.apply(ev("1 declare AC KC QC"))
    plays(g, CLAIM3_PLAY + " 1 9H 0 JD")
    confirm(g)
    # Seat 1 (declarer): 73 card points through trick 8 (as in the claim tests) + 9H+JD 16 = 89,
    # terz 20, last trick 10 → 119. Seat 0: 8H+7H 0.
    # Its under-trump 7H is caught (RULES.md §6): every point of the deal, 0 + 119 = 119, goes to
    # seat 0 and seat 1 scores 0. The байд test then has nothing to move (declarer 0 < 119).
    assert items(g, 1, "wrong-play") == [(1, -119), (0, 119)]
    assert items(g, 1, "bayd") == []
    assert g.totals == [119, 0]


# The seven-swap deal below with seat 0 (bella) revoking twice: 7C on A♠ holding 7S, then 7S on
# A♣ holding 8C 9C. The cards are the same, so the card points are as there.
BELLA_REVOKE = (SWEEP_PLAY_1_LEADS.replace("0 7H", "0 8H", 1).replace("0 8H 1 AH", "0 KH 1 AH")
                .replace("1 9H 0 8H", "1 9H 0 KH").replace("1 AS 0 7S", "1 AS 0 7C")
                .replace("1 AC 0 7C", "1 AC 0 7S"))


def test_wrong_play_gives_the_opponent_the_offenders_bella_and_the_pot_is_settled_by_rules_md_section_6() -> None:
    g = Belot2(game_type="501", policy="penalize")
    # Deal 1: 39 : 39, seat 1 (declarer) ties: its 39 hang; seat 0 scores 39.
    deal(g, TIE, TIE_TURNED, ["1 bid play"])
    plays(g, TIE_PLAY)
    confirm(g)
    assert g.totals == [39, 0] and g.pot == 39 and g.first == 1
    hands = {1: "JH 9H AH AS TS KS AC TC KC", 0: "8H KH 7S 8S 9S 7C 7H 8C 9C"}
    deal(g, hands, "QH", ["1 bid play"], second_open="7D")
    g.apply(ev("0 swap 7H"))
    g.apply(ev("0 bella"))
    verdicts = plays(g, BELLA_REVOKE)
    assert [(str(v.event), v.rule) for v in verdicts if not v.legal] == [
        ("0 play 7C", "follow-suit"), ("0 play 7S", "follow-suit")]
    confirm(g)
    # Seat 1: JH+8H 20, 9H+KH 18, AH+QH 14, spades 11+10+4 = 25, clubs 11+10+4 = 25 → 102, last
    # trick 10 → 112. Seat 0: bella 20, no card points.
    # Неправильный бой by seat 0 (RULES.md §6): seat 1 scores every point, 112 + 20 = 132, and
    # seat 0 scores 0 — its bella included. The hanging 39 are settled as usual: seat 1 scores
    # more in this deal and takes them, 132 + 39 = 171. Totals: seat 0 39, seat 1 171.
    assert items(g, 2, "wrong-play") == [(0, -20), (1, 20)]
    assert items(g, 2, "hanging-bayd-won") == [(1, 39)]
    assert g.totals == [39, 171] and g.pot == 0
    illegal = g.score_sheet().deals[-1].illegal
    assert [(p.seat, p.card, p.trick, p.rule, p.outcome) for p in illegal] == [
        (0, "7C", 4, "follow-suit", "penalised"), (0, "7S", 7, "follow-suit", "penalised")]
    assert illegal[0].message == "held ♠, did not follow suit to A♠ with 7♣"


def test_hanging_points_are_dropped_when_the_partie_ends_on_a_tie() -> None:
    g = Belot2(game_type="301")
    to_293_each(g)
    deal(g, TIE, TIE_TURNED, ["1 bid play"])
    plays(g, TIE_PLAY)
    confirm(g)
    # 39 = 39: seat 1's 39 hang, seat 0 (defender) scores 39: 293 + 39 = 332 ≥ 301, seat 0 wins;
    # the partie is over, so the hanging 39 go to nobody.
    assert g.is_over and g.winner == 0 and g.totals == [332, 293] and g.pot == 0
    assert any("dropped" in n for n in g.score_sheet().deals[-1].notes)


def test_partie_claim_adds_the_points_so_far_without_a_bayd_test() -> None:
    g = Belot2(game_type="301")
    to_293_each(g)
    # Deal 7: seat 0 deals, seat 1 speaks first, declares hearts (turned 7H) and leads.
    hands = {1: "AS 9S 8S AD 9D 7D JH 9H AH", 0: "7S 7C 8C 9C TC KD QD 8H QH"}
    deal(g, hands, "7H", ["1 bid play"])
    g.apply(ev("0 declare 7C 8C 9C TC"))
    plays(g, "1 AS 0 7S")
    g.apply(ev("1 claim"))
    confirm(g)
    # Seat 1 (declarer): AS+7S 11. Seat 0 (defender): its fifty 50 (seat 1 declared nothing).
    # A байд test would give the declarer's 11 < 50 to seat 0; «Партия!» has none:
    # seat 1 293 + 11 = 304 ≥ 301 wins, though seat 0 ends higher, 293 + 50 = 343.
    assert g.is_over and g.winner == 1 and g.totals == [343, 304]
    assert "stood" in g.result
