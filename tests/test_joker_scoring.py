"""Joker scoring worked by hand from RULES.md §3: deal scores, хишт, premiums, settings."""

from __future__ import annotations

import random

import pytest
from _joker_kit import bid, deal, new, plays, scripted_deal, skip_to_deal

from engine.cards import composition
from engine.errors import DuplicateCardError
from engine.events import ev, shoe
from engine.joker import Joker, JokerModeError, deal_points
from engine.playout import play_out


@pytest.mark.parametrize(("bid_", "took", "n", "points"), [
    (0, 0, 5, 50),     # «пас» made: 50
    (1, 1, 5, 100),    # 50 × (1 + 1)
    (4, 4, 9, 250),    # 50 × (4 + 1)
    (8, 8, 9, 450),    # 50 × (8 + 1)
    (2, 2, 2, 200),    # all the tricks of a 2-card deal: 100 × 2 (not 150)
    (8, 8, 8, 800),    # all of 8: 100 × 8
    (9, 9, 9, 900),    # all of 9: 100 × 9
    (1, 1, 1, 100),    # all of 1: 100 × 1, the same as 50 × 2
    (3, 0, 5, -200),   # хишт
    (9, 0, 9, -200),   # хишт whatever the bid
    (3, 2, 5, 20),     # short: 10 × 2
    (3, 5, 5, 50),     # over: 10 × 5
    (0, 2, 5, 20),     # bid 0, took 2: 10 × 2
])
def test_deal_score_table(bid_: int, took: int, n: int, points: int) -> None:
    assert deal_points(bid_, took, n, minus=False)[0] == points


@pytest.mark.parametrize(("bid_", "took", "n", "points"), [
    (4, 2, 8, -200),   # the seed's example: bid 4, two short: −100 × 2
    (3, 3, 5, 300),    # made: 100 × 3
    (5, 5, 5, 500),    # all tricks: 100 × 5 as well
    (2, 0, 5, -200),   # took none: −100 × 2 (short by 2), not the хишт
    (1, 0, 5, -100),   # took none of 1: −100 × 1; the хишт does not apply in «минусовой»
    (2, 3, 5, 30),     # over: 10 × 3, as in the usual scoring
    (0, 0, 5, 50),     # «пас» made: 50
])
def test_minus_joker_deal_score_table(bid_: int, took: int, n: int, points: int) -> None:
    assert deal_points(bid_, took, n, minus=True)[0] == points


def test_hisht_in_a_played_deal() -> None:
    g = new()  # deal 1: one card each, dealer seat 0, seat 1 leads
    # Seat 2 wins the only trick. Bids: seat 1: 1, seat 2: 1, seat 3: 0, dealer 0: 0 (total 2 ≠ 1).
    scripted_deal(g, winners=[2], by_seat=[0, 1, 1, 0])
    # seat 0: bid 0 took 0 → 50; seat 1: bid 1 took 0 → хишт −200; seat 2: bid 1 took the only
    # trick → 100 × 1 = 100; seat 3: bid 0 took 0 → 50.
    assert g.deal_scores() == [[50, -200, 100, 50]]
    item = g.score_sheet().deals[0].items[1]
    assert item.rule == "hisht" and item.points == -200 and "хишт" in item.what


def test_all_tricks_and_a_short_bid_in_a_played_deal() -> None:
    g = new()
    scripted_deal(g, winners=[1], by_seat=[0, 1, 1, 0])
    scripted_deal(g, winners=[3, 3], by_seat=[0, 1, 0, 2])  # deal 2: dealer 1; 0+2+0, dealer 1 → 3 ≠ 2
    # seat 3 bid 2 and took both of 2: 100 × 2 = 200; seat 1 bid 1 took 0: хишт −200;
    # seats 0 and 2 bid 0 took 0: 50 each.
    assert g.deal_scores()[1] == [50, -200, 50, 200]
    assert g.score_sheet().deals[1].items[3].rule == "all-tricks"


