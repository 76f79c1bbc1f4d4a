"""Standings, ratings and players: the club's tables over a period, per game.

    GET /standings[.csv|.json]  ?period=evening|month|season|all [&evening=ID] [&month=YYYY-MM]
                                [&season=YYYY] [&game=NAME]
    GET /ratings                OpenSkill ratings per game (final results only)
    GET /players                the register
    GET /players/{name}         a registered player (ratings chart, games) or a guest's games

While the organiser hides the standings of the open evening, the standings pages and exports
of any period that takes in that evening say so instead, to everyone but the organiser.
"""

from __future__ import annotations

import csv
import io
import time
from dataclasses import dataclass
from typing import Any

from fastapi import APIRouter, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel

from club.deps import Admin, Lang, St
from club.i18n import DEFAULT_LANG, texts
from club.models import EveningRow
from club.organiser import Organiser, Result
from club.ratings import chart_svg, rate
from club.render import esc, half_points, href, page, player_link, results_table
from club.standings import Line, month_span, season_span, standings

router = APIRouter()
PERIODS = ("evening", "month", "season", "all")


class StandingLine(BaseModel):
    game: str
    place: int
    player: str
    player_id: int | None
    played: int
    won: int
    drawn: int
    lost: int
    score: float
    points: int
    provisional: int


@dataclass
class Period:
    kind: str
    since: float | None
    until: float | None
    label: str
    evening: EveningRow | None = None


def period_of(org: Organiser, lang: str, period: str, evening: int | None, month: str | None,
              season: int | None) -> Period:
    t = texts(lang)
    now = time.localtime()
    if period == "evening":
        rows = org.evenings()
        row = next((e for e in rows if e.id == evening), None) if evening else (
            rows[0] if rows else None)
        if evening and row is None:
            raise HTTPException(404, t["no_such_evening"])
        if row is None:
            return Period("evening", 0.0, 0.0, t["no_evening_yet"])
        return Period("evening", row.opened, row.closed, row.title, row)
    if period == "month":
        year, mon = now.tm_year, now.tm_mon
        if month:
            try:
                year, mon = (int(v) for v in month.split("-"))
                if not (1 <= mon <= 12 and 1970 <= year <= 2100):
                    raise ValueError
            except ValueError:
                raise HTTPException(400, t["bad_month"]) from None
        since, until = month_span(year, mon)
        return Period("month", since, until, f"{year}-{mon:02d}")
    if period == "season":
        year = season or now.tm_year
        if not 1970 <= year <= 2100:
            raise HTTPException(400, t["bad_season"])
        since, until = season_span(year)
        return Period("season", since, until, str(year))
    return Period("all", None, None, t["period_all"])


def hidden(org: Organiser, p: Period) -> bool:
    """The organiser hides the open evening's standings and this period overlaps it (from its
    opening until now)."""
    row = org.open_evening_row()
    if row is None or not row.hide_standings:
        return False
    return (p.since is None or p.since <= time.time()) and (p.until is None or
                                                            p.until > row.opened)


def _lines(results: list[Result], game: str | None) -> dict[str, list[Line]]:
    games = sorted({r.game for r in results if r.counted and (game is None or r.game == game)})
    return {g: standings(results, g) for g in games}


def _models(tables: dict[str, list[Line]]) -> list[StandingLine]:
    return [StandingLine(game=g, place=n, player=x.name, player_id=x.player_id, played=x.played,
                         won=x.won, drawn=x.drawn, lost=x.lost, score=x.score, points=x.points,
                         provisional=x.provisional)
            for g, lines in tables.items() for n, x in enumerate(lines, 1)]


def _query(request: Request, store: Any, lang: str, period: str, evening: int | None,
           month: str | None, season: int | None, game: str | None
           ) -> tuple[Period, dict[str, list[Line]], bool]:
    org = store.organiser
    p = period_of(org, lang, period, evening, month, season)
    results = org.results(p.since, p.until)
    return p, _lines(results, game), hidden(org, p)


Q = Query("evening", pattern="^(evening|month|season|all)$")


