"""The engine core on a toy game: fold, undo, fix, record vs apply, policies, bad input."""

from __future__ import annotations

import pytest
from _toygame import Toy

from engine.cards import ALL_CARDS, card, cards, composition
from engine.errors import (
    ActionNotAllowedError,
    BadEventError,
    CardNotInHandError,
    DuplicateCardError,
    IllegalPlayError,
    OutOfTurnError,
    SettingsError,
    UnknownCardError,
)
from engine.events import Event, ev


def dealt(*codes: str, **options: object) -> Toy:
    g = Toy(options)
    for c in codes:
        g.apply(ev(f"shoe {c}"))
    return g


def test_compositions_have_the_documented_cards() -> None:
    assert len(composition("32")) == 32 and card("7C") in composition("32")
    assert card("6C") not in composition("32")
    assert len(composition("36")) == 36
    j = composition("36j")
    assert len(j) == 36 and card("6S") not in j and card("6C") not in j and card("BJ") in j
    assert len(composition("38")) == 38
    assert [c.code for c in composition("32")[:8]] == ["7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]


def test_card_codes_parse_in_every_spelling_and_bad_ones_are_named() -> None:
    assert card("10h") is card("TH") is ALL_CARDS[2 * 9 + 4]
    assert [c.code for c in cards("7H, 8H 9H")] == ["7H", "8H", "9H"]
    with pytest.raises(UnknownCardError, match="'1H'"):
        card("1H")


def test_event_notation_round_trips() -> None:
    for text in ["shoe TH", "0 bid pass", "1 bid 8:H", "0 declare 7H 8H 9H", "0 play BJ want H", "undo"]:
        assert str(Event.parse(text)) == text
    with pytest.raises(BadEventError):
        Event.parse("  ")
    with pytest.raises(BadEventError):
        Event.parse("0 ?? 7H")


def test_apply_refuses_illegal_play_but_record_keeps_it_with_the_rule() -> None:
    g = dealt("7H", "8H", "9S", "AC")  # seat 0: 7H 9S, seat 1: 8H AC
    g.apply(ev("0 play 7H"))
    before = (g.snapshot(), list(g.raw_log))
    with pytest.raises(IllegalPlayError, match="did not follow suit"):
        g.apply(ev("1 play AC"))
    assert (g.snapshot(), g.raw_log) == before
    verdict = g.record(ev("1 play AC"))
    assert not verdict.legal and verdict.rule == "follow-suit"
    assert g.illegal_plays == [verdict]
    # penalize (default): seat 0 won trick 1 (7H alone in hearts); the revoke gives nothing extra
    # to seat 1 since seat 1 has 0 tricks; after trick 2 check the sheet below.
    g.apply(ev("0 play 9S"))
    g.apply(ev("1 play 8H"))
    # Trick 1: 7H led, AC off-suit → seat 0 wins. Trick 2: 9S led, 8H off-suit → seat 0 wins.
    # Seat 1 revoked: its 0 tricks move to seat 0 → 2 + 0 = 2 and 0.
    assert g.score_sheet().totals == [2, 0]


@pytest.mark.parametrize(
    ("event", "error"),
    [
        ("shoe 7H", DuplicateCardError),   # already dealt
        ("shoe 6H", DuplicateCardError),   # not in the 32-card deck
        ("1 play 8H", OutOfTurnError),     # seat 0 leads
        ("0 play 8H", CardNotInHandError),
    ],
)
def test_impossible_events_raise_and_change_nothing(event: str, error: type[Exception]) -> None:
    g = dealt("7H", "8H", "9S")
    if event != "shoe 7H" and event != "shoe 6H":
        g.apply(ev("shoe AC"))
    before = (g.snapshot(), list(g.raw_log), list(g.verdicts))
    with pytest.raises(error):
        g.record(ev(event))
    assert (g.snapshot(), g.raw_log, g.verdicts) == before


def test_pop_is_exact_and_undo_stays_in_the_log() -> None:
    g = dealt("7H", "8H", "9S", "AC")
    before = g.snapshot()
    g.apply(ev("0 play 7H"))
    assert g.pop() == ev("0 play 7H")
    assert g.snapshot() == before and len(g.raw_log) == 4
    g.apply(ev("0 play 9S"))
    g.undo()
    assert g.snapshot() == before
    assert [str(e) for e in g.raw_log[-2:]] == ["0 play 9S", "undo"]
    assert Toy.replay(g.raw_log).snapshot() == before


def test_fix_that_makes_the_log_inconsistent_is_refused_untouched() -> None:
    g = dealt("7H", "8H", "9S", "AC")
    g.apply(ev("0 play 9S"))
    before = (g.snapshot(), list(g.raw_log))
    with pytest.raises(CardNotInHandError):
        g.fix(3, ev("shoe 9D"))
    assert (g.snapshot(), g.raw_log) == before


def test_fix_of_a_shoe_card_changes_the_hand() -> None:
    g = dealt("7H", "8H", "9S", "AC")
    g.fix(3, ev("shoe 9D"))
    assert [c.code for c in g.hand(0)] == ["9D", "7H"]
    assert str(g.raw_log[-1]) == "fix 3 shoe 9D"
    assert Toy.replay(g.raw_log).snapshot() == g.snapshot()
    with pytest.raises(ActionNotAllowedError):
        g.fix(99, ev("shoe 9C"))


def test_retract_policy_blocks_until_the_illegal_play_is_taken_back() -> None:
    g = dealt("7H", "8H", "9S", "AC", policy="retract")
    g.apply(ev("0 play 7H"))
    assert not g.record(ev("1 play AC")).legal
    assert g.legal_actions() == [Event("undo")]
    before = (g.snapshot(), list(g.raw_log))
    with pytest.raises(ActionNotAllowedError, match="taken back first"):
        g.record(ev("0 play 9S"))
    assert (g.snapshot(), g.raw_log) == before
    g.record(ev("undo"))
    assert g.legal_actions() == [ev("1 play 8H")]


def test_bad_settings_name_the_option() -> None:
    with pytest.raises(SettingsError, match="policy"):
        Toy({"policy": "shout"})
    with pytest.raises(SettingsError, match="known options"):
        Toy({"colour": "red"})


# ----------------------------------------------------------------- linear replay cost
import random  # noqa: E402
import time  # noqa: E402

from engine import record  # noqa: E402
from engine.game import CHECKPOINT_EVERY, Game  # noqa: E402
from engine.registry import game_class  # noqa: E402

LONG = ("terz", {"target": 100_000})  # a party that does not end within these tests


def count_folds(monkeypatch: pytest.MonkeyPatch, cls: type[Game]) -> list[int]:
    """Count every ``_do`` (one event folded into the state) of ``cls``."""
    calls = [0]
    original = cls._do

    def counted(self: Game, event: Event, verdict: object) -> None:
        calls[0] += 1
        original(self, event, verdict)  # type: ignore[arg-type]

    monkeypatch.setattr(cls, "_do", counted)
    return calls


def long_game(events: int, seed: int = 1) -> Game:
    name, options = LONG
    g = game_class(name)(options)
    rng = random.Random(seed)
    while len(g.raw_log) < events:
        actions = g.legal_actions()
        g.apply(actions[rng.randrange(len(actions))])
    return g


def test_undo_and_fix_at_the_end_of_a_long_log_fold_few_events(monkeypatch: pytest.MonkeyPatch
                                                               ) -> None:
    g = long_game(3000)
    calls = count_folds(monkeypatch, type(g))
    rng = random.Random(2)
    for _ in range(200):  # take back and redo, correct the last event: 200 times
        actions = g.legal_actions()
        g.apply(actions[rng.randrange(len(actions))])
        g.undo()
        g.apply(actions[0])
        if len(actions) > 1 and actions[0].kind == actions[1].kind:
            g.fix(len(g.raw_log), actions[1])
    # Today's rebuild folded the whole log (~3000 events) for each of them.
    assert calls[0] < 3000 + 200 * 3 * (CHECKPOINT_EVERY + 2), calls[0]
    assert type(g).replay(g.raw_log, g.settings).snapshot() == g.snapshot()


def test_pop_after_a_long_run_of_apply_is_cheap(monkeypatch: pytest.MonkeyPatch) -> None:
    g = long_game(3000)
    calls = count_folds(monkeypatch, type(g))
    rng = random.Random(3)
    for _ in range(100):
        before = g.snapshot() if _ % 25 == 0 else None
        action = g.legal_actions()[0]
        g.apply(action)
        assert g.pop() == action
        if before is not None:
            assert g.snapshot() == before
        actions = g.legal_actions()
        g.apply(actions[rng.randrange(len(actions))])
    assert calls[0] < 3000 + 100 * (CHECKPOINT_EVERY + 3), calls[0]
    assert type(g).replay(g.raw_log, g.settings).snapshot() == g.snapshot()


def test_a_record_of_many_undos_loads_in_linear_time() -> None:
    def load(pairs: int) -> float:
        text = "cardtable-record 1\ngame belot2\n" + "shoe 7H\nundo\n" * pairs
        start = time.process_time()
        assert len(record.loads(text).game.raw_log) == 2 * pairs
        return time.process_time() - start

    # Today: 5,000 pairs 2.2 s and 20,000 pairs 41 s (each undo rebuilt the game from the log).
    assert load(20_000) < 10


def test_rewinds_match_a_replay_from_the_start_on_a_long_live_log() -> None:
    g = long_game(200, seed=5)
    rng = random.Random(6)
    for step in range(1500):
        r = rng.random()
        if r < 0.08 and g.events:
            g.undo()
        elif r < 0.12 and g.raw_log:
            g.pop()
        elif r < 0.16 and g.events:
            actions = g.legal_actions()
            target = rng.randrange(max(1, len(g.raw_log) - 80), len(g.raw_log) + 1)
            last = g.raw_log[target - 1]
            others = [a for a in actions if a.kind == last.kind and a != last]
            if last.kind == "shoe":
                others = [ev(f"shoe {c.code}") for c in g.unseen_cards()]
            if others and last.kind not in ("undo", "fix"):
                try:
                    g.fix(target, others[rng.randrange(len(others))])
                except (ActionNotAllowedError, CardNotInHandError, DuplicateCardError,
                        OutOfTurnError, BadEventError) as exc:
                    assert exc.rule  # refused: the game must be as it was (checked below)
        else:
            actions = g.legal_actions()
            g.record(actions[rng.randrange(len(actions))])
        if step % 100 == 0 or step == 1499:
            again = type(g).replay(g.raw_log, g.settings)
            assert again.snapshot() == g.snapshot(), step
            assert (again.events, again.verdicts) == (g.events, g.verdicts)
