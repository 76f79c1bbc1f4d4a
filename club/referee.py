"""Every game re-checked by the rules: the club folds a game's events through the engine as they
arrive, instead of trusting the score a table sends.

A game is **refused** when the engine refuses one of its events (an event no table following
these rules could have logged), and **differs** when the result the table states for it (its
header's ``outcome``) is not the engine's; both are shown on the club pages and never counted in
standings. Illegal plays the table recorded (a revoke, a missed trump) are part of the game, as
at the table, not a reason to refuse it.

Folding is incremental: the referee keeps each live game's engine state and folds only the
events past the last one folded (a game is rebuilt from its stored events after a restart).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.errors import EngineError
from engine.events import Event
from engine.game import Game
from engine.registry import game_class


@dataclass
class Judged:
    """What the engine makes of a game so far."""
    check: str  # "ok", "refused" (the engine refused an event) or "differs" (stated result)
    problem: str | None = None
    finished: bool = False
    winner: int | None = None
    totals: list[int] = field(default_factory=list)
    to_act: int | None = None  # the seat whose turn it is (None while the shoe deals, or over)


class Referee:
    def __init__(self) -> None:
        # game key -> (engine game or None once refused, last folded seq, the refusal)
        self._games: dict[Any, tuple[Game | None, int, str | None]] = {}

    def fold(self, key: Any, name: str, options: dict[str, Any],
             events: list[tuple[int, str]], stated: dict[str, Any] | None = None) -> Judged:
        """Fold ``events`` ((seq, event text), in log order, all of the game's events up to
        some point) into game ``key``; judge it, and compare with the ``stated`` outcome."""
        game, folded, refusal = self._games.get(key, (None, 0, None))
        if game is None and refusal is None:
            try:
                game, folded = game_class(name)(options), 0
            except (EngineError, ValueError, TypeError) as exc:
                refusal = f"the game {name!r} with options {options} cannot be set up: {exc}"
        for seq, text in events:
            if refusal is not None or game is None:
                break
            if seq <= folded:
                continue
            try:
                game.record(Event.parse(text))
                folded = seq
            except (EngineError, ValueError, KeyError, TypeError) as exc:
                refusal = f"entry {seq} ({text}): {exc}"
                game = None
        self._games[key] = (game, folded, refusal)
        if refusal is not None or game is None:
            return Judged("refused", refusal)
        outcome = game.outcome
        judged = Judged("ok", None, outcome.finished, outcome.winner, list(outcome.totals),
                        None if game.is_over or game.expects_shoe else game.to_act())
        if stated is not None:
            mine = {"finished": outcome.finished, "winner": outcome.winner,
                    "totals": list(outcome.totals)}
            theirs = {k: stated.get(k) for k in mine}
            if theirs != mine:
                judged.check = "differs"
                judged.problem = f"the table states {theirs}, the rules give {mine}"
        return judged

    def folded(self, key: Any) -> int:
        """The last sequence number folded into game ``key`` (0: none, or not in memory: after
        a restart a game is folded again from its first event)."""
        game, folded, refusal = self._games.get(key, (None, 0, None))
        return folded if game is not None or refusal is not None else 0

    def forget(self, key: Any) -> None:
        self._games.pop(key, None)
