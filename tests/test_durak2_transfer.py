"""«Переводной» durak (option transfer, off by default; RULES.md §2 "beyond the seed")."""

from __future__ import annotations

from _durak2_kit import codes, hand, run, shoe

from engine.durak2 import Durak2
from engine.events import ev

# Trump ♥ (AH turned). seat 0: 6C 6D 7C 7D 8C 7H, seat 1: 6S 9C 9D 8D 8H TC.
# Lowest trump: 7H (seat 0) < 8H (seat 1): seat 0 attacks.
DEAL_T = "6C 6D 7C 6S 9C 9D 7D 8C 7H 8D 8H TC AH"


def game_t(**options: object) -> Durak2:
    return run(Durak2({"transfer": True, **options}), shoe(DEAL_T))


def test_transfer_is_off_by_default() -> None:
    game = run(Durak2(), [*shoe(DEAL_T), "0 play 6C"])
    assert all(e.kind != "transfer" for e in game.legal_actions())


def test_transfer_swaps_the_roles_and_may_bounce_back() -> None:
    game = game_t()
    run(game, ["0 play 6C"])
    assert ev("1 transfer 6S") in game.legal_actions(1)
    run(game, ["1 transfer 6S"])
    d = game.describe()
    # Seat 1 now attacks; seat 0 faces 6C and 6S with 5 cards in hand: cap min(6, 5) = 5.
    assert (d["attacker"], d["defender"], d["cap"]) == (1, 0, 5)
    assert d["table"] == [["6C", None], ["6S", None]]
    assert game.to_act() == 0
    # Seat 0 passes it back with its 6D: seat 1 (5 cards) faces three sixes.
    run(game, ["0 transfer 6D"])
    assert game.describe()["attacker"] == 0 and game.describe()["cap"] == 5
    # Seat 1 holds no six: it beats (6C by 9C or TC, 6D by 9D or 8D, 6S by a trump 8H) or takes.
    listed = {str(e) for e in game.legal_actions(1)}
    assert "1 beat 9C 6C" in listed and "1 beat 8H 6S" in listed and "1 take" in listed
    assert not any(e.startswith("1 transfer") for e in listed)
    run(game, ["1 take", "0 done"])
    # After a take the attacker (seat 0, who transferred last) attacks again.
    assert codes("6C 6S 6D") <= hand(game, 1)
    assert game.describe()["attacker"] == 0


def test_transfer_after_a_card_is_beaten_is_illegal() -> None:
    game = game_t(policy="penalize")
    # Seat 0 attacks 7C; seat 1 beats it with 9C; seat 0 throws in the 7D.
    run(game, ["0 play 7C", "1 beat 9C 7C", "0 play 7D"])
    # Seat 1 holds no 7 anyway; try the 6S: wrong rank and too late.
    verdict = game.judge(ev("1 transfer 6S"))
    assert not verdict.legal and verdict.rule == "transfer"


def test_transfer_with_a_different_rank_is_illegal() -> None:
    game = game_t()
    run(game, ["0 play 7C"])
    verdict = game.judge(ev("1 transfer 6S"))
    assert not verdict.legal and verdict.rule == "transfer" and "rank" in verdict.message
    assert ev("1 transfer 6S") not in game.legal_actions()


def test_after_a_transferred_bout_the_final_attacker_draws_first_the_defender_attacks_next() -> None:
    # Reading (docs/games/durak2.md): the roles as they stand when the bout ends decide.
    game = game_t()
    # Seat 0 leads 6C, seat 1 transfers with 6S: seat 1 attacks, seat 0 defends (5 cards, cap 5).
    # Seat 0 beats 6C with 8C and 6S with the trump 7H; seat 1 says «бито».
    run(game, ["0 play 6C", "1 transfer 6S", "0 beat 8C 6C", "0 beat 7H 6S", "1 done"])
    # Seat 1 (attacker at the end, 5 cards) draws 1 first, then seat 0 (3 cards) draws 3.
    run(game, shoe("AC"))
    assert "AC" in hand(game, 1) and len(hand(game, 1)) == 6
    run(game, shoe("AD AS KC"))
    assert hand(game, 0) == codes("6D 7C 7D AD AS KC")
    # After a beaten bout the defender (seat 0) attacks.
    assert not game.expects_shoe and game.describe()["attacker"] == 0


def test_transfer_to_a_player_who_cannot_face_the_cards_is_illegal() -> None:
    # Super short (hands shrink) with transfer. Bout 1: seat 0 attacks 7C<9C, 7D<9D, 7H<8H (higher
    # trump), «бито»: seat 0 holds 6C 6D 8C, seat 1 holds 6S 8D TC, seat 1 attacks.
    game = game_t(game_type="super_short", policy="penalize")
    run(game, ["0 play 7C", "1 beat 9C 7C", "0 play 7D", "1 beat 9D 7D",
               "0 play 7H", "1 beat 8H 7H", "0 done"])
    # Seat 1 leads TC; seat 0 cannot beat it (no higher club, no heart) and takes: seat 0 holds
    # 6C 6D 8C TC, seat 1 holds 6S 8D and attacks again.
    run(game, ["1 play TC", "0 take", "1 done"])
    run(game, ["1 play 6S"])
    # Seat 1 now holds 1 card (8D): a transfer with 6C would put 2 cards on it. 2 > 1: illegal.
    verdict = game.judge(ev("0 transfer 6C"))
    assert not verdict.legal and verdict.rule == "transfer-cap"
    # Seat 0 cannot beat the 6S (no spade, no trump heart): only «беру» is listed.
    assert [str(e) for e in game.legal_actions()] == ["0 take"]
