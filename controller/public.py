"""The one typed public state: what the controller publishes after each logged input, what
``/api/state`` and ``/ws`` send (``PublicState`` is in the display's OpenAPI schema), and what the
display, history, speech and the panels' LEDs read.

Hidden cards are never in it: the engine's ``TableView`` has hand sizes, not hands, and a card
waiting for confirmation shows its candidates only when it was put down in view of everyone
(``admin_state`` adds a shoe card's candidates for the organiser alone).
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from engine.view import TableView


class _Model(BaseModel):
    model_config = ConfigDict(extra="forbid")


class PendingView(_Model):
    """A card waiting for confirmation: where it came from and why."""

    source: Literal["shoe", "placed"]
    reason: str
    seat: int | None = None
    held: int = Field(0, description="shoe cards dealt meanwhile, applied once it is confirmed")
    candidates: list[str] = Field(default_factory=list)


class CursorView(_Model):
    """What a seat panel's ▲▼ cursor points at: the event and its words."""

    seat: int
    showing: str
    label: str


class PlayedCard(_Model):
    """A card of the last complete trick (shown after the trick is gathered)."""

    seat: int | None = None
    card: str
    mode: str = ""
    covered_by: str | None = None


class AlertView(_Model):
    """Something the table tells the room; worded by the display from ``rule`` and ``params``."""

    rule: str
    message: str = Field(description="the same in English, for logs and developers")
    seat: int | None = None
    level: Literal["info", "warning", "illegal", "error"] = "warning"
    seq: int = 0
    t: float = 0.0
    params: dict[str, str] = Field(default_factory=dict)


class DeviceView(BaseModel):
    """A device's last news (a camera, a seat panel, the deck, the club link)."""

    model_config = ConfigDict(extra="allow")  # a device may add facts of its own (a deck's name)

    kind: str = ""
    state: str = ""
    detail: str = ""
    seat: int | None = None


class PublicState(_Model):
    """Everything a display may show, with the log's sequence number."""

    seq: int
    game_id: int | None = None
    names: list[str] = Field(default_factory=list)
    view: TableView | None = None
    pending: PendingView | None = None
    cursor: CursorView | None = None
    last_trick: list[PlayedCard] = Field(default_factory=list)
    alerts: list[AlertView] = Field(default_factory=list)
    status: str | None = Field(None, description="active, finished or abandoned")
    log_error: str | None = Field(None, description="why the log cannot be written, if it cannot")
    held: int = Field(0, description="inputs waiting for the log")
    devices: dict[str, DeviceView] = Field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        """The JSON object ``/api/state`` and ``/ws`` send."""
        return self.model_dump(mode="json")