@router.get("/standings", response_class=HTMLResponse)
def standings_page(request: Request, store: St, session: Admin, lang: Lang = DEFAULT_LANG,
                   period: str = Q, evening: int | None = None, month: str | None = None,
                   season: int | None = None, game: str | None = None) -> str:
    t = texts(lang)
    p, tables, hide = _query(request, store, lang, period or "evening", evening, month, season,
                             game)
    tabs = " · ".join(
        f'<a href="{esc(href("/standings", lang, period=k))}"'
        f'{" class=here" if k == p.kind else ""}>{esc(t["period_" + k])}</a>' for k in PERIODS)
    extra = {k: str(v) for k, v in (("period", p.kind), ("evening", evening), ("month", month),
                                   ("season", season), ("game", game)) if v}
    export = (f' · {esc(t["export"])}: <a href="{esc(href("/standings.csv", lang, **extra))}">'
              f'CSV</a>, <a href="{esc(href("/standings.json", lang, **extra))}">JSON</a>')
    if p.evening is not None:
        export += (f' · <a href="{esc(href(f"/evenings/{p.evening.id}/sheet", lang))}">'
                   f'{esc(t["sheet_title"])}</a>')
    body = f"<p>{tabs}{export}</p>"
    if hide and session is None:
        body += f'<p class="flag">{esc(t["standings_hidden_public"])}</p>'
        tables = {}  # nothing of it, not even below the notice
    elif not tables:
        body += f'<p class="muted">{esc(t["no_standings"])}</p>'
    for name, lines in tables.items():
        rows = "".join(
            f"<tr><td class='num'>{n}</td><td>{player_link(x.name, lang)}</td>"
            f"<td class='num'>{x.played}</td><td class='num'>{x.won}</td>"
            f"<td class='num'>{x.drawn}</td><td class='num'>{x.lost}</td>"
            f"<td class='num'><b>{half_points(x.score)}</b></td><td class='num'>{x.points}</td>"
            f"<td class='hide-narrow'>{esc(t['provisional']) if x.provisional else ''}</td>"
            "</tr>" for n, x in enumerate(lines, 1))
        body += (f"<section class='box'><h2>{esc(t.get(name, name))}</h2><table><thead><tr>"
                 f"<th class='num'>#</th><th>{esc(t['player'])}</th>"
                 f"<th class='num'>{esc(t['played'])}</th><th class='num'>{esc(t['won'])}</th>"
                 f"<th class='num'>{esc(t['drawn'])}</th><th class='num'>{esc(t['lost'])}</th>"
                 f"<th class='num'>{esc(t['score_pts'])}</th>"
                 f"<th class='num'>{esc(t['game_points'])}</th><th class='hide-narrow'></th>"
                 f"</tr></thead><tbody>{rows}</tbody></table></section>")
    title = f"{t['standings']}: {p.label}"
    return page(title, body, lang, request.app.state.club_name, admin=session is not None)


@router.get("/standings.json")
def standings_json(request: Request, store: St, session: Admin, lang: Lang = DEFAULT_LANG,
                   period: str = Q, evening: int | None = None, month: str | None = None,
                   season: int | None = None, game: str | None = None) -> list[StandingLine]:
    _p, tables, hide = _query(request, store, lang, period or "evening", evening, month,
                              season, game)
    if hide and session is None:
        raise HTTPException(403, texts(lang)["standings_hidden_public"])
    return _models(tables)


@router.get("/standings.csv")
def standings_csv(request: Request, store: St, session: Admin, lang: Lang = DEFAULT_LANG,
                  period: str = Q, evening: int | None = None, month: str | None = None,
                  season: int | None = None, game: str | None = None) -> Response:
    lines = standings_json(request, store, session, lang, period, evening, month, season, game)
    out = io.StringIO()
    w = csv.writer(out)
    fields = list(StandingLine.model_fields)
    w.writerow(fields)
    for line in lines:
        w.writerow([getattr(line, f) if getattr(line, f) is not None else "" for f in fields])
    return Response(out.getvalue(), media_type="text/csv; charset=utf-8",
                    headers={"content-disposition": 'attachment; filename="standings.csv"'})


@router.get("/ratings", response_class=HTMLResponse)
def ratings_page(request: Request, store: St, session: Admin, lang: Lang = DEFAULT_LANG) -> str:
    t = texts(lang)
    tables = rate(store.organiser.results())
    body = f'<p class="muted">{esc(t["ratings_note"])}</p>'
    if not tables:
        body += f'<p class="muted">{esc(t["no_ratings"])}</p>'
    for name, ratings in tables.items():
        rows = "".join(
            f"<tr><td class='num'>{n}</td><td>{player_link(r.name, lang)}</td>"
            f"<td class='num'><b>{r.ordinal:.1f}</b></td><td class='num'>{r.mu:.1f}</td>"
            f"<td class='num'>{r.sigma:.2f}</td><td class='num'>{r.games}</td></tr>"
            for n, r in enumerate(ratings, 1))
        body += (f"<section class='box'><h2>{esc(t.get(name, name))}</h2><table><thead><tr>"
                 f"<th class='num'>#</th><th>{esc(t['player'])}</th>"
                 f"<th class='num'>{esc(t['rating'])}</th><th class='num'>μ</th>"
                 f"<th class='num'>σ</th><th class='num'>{esc(t['played'])}</th></tr></thead>"
                 f"<tbody>{rows}</tbody></table></section>")
    return page(t["ratings"], body, lang, request.app.state.club_name,
                admin=session is not None)


@router.get("/players", response_class=HTMLResponse)
def register_page(request: Request, store: St, session: Admin, lang: Lang = DEFAULT_LANG
                  ) -> str:
    t = texts(lang)
    rows = "".join(f"<tr{'' if p.active else ' class=muted'}><td>{player_link(p.name, lang)}"
                   f"</td><td>{esc(p.nickname or '')}</td>"
                   f"<td>{'' if p.active else esc(t['retired'])}</td></tr>"
                   for p in store.organiser.players())
    body = (f"<section class='box'><table><thead><tr><th>{esc(t['name'])}</th>"
            f"<th>{esc(t['nickname'])}</th><th></th></tr></thead><tbody>"
            f"{rows or '<tr><td colspan=3 class=muted>' + esc(t['no_players']) + '</td></tr>'}"
            "</tbody></table></section>")
    return page(t["register"], body, lang, request.app.state.club_name,
                admin=session is not None)


