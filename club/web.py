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
import html
import io
import time
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import quote

from fastapi import Depends, FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel

from club.i18n import DEFAULT_LANG, texts
from club.models import GameRow, TableRow
from club.store import Store

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
    id: int
    club: str
    table: str
    game: str
    players: list[str]
    started: float
    status: str
    finished: bool
    totals: list[int]
    winner: int | None
    check: str
    problem: str | None
    counted: bool


def get_store(request: Request) -> Store:
    return request.app.state.store


St = Annotated[Store, Depends(get_store)]
Lang = Annotated[str, Query(pattern="^(ru|en)$")]


def create_club_app(store: Store, club_name: str = "") -> FastAPI:
    app = FastAPI(title="cardtable club", docs_url=None, redoc_url=None,
                  openapi_url="/api/openapi.json")
    app.state.store = store
    app.state.club_name = club_name
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

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
        body = (f'<p class="muted" id="live" data-ok="{_e(t["live"])}" '
                f'data-lost="{_e(t["lost_live"])}">{_e(t["live"])}</p>'
                f'<section class="box"><table><thead><tr><th>{_e(t["table"])}</th>'
                f'<th>{_e(t["link"])}</th><th>{_e(t["game"])}</th><th>{_e(t["players"])}</th>'
                f'<th class="num">{_e(t["score"])}</th><th>{_e(t["turn"])}</th>'
                f'<th class="hide-narrow">{_e(t["check"])}</th></tr></thead>'
                f'<tbody id="rows">{room_rows(store, lang)}</tbody></table></section>'
                '<script src="/static/room.js" defer></script>')
        return _page(t["room"], body, lang, app.state.club_name)

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
    def results(store: St, lang: Lang = DEFAULT_LANG, all: bool = False) -> str:
        t = texts(lang)
        games = [_result(tb, g) for tb, g in store.table_games(None if all else _tonight())]
        rows = "".join(_result_row(r, lang) for r in reversed(games))
        other = (f'<a href="{_q("/results", lang)}">{_e(t["results"])}</a>' if all else
                 f'<a href="{_q("/results", lang, all="1")}">{_e(t["all_results"])}</a>')
        body = (f"<p>{other} · {_e(t['export'])}: <a href='/export.csv'>CSV</a>, "
                f"<a href='/export.json'>JSON</a></p>" + _results_table(rows, lang))
        return _page(t["results"], body, lang, app.state.club_name)

    @app.get("/games/{game_id}", response_class=HTMLResponse)
    def game_page(game_id: int, store: St, lang: Lang = DEFAULT_LANG) -> HTMLResponse:
        t = texts(lang)
        found = store.game(game_id)
        if found is None:
            return HTMLResponse(_page(t["not_found"], "", lang, app.state.club_name), 404)
        table, game, entries = found
        r = _result(table, game)
        events = [str(e.body.get("event", "")) for e in entries if e.kind == "event"]
        body = (f'<p class="score">{_e(_score(r.totals))}</p>'
                f"<p>{_e(t['table'])}: {_e(table.name)} · {_e(_status(r, t))} · "
                f"{_check_html(r, t)}</p>"
                + (f"<p class='flag'>{_e(t['problem'])}: {_e(r.problem)}</p>" if r.problem else "")
                + f"<section class='box'><h2>{_e(t['sheet'])}</h2>{_sheet(game, events, t)}"
                f"</section><section class='box'><h2>{_e(t['record'])}</h2>"
                f"<pre>{_e(chr(10).join(events))}</pre></section>")
        title = f"{t.get(game.name, game.name)}: {' — '.join(r.players)}"
        return HTMLResponse(_page(title, body, lang, app.state.club_name))

    @app.get("/players/{name}", response_class=HTMLResponse)
    def player_page(name: str, store: St, lang: Lang = DEFAULT_LANG) -> str:
        t = texts(lang)
        games = [_result(tb, g) for tb, g in store.table_games() if name in (g.names or [])]
        rows = "".join(_result_row(r, lang) for r in reversed(games))
        return _page(f"{t['games_of']} {name}", _results_table(rows, lang), lang,
                     app.state.club_name)

    @app.get("/export.json")
    def export_json(store: St) -> list[GameResult]:
        return [_result(tb, g) for tb, g in store.table_games()]

    @app.get("/export.csv")
    def export_csv(store: St) -> Response:
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(["id", "club", "table", "game", "players", "started", "status", "totals",
                    "winner", "check", "counted"])
        for tb, g in store.table_games():
            r = _result(tb, g)
            w.writerow([r.id, r.club, r.table, r.game, " / ".join(r.players),
                        time.strftime("%Y-%m-%d %H:%M", time.localtime(r.started)), r.status,
                        " : ".join(map(str, r.totals)), "" if r.winner is None else r.winner,
                        r.check, int(r.counted)])
        return Response(out.getvalue(), media_type="text/csv; charset=utf-8",
                        headers={"content-disposition": 'attachment; filename="club.csv"'})

    @app.exception_handler(Exception)
    async def failed(_request: Request, exc: Exception) -> JSONResponse:
        # a page that cannot be made (the database away) is a short answer, never a traceback
        return JSONResponse({"detail": f"the club database cannot be read: "
                                       f"{type(exc).__name__}"}, status_code=503)

    return app


