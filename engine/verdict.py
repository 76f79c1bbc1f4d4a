"""What the engine says about an action recorded at the physical table."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engine.events import Event


@dataclass(frozen=True, slots=True)
class Verdict:
    """``legal`` or the rule broken. A physical table can break rules; the engine records it anyway."""

    event: Event
    legal: bool = True
    rule: str = ""
    message: str = ""

    def __bool__(self) -> bool:
        return self.legal

    def __str__(self) -> str:
        return "legal" if self.legal else f"illegal ({self.rule}): {self.message}"
