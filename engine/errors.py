"""Exceptions that say exactly what was wrong.

Every engine error carries ``rule``: a short stable identifier of the rule or check that failed,
for logs, score sheets and tests; the message is for people.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.verdict import Verdict


class EngineError(Exception):
    """Base of everything the engine refuses. The game state and log are untouched."""

    rule = "engine"

    def __init__(self, message: str, rule: str | None = None) -> None:
        super().__init__(message)
        if rule is not None:
            self.rule = rule


class UnknownCardError(EngineError, ValueError):
    rule = "unknown-card"


class DuplicateCardError(EngineError):
    """A card that is already out of the shoe in this deal came out again."""

    rule = "card-dealt-twice"


class OutOfTurnError(EngineError):
    rule = "out-of-turn"


class CardNotInHandError(EngineError):
    rule = "card-not-in-hand"


class BidNotAllowedError(EngineError):
    rule = "bid-not-allowed"


class ActionNotAllowedError(EngineError):
    """The action exists in this game but is not possible now (wrong phase, game over, …)."""

    rule = "not-allowed-now"


class BadEventError(EngineError, ValueError):
    """An event that cannot be parsed or that this game does not know."""

    rule = "bad-event"


class IllegalPlayError(EngineError):
    """``apply`` refuses a play the rules forbid; ``record`` would have accepted it with a verdict."""

    rule = "illegal-play"

    def __init__(self, verdict: Verdict) -> None:
        super().__init__(verdict.message, verdict.rule)
        self.verdict = verdict


class SettingsError(EngineError, ValueError):
    rule = "bad-setting"


class RecordError(EngineError):
    """A game record that cannot be replayed; names the line and the rule."""

    rule = "bad-record"

    def __init__(self, line: int, message: str, rule: str | None = None) -> None:
        super().__init__(f"line {line}: {message}", rule)
        self.line = line