# -- rendering -------------------------------------------------------------------------------
def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _q(path: str, lang: str, **extra: str) -> str:
    params = {**({"lang": lang} if lang != DEFAULT_LANG else {}), **extra}
    return path + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")


def _page(title: str, body: str, lang: str, club: str) -> str:
    t = texts(lang)
    head = f"{t['club']} {club}".strip()
    nav = (f'<nav><a href="{_q("/", lang)}">{_e(t["room"])}</a>'
           f'<a href="{_q("/results", lang)}">{_e(t["results"])}</a></nav>')
    return (f'<!doctype html><html lang="{_e(lang)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{_e(head)} — {_e(title)}</title>"
            '<link rel="stylesheet" href="/static/club.css"></head><body><div class="wrap">'
            f'{nav}<p class="muted">{_e(head)}</p><h1>{_e(title)}</h1>{body}</div></body></html>')


def _seat_name(game: GameRow | None, seat: int | None, t: dict[str, str]) -> str:
    if game is None or seat is None:
        return ""
    names = game.names or []
    return names[seat] if 0 <= seat < len(names) else t["seat"].format(n=seat + 1)


def _score(totals: list[int]) -> str:
    return " : ".join(str(v) for v in totals)


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
        return f'<tr><td colspan="7" class="muted">{_e(t["no_tables"])}</td></tr>'
    out = []
    for table, game in rows:
        link = (f'<span class="on">{_e(t["online"])}</span>' if table.online else
                f'<span class="off">{_e(t["offline"])}</span><br><span class="muted">'
                f'{_e(t["last_seen"].format(ago=_ago(table.last_seen, t)))}</span>')
        if game is None:
            out.append(f"<tr><td>{_e(table.name)}</td><td>{link}</td>"
                       f'<td colspan="5" class="muted">{_e(t["no_game"])}</td></tr>')
            continue
        r = _result(table, game)
        players = ", ".join(f'<a href="{_e(_q("/players/" + quote(n, safe=""), lang))}">'
                            f"{_e(n)}</a>" for n in r.players)
        if game.status != "active" or game.finished:
            turn = _e(_status(r, t))
        elif game.to_act is None:
            turn = _e(t["dealing"])
        else:
            turn = _e(_seat_name(game, game.to_act, t))
        out.append(f"<tr><td>{_e(table.name)}</td><td>{link}</td>"
                   f'<td><a href="{_q(f"/games/{game.id}", lang)}">'
                   f"{_e(t.get(game.name, game.name))}</a></td><td>{players}</td>"
                   f'<td class="num score">{_e(_score(r.totals))}</td><td>{turn}</td>'
                   f'<td class="hide-narrow">{_check_html(r, t)}</td></tr>')
    return "".join(out)


