"""Checks the engine-shape tests of several games share (no tests here)."""

from __future__ import annotations

from engine import verdict
from engine.events import Event
from engine.game import Game


def assert_verdict_shared(game: Game, event: Event) -> None:
    """A listed event is interned: judging it returns its one shared verdict; an equal event
    read from text gets a verdict of its own, cached nowhere."""
    assert game.judge(event) is game.judge(event) and game.judge(event).legal
    copy = Event.parse(str(event))
    assert game.judge(copy) == verdict.Verdict(copy) and game.judge(copy) is not game.judge(copy)
    assert getattr(verdict.SHARED_VERDICTS.get(id(copy)), "event", None) is not copy
