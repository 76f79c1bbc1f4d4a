"""The club's web pages (FastAPI): the room live, tonight's results, each game's score sheet and
record, a player's games, CSV/JSON export. Russian first (``?lang=en`` for English), the table
display's look, pages rendered on the server (every value escaped) and one small script that
keeps the room live over a WebSocket.

    GET /                 the room: every table, its game, players, score, whose turn, online
    WS  /ws               the room's rows whenever the club database changes
    GET /results          tonight's games (``?all=1``: every game)
    GET /games/{id}       one game: score sheet (the engine's fold), check, record
    GET /players/{name}   one player's games
    GET /export.csv|json  every game: table, game, players, totals, winner, check
    GET /api/room         the room as JSON (``RoomTable`` models)
"""

from __future__ import annotations

import asyncio
import csv
import io
import os
import time
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel
from starlette.exceptions import HTTPException as StarletteHTTPException

from club.deps import Admin, Lang, St
from club.i18n import DEFAULT_LANG, texts
from club.models import GameRow, TableRow
from club.organiser import Result
from club.render import (
    esc,
    href,
    notice,
    page,
    player_link,
    results_table,
    score,
    state_html,
)
from club.routes_admin import result_forms
from club.routes_admin import router as admin_router
from club.routes_standings import router as standings_router
from club.routes_tournament import router as tournament_router
from club.store import Store
from table_ui.guard import HostGuard
from table_ui.security import RateLimiter, Sessions