def pulka_one(g: Joker, deal8_bids: list[int]) -> None:
    """Pulka 1 (deals of 1…8 cards, first dealer seat 0) with the tricks and bids of the tables below."""
    deals = [
        ([1], [0, 1, 0, 1]),
        ([0, 1], [1, 1, 0, 1]),
        ([0, 1, 3], [1, 1, 1, 1]),
        ([0, 0, 1, 2], [2, 1, 1, 1]),
        ([0, 0, 1, 1, 2], [2, 2, 2, 0]),
        ([0, 0, 0, 1, 1, 3], [3, 2, 0, 2]),
        ([0, 0, 0, 1, 1, 1, 2], [3, 3, 2, 0]),
        ([0, 0, 0, 0, 1, 1, 2, 3], deal8_bids),
    ]
    for winners, by_seat in deals:
        scripted_deal(g, winners, by_seat)


def test_pulka_with_two_premium_players_nobody_loses() -> None:
    g = new()
    pulka_one(g, [4, 2, 1, 0])
    # deal  N  bids (seat 0 1 2 3)  taken       scores
    #  1    1  0 1 0 1              0 1 0 0     50  100   50 -200 (seat 1 took all 1: 100 × 1)
    #  2    2  1 1 0 1              1 1 0 0    100  100   50 -200
    #  3    3  1 1 1 1              1 1 0 1    100  100 -200  100 (dealer 2 was forced off 0)
    #  4    4  2 1 1 1              2 1 1 0    150  100  100 -200
    #  5    5  2 2 2 0              2 2 1 0    150  150   10   50
    #  6    6  3 2 0 2              3 2 0 1    200  150   50   10
    #  7    7  3 3 2 0              3 3 1 0    200  200   10   50
    #  8    8  4 2 1 0              4 2 1 1    250  150  100   10
    # sums: seat 0 1200, seat 1 1050, seat 2 170, seat 3 −380.
    # Seats 0 and 1 made every bid: + own highest (250 and 200); with two premium players nobody
    # loses anything. Totals 1450, 1250, 170, −380.
    assert [list(r[4]) for r in g.results] == [[0, 1, 0, 0], [1, 1, 0, 0], [1, 1, 0, 1], [2, 1, 1, 0],
                                               [2, 2, 1, 0], [3, 2, 0, 1], [3, 3, 1, 0], [4, 2, 1, 1]]
    assert [sum(col) for col in zip(*g.deal_scores(), strict=True)] == [1200, 1050, 170, -380]
    assert g.premiums()[0][1] == [250, 200, 0, 0]
    assert g.totals() == [1450, 1250, 170, -380]
    sheet = g.score_sheet()
    assert sheet.totals == [1450, 1250, 170, -380]
    assert sheet.deals[7].points == [250 + 250, 150 + 200, 100, 10]
    assert {i.rule for i in sheet.deals[7].items} >= {"premium"}
    assert "premium-loss" not in {i.rule for i in sheet.deals[7].items}


def test_pulka_with_one_premium_player_the_others_lose_their_highest() -> None:
    g = new()
    pulka_one(g, [4, 3, 1, 1])  # deal 8: seat 1 bids 3 and takes 2; the dealer 3 must not bid 0
    # Deal 8 now scores 250, 20 (10 × 2), 100, 100 (seat 3 bid 1 took 1).
    # sums: seat 0 1200, seat 1 1050 − 150 + 20 = 920, seat 2 170, seat 3 −380 − 10 + 100 = −290.
    # Only seat 0 made every bid: + 250. The others lose their own highest deal score of the pulka:
    # seat 1 − 200 (deal 7), seat 2 − 100 (deals 4 and 8), seat 3 − 100 (deals 3 and 8).
    # Totals 1450, 720, 70, −390.
    assert g.premiums()[0][1] == [250, -200, -100, -100]
    assert g.totals() == [1450, 720, 70, -390]
    rules = [i.rule for i in g.score_sheet().deals[7].items]
    assert rules.count("premium") == 1 and rules.count("premium-loss") == 3


