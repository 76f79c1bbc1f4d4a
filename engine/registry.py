"""The games the engine knows, by the short name used in records and on the command line."""

from __future__ import annotations

import importlib

from engine.errors import EngineError
from engine.game import Game

GAMES: dict[str, str] = {
    "belot2": "engine.belot2:Belot2",
    "durak2": "engine.durak2:Durak2",
    "joker": "engine.joker:Joker",
    "bazar": "engine.bazar:BazarBelot",
    "terz": "engine.terz:Terz",
}


class UnknownGameError(EngineError):
    rule = "unknown-game"


def game_class(name: str) -> type[Game]:
    target = GAMES.get(name)
    if target is None:
        raise UnknownGameError(f"unknown game {name!r}; known games: {', '.join(GAMES)}")
    module_name, _, attr = target.partition(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name == module_name:
            raise UnknownGameError(f"game {name!r} is not built yet") from None
        raise
    return getattr(module, attr)


def available_games() -> list[str]:
    out = []
    for name in GAMES:
        try:
            game_class(name)
        except UnknownGameError:
            continue
        out.append(name)
    return out
