"""Rules review of Bazar-Belot: hand-worked cases for RULES.md §4 paths the other files leave open.

Every expected number below is worked out from RULES.md §4, never read off the engine.
"""

from __future__ import annotations

import pytest
from _bazar_kit import SUITS_DEAL, args, deal, new_game, run

from engine.bazar import BazarBelot
from engine.bazar.constructions import classify, winner
from engine.bazar.tables import BK, VK
from engine.cards import cards, mask_of
from engine.errors import BidNotAllowedError


def dealt(hands: dict[int, str] = SUITS_DEAL, **options: object) -> BazarBelot:
    game = new_game(**options)
    deal(game, hands)
    return game


# --------------------------------------------------------------------------- auction

def test_kapo_s_ruki_without_k_beats_a_kapo_with_k_and_is_said_out_of_turn() -> None:
    game = dealt()
    run(game, "1 bid kapo:H+5")
    # Seat 2 is to speak; seat 0's partner (seat 2) has said nothing yet, so seat 0 may say
    # «Капо с руки» out of turn, and any Капо с руки beats any Капо, even Капо + 5.
    assert "hand:C" in args(game, 0)
    run(game, "0 bid hand:C")
    # The word goes on from seat 0 to seat 1, whose partner (seat 3) has not spoken: now only a
    # Капо с руки with a larger K is senior, no Капо however large.
    assert game.to_act() == 1
    first = args(game, 1)
    assert "hand:S" not in first and "hand:S+1" in first and "kapo:S+20" not in first
    # Seat 3's partner (seat 1) has spoken: no Капо с руки for seat 3.
    assert not {a for a in args(game, 3) if a.startswith("hand")}


def test_no_kapo_s_ruki_after_contra() -> None:
    game = dealt()
    run(game, "1 bid 8:H; 2 bid contra")
    # After Контра no significant bid may follow, not even a Капо с руки out of turn by seat 3
    # (whose partner, seat 1, is the bidder) or by seat 0 (whose partner said the Контра).
    for line in ("3 bid hand:S", "0 bid hand:C"):
        with pytest.raises(BidNotAllowedError) as err:
            run(game, line)
        assert err.value.rule == "after-contra"


def test_three_passes_where_the_bidders_own_pair_passed_twice() -> None:
    game = dealt()
    # Passes by 3, 0, 1 after seat 2's 9♠: seats 3 and 1 (pair 1 & 3) made two of the three, so
    # pair 1 & 3 may only pass or say Контра; the word goes back to the last bidder, seat 2.
    run(game, "1 bid 8:H; 2 bid 9:S; 3 bid pass; 0 bid pass; 1 bid pass")
    assert game.to_act() == 2
    run(game, "2 bid 10:S")  # a raise in the same game: only pair 0 & 2 raises ♠ from now on
    assert args(game, 3) == {"pass", "contra"}
    with pytest.raises(BidNotAllowedError) as err:
        run(game, "3 bid 11:S")
    assert err.value.rule == "three-passes"
    run(game, "3 bid pass")
    partner = args(game, 0)
    assert {"pass", "11:S", "kapo:S"} <= partner and "11:H" not in partner
    run(game, "0 bid pass")  # the partner's pass makes 10 ♠ final
    assert game.phase == "play" and game.contract_text() == "10 ♠ (seat 2)"


# --------------------------------------------------------------------------- constructions

def _cls(codes: str, game: int) -> tuple:
    return classify(mask_of(cards(codes)), game)  # type: ignore[return-value]


@pytest.mark.parametrize(("codes", "game", "value"), [
    # Suit game and ВК: J 200, 9 140, A 110, 10/K/Q 100.
    ("JC JD JH JS", 2, 200), ("9C 9D 9H 9S", 2, 140), ("AC AD AH AS", 2, 110),
    ("TC TD TH TS", 2, 100), ("KC KD KH KS", 2, 100), ("QC QD QH QS", 2, 100),
    ("JC JD JH JS", VK, 200), ("9C 9D 9H 9S", VK, 140), ("AC AD AH AS", VK, 110),
    # БК: A 190, 10/K/Q/J 100.
    ("AC AD AH AS", BK, 190), ("TC TD TH TS", BK, 100), ("KC KD KH KS", BK, 100),
    ("QC QD QH QS", BK, 100), ("JC JD JH JS", BK, 100),
    # Sequences: терц 20, пятьдесят 50, квинта (5 or more) 100.
    ("7H 8H 9H", 0, 20), ("TH JH QH KH", 0, 50), ("9H TH JH QH KH", 0, 100),
    ("7H 8H 9H TH JH QH KH AH", 0, 100),
])
def test_construction_values_per_game_type(codes: str, game: int, value: int) -> None:
    assert _cls(codes, game)[1] == value


