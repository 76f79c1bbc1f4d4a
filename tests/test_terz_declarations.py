"""Terz declarations (RULES.md §5): groups, «рост» / «от чего?», the trump marriage, false
declarations, one declaration a lead, never a group inside one already scored, only while the
talon lasts. Bad input leaves the state and the log exactly as they were."""

from __future__ import annotations

import pytest
from _refusal import untouched
from _terz_kit import FIRST_SEVEN, SEAT0, SEAT1, TURNED, deal, game_b, run

from engine.errors import (
    ActionNotAllowedError,
    BadEventError,
    EngineError,
    IllegalPlayError,
    OutOfTurnError,
)
from engine.events import Event, ev
from engine.terz import Terz, declare_event


# Hand set B — dealer seat 0, seat 1 leads; 10♦ turned: diamonds are trumps.
#   seat 1: 9-10-J♥ (терц от В♥), 7-8-9♣ (терц от 9♣), К♦ Д♦ (the trump marriage), Т♠
#   seat 0: 7-8-9♦ (a trump терц от 9♦), 10♠ В♠, 7♥ 8♥, Т♣ К♣
def declared(game: Terz) -> list[int]:
    return game.describe()["declared_points"]


def test_a_group_not_beaten_scores_for_the_declarer() -> None:
    game = game_b()
    run(game, "1 declare 9H TH JH")
    assert game.to_act() == 0 and game.describe()["pending_declaration"]["value"] == 20
    run(game, "0 pass")
    assert declared(game) == [0, 20] and game.to_act() == 1


def test_a_longer_group_beats_and_only_it_scores() -> None:
    game = Terz()
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, "1 declare 9H TH JH", "0 declare TD JD QD KD")   # четверик 50 beats the терц
    assert declared(game) == [50, 0] and game.to_act() == 1


def test_rost_same_length_higher_top_beats() -> None:
    game = Terz()
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, "1 declare 9H TH JH", "0 declare TD JD QD")       # терц от Д beats терц от В
    assert declared(game) == [20, 0]


def test_after_ot_chego_only_a_higher_group_of_the_same_length_beats() -> None:
    game = Terz()
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, "1 declare 9H TH JH", "0 ask")
    with untouched(game), pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("0 declare TD JD QD KD"))                  # longer, but «от чего?» was asked
    assert exc.value.rule == "asked-same-length"
    with untouched(game), pytest.raises(ActionNotAllowedError):
        game.apply(ev("0 ask"))                                  # one question a declaration
    run(game, "0 declare JD QD KD")                              # терц от К beats терц от В
    assert declared(game) == [20, 0]


def test_a_lower_group_does_not_beat_even_in_trumps() -> None:
    game = game_b()
    run(game, "1 declare 9H TH JH")                              # терц от В♥
    with untouched(game), pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("0 declare 7D 8D 9D"))                     # терц от 9♦ (trumps) is lower
    assert exc.value.rule == "does-not-beat"
    answers = {e for e in game.legal_actions(0) if e.kind != "swap"}   # seat 0 holds the 7♦ too
    assert answers == {Event("ask", 0), Event("pass", 0)}


def test_equal_groups_the_trump_one_is_higher() -> None:
    game = game_b()
    run(game, "1 declare 7C 8C 9C", "0 declare 7D 8D 9D")        # both терц от 9; ♦ is trump
    assert declared(game) == [20, 0]


def test_equal_groups_without_the_trump_tie_rule_the_first_declared_stands() -> None:
    game = game_b(trump_group_wins_tie=False)
    run(game, "1 declare 7C 8C 9C")
    with untouched(game), pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("0 declare 7D 8D 9D"))
    assert exc.value.rule == "does-not-beat"
    run(game, "0 pass")
    assert declared(game) == [0, 20]


def test_the_trump_marriage_scores_at_once_and_is_never_beaten() -> None:
    game = game_b()
    run(game, "1 bella")                                         # К♦ Д♦: 20, no answer step
    assert declared(game) == [0, 20] and game.to_act() == 1
    # nothing answers it: seat 0 cannot declare on this lead, before or after seat 1's card
    with untouched(game), pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("0 declare 7D 8D 9D"))
    assert exc.value.rule == "one-declaration-a-lead"
    run(game, "1 play AS")
    with untouched(game), pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("0 declare 7D 8D 9D"))
    assert exc.value.rule == "one-declaration-a-lead"


def test_the_trump_marriage_cannot_answer_a_group() -> None:
    game = Terz()
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, "1 declare 9H TH JH")
    with untouched(game), pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("0 bella"))
    assert exc.value.rule == "marriage-cannot-beat"


def test_after_a_silent_lead_the_opponent_may_declare_any_group() -> None:
    game = game_b()
    run(game, "1 play AS")
    assert declare_event(0, 0b111 << (9 * 1 + 1)) in game.legal_actions(0)   # 7-8-9♦
    run(game, "0 declare 7D 8D 9D", "0 play TS")
    assert declared(game) == [20, 0]