@router.get("/players/{name}", response_class=HTMLResponse)
def player_page(name: str, request: Request, store: St, session: Admin,
                lang: Lang = DEFAULT_LANG) -> str:
    """A registered player (by name or nickname): ratings per game with a chart, and games;
    any other name: the games a table named that way."""
    t = texts(lang)
    org = store.organiser
    player = org.find_player(name)
    results = org.results()
    body = ""
    if player is not None:
        mine = [r for r in results if any(s.player_id == player.id for s in r.seats)]
        for game, ratings in rate(results).items():
            rating = next((x for x in ratings if x.player_id == player.id), None)
            if rating is None:
                continue
            body += (f"<section class='box'><h2>{esc(t.get(game, game))}: {esc(t['rating'])} "
                     f"{rating.ordinal:.1f}</h2>{chart_svg(rating.history)}</section>")
        title = player.name + (f" ({player.nickname})" if player.nickname else "")
    else:
        mine = [r for r in results if any(s.player_id is None and s.name == name
                                          for s in r.seats)]
        title = f"{t['games_of']} {name}"
    body += results_table(list(reversed(mine)), lang)
    return page(title, body, lang, request.app.state.club_name, admin=session is not None)


@router.get("/evenings/{evening_id}/sheet", response_class=HTMLResponse)
def evening_sheet(evening_id: int, request: Request, store: St, session: Admin,
                  lang: Lang = DEFAULT_LANG) -> HTMLResponse:
    """The evening's result sheet to print (A4, black on white): standings per game, the
    tournament, every game with its result and what the organiser changed."""
    from club.routes_tournament import standings_html, tournament_html

    t = texts(lang)
    org = store.organiser
    p = period_of(org, lang, "evening", evening_id, None, None)
    if hidden(org, p) and session is None:
        raise HTTPException(403, t["standings_hidden_public"])
    results = org.results(p.since, p.until)
    tables = _lines(results, None)
    body = (f'<p class="muted">{esc(_day(p.since))} · '
            f'{esc(t["state_final"] if p.evening and p.evening.closed else t["provisional"])}'
            "</p>")
    for name, lines in tables.items():
        rows = "".join(f"<tr><td class='num'>{n}</td><td>{esc(x.name)}</td>"
                       f"<td class='num'>{x.played}</td><td class='num'>{half_points(x.score)}</td>"
                       f"<td class='num'>{x.points}</td></tr>" for n, x in enumerate(lines, 1))
        body += (f"<section class='box'><h2>{esc(t.get(name, name))}</h2><table><thead><tr>"
                 f"<th class='num'>#</th><th>{esc(t['player'])}</th>"
                 f"<th class='num'>{esc(t['played'])}</th>"
                 f"<th class='num'>{esc(t['score_pts'])}</th>"
                 f"<th class='num'>{esc(t['game_points'])}</th></tr></thead><tbody>{rows}"
                 "</tbody></table></section>")
    tours = store.tournaments
    for row in tours.of_evening(evening_id):
        view = tours.view(row.id)
        body += (f"<h2>{esc(t['tournament'])}: {esc(t.get(view.game, view.game))}</h2>"
                 + standings_html(view, lang) + tournament_html(view, lang))
    games = "".join(
        f"<tr><td>{esc(time.strftime('%H:%M', time.localtime(r.started)))}</td>"
        f"<td>{esc(r.table)}</td><td>{esc(t.get(r.game, r.game))}</td>"
        f"<td>{esc(', '.join(s.name for s in r.seats))}</td>"
        f"<td class='num'>{esc(' : '.join(map(str, r.totals)))}</td>"
        f"<td>{esc(t['state_' + r.state.value])}"
        + "".join(f"<br><small>{esc(t['kind_' + e.kind])}: {esc(e.why)}</small>"
                  for e in r.ledger if e.kind not in ("confirm", "seat")) + "</td></tr>"
        for r in results)
    body += (f"<section class='box'><h2>{esc(t['all_games'])}</h2><table><thead><tr>"
             f"<th>{esc(t['started'])}</th><th>{esc(t['table'])}</th><th>{esc(t['game'])}</th>"
             f"<th>{esc(t['players'])}</th><th class='num'>{esc(t['score'])}</th>"
             f"<th>{esc(t['state'])}</th></tr></thead><tbody>{games}</tbody></table></section>")
    return HTMLResponse(page(f"{t['sheet_title']}: {p.label}", body, lang,
                             request.app.state.club_name, admin=session is not None))


def _day(when: float | None) -> str:
    return time.strftime("%d.%m.%Y", time.localtime(when)) if when else ""
