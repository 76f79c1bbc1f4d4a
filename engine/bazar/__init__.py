"""Bazar-Belot (Базар-Белот), docs/rules.md §4: auction, constructions, play and scoring."""

from engine.bazar.game import BazarBelot
from engine.bazar.options import BazarSettings

__all__ = ["BazarBelot", "BazarSettings"]
