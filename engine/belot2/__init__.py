"""Two-player Belot (docs/rules.md §1): ``engine.belot2:Belot2``, its settings and tables."""

from engine.belot2.game import Belot2
from engine.belot2.settings import Belot2Settings

__all__ = ["Belot2", "Belot2Settings"]
