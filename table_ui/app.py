"""The table's web site: display, history and admin around one running controller.

Why one factory: the main program owns the :class:`~controller.core.Controller` (it runs in the
same process, fed by the table's sensors from another thread); ``create_app`` wraps it in a
FastAPI app whose lifespan subscribes the WebSocket hub to the controller and unsubscribes it on
shutdown, so starting and stopping the web server never disturbs the table.

Routers, one per resource: :mod:`table_ui.routes_display` (``/``, ``/api/state``, ``/ws``),
:mod:`table_ui.routes_history` (``/history``, ``/api/games``) and :mod:`table_ui.routes_admin`
(``/admin``, ``/api/admin/*``).
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.types import ASGIApp, Receive, Scope, Send

from controller.core import Controller, NoGame
from controller.log import LogError
from engine.errors import EngineError
from table_ui import i18n
from table_ui.broadcast import Hub
from table_ui.guard import HostGuard
from table_ui.security import RateLimiter, Sessions, hash_pin, random_pin

log = logging.getLogger("cardtable.table_ui")

STATIC = Path(__file__).with_name("static")
MAX_BODY = 16 * 1024  # bytes of any request body
WS_MAX_MESSAGE = 1024  # bytes of a message from a display
OPENAPI_URL = "/api/openapi.json"  # the API's schema (no /docs or /redoc pages)

CSP = ("default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
       "connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")


class _Guard:
    """Pure ASGI middleware: body size limit (413) and security headers on every response."""

    def __init__(self, app: ASGIApp, max_body: int = MAX_BODY) -> None:
        self.app, self.max_body = app, max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _too_large(send)
            return
        seen = 0

        async def limited() -> Any:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise _BodyTooLarge
            return message

        async def secured(message: Any) -> None:
            if message["type"] == "http.response.start":
                extra = [(b"content-security-policy", CSP.encode()),
                         (b"x-content-type-options", b"nosniff"),
                         (b"x-frame-options", b"DENY"),
                         (b"referrer-policy", b"no-referrer")]
                message = {**message, "headers": list(message.get("headers", [])) + extra}
            await send(message)

        try:
            await self.app(scope, limited, secured)
        except _BodyTooLarge:
            await _too_large(send)


class _BodyTooLarge(Exception):
    pass


async def _too_large(send: Send) -> None:
    body = b'{"detail":"request body too large"}'
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def get_controller(request: Request) -> Controller:
    """Dependency: the table's controller."""
    return request.app.state.controller


Ctl = Annotated[Controller, Depends(get_controller)]


def create_app(controller: Controller, *, admin_pin_hash: str | None = None,
               lang: str = "ru", archive: Any = None, speech: Any = False,
               table_check: Any = None, replaying: bool = False) -> FastAPI:
    """The web app of one table. Without ``admin_pin_hash`` a random 6-digit PIN is made and
    written once to stderr (``admin PIN: 123456``). ``table_check``: the organiser's table
    check on the overhead camera (``controller.table_check.LiveCheck``), if the table has one.
    ``replaying``: the simulated table, which replays recordings; the admin cannot start a game. ``speech=True`` announces trump, illegal
    plays and deal scores through espeak-ng (:mod:`table_ui.speech`; a sink or a Speaker may be
    given instead); off by default."""
    from table_ui import routes_admin, routes_display, routes_history
    from table_ui.speech import make_speaker

    if admin_pin_hash is None:
        pin = random_pin()
        admin_pin_hash = hash_pin(pin)
        print(f"admin PIN: {pin}", file=sys.stderr, flush=True)

    hub = Hub()
    speaker = make_speaker(speech, i18n.lang_of(lang))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        hub.attach(loop, controller.public())
        unsubscribe = controller.subscribe(hub.publish)
        mute = speaker.attach(controller) if speaker is not None else None
        try:
            yield
        finally:
            unsubscribe()
            if mute is not None and speaker is not None:
                mute()
                speaker.sink.close()
            hub.close_all()
            hub.loop = None

    app = FastAPI(title="cardtable", version="1", lifespan=lifespan, docs_url=None,
                  redoc_url=None, openapi_url=OPENAPI_URL)
    # requests for another host name (DNS rebinding) never reach the table (table_ui.guard)
    app.add_middleware(HostGuard, extra_hosts=tuple(
        os.environ.get("CARDTABLE_WEB_HOSTS", "").split(",")))
    app.state.controller = controller
    app.state.archive = archive  # controller.archive.FootageArchive: deal clips for /history
    app.state.table_check = table_check  # controller.table_check.LiveCheck, or None
    app.state.replaying = replaying  # the simulated table: no new games from the admin
    app.state.hub = hub
    app.state.speaker = speaker  # table_ui.speech.Speaker, or None (speech off)
    app.state.lang = i18n.lang_of(lang)
    app.state.pin_hash = admin_pin_hash
    app.state.sessions = Sessions()
    app.state.limiter = RateLimiter()
    app.add_middleware(_Guard)

    @app.exception_handler(NoGame)
    async def _no_game(request: Request, exc: NoGame) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=409)

    @app.exception_handler(LogError)
    async def _log_error(request: Request, exc: LogError) -> JSONResponse:
        return JSONResponse({"detail": f"log not writable: {exc}"}, status_code=503)

    @app.exception_handler(EngineError)
    async def _engine_error(request: Request, exc: EngineError) -> JSONResponse:
        return JSONResponse({"detail": str(exc), "rule": getattr(exc, "rule", "")},
                            status_code=400)

    @app.exception_handler(ValidationError)
    async def _validation(request: Request, exc: ValidationError) -> JSONResponse:
        return JSONResponse({"detail": exc.errors(include_url=False, include_context=False,
                                                  include_input=False)}, status_code=422)

    @app.exception_handler(RequestValidationError)
    async def _request_validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        errors = [{k: v for k, v in e.items() if k in ("loc", "msg", "type")} for e in exc.errors()]
        return JSONResponse({"detail": errors}, status_code=422)

    app.include_router(routes_display.router)
    app.include_router(routes_history.router)
    app.include_router(routes_admin.router)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app


def server(app: FastAPI, host: str = "127.0.0.1", port: int = 8000, **kw: Any) -> Any:
    """A uvicorn server for ``app`` with the display socket's message limit set at the
    protocol level (``ws_max_size``), and guarded against connection floods
    (``table_ui.guard``: a deadline for request headers, a bound on open connections); call
    ``.run()`` in a thread, set ``.should_exit`` to stop. ``.guard`` counts what it dropped."""
    import uvicorn

    from table_ui.guard import (
        BACKLOG,
        GuardCounts,
        guarded_protocol,
        max_connections_for_this_process,
    )

    counts = GuardCounts()
    protocol = guarded_protocol(max_connections_for_this_process(), counts=counts)
    config = uvicorn.Config(app, host=host, port=port, ws_max_size=WS_MAX_MESSAGE * 4,
                            log_level=kw.pop("log_level", "warning"),
                            timeout_graceful_shutdown=kw.pop("timeout_graceful_shutdown", 3),
                            http=protocol, timeout_keep_alive=kw.pop("timeout_keep_alive", 5),
                            backlog=kw.pop("backlog", BACKLOG),
                            **kw)
    srv = uvicorn.Server(config)
    srv.guard = counts  # type: ignore[attr-defined]
    return srv
