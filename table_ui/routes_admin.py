"""The organiser's admin: PIN login, then start/end games, confirm cards, undo, raw events.

Every POST body is a pydantic model (``extra="forbid"``, lengths bounded; the whole body is
capped by the app's middleware), every POST needs the session cookie *and* the session's CSRF
token in ``X-CSRF-Token``. Controller refusals become 409 with the controller's own message;
engine errors (unknown game, bad house rules) 400; nothing reaches the user as a 500.
"""

from __future__ import annotations

import types
import typing
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, HTTPException, Request, Response, Security
from fastapi.responses import FileResponse, JSONResponse
from fastapi.security import APIKeyCookie, APIKeyHeader
from pydantic import BaseModel, ConfigDict, Field

from controller.core import Reply
from controller.inputs import Admin
from controller.table_check import Refusal
from engine.registry import available_games, game_class
from engine.settings import is_seat
from table_ui import i18n
from table_ui.app import STATIC, Ctl
from table_ui.models import (
    CsrfOut,
    GameForm,
    LoginOut,
    NewGameOut,
    OkOut,
    ReplyOut,
    TableCheckOut,
    errors,
)
from table_ui.security import (
    CSRF_HEADER,
    SESSION_COOKIE,
    Session,
    csrf_ok,
    verify_pin,
)

router = APIRouter()

CardCode = Annotated[str, Field(pattern=r"^([6-9TJQKA][CDHS]|BJ|RJ)$")]
OptionValue = str | int | bool | None


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid", str_strip_whitespace=True)


class LoginBody(_Body):
    pin: str = Field(min_length=1, max_length=32)


class NewGameBody(_Body):
    # any string is taken (an unknown game is the engine's 400); the schema lists the known ones
    game: str = Field(min_length=1, max_length=32,
                      json_schema_extra={"enum": list(available_games())})
    options: dict[Annotated[str, Field(max_length=40)], OptionValue] = Field(
        default_factory=dict, max_length=40)
    names: list[Annotated[str, Field(max_length=40, pattern=r"^[^\x00-\x1f\x7f]*$")]] = Field(
        default_factory=list, max_length=8)


class ConfirmBody(_Body):
    card: CardCode


class EventBody(_Body):
    event: str = Field(min_length=1, max_length=120)


class EmptyBody(_Body):
    pass


class TableCheckBody(_Body):
    cards: list[CardCode] = Field(min_length=2, max_length=4,
                                  description="the card laid in each seat's zone, seat 0's first")
    seconds: int = Field(default=20, ge=5, le=120, description="how long the check watches")


# -- auth ---------------------------------------------------------------------------------------
def _client_key(request: Request) -> str:
    return request.client.host if request.client else "?"


# declared as security schemes in the OpenAPI schema; checked here (auto_error=False: our 401/403)
_cookie = APIKeyCookie(name=SESSION_COOKIE, auto_error=False, scheme_name="session",
                       description="the session cookie that POST /api/admin/login sets")
_csrf = APIKeyHeader(name=CSRF_HEADER, auto_error=False, scheme_name="csrf",
                     description="the session's CSRF token (from login or /api/admin/session)")


def current_session(request: Request,
                    token: Annotated[str | None, Security(_cookie)] = None) -> Session:
    """Dependency: the admin session of the cookie, or 401."""
    session = request.app.state.sessions.get(token)
    if session is None:
        raise HTTPException(401, "log in with the admin PIN first")
    return session


LoggedIn = Annotated[Session, Depends(current_session)]


def admin_post(session: LoggedIn,
               sent: Annotated[str | None, Security(_csrf)] = None) -> Session:
    """Dependency of every admin POST: a session and its CSRF token in the header, or 403."""
    if not csrf_ok(session, sent):
        raise HTTPException(403, f"missing or wrong CSRF token (send it in {CSRF_HEADER})")
    return session


AdminPost = Annotated[Session, Depends(admin_post)]


@router.get("/admin", include_in_schema=False)
def admin_page() -> FileResponse:
    return FileResponse(STATIC / "admin.html", headers={"Cache-Control": "no-cache"})


