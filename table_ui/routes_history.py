"""Past games from the controller's log: the list, each score sheet, record/CSV/JSON downloads.

Every game is rebuilt from its logged events (the log is the truth), so the history shows the
same sheet ``cardtable score`` would print for the exported record.
"""

from __future__ import annotations

import csv
import io
import json
import threading
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Request
from fastapi.responses import FileResponse, PlainTextResponse, Response

from controller.core import Controller
from controller.log import GameLog, GameRow
from engine import record
from engine.errors import EngineError
from engine.events import Event
from engine.game import Game
from engine.registry import game_class
from table_ui.app import STATIC, Ctl
from table_ui.models import MAX_ID, DealEvents, GameDetail, GameSheet, GameSummary, content, errors

router = APIRouter()

GameId = Annotated[int, Path(ge=1, le=MAX_ID, description="the game's id in the log")]
DealNo = Annotated[int, Path(ge=1, le=MAX_ID, description="the deal's number (Durak: the game's)")]
MISSING = errors(404, 409, 422)  # no such game (or deal); not rebuildable from the log; bad id
HIDDEN = errors(403, 404, 409, 422)  # ... and 403: the deal in play, whose cards are in hands


def _deal_in_play(ctl: Controller, row: GameRow) -> int | None:
    """The number of the deal being played (its shoe cards are in hidden hands), if any."""
    if row.status != "active":
        return None
    game = _game(ctl, row)
    if game.is_over:
        return None
    return game.view_deal(game.describe()) or 1


def _refuse_hidden(ctl: Controller, row: GameRow, deal: int | None = None) -> None:
    in_play = _deal_in_play(ctl, row)
    if in_play is not None and (deal is None or deal == in_play):
        what = "the game's record" if deal is None else f"deal {deal}"
        raise HTTPException(403, f"{what} would show the cards in the players' hands while "
                            "the deal is played; it is available once the deal is over")

_cache: dict[tuple[str, int, int], Game] = {}
_cache_lock = threading.Lock()


def rebuild(game_log: GameLog, row: GameRow) -> Game:
    """The game of a log row, replayed from its events (cached by the number of events)."""
    events = game_log.event_texts(row.id)
    key = (str(game_log.path), row.id, len(events))
    with _cache_lock:
        hit = _cache.get(key)
    if hit is not None:
        return hit
    game = game_class(row.game).replay(events, row.options)
    with _cache_lock:
        if len(_cache) > 256:
            _cache.clear()
        _cache[key] = game
    return game


def _iso(t: float | None) -> str | None:
    return None if t is None else datetime.fromtimestamp(t, UTC).isoformat(
        timespec="seconds")


def summary(game_log: GameLog, row: GameRow) -> dict[str, Any]:
    out: dict[str, Any] = {"id": row.id, "game": row.game, "names": row.names,
                           "options": row.options, "started": _iso(row.started),
                           "ended": _iso(row.ended), "status": row.status}
    try:
        game = rebuild(game_log, row)
        sheet = game.score_sheet()
        out.update(title=game.title or row.game, totals=list(sheet.totals),
                   sides=list(sheet.sides), result=sheet.result, error=None)
    except (EngineError, KeyError, ValueError) as exc:
        out.update(title=row.game, totals=[], sides=[], result="", error=str(exc))
    return out


def _row(ctl: Controller, game_id: int) -> GameRow:
    row = ctl.log.game(game_id)
    if row is None:
        raise HTTPException(404, f"no game {game_id} in the log")
    return row


def _game(ctl: Controller, row: GameRow) -> Game:
    try:
        return rebuild(ctl.log, row)
    except (EngineError, KeyError, ValueError) as exc:
        raise HTTPException(409, f"game {row.id} cannot be rebuilt from the log: {exc}") from exc


@router.get("/history", include_in_schema=False)
def history_page() -> FileResponse:
    return FileResponse(STATIC / "history.html", headers={"Cache-Control": "no-cache"})


@router.get("/api/games", response_model=list[GameSummary])
def games(ctl: Ctl) -> list[dict[str, Any]]:
    rows = ctl.log.games()[-200:]
    return [summary(ctl.log, r) for r in reversed(rows)]


@router.get("/api/games/{game_id:int}", response_model=GameDetail, responses=MISSING)
def game_detail(game_id: GameId, request: Request, ctl: Ctl) -> dict[str, Any]:
    row = _row(ctl, game_id)
    game = _game(ctl, row)
    archive = request.app.state.archive
    clips = sorted({c.deal for c in archive.clips(row.id)}) if archive is not None else []
    return {**summary(ctl.log, row), "sheet": game.score_sheet().to_dict(), "clips": clips}


