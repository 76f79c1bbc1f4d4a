"""Illegal plays at a physical Durak table, as RULES.md §6 settles them.

- the default policy is ``retract``;
- an illegal attack or throw-in is always taken back, whatever the policy;
- an illegal defence under ``penalize`` stands until the bout ends, and then the defender takes
  every card on the table instead of «бито»; under ``on_claim`` only if the attacker claims it
  before the bout ends (after «бито» it stands);
- no point penalty;
- every score sheet names each illegal play: seat, card, bout, rule and message.
"""

from __future__ import annotations

import pytest
from _durak2_kit import DEAL, hand, run, shoe
from _refusal import refused

from engine import record as records
from engine.durak2 import Durak2
from engine.errors import ActionNotAllowedError, IllegalPlayError
from engine.events import Event, ev
from engine.scoresheet import CLAIMED, LET_GO, PENALISED

# DEAL (trump ♠): seat 0 6C 6D 6H 6S 7C 7D, seat 1 8C 8D 8H 7S 9C 9D; seat 0 attacks first.
# Super short, seat 0 attacks with all six; seat 1 "beats" 6C with 9D (a diamond on a club, not a
# trump: illegal), beats the next four legally and takes the 7D (its 8C cannot beat it): seat 0 is
# out first and wins.
FOUL = "1 beat 9D 6C"
FOUL_MESSAGE = "9♦ does not beat 6♣: neither a higher club nor a trump"
BEFORE_FOUL = [*shoe(DEAL), "0 play 6C"]
AFTER_FOUL = ["0 play 6D", "1 beat 8D 6D", "0 play 6H", "1 beat 8H 6H",
              "0 play 6S", "1 beat 7S 6S", "0 play 7C", "1 beat 9C 7C",
              "0 play 7D", "1 take", "0 done"]

# A short game's first bout with an illegal defence in it, everything "covered":
#   0 play 6C, 1 beat 9D 6C (illegal), 0 play 6D, 1 beat 8D 6D, 0 play 6H, 1 beat 8H 6H, 0 done.
# Six cards lie on the table: 6C 9D 6D 8D 6H 8H.
COVERED_BOUT = ["0 play 6C", FOUL, "0 play 6D", "1 beat 8D 6D", "0 play 6H", "1 beat 8H 6H"]


def record_all(game: Durak2, lines: list[str]) -> Durak2:
    for line in lines:
        game.record(ev(line))
    return game


def test_default_policy_is_retract_by_rules_md_section_6() -> None:
    game = Durak2()
    assert game.settings.policy == "retract"
    run(game, BEFORE_FOUL)
    before = game.snapshot()
    verdict = game.record(ev(FOUL))
    assert not verdict.legal and verdict.rule == "beat"
    assert game.legal_actions() == [Event("undo")]
    game.record(ev("undo"))
    assert game.snapshot() == before


def test_illegal_beat_is_recorded_with_the_rule_broken() -> None:
    game = run(Durak2(game_type="super_short", policy="penalize"), BEFORE_FOUL)
    verdict = game.record(ev(FOUL))
    assert not verdict.legal and verdict.rule == "beat"
    assert verdict.message == FOUL_MESSAGE
    assert game.illegal_plays == [verdict]
    # The card lies on the table: 6C counts as covered, and the 9 is now a rank on the table.
    assert game.describe()["table"] == [["6C", "9D"]]
    assert game.judge(ev("0 play 6D")).legal


@pytest.mark.parametrize("policy", ["penalize", "on_claim", "retract"])
def test_illegal_throw_in_is_always_taken_back_by_rules_md_section_6(policy: str) -> None:
    game = run(Durak2(game_type="super_short", policy=policy), [*shoe(DEAL), "0 play 6C", "1 beat 8C 6C"])
    before = game.snapshot()
    verdict = game.record(ev("0 play 7C"))  # rank 7 is not on the table (6 and 8 are)
    assert not verdict.legal and verdict.rule == "throw-in-rank"
    # Nothing else can be recorded until it is taken back, whatever the policy.
    assert game.legal_actions() == [Event("undo")] and game.legal_actions(1) == [Event("undo")]
    for line in ("1 take", "0 done", "0 play 6D"):
        with pytest.raises(ActionNotAllowedError) as info:
            game.record(ev(line))
        assert info.value.rule == "retract-pending"
        assert "can never stand" in str(info.value) or policy == "retract"
    game.record(ev("undo"))
    assert game.snapshot() == before
    assert game.illegal_plays == []