def test_premium_loss_takes_nothing_from_a_seat_whose_highest_score_is_negative() -> None:
    # RULES.md is silent on a negative "highest deal score"; our reading: it takes nothing away.
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
    # seat 0: 100 + 100 + 100 + 150 + 500 + 600 + 700 + 800 = 3050 (all of 5…8: 100 × N), made all
    # seat 1: 50 + 100 + 10 + 100 + 4 × 50 = 460, highest 100
    # seat 2: 50 − 200 + 10 + 100 + 4 × 50 = 160, highest 100
    # seat 3: bid 1 and took nothing eight times: 8 × −200 = −1600, highest −200
    # Only seat 0 earns the premium: + 800; seats 1 and 2 lose 100 each, seat 3 loses nothing.
    assert [sum(c) for c in zip(*g.deal_scores(), strict=True)] == [3050, 460, 160, -1600]
    assert g.premiums()[0][1] == [800, -100, -100, 0]
    assert g.totals() == [3850, 360, 60, -1600]
    loss = [i for i in g.score_sheet().deals[7].items if i.rule == "premium-loss" and i.side == 3]
    assert loss[0].points == 0 and "nothing lost" in loss[0].what


def test_no_premium_before_the_pulka_ends() -> None:
    g = new()
    scripted_deal(g, [1], [0, 1, 0, 1])
    assert g.premiums() == [] and g.totals() == [50, 100, 50, -200]


def revoke_deal(**options: object) -> Joker:
    """Deal 2 (dealer seat 1, seat 2 leads) in which seat 3 fails to follow hearts."""
    g = skip_to_deal(new(**options), 2)
    deal(g, ["7H 7C", "8H 8C", "9H 9C", "TH TC"], turned="RJ")
    bid(g, [0, 1, 0, 0])  # seats 2, 3, 0 bid 0; the dealer 1 bids 1 (total 1 ≠ 2)
    g.apply(ev("2 play 9H"))
    v = g.record(ev("3 play TC"))  # holds TH: a revoke
    assert v.rule == "follow-suit" and not v.legal
    plays(g, "0 play 7H", "1 play 8H")
    # Keys: 9H 103, TC 0 (off suit), 7H 101, 8H 102 → seat 2 leads again.
    plays(g, "2 play 9C", "3 play TH", "0 play 7C", "1 play 8C")
    # 9C 103, TH 0, 7C 101, 8C 102 → seat 2 takes both tricks.
    assert g.results[-1][4] == (0, 0, 2, 0)
    return g


def test_penalize_policy_scores_the_offender_minus_the_penalty() -> None:
    g = revoke_deal()  # policy penalize is the default
    # seat 0: bid 0 took 0 → 50; seat 1: bid 1 took 0 → хишт −200; seat 2: bid 0 took 2 → 10 × 2;
    # seat 3: bid 0 took 0 would be 50, but the revoke costs −200 instead.
    assert g.deal_scores()[-1] == [50, -200, 20, -200]
    assert g.score_sheet().deals[-1].items[3].rule == "foul"


def test_on_claim_policy_penalises_only_a_claimed_revoke() -> None:
    unclaimed = revoke_deal(policy="on_claim")
    assert unclaimed.deal_scores()[-1] == [50, -200, 20, 50]
    assert any("not penalised" in n for n in unclaimed.score_sheet().deals[-1].notes)
    # The deal is over but the next deal has not started: the claim window is still open.
    assert ev("0 foul 3") in unclaimed.legal_actions()
    unclaimed.apply(ev("0 foul 3"))
    assert unclaimed.deal_scores()[-1] == [50, -200, 20, -200]
    # Once the next deal's first card is out, the claim is too late.
    late = revoke_deal(policy="on_claim")
    late.apply(shoe("7D"))
    assert ev("0 foul 3") not in late.legal_actions()
    with pytest.raises(Exception) as exc:
        late.apply(ev("0 foul 3"))
    assert exc.value.rule == "bad-claim"  # type: ignore[attr-defined]


