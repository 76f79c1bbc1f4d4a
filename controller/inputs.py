"""What the table's sensors and people can tell the controller, as typed, validated inputs.

Every input carries ``t`` (seconds on the source's clock; the wall clock when the source has
none) and, from a camera, the ``frame`` it was decided at, so a logged event can be traced back to
the footage that produced it. Seats count from 0 everywhere, as in the engine (the panel wire's
own numbering stays inside ``firmware_bridge.protocol``).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from controller.buttons import PANEL_BUTTONS

CardCode = Annotated[str, Field(min_length=2, max_length=2, pattern=r"^([6-9TJQKA][CDHS]|BJ|RJ|\?\?)$")]
Seat = Annotated[int, Field(ge=0, le=7)]

# Panel buttons (the one table is controller.buttons.PANEL) and dealer buttons on the Pi's GPIO.
DEALER_BUTTONS = ("new_deal", "cancel")


class _Input(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    t: float | None = None
    frame: int | None = Field(None, ge=0)


class ShoeCard(_Input):
    """A card out of the shoe, as the shoe reader decided it."""

    kind: Literal["shoe"] = "shoe"
    card: CardCode
    confidence: float = Field(1.0, ge=0, le=1)
    candidates: list[CardCode] = Field(default_factory=list, max_length=8)
    seen_twice: bool = False
    flag: str | None = Field(None, max_length=80)


class Placed(_Input):
    """The table reader saw a card put down in front of a seat (``covers``: Durak's beaten card)."""

    kind: Literal["placed"] = "placed"
    seat: Seat
    card: CardCode
    covers: CardCode | None = None
    candidates: list[CardCode] = Field(default_factory=list, max_length=8)


class Removed(_Input):
    """The table reader saw cards leave the table: a trick taken, a Durak bout ended, an illegal
    card taken back (``cards``: which, when the reader could tell; ``??`` for one it could not)."""

    kind: Literal["removed"] = "removed"
    cards: list[CardCode] = Field(default_factory=list, max_length=40)


class CameraNote(_Input):
    """A camera reader's news that is not a card: the table camera knocked or back, a card put
    down outside every seat zone, two cards at once, a black or blown-out frame."""

    kind: Literal["camera"] = "camera"
    camera: Literal["shoe", "table"]
    flag: str = Field(min_length=1, max_length=80)
    card: CardCode | None = None
    # a note with a stable id (the table camera's silence: vision.table.reader.Silence) and its
    # figures, which the display words; ``flag`` is then its English line
    note: str | None = Field(None, max_length=40, pattern=r"^[a-z][a-z-]*$")
    params: dict[Annotated[str, Field(max_length=16)], Annotated[str, Field(max_length=24)]] = \
        Field(default_factory=dict, max_length=4)


class Button(_Input):
    """A press on a seat panel (``source`` panel), the web admin's stand-in, or a dealer button."""

    kind: Literal["button"] = "button"
    seat: Seat | None = None
    button: Literal[PANEL_BUTTONS + DEALER_BUTTONS]  # type: ignore[valid-type]
    source: Literal["panel", "gpio", "web", "sim"] = "panel"


class Admin(_Input):
    """An organiser's action from the web admin."""

    kind: Literal["admin"] = "admin"
    action: Literal["confirm_card", "skip_card", "undo", "event", "end_game"]
    card: CardCode | None = None
    event: str | None = Field(None, max_length=120)


Input = Annotated[ShoeCard | Placed | Removed | CameraNote | Button | Admin,
                  Field(discriminator="kind")]
INPUT = TypeAdapter(Input)


def parse_input(data: object) -> ShoeCard | Placed | Removed | CameraNote | Button | Admin:
    """Validate a JSON-like input; raises pydantic's ValidationError with every problem named."""
    return INPUT.validate_python(data)