def test_penalize_defender_takes_the_table_when_the_bout_ends_by_rules_md_section_6() -> None:
    game = record_all(Durak2(policy="penalize"), [*shoe(DEAL), *COVERED_BOUT, "0 done"])
    # Instead of «бито» seat 1 takes the six cards: its 8C 7S 9C (three left in hand) + 6C 9D
    # 6D 8D 6H 8H = 9 cards; seat 0 keeps 6S 7C 7D and attacks again, nothing is discarded.
    assert hand(game, 1) == {"8C", "7S", "9C", "6C", "9D", "6D", "8D", "6H", "8H"}
    assert game.describe()["discard"] == 0
    # Drawing: the attacker of the bout (seat 0) draws 6 − 3 = 3; seat 1 (9 cards) draws none.
    run(game, shoe("JC JD JH"))
    assert game.attacker == 0 and game.defender == 1
    assert hand(game, 0) == {"6S", "7C", "7D", "JC", "JD", "JH"}
    assert game.describe()["fouls"] == [{"seat": 1, "card": "9D", "bout": 1, "rule": "beat",
                                         "message": FOUL_MESSAGE, "outcome": PENALISED}]


def test_on_claim_unclaimed_illegal_defence_stands_after_the_bout_by_rules_md_section_6() -> None:
    game = record_all(Durak2(policy="on_claim"), [*shoe(DEAL), *COVERED_BOUT])
    assert ev("0 foul") in game.legal_actions(0)  # the attacker may claim until «бито»
    assert ev("1 foul") not in game.legal_actions()
    game.record(ev("0 done"))
    # «бито»: the six cards are discarded, seat 1 attacks next; the claim is gone.
    assert game.describe()["discard"] == 6
    run(game, shoe("JC JD JH JS QC QD"))  # seat 0 draws 3, then seat 1 draws 3
    assert game.attacker == 1
    refused(game, ev("0 foul"), ActionNotAllowedError)
    assert game.describe()["fouls"][0]["outcome"] == LET_GO


def test_on_claim_claimed_before_bito_the_defender_takes_by_rules_md_section_6() -> None:
    game = record_all(Durak2(policy="on_claim"), [*shoe(DEAL), *COVERED_BOUT, "0 foul"])
    refused(game, ev("0 foul"), ActionNotAllowedError)  # claimed already
    game.record(ev("0 done"))
    # As under penalize: seat 1 takes 3 + 6 = 9 cards, nothing discarded.
    assert len(hand(game, 1)) == 9 and game.describe()["discard"] == 0
    assert game.describe()["fouls"][0]["outcome"] == CLAIMED


def test_no_point_penalty_by_rules_md_section_6() -> None:
    game = record_all(Durak2(game_type="super_short", policy="penalize"), [*BEFORE_FOUL, FOUL, *AFTER_FOUL])
    sheet = game.score_sheet()
    # Seat 0 is out of cards first: 1 point; seat 1's illegal defence gives no point: 1–0.
    assert game.is_over and sheet.totals == [1, 0]
    assert [(i.side, i.points, i.rule) for i in sheet.deals[0].items] == [(0, 1, "durak-win")]


@pytest.mark.parametrize(("policy", "claim", "outcome"), [
    ("penalize", [], PENALISED), ("on_claim", ["0 foul"], CLAIMED), ("on_claim", [], LET_GO)])
def test_score_sheet_names_every_illegal_play_by_rules_md_section_6(
        policy: str, claim: list[str], outcome: str) -> None:
    game = record_all(Durak2(game_type="super_short", policy=policy),
                      [*BEFORE_FOUL, FOUL, *claim, *AFTER_FOUL])
    sheet = game.score_sheet()
    assert game.is_over
    (play,) = sheet.deals[0].illegal
    assert (play.seat, play.card, play.trick, play.rule, play.message, play.outcome) == (
        1, "9D", 1, "beat", FOUL_MESSAGE, outcome)
    assert sheet.to_dict()["deals"][0]["illegal"] == [
        {"seat": 1, "card": "9D", "trick": 1, "rule": "beat", "message": FOUL_MESSAGE,
         "outcome": outcome}]
    text = sheet.render()
    assert "illegal play by seat 1: 9D in trick 1" in text and FOUL_MESSAGE in text and outcome in text


def test_apply_raises_for_the_illegal_play() -> None:
    game = run(Durak2(game_type="super_short"), BEFORE_FOUL)
    with pytest.raises(IllegalPlayError) as info:
        game.apply(ev(FOUL))
    assert info.value.verdict.rule == "beat"


def test_claims_are_only_for_on_claim() -> None:
    game = record_all(Durak2(policy="penalize"), [*shoe(DEAL), *COVERED_BOUT])
    refused(game, ev("0 foul"), ActionNotAllowedError)
    # and nothing to claim when no illegal defence stands
    game = run(Durak2(policy="on_claim"), [*shoe(DEAL), "0 play 6C", "1 beat 8C 6C"])
    refused(game, ev("0 foul"), ActionNotAllowedError)


def test_a_record_with_an_illegal_play_replays_with_its_verdict() -> None:
    game = record_all(Durak2(game_type="super_short", policy="penalize"), [*BEFORE_FOUL, FOUL, *AFTER_FOUL])
    text = records.dumps(game)
    assert "option policy=penalize" in text  # retract is the default now
    back = records.loads(text).game
    assert back.snapshot() == game.snapshot()
    assert [v.rule for v in back.illegal_plays] == ["beat"]