def test_retract_policy_blocks_until_the_revoke_is_taken_back() -> None:
    g = skip_to_deal(new(policy="retract"), 2)
    deal(g, ["7H 7C", "8H 8C", "9H 9C", "TH TC"], turned="RJ")
    bid(g, [0, 1, 0, 0])
    g.apply(ev("2 play 9H"))
    g.record(ev("3 play TC"))
    assert [str(e) for e in g.legal_actions()] == ["undo"]
    with pytest.raises(Exception) as exc:
        g.apply(ev("3 play TH"))
    assert exc.value.rule == "retract-pending"  # type: ignore[attr-defined]
    g.undo()
    g.apply(ev("3 play TH"))
    assert g.fouls == [0, 0, 0, 0]


def test_minus_joker_in_a_played_deal() -> None:
    g = new(minus_joker=True)
    scripted_deal(g, [1], [0, 1, 0, 1])
    scripted_deal(g, [0, 1], [1, 1, 0, 2])  # deal 2, dealer 1: others 0+2+1 = 3, dealer bids 1
    # seat 0: bid 1 took 1 → 100 × 1; seat 1: bid 1 took 1 → 100; seat 2: «пас» made 50;
    # seat 3: bid 2 took 0 → short by 2: −100 × 2.
    assert g.deal_scores()[1] == [100, 100, 50, -200]
    assert g.score_sheet().deals[1].items[3].rule == "minus-short"


def test_38_card_deck_keeps_all_four_sixes_and_has_no_nominal_joker() -> None:
    assert len(composition("38")) == 38
    g = new(deck="38")
    assert g.deck == "38"
    deal(g, ["6S", "BJ", "6C", "7H"], turned="8D")  # 6♠ and 6♣ are real cards here
    bid(g, [1, 1, 0, 0])  # the dealer 0 may not bid 0 (total 1): bids 1
    assert {e.arg for e in g.legal_actions(1)} == {f"{m} {s}" for m in ("want", "give") for s in "CDHS"}
    with pytest.raises(JokerModeError):
        g.apply(ev("1 play BJ nominal 6S"))  # no card was replaced, so no «по номиналу»
    plays(g, "1 play BJ want H", "2 play 6C", "3 play 7H", "0 play 6S")
    assert g.results[-1][4] == (0, 1, 0, 0)


def test_36j_deck_refuses_the_sixes_the_jokers_replaced() -> None:
    g = new()
    with pytest.raises(DuplicateCardError) as exc:
        g.apply(shoe("6S"))
    assert exc.value.rule == "card-not-in-deck"


def test_38_card_nine_card_deals_leave_two_cards_in_the_shoe() -> None:
    g = skip_to_deal(new(deck="38"), 9)
    for c in composition("38")[:36]:
        if g.phase == "deal" and not g.expects_shoe:
            g.apply(ev(f"{g.left} trump H"))
        g.apply(shoe(c.code))
    assert g.phase == "bid" and len(g.unseen_cards()) == 2


def test_a_whole_partie_ends_after_deal_24_with_the_highest_total_winning() -> None:
    g = play_out(new(), random.Random(11))
    sheet = g.score_sheet()
    assert sheet.finished and len(sheet.deals) == 24
    assert sheet.totals == [sum(d.points[s] for d in sheet.deals) for s in range(4)]
    best = max(sheet.totals)
    if sheet.totals.count(best) == 1:
        assert sheet.winner == sheet.totals.index(best) and "wins" in sheet.result
    assert sheet.options["deck"] == "36j" and sheet.options["minus_joker"] is False


