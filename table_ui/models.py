"""Response models and documented errors of the API, for its OpenAPI schema (``/api/openapi.json``).

Why they exist: the schema is checked against what the app really answers (schemathesis in
``tests/test_ui_schema.py``), so every status a route can give and every body it sends is
declared here once and reused by the routers.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field

MAX_ID = 2**63 - 1  # SQLite's INTEGER: a larger id cannot be in the log


class Problem(BaseModel):
    """Every error body: ``detail`` (a message, or pydantic's error list for a 422)."""

    detail: str | list[dict[str, Any]]
    rule: str | None = Field(default=None, description="the engine's rule, for engine errors")


def errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """``responses=`` of a route: the given error statuses, each with a :class:`Problem` body."""
    text = {400: "engine error (unknown game, bad house rules)", 401: "not logged in / wrong PIN",
            403: "missing or wrong CSRF token; or cards still hidden in a deal in play",
            404: "not found",
            409: "the controller refused (its message is the detail)",
            413: "request body over 16 KB", 422: "malformed request",
            429: "too many wrong PINs (see Retry-After)", 503: "the log is not writable"}
    return {c: {"model": Problem, "description": text[c]} for c in codes}


def content(media_type: str, description: str) -> dict[int | str, dict[str, Any]]:
    """``responses=`` of a route whose 200 is not JSON."""
    return {200: {"content": {media_type: {"schema": {"type": "string"}}},
                  "description": description}}


class LoginOut(BaseModel):
    csrf: str
    expires_in: int


class CsrfOut(BaseModel):
    csrf: str


class OkOut(BaseModel):
    ok: bool


class NewGameOut(BaseModel):
    game_id: int
    seq: int


class AlertOut(BaseModel):
    rule: str
    message: str = Field(description="in English, for logs; pages word the alert from its rule")
    level: str
    seat: int | None
    params: dict[str, str] = Field(default_factory=dict,
                                   description="card, button, flag, device: what the words need")


class ReplyOut(BaseModel):
    """The controller's reply to an admin action (a refusal adds ``detail``)."""

    accepted: bool
    seq: int
    events: list[str]
    alerts: list[AlertOut]
    detail: str | None = None


class FieldForm(BaseModel):
    name: str
    kind: str = Field(description="choice, bool, int, seat (a seat's index, 0 first) or text")
    choices: list[str]
    optional: bool
    default: Any = None
    help: str


class GameForm(BaseModel):
    name: str
    title: str
    num_seats: int
    fields: list[FieldForm]


class GameSummary(BaseModel):
    id: int
    game: str
    names: list[str]
    options: dict[str, Any]
    started: str | None
    ended: str | None
    status: str
    title: str
    totals: list[int | float]
    sides: list[str]
    result: str
    error: str | None


class GameSheet(GameSummary):
    sheet: dict[str, Any]


class GameDetail(GameSheet):
    clips: list[int] = Field(description="deals with shoe footage kept")


class DealEvents(BaseModel):
    game_id: int
    deal: int
    events: list[str]


class Said(BaseModel):
    """A message for the organiser: a stable ``id``, in Russian and English."""

    id: str
    ru: str
    en: str


class CheckProblem(Said):
    seat: int | None = Field(default=None, description="the seat (from 0) it is about, if one")


class CheckSeat(BaseModel):
    seat: int
    expected: str
    read: list[str]


class TableCheckOut(BaseModel):
    """The table check (``controller.table_check``): running, or its last result."""

    state: Literal["unavailable", "idle", "running", "passed", "failed", "error"]
    cards: list[str] | None = None
    seconds: float | None = None
    left_s: float | None = Field(default=None, description="running: seconds still to go")
    frames: int | None = Field(default=None, description="frames the check read")
    dropped: int | None = Field(default=None, description="frames it could not keep up with")
    figures: dict[str, Any] | None = Field(
        default=None, description="area_cm, card_mm, card_px, white, cloth, read, laid, frames")
    seats: list[CheckSeat] = Field(default_factory=list)
    problems: list[CheckProblem] = Field(default_factory=list)
    message: Said | None = None
    stored: str | None = Field(default=None, description="passed: where the calibration went")
