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


SHARED_VERDICTS: dict[int, Verdict] = {}
"""id(interned event) → its one legal verdict: a hot judge may look here inline (check ``v.event is
event``) before judging an event the slow way."""
_LEGAL = SHARED_VERDICTS


def legal_verdict(event: Event) -> Verdict:
    """A legal verdict for ``event``, shared for interned events so a random deal allocates none.

    Keyed by ``id`` (an Event's dataclass hash costs more than judging a play); the entry holds
    its event, so the id cannot be reused while the entry exists.
    """
    v = _LEGAL.get(id(event))
    if v is not None and v.event is event:
        return v
    return Verdict(event)


def share_legal_verdict(event: Event) -> Event:
    """Give an interned (process-lifetime) event its one shared legal verdict."""
    _LEGAL[id(event)] = Verdict(event)
    return event