def test_on_claim_after_the_last_deal_waits_for_confirm() -> None:
    g = skip_to_deal(new(policy="on_claim"), 24)
    rng = random.Random(4)
    fouled = None
    while g.phase != "confirm":
        seat = g.to_act()
        if fouled is None and g.phase == "play" and seat is not None:
            bad = [c for c in g.hand(seat) if not c.is_joker
                   and not g.judge(ev(f"{seat} play {c.code}")).legal]
            if bad:
                g.record(ev(f"{seat} play {bad[0].code}"))
                fouled = seat
                continue
        actions = [a for a in g.legal_actions() if a.kind != "foul"]
        g.apply(actions[rng.randrange(len(actions))])
    assert fouled is not None and not g.is_over and g.to_act() is None
    claimant = (fouled + 1) % 4
    assert set(g.legal_actions()) >= {ev(f"{claimant} foul {fouled}"), ev("confirm")}
    g.apply(ev(f"{claimant} foul {fouled}"))
    assert g.deal_scores()[-1][fouled] == -200
    g.apply(ev("confirm"))
    assert g.is_over and g.score_sheet().finished


def test_describe_is_plain_data_for_the_display() -> None:
    import json

    g = new()
    deal(g, ["7H", "8H", "9H", "TH"], turned="7S")
    d = json.loads(json.dumps(g.describe()))
    assert d["game"] == "joker" and d["phase"] == "bid" and d["trump"] == "S"
    assert d["hand_sizes"] == [1, 1, 1, 1] and d["to_act"] == 1 and d["cards_each"] == 1


def test_a_record_with_an_illegal_play_and_joker_modes_replays_with_the_same_verdicts() -> None:
    from engine import record

    g = revoke_deal()
    text = record.dumps(g)
    assert "3 play TC" in text
    back = record.loads(text).game
    assert [v.rule for v in back.illegal_plays] == ["follow-suit"]
    assert back.snapshot() == g.snapshot() and back.score_sheet() == g.score_sheet()


def test_pulka_two_nine_card_deals_all_tricks_900_and_a_premium_over_deals_9_to_12_only() -> None:
    from _joker_kit import scripted_nine

    g = skip_to_deal(new(), 9)  # pulka 1 played at random; deals 9–12 have dealers 0, 1, 2, 3
    first = g.deal_scores()
    scripted_nine(g, [1] * 9, [1, 9, 0, 0])                        # dealer 0 may not bid 0: bids 1
    scripted_nine(g, [0, 0, 1, 1, 1, 2, 2, 2, 2], [2, 3, 4, 1])
    scripted_nine(g, [0, 0, 0, 1, 1, 2, 3, 3, 3], [3, 2, 0, 3])    # dealer 2 may not bid 1: bids 0
    scripted_nine(g, [0, 1, 1, 2, 2, 3, 3, 1, 1], [1, 4, 2, 1])    # dealer 3 may not bid 2: bids 1
    assert [r[2] for r in g.results[8:]] == [2, 2, 2, 2]  # hearts named each time
    assert [list(r[4]) for r in g.results[8:]] == [[0, 9, 0, 0], [2, 3, 4, 0], [3, 2, 1, 3],
                                                  [1, 4, 2, 2]]
    # deal  bids (seat 0 1 2 3)  taken     scores
    #  9    1 9 0 0              0 9 0 0   −200 (хишт)   900 (all 9: 100 × 9)   50     50
    # 10    2 3 4 1              2 3 4 0    150 (50×3)   200 (50×4)   250 (50×5)   −200 (хишт)
    # 11    3 2 0 3              3 2 1 3    200          150          10 (10 × 1)   200
    # 12    1 4 2 1              1 4 2 2    100          250          150           20 (10 × 2)
    assert g.deal_scores()[8:] == [[-200, 900, 50, 50], [150, 200, 250, -200],
                                   [200, 150, 10, 200], [100, 250, 150, 20]]
    assert g.deal_scores()[:8] == first  # pulka 1 untouched
    # Only seat 1 made every bid of pulka 2: + its highest, 900. The others lose their own highest
    # of deals 9–12: seat 0 200 (deal 11), seat 2 250 (deal 10), seat 3 200 (deal 11).
    pulka, points, _items = g.premiums()[1]
    assert pulka == 2 and points == [-200, 900, -250, -200]
    assert g.score_sheet().deals[11].points == [100 - 200, 250 + 900, 150 - 250, 20 - 200]
