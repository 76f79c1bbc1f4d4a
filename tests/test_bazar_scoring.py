"""Hand-worked Bazar-Belot deals, scored from RULES.md §4 with the arithmetic in the comments.

Card values: suit game trump J 20, 9 14, A 11, 10 10, K 4, Q 3; plain A 11, 10 10, K 4, Q 3, J 2;
ВК every suit as trump; last trick 10. Points = висты / 10 rounded half down, per pair.
"""

from __future__ import annotations

import pytest
from _bazar_kit import SUITS_DEAL, deal, new_game, run

from engine.bazar import BazarBelot

# Рамки-8 deal (dealer 0, seat 1 leads). Trump ♦ when seat 1 or 3 plays a diamond contract.
RAMKI8_DEAL = {
    0: "7C 9C TC JC QC KC AC 7D",
    1: "8D JD QD KD AD 8C 8H 8S",
    2: "7H 9H TH JH QH KH AH 9D",
    3: "7S 9S TS JS QS KS AS TD",
}
RAMKI8_TRICKS_2_TO_8 = (
    "1 play AD; 2 play 7H; 3 play 7S; 0 play 7C",  # 1 wins A♦ 11 = 11
    "1 play KD bela; 2 play 9H; 3 play 9S; 0 play 9C",  # 1 wins K♦ 4 = 4
    "1 play QD bela; 2 play JH; 3 play JS; 0 play JC",  # 1 wins Q♦ 3 + 3 × J 2 = 9
    "1 play 8D; 2 play QH; 3 play QS; 0 play QC",  # 1 wins 8♦ 0 + 3 × Q 3 = 9
    "1 play 8C; 2 play KH; 3 play KS; 0 play AC",  # 0 wins 0 + 4 + 4 + 11 = 19
    "0 play KC; 1 play 8H; 2 play AH; 3 play AS",  # 0 wins 4 + 0 + 11 + 11 = 26
    "0 play TC; 1 play 8S; 2 play TH; 3 play TS",  # 0 wins 10 + 0 + 10 + 10 = 30, last trick 10
)
# Trick 1: 1 J♦ 20, 2 9♦ 14 (no trump beats the J: any trump), 3 10♦ 10, 0 7♦ 0 → 1 wins 44.
# Pair 1 & 3: 44 + 11 + 4 + 9 + 9 = 77 card points. Pair 0 & 2: 19 + 26 + 30 + 10 = 85.
# 77 + 85 = 162.


def play_ramki8_deal(game: BazarBelot, seat1_declares: str) -> None:
    run(game,
        f"1 declare {seat1_declares}; 1 play JD",
        "2 declare 9H TH JH QH KH AH; 2 play 9D",
        "3 declare 9S TS JS QS KS AS; 3 play TD",
        "0 declare 9C TC JC QC KC AC; 0 play 7D",
        *RAMKI8_TRICKS_2_TO_8)


