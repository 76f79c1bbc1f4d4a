"""The typed result of a game, the same for every game (python-chess's ``Outcome``)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pydantic import BaseModel, Field

if TYPE_CHECKING:
    from engine.scoresheet import ScoreSheet


class Outcome(BaseModel):
    finished: bool = False
    winner: int | None = None  # a seat (two-player games) or a side (pair games); None: none yet or a draw
    totals: list[int] = Field(default_factory=list)
    reason: str = ""

    @classmethod
    def of(cls, finished: bool, sheet: ScoreSheet) -> Outcome:
        """The outcome a score sheet states (a winner only once the game is finished)."""
        winner = sheet.winner if finished and sheet.winner is not None and sheet.winner >= 0 else None
        return cls(finished=finished, winner=winner, totals=list(sheet.totals), reason=sheet.result)
