"""The one check every bad-input test makes: refused with the right error, nothing changed."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager

import pytest

from engine.errors import EngineError
from engine.events import Event, ev
from engine.game import Game


@contextmanager
def untouched(game: Game) -> Iterator[None]:
    """The block must leave the state, the raw log, the effective events and the verdicts as they were."""
    before = (game.snapshot(), list(game.raw_log), list(game.events), list(game.verdicts))
    yield
    assert game.snapshot() == before[0]
    assert game.raw_log == before[1] and game.events == before[2] and game.verdicts == before[3]


def refused(game: Game, event: Event | str, error: type[EngineError], *, rule: str | None = None,
            words: str = "", via: Sequence[Callable[[Event], object]] | None = None) -> EngineError:
    """Every entry point in ``via`` (default ``apply`` and ``record``) raises ``error`` (with
    ``rule`` and a message containing ``words``) and leaves the game untouched."""
    event = ev(event) if isinstance(event, str) else event
    caught: EngineError | None = None
    for entry in via or (game.apply, game.record):
        with untouched(game), pytest.raises(error) as info:
            entry(event)
        caught = info.value
        if rule is not None:
            assert caught.rule == rule
        assert str(caught) and words in str(caught)  # a message a person can read
    assert caught is not None
    return caught