def test_ramki_8_cancels_every_construction_but_not_the_bela() -> None:
    game = new_game()
    deal(game, RAMKI8_DEAL)
    run(game, "1 bid 8:D; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    play_ramki8_deal(game, "8C 8D 8H 8S")
    assert game.deals[-1][1] == (8, 18)
    # Pair 1 & 3: 77 cards + Бэла 20 = 97 висты ≥ 80: 8♦ made → 1 × 8 + 97/10 (9.7 → 10) = 18.
    # Pair 0 & 2: 85 висты; the квинты of seats 2, 3, 0 are cancelled → 85/10 = 8.5, half down 8.
    sheet = game.score_sheet()
    assert any("Рамки 8" in n for n in sheet.deals[-1].notes)
    assert sheet.totals == [8, 18]


def test_same_deal_without_ramki_8_the_first_announced_of_equal_quints_wins() -> None:
    game = new_game()
    deal(game, RAMKI8_DEAL)
    run(game, "1 bid 8:D; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    play_ramki8_deal(game, "JD QD KD AD")
    # Seats 2, 3, 0 hold 6-card квинты to the ace, none trump: the first announced (seat 2) wins,
    # so pair 0 & 2 scores both its квинты: 100 + 100 = 200; seat 1's пятьдесят and seat 3's
    # квинта score nothing. Pair 0 & 2: 85 + 200 = 285 → 28.5 → 28. Pair 1 & 3: 97 → 8 + 10 = 18.
    notes = game.score_sheet().deals[-1].notes
    assert "pair 1 & 3's constructions lose to pair 0 & 2's best one" in notes
    assert "висты of pair 0 & 2: cards 75 + last trick 10 + constructions 200 = 285 (3 tricks)" in notes
    assert game.deals[-1][1] == (28, 18)


def test_full_auction_with_contra_out_of_turn_then_recontra() -> None:
    game = new_game()
    deal(game, RAMKI8_DEAL)
    run(game, "1 bid 8:D; 2 bid pass; 3 bid 9:D")
    assert game.to_act() == 0
    run(game, "2 bid contra")  # out of turn: seat 0 was to speak
    assert game.phase == "contra"
    # After Контра only the contracting pair speaks: seat 3 (next clockwise) passes or says
    # Реконтра; seat 1 may say Реконтра at any time. No significant bid any more.
    assert {str(e) for e in game.legal_actions()} == {
        "3 bid pass", "3 bid recontra", "1 bid recontra"}
    run(game, "3 bid pass; 1 bid recontra")
    assert game.phase == "play" and game.contra == 2 and game.bidder == 3
    assert game.to_act() == 1  # the player left of the dealer leads
    assert [a for _, a in game.auction] == ["8:D", "pass", "9:D", "contra", "pass", "recontra"]
    play_ramki8_deal(game, "8C 8D 8H 8S")
    # Contract 9♦ Реконтра by pair 1 & 3: M = 4. висты 97 ≥ 90: made → 4 × 9 + 10 = 46.
    # Pair 0 & 2: 85 → 8.
    assert game.deals[-1][1] == (8, 46)


def test_contra_failed_contract_defenders_score_multiplied() -> None:
    game = new_game()
    deal(game, RAMKI8_DEAL)
    run(game, "1 bid 10:D; 2 bid contra; 3 bid pass; 1 bid pass")
    play_ramki8_deal(game, "8C 8D 8H 8S")
    # 10♦ Контра needs 100 висты; pair 1 & 3 has 97: failed. M = 2 (suit, Контра).
    # Pair 0 & 2: 2 × 10 + 16 + constructions 0 (Рамки 8) = 36; pair 1 & 3: 0.
    assert game.deals[-1][1] == (36, 0)


# Failed ВК deal (dealer 0, seat 1 leads); every suit is trump in the trick it is led.
VK_DEAL = {
    0: "TH KH JC AC JD 9D 7S 8S",
    1: "JH 8H 7C 8C 7D 8D AS TS",
    2: "9H 7H 9C TC AD TD QS KS",
    3: "AH QH QC KC QD KD JS 9S",
}


def test_failed_vk_contract() -> None:
    game = new_game()
    deal(game, VK_DEAL)
    run(game, "1 bid pass; 2 bid 20:VK; 3 bid pass; 0 bid pass; 1 bid pass; 2 bid pass")
    assert game.contract_text() == "20 ВК (seat 2)"
    run(game,
        "1 play JH; 2 play 9H; 3 play AH; 0 play TH",  # 1 wins 20 + 14 + 11 + 10 = 55
        "1 play 8H; 2 play 7H; 3 play QH; 0 play KH",  # 0 wins 0 + 0 + 3 + 4 = 7
        "0 play JC; 1 play 7C; 2 play 9C; 3 play QC bela",  # 0 wins 20 + 0 + 14 + 3 = 37
        "0 play AC; 1 play 8C; 2 play TC; 3 play KC bela",  # 0 wins 11 + 0 + 10 + 4 = 25
        "0 play JD; 1 play 7D; 2 play AD; 3 play QD",  # 0 wins 20 + 0 + 11 + 3 = 34
        "0 play 9D; 1 play 8D; 2 play TD; 3 play KD",  # 0 wins 14 + 0 + 10 + 4 = 28
        "0 play 8S; 1 play TS; 2 play QS bela; 3 play 9S",  # 3 wins 0 + 10 + 3 + 14 = 27
        "3 play JS; 0 play 7S; 1 play AS; 2 play KS bela",  # 3 wins 20 + 0 + 11 + 4 = 35, +10
    )
    # Cards: pair 0 & 2: 7 + 37 + 25 + 34 + 28 = 131; pair 1 & 3: 55 + 27 + 35 + 10 = 127;
    # 131 + 127 = 258. Pair 0 & 2 висты 131 + Бэла ♠ 20 = 151 < 200: 20 ВК failed.
    # Defenders 1 & 3: M 1 × N 20 + 26 (ВК) + constructions 0 = 46 (their own Бэла ♣ does not
    # count in a failed contract's score). Contracting pair 0.
    notes = game.score_sheet().deals[-1].notes
    assert "висты of pair 0 & 2: cards 131 + Бэла 20 = 151 (5 tricks)" in notes
    assert "висты of pair 1 & 3: cards 117 + last trick 10 + Бэла 20 = 147 (3 tricks)" in notes
    assert game.deals[-1][1] == (0, 46)


def test_capot_with_constructions_on_top() -> None:
    game = new_game()
    deal(game, SUITS_DEAL)
    run(game, "1 bid kapo:D; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    run(game,
        "1 declare 7D 8D 9D TD JD QD KD AD; 1 play 7D",
        "2 declare 7H 8H 9H TH JH QH KH AH; 2 play 7H",
        "3 declare 7S 8S 9S TS JS QS KS AS; 3 play 7S",
        "0 declare 7C 8C 9C TC JC QC KC AC; 0 play 7C")
    for rank in "89TJQKA":
        bela = " bela" if rank in "QK" else ""
        run(game, f"1 play {rank}D{bela}; 2 play {rank}H; 3 play {rank}S; 0 play {rank}C")
    # Four 8-card квинты to the ace; seat 1's is trump, so pair 1 & 3 wins and scores seat 1's
    # and seat 3's: 100 + 100 = 200. Every trick: card points count 252 instead of 162.
    # висты 252 + 200 + Бэла 20 = 472 → 47. Капо ♦ made: M 1 × N 25 + 47 = 72. Pair 0 & 2: 0.
    notes = game.score_sheet().deals[-1].notes
    assert "висты of pair 1 & 3: capot 252 + constructions 200 + Бэла 20 = 472 (8 tricks)" in notes
    assert game.deals[-1][1] == (0, 72)


def test_eight_run_as_quint_plus_terz_is_junior_to_any_longer_quint() -> None:
    game = new_game()
    deal(game, SUITS_DEAL)
    run(game, "1 bid kapo:D; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    run(game,
        "1 declare TD JD QD KD AD; 1 declare 7D 8D 9D; 1 play 7D",
        "2 declare 7H 8H 9H TH JH QH KH AH; 2 play 7H",
        "3 play 7S; 0 play 7C")
    for rank in "89TJQKA":
        run(game, f"1 play {rank}D; 2 play {rank}H; 3 play {rank}S; 0 play {rank}C")
    # Seat 1's квинта counts as 5 cards: junior to seat 2's 8-card квинта although trump.
    # Pair 0 & 2 wins the comparison: 100 висты → 10 points; pair 1 & 3: 252 → 25 + Капо 25 = 50.
    assert "pair 1 & 3's constructions lose to pair 0 & 2's best one" in game.deals[-1][3]
    assert game.deals[-1][1] == (10, 50)


def test_eight_run_as_quint_plus_terz_scores_120_when_it_wins() -> None:
    game = new_game()
    deal(game, SUITS_DEAL)
    run(game, "1 bid kapo:D; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    run(game, "1 declare TD JD QD KD AD; 1 declare 7D 8D 9D; 1 play 7D; 2 play 7H; 3 play 7S",
        "0 play 7C")
    for rank in "89TJQKA":
        run(game, f"1 play {rank}D; 2 play {rank}H; 3 play {rank}S; 0 play {rank}C")
    # квинта 100 + терц 20 = 120; висты 252 + 120 = 372 → 37; Капо 25 + 37 = 62.
    assert game.deals[-1][1] == (0, 62)


def test_bk_contract_doubles_and_has_no_bela() -> None:
    game = new_game()
    deal(game, SUITS_DEAL)
    run(game, "1 bid 8:BK; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    assert "1 play KD bela" not in {str(e) for e in game.legal_actions()}
    for rank in "789TJQKA":
        run(game, f"1 play {rank}D; 2 play {rank}H; 3 play {rank}S; 0 play {rank}C")
    # БК card points: seat 1 takes all: capot 252 → 25. 8 БК made: M 2 × 8 = 16 + 25 = 41.
    assert game.deals[-1][1] == (0, 41)


def hand_kapo_deal(game: BazarBelot, seat: int, suit: str, plus: int,
                   declare: tuple[str, ...] = (), bela: bool = False) -> None:
    """A «Капо с руки» + K with Реконтра on the one-suit-per-seat deal: the bidder takes all."""
    deal(game, SUITS_DEAL)
    assert game.to_act() == seat  # the seat left of the dealer speaks first
    run(game, f"{seat} bid hand:{suit}+{plus}; {(seat + 1) % 4} bid contra",
        f"{(seat + 2) % 4} bid pass; {seat} bid recontra")
    assert game.out == (seat + 2) % 4 and game.to_act() == seat
    for d in declare:
        run(game, f"{seat} declare {d}")
    own = SUITS_DEAL[seat].split()
    for i, code in enumerate(own):
        word = " bela" if bela and code[0] in "QK" else ""
        run(game, f"{seat} play {code}{word}")
        for other in ((seat + 1) % 4, (seat + 3) % 4):  # the partner's cards are out of play
            run(game, f"{other} play {SUITS_DEAL[other].split()[i]}")


@pytest.mark.parametrize("tie", [False, True])
def test_both_pairs_past_301(tie: bool) -> None:
    game = new_game()
    if tie:
        # Капо с руки ♦ + 6 Реконтра: M = 1 × 4 × 2 = 8, N = 25 + 6 = 31. The + K test (RULES.md
        # §6) takes the real card points in the tricks: the partner's ♠ (A 11 + 10 10 + K 4 + Q 3
        # + J 2 = 30) are out of play, so 162 − 30 = 132; 132 + квинта ♦ 100 + Бэла 20 = 252
        # ≥ 162 + 60 = 222: made; scored висты 252 + 120 = 372 → 37: 8 × 31 + 37 = 285.
        hand_kapo_deal(game, 1, "D", 6, ("7D 8D 9D TD JD QD KD AD",), bela=True)
        assert game.totals == [0, 285]
    else:
        # Updated for RULES.md §6 (it was «+ 9» with no construction: 252 ≥ 252 made it; now
        # 132 < 252 fails it). Капо с руки ♦ + 7 Реконтра with the квинта: N = 32; real висты
        # 132 (as above) + 100 = 232 ≥ 162 + 70 = 232: made; scored 252 + 100 = 352 → 35:
        # 8 × 32 + 35 = 291.
        hand_kapo_deal(game, 1, "D", 7, ("7D 8D 9D TD JD QD KD AD",))
        assert game.totals == [0, 291]
    # Deal 2 (dealer 1): Капо с руки ♥ + 7 Реконтра by seat 2: N 32, M 8; квинта 10-A + терц
    # 7-9 = 120, Бэла 20: real 132 (seat 0's ♣ out of play: 162 − 30) + 140 = 272 ≥ 162 + 70:
    # made; scored висты 252 + 140 = 392 → 39 (half down); 256 + 39 = 295.
    hand_kapo_deal(game, 2, "H", 7, ("TH JH QH KH AH", "7H 8H 9H"), bela=True)
    assert game.totals[0] == 295
    # Deals 3 and 4 (dealers 2 and 3): all pass, void; the deal passes on to seat 0.
    for dealer in (2, 3):
        deal(game, SUITS_DEAL)
        run(game, *(f"{(dealer + k) % 4} bid pass" for k in (1, 2, 3, 4)))
    assert game.dealer == 0 and game.totals[0] == 295
    deal(game, RAMKI8_DEAL)
    run(game, "1 bid 8:D; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    play_ramki8_deal(game, "8C 8D 8H 8S")  # pair 0 & 2 + 8, pair 1 & 3 + 18 (see above)
    assert game.is_over
    sheet = game.score_sheet()
    if tie:
        # 295 + 8 = 303 and 285 + 18 = 303: equal, the pair of the last contract (1 & 3) wins.
        assert sheet.totals == [303, 303]
    else:
        # 303 and 291 + 18 = 309: both past 301, the higher wins.
        assert sheet.totals == [303, 309]
    assert sheet.finished and sheet.winner == 1
    assert len(sheet.deals) == 5 and sheet.deals[2].points == [0, 0]


def test_rounding_is_per_side_half_down() -> None:
    from engine.bazar.scoring import tenths

    # 165 → 16.5 → 16 (half down); 166 → 17; 164 → 16; 0 → 0.
    assert [tenths(v) for v in (165, 166, 164, 0, 5, 6)] == [16, 17, 16, 0, 0, 1]


def test_multiplier_table() -> None:
    from engine.bazar.scoring import multiplier

    # Suit / ВК ×1, БК ×2; Контра 2 / 3; Реконтра 4 / 5; Капо с руки doubles M.
    assert [multiplier(g, c, False) for g in (0, 4, 5) for c in (0, 1, 2)] == [
        1, 2, 4, 2, 3, 5, 1, 2, 4]
    assert [multiplier(g, 2, True) for g in (3, 4, 5)] == [8, 10, 8]


@pytest.mark.parametrize(("seat1_declares", "expected"), [
    # Pair 1 & 3 took 5 tricks: Капо ♦ failed. Defenders: 1 × 25 + 16 + constructions
    # (cancelled by Рамки 8) = 41.
    ("8C 8D 8H 8S", (41, 0)),
    # No Рамки 8: pair 0 & 2 wins the comparison with 200 → 41 + 200/10 = 61.
    ("JD QD KD AD", (61, 0)),
])
def test_failed_kapo(seat1_declares: str, expected: tuple[int, int]) -> None:
    game = new_game()
    deal(game, RAMKI8_DEAL)
    run(game, "1 bid kapo:D; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    play_ramki8_deal(game, seat1_declares)
    assert game.deals[-1][1] == expected


@pytest.mark.parametrize(("bid", "expected"), [
    # Капо ВК: N 35; capot in ВК counts 348 висты → 35 (34.8 → 35): 35 + 35 = 70.
    ("kapo:VK", (0, 70)),
    # Капо ВК + 2 (updated for RULES.md §6, it was made on 348 ≥ 278): the test takes the real
    # card points, 258, and no construction or Бэла: 258 < 258 + 20 = 278: failed although a
    # capot; the defenders took no trick: 1 × N 37 + 26 (ВК) = 63.
    ("kapo:VK+2", (63, 0)),
    # Капо ♦ + 10: every trick, but real висты 162 < 162 + 100: failed although a capot; the
    # defenders took no trick: 1 × 35 + 16 = 51.
    ("kapo:D+10", (51, 0)),
])
def test_kapo_values_and_kapo_plus_k(bid: str, expected: tuple[int, int]) -> None:
    game = new_game()
    deal(game, SUITS_DEAL)
    run(game, f"1 bid {bid}; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    for rank in "789TJQKA":
        run(game, f"1 play {rank}D; 2 play {rank}H; 3 play {rank}S; 0 play {rank}C")
    assert game.deals[-1][1] == expected
