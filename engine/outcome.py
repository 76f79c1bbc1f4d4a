"""The typed result of a game, the same for every game (python-chess's ``Outcome``)."""

from __future__ import annotations

from pydantic import BaseModel, Field


class Outcome(BaseModel):
    finished: bool = False
    winner: int | None = None  # a seat (two-player games) or a side (pair games); None: none yet or a draw
    totals: list[int] = Field(default_factory=list)
    reason: str = ""
