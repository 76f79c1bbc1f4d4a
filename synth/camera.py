"""A camera that renders its footage: ``kind = "synthetic"`` in a table config.

Why here and not in ``hardware/``: it renders with the footage generator and plays a game by the
rules engine, and ``hardware/`` imports neither; the command line plugs it in
(:func:`register`, ``hardware.camera.register_kind``) for ``cardtable run`` and ``doctor``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from hardware.camera import Camera, FileCamera, register_kind
from hardware.config import CameraConfig


def shoe_order(game: str, seed: int, options: dict[str, Any] | None = None) -> list[str]:
    """The cards a seeded game deals out of the shoe, in order: a random legal game played by
    the rules engine (the "script" a synthetic camera renders)."""
    import random

    from engine.registry import game_class

    g = game_class(game)(options or {})
    rng = random.Random(seed)
    order: list[str] = []
    while not g.is_over:
        actions = [a for a in g.legal_actions() if a.kind not in ("claim", "foul")] or \
            g.legal_actions()
        e = actions[rng.randrange(len(actions))]
        g.record(e)
        if e.kind == "shoe":
            order.append(e.cards[0].code)
    return order


class SyntheticCamera(FileCamera):
    """A shoe camera that renders its footage: the cards of a seeded game (or a given list) made
    into a clip by the project's footage generator (synth.shoe, real deck artwork), then
    delivered like recorded footage. For a table with no camera yet, and for tests."""

    kind = "synthetic"

    def __init__(self, *, cards: list[str] | None = None, game: str = "belot2", seed: int = 0,
                 deck_art: str = "Атласные", difficulty: str = "easy", **kwargs: Any) -> None:
        import tempfile

        from synth.shoe import make_clip

        self._tmp = tempfile.TemporaryDirectory(prefix="cardtable-synthetic-")
        clip = Path(self._tmp.name) / "shoe.mp4"
        self.cards = cards if cards is not None else shoe_order(game, seed)
        make_clip(clip, deck_art, self.cards, difficulty, seed=seed)
        super().__init__(clip, **kwargs)

    def close(self) -> None:
        super().close()
        self._tmp.cleanup()


def _from_config(cfg: CameraConfig, **common: Any) -> Camera:
    return SyntheticCamera(cards=cfg.cards, game=cfg.game or "belot2", seed=cfg.seed,
                           deck_art=cfg.deck_art, realtime=cfg.realtime, speed=cfg.speed,
                           **common)


def register() -> None:
    """Make ``kind = "synthetic"`` cameras openable by ``hardware.camera.open_camera``."""
    register_kind("synthetic", _from_config)