def _ago(when: float | None, t: dict[str, str]) -> str:
    if when is None:
        return t["never"]
    s = max(0, int(time.time() - when))
    return t["seconds_ago"].format(n=s) if s < 120 else t["minutes_ago"].format(n=s // 60)


def _result(table: TableRow, g: GameRow) -> GameResult:
    return GameResult(id=g.id, club=table.club, table=table.name, game=g.name,
                      players=list(g.names or []), started=g.started, status=g.status,
                      finished=bool(g.finished), totals=list(g.totals or []), winner=g.winner,
                      check=g.check, problem=g.problem,
                      counted=g.check == "ok" and bool(g.finished))


def _status(r: GameResult, t: dict[str, str]) -> str:
    if r.status == "abandoned":
        return t["abandoned"]
    if r.finished:
        return t["over"]
    return t["active"]


def _check_html(r: GameResult, t: dict[str, str]) -> str:
    if r.check == "ok":
        return f'<span class="ok">{_e(t["check_ok"])}</span>'
    return (f'<span class="flag">{_e(t.get("check_" + r.check, r.check))} — '
            f'{_e(t["not_counted"])}</span>')


def _results_table(rows: str, lang: str) -> str:
    t = texts(lang)
    if not rows:
        rows = f'<tr><td colspan="7" class="muted">{_e(t["no_results"])}</td></tr>'
    return (f"<section class='box'><table><thead><tr><th>{_e(t['started'])}</th>"
            f"<th>{_e(t['table'])}</th><th>{_e(t['game'])}</th><th>{_e(t['players'])}</th>"
            f"<th class='num'>{_e(t['score'])}</th><th>{_e(t['winner'])}</th>"
            f"<th class='hide-narrow'>{_e(t['check'])}</th></tr></thead><tbody>{rows}"
            "</tbody></table></section>")


def _result_row(r: GameResult, lang: str) -> str:
    t = texts(lang)
    when = time.strftime("%H:%M", time.localtime(r.started))
    if r.finished and r.winner is not None:
        winner = r.players[r.winner] if 0 <= r.winner < len(r.players) else \
            t["side"].format(n=r.winner + 1)
    elif r.finished:
        winner = t["draw"]
    else:
        winner = _status(r, t)
    return (f"<tr><td>{_e(when)}</td><td>{_e(r.table)}</td>"
            f'<td><a href="{_q(f"/games/{r.id}", lang)}">{_e(t.get(r.game, r.game))}</a></td>'
            f"<td>{_e(', '.join(r.players))}</td><td class='num'>{_e(_score(r.totals))}</td>"
            f"<td>{_e(winner)}</td><td class='hide-narrow'>{_check_html(r, t)}</td></tr>")


def _sheet(game: GameRow, events: list[str], t: dict[str, str]) -> str:
    """The score sheet by deal, as the engine folds the stored events (points per side)."""
    from engine.errors import EngineError
    from engine.registry import game_class

    try:
        sheet = game_class(game.name).replay(events, game.options).score_sheet()
    except (EngineError, ValueError, KeyError):
        return f"<p class='flag'>{_e(t['check_refused'])}</p>"
    names = list(game.names or [])
    sides = [names[i] if len(sheet.sides) == len(names) and i < len(names)
             else t["side"].format(n=i + 1) for i in range(len(sheet.sides))]
    head = "".join(f"<th class='num'>{_e(s)}</th>" for s in sides)
    rows = "".join(f"<tr><td>{d.number}</td>"
                   + "".join(f"<td class='num'>{p}</td>" for p in d.points) + "</tr>"
                   for d in sheet.deals)
    total = "".join(f"<td class='num'><b>{v}</b></td>" for v in sheet.totals)
    return (f"<table><thead><tr><th>{_e(t['deal'])}</th>{head}</tr></thead><tbody>{rows}"
            f"<tr><td><b>{_e(t['total'])}</b></td>{total}</tr></tbody></table>")


def _tonight() -> float:
    """Local midnight before now, less 6 hours: an evening that runs past midnight is one."""
    now = time.time()
    lt = time.localtime(now - 6 * 3600)
    return time.mktime((lt.tm_year, lt.tm_mon, lt.tm_mday, 0, 0, 0, 0, 0, -1)) + 6 * 3600