def _best(game: int, *declared: tuple[int, str]) -> int:
    made = []
    for seat, codes in declared:
        kind, value, key = _cls(codes, game)
        made.append((seat, kind, value, key, mask_of(cards(codes))))
    return winner(made)


def test_construction_comparison_order() -> None:
    # Рамки beat any sequence, even an 8-card квинта (seat 1 of pair 1 & 3).
    assert _best(0, (0, "7H 8H 9H TH JH QH KH AH"), (1, "QC QD QH QS")) == 1
    # Рамки order in a suit game / ВК: J 9 A 10 K Q — four 9s (140) beat four aces (110).
    assert _best(0, (1, "AC AD AH AS"), (2, "9C 9D 9H 9S")) == 0
    assert _best(VK, (1, "JC JD JH JS"), (2, "9C 9D 9H 9S")) == 1
    # БК order A 10 K Q J: four jacks are the lowest Рамки there.
    assert _best(BK, (1, "JC JD JH JS"), (2, "QC QD QH QS")) == 0
    # Longer sequence first, then the higher top card, then trump, then the one announced first.
    assert _best(0, (1, "7H 8H 9H TH"), (2, "QS KS AS")) == 1
    assert _best(0, (1, "7H 8H 9H TH"), (2, "8S 9S TS JS")) == 0
    assert _best(2, (1, "8H 9H TH"), (2, "8S 9S TS")) == 1  # ♥ trump
    assert _best(2, (2, "8S 9S TS"), (1, "8D 9D TD")) == 0  # announced first
    # An 8-run said as квинта + терц is junior to any 6-card квинта.
    assert _best(0, (1, "TH JH QH KH AH"), (1, "7H 8H 9H"), (2, "7S 8S 9S TS JS QS")) == 0


BK_RAMKI_DEAL = {
    0: "7C 8C 7D 8D 7H 8H 7S 8S",
    1: "AC AD AH AS KC KD KH KS",
    2: "TC TD TH TS QC QD QH QS",
    3: "JC JD JH JS 9C 9D 9H 9S",
}


def test_bk_ramki_of_aces_190_wins_and_the_pair_scores_all_its_constructions() -> None:
    game = dealt(BK_RAMKI_DEAL)
    run(game, "1 bid 8:BK; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    run(game,
        "1 declare AC AD AH AS; 1 declare KC KD KH KS; 1 play AC",
        "2 declare TC TD TH TS; 2 declare QC QD QH QS; 2 play TC",
        "3 declare JC JD JH JS; 3 play JC",
        "0 play 7C")  # seat 0 holds four 7s and four 8s and does not announce them
    for suit in "DHS":
        run(game, f"1 play A{suit}; 2 play T{suit}; 3 play J{suit}; 0 play 7{suit}")
    for suit in "CDHS":
        run(game, f"1 play K{suit}; 2 play Q{suit}; 3 play 9{suit}; 0 play 8{suit}")
    # БК card points: A 19 + 10 10 + J 2 + 7 0 = 31 per ace trick (× 4 = 124), K 4 + Q 3 = 7 per
    # king trick (× 4 = 28), last trick 10: 162, all to pair 1 & 3 — a capot, so 252.
    # Constructions: pair 1 & 3's best is Рамки A (190, the top of A 10 K Q J) against pair
    # 0 & 2's Рамки 10 (100): pair 1 & 3 scores all of its own: 190 + 100 (K) + 100 (J) = 390.
    # висты 252 + 390 = 642 → 64. 8 БК made, M 2: 2 × 8 + 64 = 80. Pair 0 & 2: 0.
    assert game.deals[-1][1] == (0, 80)


# --------------------------------------------------------------------------- scoring

def _suits_deal_capot(game: BazarBelot, lead: int) -> None:
    """On SUITS_DEAL the leader's suit is never beaten when nobody can trump it."""
    order = [lead, (lead + 1) % 4, (lead + 2) % 4, (lead + 3) % 4]
    for rank in "789TJQKA":
        run(game, "; ".join(f"{s} play {rank}{SUITS_DEAL[s][1]}" for s in order))


@pytest.mark.parametrize(("word", "expected"), [
    # 8 БК Контра: M = 3. Seat 1 takes every trick: висты 252 → 25. Made: 3 × 8 + 25 = 49.
    ("pass", (0, 49)),
    # 8 БК Реконтра: M = 5: 5 × 8 + 25 = 65.
    ("recontra", (0, 65)),
])
def test_bk_contra_and_recontra_multipliers_in_a_deal(word: str, expected: tuple[int, int]) -> None:
    game = dealt()
    run(game, "1 bid 8:BK; 2 bid contra; 3 bid pass")
    run(game, f"1 bid {word}")
    _suits_deal_capot(game, 1)
    assert game.deals[-1][1] == expected


