"""The public display: the page, its message catalogue, ``/api/state`` and the ``/ws`` socket.

Nothing here can change the table: the socket only listens to ``{"since": N}`` (send me the
state if I missed anything) and closes on anything else; admin actions have their own
authenticated HTTP routes.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from typing import Any
from urllib.parse import urlsplit

from fastapi import APIRouter, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, HTMLResponse, Response
from starlette.concurrency import run_in_threadpool

from controller.public import PublicState
from table_ui import i18n
from table_ui.app import STATIC, WS_MAX_MESSAGE, Ctl
from table_ui.broadcast import Hub, state_message

router = APIRouter()

CLOSE_POLICY = 1008  # bad Origin
CLOSE_UNSUPPORTED = 1003  # malformed message
CLOSE_TOO_BIG = 1009  # oversized message


@router.get("/", include_in_schema=False)
def display_page() -> FileResponse:
    return FileResponse(STATIC / "display.html", headers={"Cache-Control": "no-cache"})


@router.get("/favicon.ico", include_in_schema=False)
def favicon() -> Response:
    return Response(status_code=204)


@router.get("/dealer-card/{game}", include_in_schema=False)
def dealer_card(game: str, request: Request, lang: str | None = None) -> Response:
    """A printable page for the dealer: the game's deal order, read from the engine, and the
    buttons (``table_ui.dealer_card``)."""
    from engine.registry import GAMES
    from table_ui import dealer_card as card

    chosen = i18n.lang_of(lang or "", request.app.state.lang)
    names = i18n.catalogue(chosen)["games"]
    if game not in GAMES:
        known = ", ".join(f"{g} ({names.get(g, g)})" for g in GAMES)
        return Response(f"unknown game {game!r}; known: {known}\n", status_code=404,
                        media_type="text/plain; charset=utf-8")
    return HTMLResponse(card.page(game, chosen if chosen in card.TEXT else "ru",
                                  names.get(game, game)))


@router.get("/api/state", response_model=PublicState)
def state(ctl: Ctl, response: Response) -> PublicState:
    """The table now (``controller.public.PublicState``); ``/ws`` sends the same object after
    every logged input."""
    response.headers["Cache-Control"] = "no-store"
    return ctl.public()


@router.get("/api/i18n")
def default_catalogue(request: Request) -> dict[str, Any]:
    return i18n.catalogue(request.app.state.lang)


@router.get("/api/i18n/{lang}")
def catalogue(lang: str, request: Request) -> dict[str, Any]:
    return i18n.catalogue(i18n.lang_of(lang, request.app.state.lang))


def origin_ok(ws: WebSocket) -> bool:
    """A browser's socket must come from a page of this very host; none (a script) is fine."""
    origin = ws.headers.get("origin")
    if origin is None:
        return True
    host = ws.headers.get("host", "")
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and bool(host) and parts.netloc.lower() == host.lower()


@router.websocket("/ws")
async def display_socket(ws: WebSocket) -> None:
    if not origin_ok(ws):
        await ws.close(code=CLOSE_POLICY)
        return
    hub: Hub = ws.app.state.hub
    await ws.accept()
    client = hub.add()
    try:
        first = hub.latest_text
        if first is None:
            first = state_message(await run_in_threadpool(ws.app.state.controller.public_state))
        await ws.send_text(first)
        sender = asyncio.create_task(_send_loop(ws, client))
        reader = asyncio.create_task(_read_loop(ws, client, hub))
        done, pending = await asyncio.wait({sender, reader}, return_when=asyncio.FIRST_COMPLETED)
        for task in pending:
            task.cancel()
        for task in pending:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for task in done:
            code = task.result() if task.exception() is None else None
            if code:
                with contextlib.suppress(Exception):
                    await ws.close(code=code)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        hub.remove(client)


async def _send_loop(ws: WebSocket, client: Any) -> int | None:
    while True:
        text = await client.queue.get()
        if text is None:
            return 1001  # going away: the server stops
        await ws.send_text(text)


async def _read_loop(ws: WebSocket, client: Any, hub: Hub) -> int | None:
    while True:
        message = await ws.receive()
        if message["type"] == "websocket.disconnect":
            return None
        raw = message.get("text")
        if raw is None:
            raw_bytes = message.get("bytes") or b""
            if len(raw_bytes) > WS_MAX_MESSAGE:
                return CLOSE_TOO_BIG
            return CLOSE_UNSUPPORTED
        if len(raw.encode()) > WS_MAX_MESSAGE:
            return CLOSE_TOO_BIG
        try:
            data = json.loads(raw)
        except ValueError:
            return CLOSE_UNSUPPORTED
        if not isinstance(data, dict) or set(data) - {"since"}:
            return CLOSE_UNSUPPORTED
        since = data.get("since")
        if not isinstance(since, int) or isinstance(since, bool):
            return CLOSE_UNSUPPORTED
        latest = hub.latest
        if latest is not None and since != latest.get("seq") and hub.latest_text:
            client.offer(hub.latest_text)