def test_one_declaration_a_lead() -> None:
    game = game_b()
    run(game, "1 declare 9H TH JH", "0 pass")
    with untouched(game), pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("1 declare 7C 8C 9C"))
    assert exc.value.rule == "one-declaration-a-lead"
    with untouched(game), pytest.raises(ActionNotAllowedError):
        game.apply(ev("1 bella"))
    with untouched(game), pytest.raises(ActionNotAllowedError):
        game.apply(ev("0 declare 7D 8D 9D"))


def test_bad_input_a_group_inside_one_already_scored_is_refused() -> None:
    game = Terz()
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, "1 declare 9H TH JH", "0 declare TD JD QD KD",   # seat 0 scores the четверик 10-K♦
        "1 play AC", "0 play 7C", "shoe KS", "shoe 9D", "1 play 8C")
    with untouched(game), pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("0 declare JD QD KD"))                    # терц inside the scored четверик
    assert exc.value.rule == "group-inside-scored" and "inside" in str(exc.value)
    with untouched(game), pytest.raises(ActionNotAllowedError):
        game.apply(ev("0 declare TD JD QD KD"))                 # the same group twice
    with untouched(game), pytest.raises(ActionNotAllowedError):
        game.record(ev("0 declare TD JD QD"))                   # refused at the table too
    listed = {e for e in game.legal_actions(0) if e.kind == "declare"}
    # groups holding the 9♦ are not inside the scored 10-K♦: allowed
    assert listed == {ev("0 declare 9D TD JD QD KD"), ev("0 declare 9D TD JD QD"), ev("0 declare 9D TD JD")}


def test_bad_input_a_declaration_of_cards_not_held_is_refused_with_its_verdict() -> None:
    game = game_b()
    event = ev("1 declare 7D 8D 9D")                             # seat 0 holds these
    assert not game.judge(event).legal and game.judge(event).rule == "false-declaration"
    with untouched(game), pytest.raises(IllegalPlayError) as exc:
        game.apply(event)
    assert exc.value.verdict.rule == "false-declaration"
    assert "without holding 7♦ 8♦ 9♦" in str(exc.value) and "opponent" in str(exc.value)
    assert event not in game.legal_actions()


def test_false_declaration_gives_its_value_to_the_opponent() -> None:
    game = game_b()                                              # policy penalize (default)
    verdict = game.record(ev("1 declare 7D 8D 9D"))             # said at the table: recorded
    assert not verdict.legal and verdict.rule == "false-declaration"
    run(game, "0 pass")
    # seat 1 writes nothing for it; seat 0 writes its 20
    assert declared(game) == [20, 0]
    items = [i for i in game.items if i[3] == "false-declaration"]
    assert [(i[0], i[2]) for i in items] == [(0, 20)]


def test_false_trump_marriage_gives_20_to_the_opponent() -> None:
    game = game_b()
    run(game, "1 play AS")
    assert not game.record(ev("0 bella")).legal                  # seat 0 holds no К♦ Д♦
    assert declared(game) == [0, 20]


def test_false_declaration_under_on_claim_stands_until_claimed() -> None:
    game = game_b(policy="on_claim")
    game.record(ev("1 declare 7D 8D 9D"))
    run(game, "0 pass")
    assert declared(game) == [0, 20]                             # not caught yet: it stands
    assert Event("claim", 0) in game.legal_actions()
    with pytest.raises(ActionNotAllowedError):
        game.apply(ev("1 claim"))                                # seat 0 made no false declaration
    run(game, "0 claim")
    assert declared(game) == [20, 0]                             # caught: its 20 go to seat 0
    assert Event("claim", 0) not in game.legal_actions()


def test_false_declaration_claimed_before_the_answer_never_scores_for_the_declarer() -> None:
    # on_claim: seat 0 hears «терц» and asks to see it before answering («по требованию
    # противника показывает»); seat 1 cannot show 7-8-9♦. The claim gives seat 0 the 20; the
    # pass that follows must not let the caught терц score for seat 1: seat 0 20, seat 1 0.
    game = game_b(policy="on_claim")
    game.record(ev("1 declare 7D 8D 9D"))
    run(game, "0 claim")
    assert declared(game) == [20, 0]
    run(game, "0 pass")
    assert declared(game) == [20, 0]
    assert [(i[0], i[2], i[3]) for i in game.items] == [(0, 20, "false-declaration")]


def test_false_declaration_under_retract_must_be_taken_back() -> None:
    game = game_b(policy="retract")
    before = game.snapshot()
    game.record(ev("1 declare 7D 8D 9D"))
    assert game.legal_actions() == [Event("undo")]
    with pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("0 pass"))
    assert exc.value.rule == "retract-pending"
    game.undo()
    assert game.snapshot() == before


