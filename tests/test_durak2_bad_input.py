"""Bad input at a Durak table: a clear error, and the state and the log exactly as they were."""

from __future__ import annotations

from collections.abc import Callable

from _durak2_kit import BOUT1, DEAL, run, scenario_a, shoe
from _refusal import refused as check_refused

from engine.durak2 import Durak2
from engine.errors import (
    ActionNotAllowedError,
    BadEventError,
    CardNotInHandError,
    DuplicateCardError,
    EngineError,
    IllegalPlayError,
    OutOfTurnError,
    UnknownCardError,
)
from engine.events import Event, ev


def refused(game: Durak2, event: Event, error: type[EngineError],
            how: Callable[[Event], object] | None = None) -> EngineError:
    """``event`` is refused with ``error``; snapshot, raw log and verdicts are unchanged."""
    return check_refused(game, event, error, via=(how or game.record,))


def dealt() -> Durak2:
    return run(Durak2(), shoe(DEAL))


def test_unknown_card_code_from_the_shoe() -> None:
    game = run(Durak2(), shoe("6C 6D"))
    err = refused(game, ev("shoe ZZ"), UnknownCardError)
    assert "ZZ" in str(err) and err.rule == "unknown-card"


def test_unknown_card_code_in_a_play() -> None:
    game = dealt()
    err = refused(game, ev("0 play 1C"), UnknownCardError)
    assert "1C" in str(err)
    refused(game, ev("1 beat 8C X6"), UnknownCardError)


def test_a_joker_is_not_a_durak_card() -> None:
    game = run(Durak2(), shoe("6C"))
    refused(game, ev("shoe BJ"), DuplicateCardError)  # rule card-not-in-deck


def test_card_dealt_twice() -> None:
    game = run(Durak2(), shoe("6C 6D 6H 8C"))
    err = refused(game, ev("shoe 6D"), DuplicateCardError)
    assert "6D" in str(err) and err.rule == "card-dealt-twice"


def test_card_dealt_twice_while_drawing() -> None:
    # The dealt cards and the turned card are out of the shoe already; so is a drawn card.
    game = run(Durak2(), [*shoe(DEAL), "0 play 6C", "1 take", "0 play 6D", "0 done", "shoe AC"])
    assert game.expects_shoe  # seat 0 still needs one card
    refused(game, ev("shoe 8S"), DuplicateCardError)  # the turned card under the talon
    refused(game, ev("shoe AC"), DuplicateCardError)


def test_a_card_from_the_shoe_when_none_is_due() -> None:
    game = dealt()
    err = refused(game, ev("shoe AC"), ActionNotAllowedError)
    assert err.rule == "shoe-not-expected"


def test_action_out_of_turn_defender_plays_a_card_in() -> None:
    game = dealt()  # seat 0 attacks
    err = refused(game, ev("1 play 9C"), OutOfTurnError)
    assert "seat 1 is defending" in str(err)


def test_action_out_of_turn_attacker_beats_or_takes() -> None:
    game = run(dealt(), ["0 play 6C"])
    refused(game, ev("0 take"), OutOfTurnError)
    refused(game, ev("0 beat 6D 6C"), OutOfTurnError)
    refused(game, ev("1 done"), OutOfTurnError)


def test_action_during_the_deal_is_refused() -> None:
    game = run(Durak2(), shoe("6C 6D 6H"))
    err = refused(game, ev("0 play 6C"), ActionNotAllowedError)
    assert "dealt" in str(err)


def test_card_not_in_hand() -> None:
    game = dealt()
    err = refused(game, ev("0 play 9C"), CardNotInHandError)
    assert "seat 1's hand" in str(err)
    err = refused(game, ev("0 play AS"), CardNotInHandError)
    assert "not out of the shoe" in str(err)


def test_card_not_in_hand_for_a_beat_and_a_card_already_played() -> None:
    game = run(dealt(), ["0 play 6C", "1 beat 8C 6C"])
    refused(game, ev("1 beat 8C 6C"), CardNotInHandError)  # 8C is on the table now
    refused(game, ev("0 play 6C"), CardNotInHandError)


def test_beat_a_card_that_is_not_an_unbeaten_attack() -> None:
    game = run(dealt(), ["0 play 6C", "1 beat 8C 6C", "0 play 6D"])
    refused(game, ev("1 beat 9C 6C"), ActionNotAllowedError)  # already beaten
    refused(game, ev("1 beat 9D 7D"), ActionNotAllowedError)  # not on the table


def test_not_allowed_now() -> None:
    game = dealt()
    refused(game, ev("1 take"), ActionNotAllowedError)  # nothing played yet
    refused(game, ev("0 done"), ActionNotAllowedError)
    run(game, ["0 play 6C"])
    refused(game, ev("0 done"), ActionNotAllowedError)  # 6C is not beaten
    run(game, ["1 take"])
    refused(game, ev("1 take"), ActionNotAllowedError)  # said already
    refused(game, ev("1 beat 8C 6C"), ActionNotAllowedError)  # after «беру» no more beating
    refused(game, ev("0 transfer 6D"), ActionNotAllowedError)  # transfer is off
    refused(game, ev("1 foul"), ActionNotAllowedError)  # claims only under on_claim


def test_malformed_events() -> None:
    game = dealt()
    refused(game, ev("play 6C"), BadEventError)  # no seat
    refused(game, ev("3 play 6C"), BadEventError)  # no seat 3 at this table
    refused(game, ev("0 play"), BadEventError)  # no card
    refused(game, ev("1 beat 8C"), BadEventError)  # beat names the card it covers
    refused(game, ev("0 bid pass"), BadEventError)  # not a durak event


def test_apply_refuses_an_illegal_play_and_changes_nothing() -> None:
    game = run(dealt(), ["0 play 6C"])
    err = refused(game, ev("1 beat 9D 6C"), IllegalPlayError, game.apply)
    assert err.rule == "beat"


def test_game_over_refuses_everything() -> None:
    game = Durak2(game_type="super_short")
    run(game, [*shoe(DEAL), *BOUT1])  # both out in super short: a draw, the partie is over
    assert game.is_over
    refused(game, ev("shoe AC"), ActionNotAllowedError)
    refused(game, ev("0 play 6C"), ActionNotAllowedError)


def test_errors_leave_a_longer_game_intact() -> None:
    game = scenario_a()
    refused(game, ev("1 play 7H"), OutOfTurnError)
    refused(game, ev("0 play 7H"), CardNotInHandError)
    refused(game, ev("shoe 7H"), ActionNotAllowedError)
