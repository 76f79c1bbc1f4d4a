"""Illegal plays at a physical Durak table: recorded with a verdict, then the table policy decides.

Durak's penalty (docs/games/durak2.md): each counted foul gives the victim one point when the game
is scored, on top of the point for going out.
"""

from __future__ import annotations

import pytest
from _durak2_kit import DEAL, run, shoe

from engine import record as records
from engine.durak2 import Durak2
from engine.errors import ActionNotAllowedError, IllegalPlayError
from engine.events import Event, ev

# Super short, seat 0 attacks with all six; seat 1 "beats" 6C with 9D (a diamond on a club:
# illegal), beats the next four legally and takes the 7D (its 8C cannot beat it): seat 0 is
# out first and wins.
FOUL = "1 beat 9D 6C"
BEFORE_FOUL = [*shoe(DEAL), "0 play 6C"]
AFTER_FOUL = ["0 play 6D", "1 beat 8D 6D", "0 play 6H", "1 beat 8H 6H",
              "0 play 6S", "1 beat 7S 6S", "0 play 7C", "1 beat 9C 7C",
              "0 play 7D", "1 take", "0 done"]


def test_illegal_beat_is_recorded_with_the_rule_broken() -> None:
    game = run(Durak2(game_type="super_short", policy="penalize"), BEFORE_FOUL)
    verdict = game.record(ev(FOUL))
    assert not verdict.legal and verdict.rule == "beat"
    assert "9♦" in verdict.message and "6♣" in verdict.message
    assert game.illegal_plays == [verdict]
    # The card lies on the table: 6C counts as covered, and the 9 is now a rank on the table.
    assert game.describe()["table"] == [["6C", "9D"]]
    assert game.judge(ev("0 play 6D")).legal


def test_penalize_the_victim_scores_a_point_per_foul() -> None:
    game = run(Durak2(game_type="super_short", policy="penalize"), BEFORE_FOUL)
    game.record(ev(FOUL))
    run(game, AFTER_FOUL)
    sheet = game.score_sheet()
    # Seat 0: 1 (out of cards first) + 1 (seat 1's foul) = 2; seat 1: 0.
    assert sheet.totals == [2, 0]
    assert [(i.side, i.points, i.rule) for i in sheet.deals[0].items] == [
        (0, 1, "durak-win"), (0, 1, "foul:beat")]


def test_retract_blocks_until_the_card_is_taken_back() -> None:
    game = run(Durak2(game_type="super_short", policy="retract"), BEFORE_FOUL)
    before = game.snapshot()
    verdict = game.record(ev(FOUL))
    assert not verdict.legal
    assert game.legal_actions() == [Event("undo")]
    with pytest.raises(ActionNotAllowedError) as info:
        game.record(ev("1 take"))
    assert info.value.rule == "retract-pending"
    game.record(ev("undo"))
    assert game.snapshot() == before
    run(game, ["1 beat 8C 6C"])
    assert game.illegal_plays == []


def test_apply_raises_for_the_illegal_play() -> None:
    game = run(Durak2(game_type="super_short"), BEFORE_FOUL)
    with pytest.raises(IllegalPlayError) as info:
        game.apply(ev(FOUL))
    assert info.value.verdict.rule == "beat"


def test_on_claim_unclaimed_foul_costs_nothing_after_confirm() -> None:
    game = run(Durak2(game_type="super_short", policy="on_claim"), BEFORE_FOUL)
    game.record(ev(FOUL))
    # The victim may claim at once: the claim is listed among seat 0's actions.
    assert ev("0 foul") in game.legal_actions(0)
    assert ev("1 foul") not in game.legal_actions()
    run(game, AFTER_FOUL)
    # The game is over, but the victim decides on the unclaimed foul before the score stands.
    assert not game.is_over and game.to_act() == 0
    assert {str(e) for e in game.legal_actions()} == {"0 foul", "0 confirm"}
    run(game, ["0 confirm"])
    sheet = game.score_sheet()
    # Only the point for going out: 1-0; the foul is a note.
    assert game.is_over and sheet.totals == [1, 0]
    assert any("not counted" in n for n in sheet.deals[0].notes)


def test_on_claim_claimed_foul_counts() -> None:
    game = run(Durak2(game_type="super_short", policy="on_claim"), BEFORE_FOUL)
    game.record(ev(FOUL))
    run(game, ["0 foul"])  # claimed during play
    with pytest.raises(ActionNotAllowedError):
        game.record(ev("0 foul"))  # nothing left to claim
    run(game, AFTER_FOUL)
    # Claimed already: no claims window; 1 + 1 = 2 for seat 0.
    assert game.is_over and game.score_sheet().totals == [2, 0]


def test_on_claim_claim_at_the_end_of_the_game() -> None:
    game = run(Durak2(game_type="super_short", policy="on_claim"), BEFORE_FOUL)
    game.record(ev(FOUL))
    run(game, [*AFTER_FOUL, "0 foul"])
    assert game.is_over and game.score_sheet().totals == [2, 0]


def test_illegal_throw_in_and_cap_are_fouls_of_the_attacker() -> None:
    game = run(Durak2(game_type="super_short", policy="penalize"), shoe(DEAL))
    run(game, ["0 play 6C", "1 beat 8C 6C"])
    verdict = game.record(ev("0 play 7C"))  # rank 7 is not on the table (6 and 8 are)
    assert not verdict.legal and verdict.rule == "throw-in-rank"
    assert game.describe()["fouls"][0]["seat"] == 0


def test_a_record_with_an_illegal_play_replays_with_its_verdict() -> None:
    game = run(Durak2(game_type="super_short", policy="penalize"), BEFORE_FOUL)
    game.record(ev(FOUL))
    run(game, AFTER_FOUL)
    text = records.dumps(game)
    assert "option policy=penalize" not in text  # penalize is the default
    back = records.loads(text).game
    assert back.snapshot() == game.snapshot()
    assert [v.rule for v in back.illegal_plays] == ["beat"]