def test_claims_are_refused_unless_the_policy_is_on_claim() -> None:
    game = game_b()
    game.record(ev("1 declare 7D 8D 9D"))
    with untouched(game), pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("0 claim"))
    assert exc.value.rule == "claim-not-used"


def test_bad_input_a_declaration_after_the_talon_is_empty() -> None:
    # Default: the lead right after the last draw may still declare (seed: «последнее объявление
    # делается, когда взята последняя карта из колоды»); with the setting off it may not.
    game = Terz(declare_after_last_draw=False)
    deal(game, SEAT1, SEAT0, TURNED)
    run(game, *FIRST_SEVEN)
    assert game.talon == 0 and game.to_act() == 1
    with untouched(game), pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("1 declare JS QS KS AS"))                  # seat 1 holds this четверик
    assert exc.value.rule == "declarations-closed"
    with untouched(game), pytest.raises(ActionNotAllowedError):
        game.record(ev("1 bella"))
    assert all(e.kind == "play" for e in game.legal_actions(1))


@pytest.mark.parametrize("text, rule", [
    ("1 declare 9H JH QS", "not-a-group"),        # not one suit, not in sequence
    ("1 declare 9H TH", "not-a-group"),           # two cards are no group
    ("1 declare 9H 9H TH", "not-a-group"),        # a card twice
    ("1 declare 9H TH JH extra", "bad-event"),
])
def test_bad_input_malformed_declarations(text: str, rule: str) -> None:
    game = game_b()
    with untouched(game), pytest.raises(BadEventError) as exc:
        game.apply(ev(text))
    assert exc.value.rule == rule


def test_bad_input_declaring_out_of_turn() -> None:
    game = game_b()
    with untouched(game), pytest.raises(OutOfTurnError):
        game.apply(ev("0 declare 7D 8D 9D"))                     # seat 1 leads and declares first
    with untouched(game), pytest.raises(ActionNotAllowedError):
        game.apply(ev("0 pass"))                                  # nothing to answer


def test_legal_actions_list_every_group_held_and_the_marriage() -> None:
    game = game_b()
    actions = game.legal_actions(1)
    decl = {e for e in actions if e.kind != "play"}
    assert decl == {ev("1 declare 9H TH JH"), ev("1 declare 7C 8C 9C"), Event("bella", 1)}
    assert len([e for e in actions if e.kind == "play"]) == 9
    for action in actions:                                       # each one applies
        trial = game_b()
        trial.apply(action)


def test_every_engine_error_names_its_rule() -> None:
    game = game_b()
    for text in ("0 declare 7D 8D 9D", "1 declare 9H TH", "1 ask", "1 swap 7D"):
        with pytest.raises(EngineError) as exc:
            game.apply(ev(text))
        assert exc.value.rule and str(exc.value)


# Hand set C — dealer seat 0, seat 1 leads; 7♠ turned: spades are trumps.
#   seat 1: пятерик 7-В♥ (100), Т♣ Т♦ Т♠ К♠
#   seat 0: шестерик 7-Д♣ (100; it holds the пятерики 7-В♣ and 8-Д♣), 7♦ 8♦ 9♠
C1 = "7H 8H 9H TH JH AC AD AS KS"
C0 = "7C 8C 9C TC JC QC 7D 8D 9S"


def test_a_sixer_beats_a_fiver_without_asking_though_both_are_worth_100() -> None:
    # Seed: «если второй игрок хочет перебить объявленный пятерик шестериком, то он не должен
    # спрашивать „От чего?“, а говорит: „Не годится“ и записывает себе 100 от шестерика».
    game = Terz()
    deal(game, C1, C0, "7S")
    run(game, "1 declare 7H 8H 9H TH JH", "0 declare 7C 8C 9C TC JC QC")
    assert declared(game) == [100, 0]                            # шестерик = five_value 100
    assert [(i[0], i[2], i[3]) for i in game.items] == [(0, 100, "group")]
    assert game.to_act() == 1                                    # the leader now leads


def test_after_ot_chego_a_fiver_is_beaten_only_by_a_higher_fiver() -> None:
    # «Если же был задан вопрос „От чего“, то перебивать можно только старшим пятериком.»
    game = Terz()
    deal(game, C1, C0, "7S")
    run(game, "1 declare 7H 8H 9H TH JH", "0 ask")
    with untouched(game), pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("0 declare 7C 8C 9C TC JC QC"))           # the шестерик is too long now
    assert exc.value.rule == "asked-same-length"
    with untouched(game), pytest.raises(ActionNotAllowedError) as exc:
        game.apply(ev("0 declare 7C 8C 9C TC JC"))              # от В♣ = от В♥, neither trump
    assert exc.value.rule == "does-not-beat"
    answers = {e for e in game.legal_actions(0) if e.kind != "swap"}
    assert answers == {Event("pass", 0), ev("0 declare 8C 9C TC JC QC")}
    run(game, "0 declare 8C 9C TC JC QC")                        # от Д♣ beats от В♥: 100 to seat 0
    assert declared(game) == [100, 0]