def deal_events(row: GameRow, events: list[str]) -> dict[int, list[str]]:
    """The logged events of each deal (Durak: each game), by replaying them one by one."""
    game = game_class(row.game)(row.options)
    out: dict[int, list[str]] = {}
    for text in events:
        before = game.describe()
        game.record(Event.parse(text))
        d = game.describe() if text.startswith("shoe ") else before
        out.setdefault(game.view_deal(d) or 1, []).append(text)
    return out


@router.get("/api/games/{game_id:int}/deals/{deal:int}/events", response_model=DealEvents,
            responses=HIDDEN)
def game_deal_events(game_id: GameId, deal: DealNo, ctl: Ctl) -> dict[str, Any]:
    row = _row(ctl, game_id)
    _refuse_hidden(ctl, row, deal)
    try:
        by_deal = deal_events(row, ctl.log.event_texts(row.id))
    except EngineError as exc:
        raise HTTPException(409, f"game {row.id} cannot be rebuilt from the log: {exc}") from exc
    if deal not in by_deal:
        raise HTTPException(404, f"game {row.id} has no deal {deal}")
    return {"game_id": row.id, "deal": deal, "events": by_deal[deal]}


@router.get("/api/games/{game_id:int}/deals/{deal:int}/clip", response_class=FileResponse,
            responses={**content("video/mp4", "the deal's shoe footage"), **HIDDEN})
def game_deal_clip(game_id: GameId, deal: DealNo, request: Request, ctl: Ctl) -> FileResponse:
    """The deal's shoe footage from the dispute archive (controller/archive.py)."""
    row = _row(ctl, game_id)
    _refuse_hidden(ctl, row, deal)
    archive = request.app.state.archive
    clips = archive.find(row.id, deal) if archive is not None else []
    if not clips:
        raise HTTPException(404, f"no footage of game {row.id} deal {deal} is kept")
    return FileResponse(clips[0].path, media_type="video/mp4",
                        filename=f"game-{row.id}-deal-{deal}.mp4")


def _attachment(name: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{name}"'}


@router.get("/api/games/{game_id:int}/record", response_class=Response,
            responses={**content("text/plain", "the game record (docs/records.md)"), **HIDDEN})
def game_record(game_id: GameId, ctl: Ctl) -> PlainTextResponse:
    row = _row(ctl, game_id)
    _refuse_hidden(ctl, row)
    game = _game(ctl, row)
    meta = {"table_game_id": str(row.id), "started": _iso(row.started) or "",
            "status": row.status}
    meta.update({f"seat{i}": n.replace("\n", " ") for i, n in enumerate(row.names)})
    return PlainTextResponse(record.dumps(game, meta),
                             headers=_attachment(f"game-{row.id}-{row.game}.rec"))


CSV = {**content("text/csv", "the score sheet as CSV"), **MISSING}
JSON_FILE = {**errors(404, 409, 422), 200: {
    "content": {"application/json": {"schema": GameSheet.model_json_schema(
        ref_template="#/components/schemas/{model}")}},
    "description": "the game and its score sheet, as a JSON attachment"}}


@router.get("/api/games/{game_id:int}/sheet.csv", response_class=Response, responses=CSV)
@router.get("/api/games/{game_id:int}.csv", response_class=Response, responses=CSV)
def game_csv(game_id: GameId, ctl: Ctl) -> Response:
    row = _row(ctl, game_id)
    sheet = _game(ctl, row).score_sheet()
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(["deal", *sheet.sides, "items"])
    for d in sheet.deals:
        items = "; ".join([f"{sheet.sides[i.side]}: {i.what} {i.points:+d}" for i in d.items]
                          + [p.text(sheet.sides[p.seat] if p.seat < len(sheet.sides) else "")
                             for p in d.illegal])
        w.writerow([d.number, *d.points, items])
    w.writerow(["total", *sheet.totals, sheet.result])
    return Response(buf.getvalue(), media_type="text/csv; charset=utf-8",
                    headers=_attachment(f"game-{row.id}-{row.game}.csv"))


@router.get("/api/games/{game_id:int}/sheet.json", response_class=Response, responses=JSON_FILE)
@router.get("/api/games/{game_id:int}.json", response_class=Response, responses=JSON_FILE)
def game_json(game_id: GameId, ctl: Ctl) -> Response:
    row = _row(ctl, game_id)
    body = {**summary(ctl.log, row), "sheet": _game(ctl, row).score_sheet().to_dict()}
    return Response(json.dumps(body, ensure_ascii=False, indent=1),
                    media_type="application/json",
                    headers=_attachment(f"game-{row.id}-{row.game}.json"))