def test_failed_kapo_s_ruki_doubles_m_and_defenders_capot_bonus() -> None:
    game = dealt()
    run(game, "1 bid hand:H; 2 bid contra; 3 bid pass; 1 bid pass")
    # Seat 1 leads (Капо с руки), seat 3's cards are out of play. Seat 2 holds every heart.
    run(game, "1 play 7D; 2 play 7H; 0 play 7C")  # seat 2 must trump (opponent winning)
    for rank in "89TJQKA":
        run(game, f"2 play {rank}H; 0 play {rank}C; 1 play {rank}D")
    # Failed: M = 2 (suit, Контра) × 2 (Капо с руки) = 4, N = 25; the defenders took every
    # trick: bonus 25 instead of 16. Pair 0 & 2: 4 × 25 + 25 = 125; pair 1 & 3: 0.
    assert game.deals[-1][1] == (125, 0)


def test_failed_vk_with_contra_defenders_took_every_trick_and_keep_their_constructions() -> None:
    game = dealt()
    run(game, "1 bid pass; 2 bid 20:VK; 3 bid contra; 0 bid pass; 2 bid pass")
    run(game,
        "1 declare 7D 8D 9D TD JD QD KD AD; 1 play 7D",
        "2 declare 7H 8H 9H TH JH QH KH AH; 2 play 7H",
        "3 declare 7S 8S 9S TS JS QS KS AS; 3 play 7S",
        "0 play 7C")
    for rank in "89TJQKA":
        run(game, f"1 play {rank}D; 2 play {rank}H; 3 play {rank}S; 0 play {rank}C")
    # Seat 1 leads ♦ every time; in ВК the suit led is trump and nobody else holds one: pair
    # 1 & 3 takes every trick. Three equal 8-card квинты to the ace (all trumps in ВК): the one
    # announced first (seat 1) wins: pair 1 & 3 scores 100 + 100 = 200.
    # 20 ВК Контра failed: M 2 × N 20 = 40 + 35 (ВК, defenders took every trick) + 200 / 10
    # = 95. Pair 0 & 2: 0.
    assert game.deals[-1][1] == (0, 95)


@pytest.mark.parametrize(("plus", "bela", "expected"), [
    # Updated for RULES.md §6: the + K test counts the real card points (162 for every trick),
    # not the capot's 252; 252 counts only in the score after the test.
    # Капо ♦ + 9: real висты 162 + квинта 100 = 262 ≥ 162 + 90 = 252: made.
    # N 25 + 9 = 34; scored висты 252 + 100 = 352 → 35: 34 + 35 = 69.
    (9, False, (0, 69)),
    # Капо ♦ + 10: 262 ≥ 162 + 100 = 262: made, just. N 35; 352 → 35: 35 + 35 = 70.
    (10, False, (0, 70)),
    # Капо ♦ + 11: 262 < 272: failed although a capot. Defenders took no trick: 1 × 36 + 16 = 52.
    (11, False, (52, 0)),
    # Капо ♦ + 12 with Бэла: 162 + 100 + 20 = 282 ≥ 162 + 120 = 282: made. N 37; scored
    # 252 + 100 + 20 = 372 → 37: 37 + 37 = 74.
    (12, True, (0, 74)),
    # Капо ♦ + 13 with Бэла: 282 < 292: failed: 38 + 16 = 54.
    (13, True, (54, 0)),
    # Капо ♦ + 21 with Бэла: 282 < 162 + 210 = 372 (the old reading, 252 + 120 = 372, made it):
    # failed: 46 + 16 = 62.
    (21, True, (62, 0)),
])
def test_kapo_plus_k_tests_real_card_points_plus_constructions_and_bela_by_rules_md_section_6(
        plus: int, bela: bool, expected: tuple[int, int]) -> None:
    game = dealt(max_kapo_plus=30)
    run(game, f"1 bid kapo:D+{plus}; 2 bid pass; 3 bid pass; 0 bid pass; 1 bid pass")
    run(game, "1 declare 7D 8D 9D TD JD QD KD AD")
    for rank in "789TJQKA":
        word = " bela" if bela and rank in "QK" else ""
        run(game, f"1 play {rank}D{word}; 2 play {rank}H; 3 play {rank}S; 0 play {rank}C")
    assert game.deals[-1][1] == expected
