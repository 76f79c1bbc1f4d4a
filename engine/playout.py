"""Random and scripted playouts: the same loop drives the benchmark, the property tests and
``cardtable play``. The shoe is simulated by drawing uniformly from the cards not yet seen."""

from __future__ import annotations

import random
from collections.abc import Callable

from engine.errors import EngineError
from engine.events import Event
from engine.game import Game

Chooser = Callable[[Game, list[Event]], Event]


class PlayoutStuck(EngineError):
    rule = "playout-stuck"


def random_chooser(rng: random.Random) -> Chooser:
    def choose(_game: Game, actions: list[Event]) -> Event:
        return actions[rng.randrange(len(actions))]

    return choose


def play_out(game: Game, rng: random.Random, *, max_events: int = 200_000,
             choose: Chooser | None = None, stop: Callable[[Game], bool] | None = None) -> Game:
    """Play legal actions until the game is over (or ``stop`` says so).

    Shoe cards are always random; seats use ``choose`` (random by default). Every seat is offered
    every legal action, so out-of-turn actions (a Контра, a throw-in) get exercised too.
    """
    choose = choose or random_chooser(rng)
    apply = game.apply
    for _ in range(max_events):
        if game.is_over or (stop is not None and stop(game)):
            return game
        actions = game.legal_actions()
        if not actions:
            raise PlayoutStuck(f"{game.name}: no legal action but the game is not over "
                               f"(after {len(game.raw_log)} events, last {game.raw_log[-1:]})")
        if game.expects_shoe:
            apply(actions[rng.randrange(len(actions))])
        else:
            apply(choose(game, actions))
    raise PlayoutStuck(f"{game.name}: not over after {max_events} events")