STATIC = Path(__file__).with_name("static")
CSP = ("default-src 'self'; style-src 'self'; script-src 'self'; connect-src 'self'; "
       "img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
LIVE_POLL_S = 0.3


class RoomTable(BaseModel):
    club: str
    table: str
    online: bool
    last_seen: float | None
    game_id: int | None = None
    game: str | None = None
    players: list[str] = []
    totals: list[int] = []
    to_act: int | None = None
    status: str | None = None
    check: str | None = None
    winner: int | None = None


class GameResult(BaseModel):
    """A game's result as the club counts it (``club.organiser.Result``); sides and seats from
    0; ``table_totals`` is the result of the table's own events, before any correction."""
    id: int
    table: str
    game: str
    players: list[str]
    player_ids: list[int | None]
    started: float
    ended: float | None
    state: str
    finished: bool
    totals: list[int]
    winner: int | None
    check: str
    counted: bool
    table_totals: list[int]
    corrected: bool
    adjusted: bool


def create_club_app(store: Store, club_name: str = "") -> FastAPI:
    app = FastAPI(title="cardtable club", docs_url=None, redoc_url=None,
                  openapi_url="/api/openapi.json")
    app.state.store = store
    app.state.club_name = club_name
    app.add_middleware(HostGuard, extra_hosts=tuple(
        os.environ.get("CARDTABLE_WEB_HOSTS", "").split(",")))  # no DNS rebinding
    app.state.sessions = Sessions()
    app.state.limiter = RateLimiter()
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    app.include_router(admin_router)
    app.include_router(standings_router)
    app.include_router(tournament_router)

    @app.middleware("http")
    async def headers(request: Request, call_next: Any) -> Response:
        response = await call_next(request)
        response.headers["content-security-policy"] = CSP
        response.headers["x-content-type-options"] = "nosniff"
        response.headers["x-frame-options"] = "DENY"
        response.headers["referrer-policy"] = "no-referrer"
        return response

    @app.get("/", response_class=HTMLResponse)
    def room(store: St, lang: Lang = DEFAULT_LANG) -> str:
        t = texts(lang)
        body = (f'<p class="muted" id="live" data-ok="{esc(t["live"])}" '
                f'data-lost="{esc(t["lost_live"])}">{esc(t["live"])}</p>'
                f'<section class="box"><table><thead><tr><th>{esc(t["table"])}</th>'
                f'<th>{esc(t["link"])}</th><th>{esc(t["game"])}</th><th>{esc(t["players"])}</th>'
                f'<th class="num">{esc(t["score"])}</th><th>{esc(t["turn"])}</th>'
                f'<th class="hide-narrow">{esc(t["check"])}</th></tr></thead>'
                f'<tbody id="rows">{room_rows(store, lang)}</tbody></table></section>'
                '<script src="/static/room.js" defer></script>')
        return page(t["room"], body, lang, app.state.club_name)

    @app.get("/api/room")
    def api_room(store: St) -> list[RoomTable]:
        return [_room_table(table, game) for table, game in store.room()]

    @app.websocket("/ws")
    async def ws(socket: WebSocket) -> None:
        lang = socket.query_params.get("lang", DEFAULT_LANG)
        lang = lang if lang in ("ru", "en") else DEFAULT_LANG
        await socket.accept()
        seen = -1
        try:
            while True:
                if store.changes != seen:
                    seen = store.changes
                    rows = await asyncio.to_thread(room_rows, store, lang)
                    await socket.send_json({"rows": rows})
                await asyncio.sleep(LIVE_POLL_S)
        except (WebSocketDisconnect, RuntimeError):
            return

    @app.get("/results", response_class=HTMLResponse)
    def results(store: St, session: Admin, lang: Lang = DEFAULT_LANG, all: bool = False,
                done: str = "") -> str:
        t = texts(lang)
        games = store.organiser.results(None if all else _tonight())
        other = (f'<a href="{href("/results", lang)}">{esc(t["results"])}</a>' if all else
                 f'<a href="{href("/results", lang, all="1")}">{esc(t["all_results"])}</a>')
        body = (f"<p>{other} · {esc(t['export'])}: <a href='/export.csv'>CSV</a>, "
                f"<a href='/export.json'>JSON</a></p>" + results_table(games[::-1], lang))
        return page(t["results"], body, lang, app.state.club_name, admin=session is not None)

    @app.get("/games/{game_id}", response_class=HTMLResponse)
    def game_page(game_id: int, store: St, session: Admin, lang: Lang = DEFAULT_LANG,
                  done: str = "") -> HTMLResponse:
        t = texts(lang)
        found = store.game(game_id)
        r = store.organiser.result(game_id)
        if found is None or r is None:
            return HTMLResponse(page(t["not_found"], "", lang, app.state.club_name), 404)
        table, game, entries = found
        events = [str(e.body.get("event", "")) for e in entries if e.kind == "event"]
        body = (notice(t.get("done_" + done))
                + f'<p class="score">{esc(score(r.totals))}</p>'
                f"<p>{esc(t['table'])}: {esc(table.name)} · {state_html(r, t)} · "
                f"{_check_html(r.check, t)}</p>"
                + (f"<p class='flag'>{esc(t['problem'])}: {esc(game.problem)}</p>"
                   if game.problem else "")
                + (f"<p class='muted'>{esc(t['table_result'])}: "
                   f"{esc(score(r.table_totals))}</p>"
                   if r.corrected or r.adjusted else "")
                + _ledger_html(r, t)
                + (result_forms(r, session, lang, [(p.id, p.name) for p in
                                                   store.organiser.players(active_only=True)])
                   if session is not None else "")
                + f"<section class='box'><h2>{esc(t['sheet'])}</h2>{_sheet(game, events, t)}"
                f"</section><section class='box'><h2>{esc(t['record'])}</h2>"
                f"<pre>{esc(chr(10).join(events))}</pre></section>")
        title = f"{t.get(game.name, game.name)}: {' — '.join(s.name for s in r.seats)}"
        return HTMLResponse(page(title, body, lang, app.state.club_name,
                                 admin=session is not None))

    @app.get("/export.json")
    def export_json(store: St) -> list[GameResult]:
        return [_exported(r) for r in store.organiser.results()]

    @app.get("/export.csv")
    def export_csv(store: St) -> Response:
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(["id", "table", "game", "players", "started", "state", "totals",
                    "winner", "check", "counted", "table_totals"])
        for r in store.organiser.results():
            w.writerow([r.game_id, r.table, r.game, " / ".join(s.name for s in r.seats),
                        time.strftime("%Y-%m-%d %H:%M", time.localtime(r.started)),
                        r.state.value, " : ".join(map(str, r.totals)),
                        "" if r.winner is None else r.winner + 1, r.check, int(r.counted),
                        " : ".join(map(str, r.table_totals))])
        return Response(out.getvalue(), media_type="text/csv; charset=utf-8",
                        headers={"content-disposition": 'attachment; filename="club.csv"'})

    def answer(request: Request, status: int, key: str, detail: str = "") -> Response:
        """A refusal as a page in the page's language, or JSON for the data routes."""
        lang = request.query_params.get("lang", DEFAULT_LANG)
        t = texts(lang if lang in ("ru", "en") else DEFAULT_LANG)
        text = t[key] + (f": {detail}" if detail else "")
        path = request.url.path
        if path.startswith("/api/") or path.endswith((".json", ".csv")):
            return JSONResponse({"detail": text}, status_code=status)
        return HTMLResponse(page(t["not_done"], notice(text, bad=True),
                                 lang if lang in ("ru", "en") else DEFAULT_LANG,
                                 app.state.club_name), status)

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        where = ", ".join(str(e["loc"][-1]) for e in exc.errors() if e.get("loc"))
        return answer(request, 400, "bad_request", where)

    @app.exception_handler(StarletteHTTPException)
    async def refused(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404 and exc.detail == "Not Found":
            return answer(request, 404, "not_found_page")
        return answer(request, exc.status_code, "not_done_why", str(exc.detail))

    @app.exception_handler(OverflowError)
    async def too_big(request: Request, _exc: OverflowError) -> Response:
        return answer(request, 400, "bad_request")

    @app.exception_handler(Exception)
    async def failed(request: Request, exc: Exception) -> Response:
        # a page that cannot be made (the database away) is a short answer, never a traceback
        return answer(request, 503, "db_down", type(exc).__name__)

    return app


# -- rendering -------------------------------------------------------------------------------
def _seat_name(game: GameRow | None, seat: int | None, t: dict[str, str]) -> str:
    if game is None or seat is None:
        return ""
    names = game.names or []
    return names[seat] if 0 <= seat < len(names) else t["seat"].format(n=seat + 1)


def _room_table(table: TableRow, game: GameRow | None) -> RoomTable:
    base = RoomTable(club=table.club, table=table.name, online=table.online,
                     last_seen=table.last_seen)
    if game is None:
        return base
    return base.model_copy(update={
        "game_id": game.id, "game": game.name, "players": list(game.names or []),
        "totals": list(game.totals or []), "to_act": game.to_act, "status": game.status,
        "check": game.check, "winner": game.winner})


def room_rows(store: Store, lang: str) -> str:
    """The room's rows (HTML, escaped): what ``/`` shows and ``/ws`` sends."""
    t = texts(lang)
    rows = store.room()
    if not rows:
        return f'<tr><td colspan="7" class="muted">{esc(t["no_tables"])}</td></tr>'
    out = []
    for table, game in rows:
        link = (f'<span class="on">{esc(t["online"])}</span>' if table.online else
                f'<span class="off">{esc(t["offline"])}</span><br><span class="muted">'
                f'{esc(t["last_seen"].format(ago=_ago(table.last_seen, t)))}</span>')
        if game is None:
            out.append(f"<tr><td>{esc(table.name)}</td><td>{link}</td>"
                       f'<td colspan="5" class="muted">{esc(t["no_game"])}</td></tr>')
            continue
        players = ", ".join(player_link(n, lang) for n in game.names or [])
        if game.status == "abandoned":
            turn = esc(t["abandoned"])
        elif game.status != "active" or game.finished:
            turn = esc(t["over"])
        elif game.to_act is None:
            turn = esc(t["dealing"])
        else:
            turn = esc(_seat_name(game, game.to_act, t))
        out.append(f"<tr><td>{esc(table.name)}</td><td>{link}</td>"
                   f'<td><a href="{href(f"/games/{game.id}", lang)}">'
                   f"{esc(t.get(game.name, game.name))}</a></td><td>{players}</td>"
                   f'<td class="num score">{esc(score(game.totals or []))}</td>'
                   f'<td>{turn}</td><td class="hide-narrow">{_check_html(game.check, t)}</td>'
                   "</tr>")
    return "".join(out)


def _ago(when: float | None, t: dict[str, str]) -> str:
    if when is None:
        return t["never"]
    s = max(0, int(time.time() - when))
    return t["seconds_ago"].format(n=s) if s < 120 else t["minutes_ago"].format(n=s // 60)


def _exported(r: Result) -> GameResult:
    return GameResult(id=r.game_id, table=r.table, game=r.game,
                      players=[s.name for s in r.seats], player_ids=[s.player_id for s in r.seats],
                      started=r.started, ended=r.ended, state=r.state.value, finished=r.finished,
                      totals=r.totals, winner=r.winner, check=r.check, counted=r.counted,
                      table_totals=r.table_totals, corrected=r.corrected, adjusted=r.adjusted)


def _check_html(check: str, t: dict[str, str]) -> str:
    if check == "ok":
        return f'<span class="ok">{esc(t["check_ok"])}</span>'
    return (f'<span class="flag">{esc(t.get("check_" + check, check))} — '
            f'{esc(t["not_counted"])}</span>')


def _ledger_html(r: Result, t: dict[str, str]) -> str:
    """Every word on the result after the table's: who, when, what, why."""
    if not r.ledger:
        return ""
    items = []
    for e in r.ledger:
        what = t["kind_" + e.kind]
        if e.kind in ("confirm", "dispute") and e.side is not None:
            what += f" ({r.side_name(e.side)})"
        elif e.kind in ("correct", "adjust") and e.totals is not None:
            what += f" {score(e.totals)}"
        elif e.kind == "seat" and e.side is not None:
            what += f" {t['seat'].format(n=e.side + 1)}: {e.player or ''}"
        who = t.get("by_" + e.by, e.by)
        when = time.strftime("%d.%m %H:%M", time.localtime(e.at))
        items.append(f"<li>{esc(when)} · {esc(who)} · {esc(what)}"
                     + (f" — <i>{esc(e.why)}</i>" if e.why else "") + "</li>")
    return f"<section class='box'><h2>{esc(t['ledger'])}</h2><ul>{''.join(items)}</ul></section>"


def _sheet(game: GameRow, events: list[str], t: dict[str, str]) -> str:
    """The score sheet by deal, as the engine folds the stored events (points per side)."""
    from engine.errors import EngineError
    from engine.registry import game_class

    try:
        sheet = game_class(game.name).replay(events, game.options).score_sheet()
    except (EngineError, ValueError, KeyError):
        return f"<p class='flag'>{esc(t['check_refused'])}</p>"
    names = list(game.names or [])
    sides = [names[i] if len(sheet.sides) == len(names) and i < len(names)
             else t["side"].format(n=i + 1) for i in range(len(sheet.sides))]
    head = "".join(f"<th class='num'>{esc(s)}</th>" for s in sides)
    rows = "".join(f"<tr><td>{d.number}</td>"
                   + "".join(f"<td class='num'>{p}</td>" for p in d.points) + "</tr>"
                   for d in sheet.deals)
    total = "".join(f"<td class='num'><b>{v}</b></td>" for v in sheet.totals)
    return (f"<table><thead><tr><th>{esc(t['deal'])}</th>{head}</tr></thead><tbody>{rows}"
            f"<tr><td><b>{esc(t['total'])}</b></td>{total}</tr></tbody></table>")


def _tonight() -> float:
    """Local midnight before now, less 6 hours: an evening that runs past midnight is one."""
    now = time.time()
    lt = time.localtime(now - 6 * 3600)
    return time.mktime((lt.tm_year, lt.tm_mon, lt.tm_mday, 0, 0, 0, 0, 0, -1)) + 6 * 3600