@router.post("/api/admin/login", responses=errors(401, 413, 422, 429))
def login(body: LoginBody, request: Request, response: Response) -> LoginOut:
    limiter = request.app.state.limiter
    key = _client_key(request)
    if not limiter.attempt(key):  # counted before the (slow) check: tries at once cannot race
        raise HTTPException(429, "too many wrong PINs: wait a minute",
                            headers={"Retry-After": str(limiter.retry_after(key))})
    if not verify_pin(body.pin, request.app.state.pin_hash):
        raise HTTPException(401, "wrong PIN")
    limiter.reset(key)
    session = request.app.state.sessions.create()
    ttl = int(request.app.state.sessions.ttl)
    response.set_cookie(SESSION_COOKIE, session.token, max_age=ttl, httponly=True,
                        samesite="strict", path="/",
                        secure=request.url.scheme == "https")
    return LoginOut(csrf=session.csrf, expires_in=ttl)


@router.post("/api/admin/logout", responses=errors(401, 403))
def logout(request: Request, response: Response, session: AdminPost) -> OkOut:
    request.app.state.sessions.drop(session.token)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return OkOut(ok=True)


@router.get("/api/admin/session", responses=errors(401))
def session_info(session: LoggedIn) -> CsrfOut:
    """For a page reload: the CSRF token of the cookie's session."""
    return CsrfOut(csrf=session.csrf)


# -- reading ------------------------------------------------------------------------------------
@router.get("/api/admin/state", responses={**errors(401), 200: {
    "content": {"application/json": {"schema": {"type": "object"}}},
    "description": "admin_state() plus the table's log, displays and devices"}})
def admin_state(request: Request, ctl: Ctl,
                _: LoggedIn) -> JSONResponse:
    out = ctl.admin_state()
    out["table"] = {"log_path": str(ctl.log.path), "log_error": ctl.log_error,
                    "displays": len(request.app.state.hub.clients), "devices": ctl.devices,
                    "replaying": bool(request.app.state.replaying)}
    return JSONResponse(out, headers={"Cache-Control": "no-store"})


def _field_form(name: str, field: Any) -> dict[str, Any]:
    ann = field.annotation
    optional = False
    if typing.get_origin(ann) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(ann) if a is not type(None)]
        optional = len(args) < len(typing.get_args(ann))
        ann = args[0] if len(args) == 1 else str
    if is_seat(field):  # offered as the players' names (the page knows the seats)
        kind, choices = "seat", []
    elif typing.get_origin(ann) is Literal:
        kind, choices = "choice", [str(c) for c in typing.get_args(ann)]
    elif ann is bool:
        kind, choices = "bool", []
    elif ann is int:
        kind, choices = "int", []
    else:
        kind, choices = "text", []
    return {"name": name, "kind": kind, "choices": choices, "optional": optional,
            "default": field.default, "help": field.description or ""}


@router.get("/api/admin/games", responses=errors(401))
def game_forms(_: LoggedIn) -> list[GameForm]:
    """Every game with its house-rule form (from the game's settings model)."""
    out: list[GameForm] = []
    for name in available_games():
        cls = game_class(name)
        out.append(GameForm.model_validate({
            "name": name, "title": cls.title or name, "num_seats": cls.num_seats,
            "fields": [_field_form(n, f) for n, f in cls.settings_model.model_fields.items()]}))
    return out


# -- acting -------------------------------------------------------------------------------------
def _reply(reply: Reply) -> JSONResponse:
    body = {"accepted": reply.accepted, "seq": reply.seq, "events": reply.events,
            "alerts": [{"rule": a.rule, "message": a.message, "level": a.level, "seat": a.seat,
                        "params": a.params} for a in reply.alerts]}
    if not reply.accepted:
        if any(a.rule == "log-not-writable" for a in reply.alerts):
            return JSONResponse({**body, "detail": reply.alerts[0].message}, status_code=503)
        why = "; ".join(a.message for a in reply.alerts if a.level != "info") or "refused"
        return JSONResponse({**body, "detail": why}, status_code=409)
    return JSONResponse(body)


ACTION_ERRORS = errors(401, 403, 409, 413, 422, 503)


