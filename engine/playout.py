"""Random and scripted playouts: the same loop drives the benchmark, the property tests and
``cardtable play``. The shoe is simulated by drawing uniformly from the cards not yet seen; and
:func:`deal_hands` stacks the shoe so each seat gets the hand a test wants, in any game."""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence

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


def deal_hands(game: Game, hands: Mapping[int, str | Sequence[str]], others: str | Sequence[str] = ()
               ) -> list[Event]:
    """Shoe cards so that each seat receives ``hands[seat]`` (card codes, in that order) and every
    card the deal puts in no hand (a turned trump, a second open card) comes from ``others``.

    One helper for every game's tests, instead of each re-deriving its deal order: whose hand the
    next shoe card reaches is found by dealing a spare card and taking it back (``pop``). Stops
    when the game stops expecting cards or the cards asked for are all dealt; returns the shoe
    events recorded. Raises ``ValueError`` when the deal wants a card for a seat that has none left.
    """
    want = {s: list(c.split() if isinstance(c, str) else c) for s, c in hands.items()}
    rest = list(others.split() if isinstance(others, str) else others)
    named = {c for cs in want.values() for c in cs} | set(rest)
    done: list[Event] = []
    while game.expects_shoe and (rest or any(want.values())):
        spare = next((c for c in game.unseen_cards() if c.code not in named), None)
        if spare is None:
            raise ValueError("no spare card left in the deck to find out whose card is next")
        before = [game.hand(s) for s in range(game.num_seats)]
        game.apply(Event.parse(f"shoe {spare.code}"))
        seat = next((s for s in range(game.num_seats) if len(game.hand(s)) > len(before[s])), None)
        game.pop()
        queue = rest if seat is None else want.get(seat, [])
        if not queue:
            whose = "no hand" if seat is None else f"seat {seat}"
            raise ValueError(f"the next card goes to {whose}, but no card is left for it")
        event = Event.parse(f"shoe {queue.pop(0)}")
        game.apply(event)
        done.append(event)
    return done