REPLAYING = {
    "ru": "Это демонстрация: стол воспроизводит записанные партии, и новая игра не будет сыграна "
          "(следующая запись заменит её). Новую игру начинают на настоящем столе "
          "(`cardtable run --config table.toml`).",
    "en": "This is the demo: the table replays recorded games, and a new game would not be "
          "played (the next recording would replace it). Start new games on a real table "
          "(`cardtable run --config table.toml`).",
}


@router.post("/api/admin/new_game", response_model=NewGameOut,
             responses=errors(400, 401, 403, 409, 413, 422, 503))
def new_game(body: NewGameBody, request: Request, ctl: Ctl, _: AdminPost,
             lang: str = "ru") -> Any:
    """Start a game. Refused (409, ``rule`` ``demo-replays-recordings``) on the simulated table,
    whose recordings would replace it."""
    if request.app.state.replaying:
        return JSONResponse({"detail": REPLAYING[i18n.lang_of(lang)],
                             "rule": "demo-replays-recordings"}, status_code=409)
    options = {k: v for k, v in body.options.items() if v is not None and v != ""}
    names = [n for n in body.names]
    gid = ctl.new_game(body.game, options, names)  # EngineError → 400, LogError → 503
    return NewGameOut(game_id=gid, seq=ctl.seq)


@router.post("/api/admin/confirm", response_model=ReplyOut, responses=ACTION_ERRORS)
def confirm(body: ConfirmBody, ctl: Ctl,
            _: AdminPost) -> JSONResponse:
    return _reply(ctl.submit(Admin(action="confirm_card", card=body.card)))


@router.post("/api/admin/skip", response_model=ReplyOut, responses=ACTION_ERRORS)
def skip(body: EmptyBody, ctl: Ctl,
         _: AdminPost) -> JSONResponse:
    return _reply(ctl.submit(Admin(action="skip_card")))


@router.post("/api/admin/undo", response_model=ReplyOut, responses=ACTION_ERRORS)
def undo(body: EmptyBody, ctl: Ctl,
         _: AdminPost) -> JSONResponse:
    return _reply(ctl.submit(Admin(action="undo")))


@router.post("/api/admin/event", response_model=ReplyOut, responses=ACTION_ERRORS)
def event(body: EventBody, ctl: Ctl,
          _: AdminPost) -> JSONResponse:
    return _reply(ctl.submit(Admin(action="event", event=body.event)))


@router.post("/api/admin/end_game", response_model=ReplyOut, responses=ACTION_ERRORS)
def end_game(body: EmptyBody, ctl: Ctl,
             _: AdminPost) -> JSONResponse:
    return _reply(ctl.submit(Admin(action="end_game")))


# -- the table check ----------------------------------------------------------------------------
NO_CHECK = Refusal("check-no-table-camera",
                   "у этого стола нет камеры над столом ([cameras.table] в конфигурации)",
                   "this table has no overhead camera ([cameras.table] in its config)")


@router.get("/api/admin/table_check", responses=errors(401))
def table_check_status(request: Request, _: LoggedIn) -> TableCheckOut:
    """The table check: running (seconds to go), or its last verdict with figures and reasons."""
    check = request.app.state.table_check
    if check is None:
        return TableCheckOut(state="unavailable", message=NO_CHECK.as_json())
    return TableCheckOut.model_validate(check.status())


@router.post("/api/admin/table_check", response_model=TableCheckOut,
             responses=errors(401, 403, 409, 413, 422))
def table_check_start(body: TableCheckBody, request: Request, _: AdminPost,
                      lang: str = "ru") -> Any:
    """Start the table check: lay ``cards[i]`` in seat ``i``'s zone, leave them a moment, take
    them away. Refused (409, ``rule`` says why, ``detail`` in ``lang``) during a game, on the
    simulated table, without a table camera, or while a check runs."""
    check = request.app.state.table_check
    try:
        if check is None:
            raise NO_CHECK
        return TableCheckOut.model_validate(check.start(list(body.cards), body.seconds))
    except Refusal as why:
        text = why.en if i18n.lang_of(lang) == "en" else why.ru
        return JSONResponse({"detail": text, "rule": why.id}, status_code=409)
