"""The evening's Swiss tournament: its page for everyone, and the organiser's forms.

    GET  /tournament[?id=N]              rounds, pairings and results, standings with tie-breaks
    POST /admin/tournament               create: game, rounds, entrants (one per line; a pair as
                                         "Аня + Боря"), tables (board order)
    POST /admin/tournament/{id}/round    pair and start the next round on the tables
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from club.deps import Admin, Lang, LangForm, St, checked, refuse
from club.i18n import DEFAULT_LANG, texts
from club.organiser import ClubError
from club.render import csrf_field, esc, half_points, href, notice, page
from club.routes_standings import hidden, period_of
from club.store import Store
from club.tournament import TournamentView
from table_ui.security import Session

router = APIRouter()
SWISS_GAMES = ("belot2", "durak2", "terz", "bazar")


@router.get("/tournament", response_class=HTMLResponse)
def tournament_page(request: Request, store: St, session: Admin, lang: Lang = DEFAULT_LANG,
                    id: int | None = None, done: str = "") -> HTMLResponse:
    t = texts(lang)
    club = request.app.state.club_name
    row = store.tournaments.current() if id is None else None
    tid = id if id is not None else (row.id if row is not None else None)
    if tid is None:
        return HTMLResponse(page(t["tournament"], f'<p class="muted">{esc(t["no_tournament"])}'
                                 "</p>", lang, club, admin=session is not None))
    try:
        view = store.tournaments.view(tid)
    except ClubError as exc:
        return HTMLResponse(page(t["tournament"], notice(exc.text(lang), bad=True), lang, club,
                                 admin=session is not None), 404)
    org = store.organiser
    if hidden(org, period_of(org, lang, "evening", None, None, None)) and session is None:
        # the players see where to sit, not how anyone stands
        body = (f'<p class="flag">{esc(t["standings_hidden_public"])}</p>'
                + tournament_html(view, lang, rounds=[view.played], results=False))
    else:
        body = (notice(t.get("done_" + done)) + tournament_html(view, lang)
                + standings_html(view, lang))
        if session is not None:
            body += settle_forms(view, session, lang)
    title = (f"{t['tournament']}: {t.get(view.game, view.game)} — "
             + t["round_of"].format(n=view.played, of=view.rounds))
    return HTMLResponse(page(title, body, lang, club, admin=session is not None))


def tournament_html(view: TournamentView, lang: str, rounds: list[int] | None = None,
                    results: bool = True) -> str:
    """The rounds (newest first, or ``rounds``) with their pairings and, with ``results``,
    each game's result."""
    t = texts(lang)
    out = []
    for rnd in rounds if rounds is not None else range(view.played, 0, -1):
        rows = []
        for p in (p for p in view.pairings if p.round == rnd):
            if p.second is None:
                rows.append(f"<tr><td>—</td><td>{esc(p.first)}</td><td class='muted'>"
                            f"{esc(t['bye'])}</td><td class='num'>1</td></tr>")
                continue
            if not results:
                rows.append(f"<tr><td>{esc(p.table or '')}</td><td>{esc(p.first)}</td>"
                            f"<td>{esc(p.second)}</td><td></td></tr>")
                continue
            result = (f"{half_points(p.points[0])} – {half_points(p.points[1])}" if p.points is not None
                      else t["state_playing"] if p.game_id else
                      t["sent_to_table"] if p.sent else t["waiting_send"])
            if p.game_id:  # the result opens the game's score sheet and record
                result_html = (f'<a href="{esc(href(f"/games/{p.game_id}", lang))}">'
                               f"{esc(result)}</a>")
            else:
                result_html = esc(result)
            rows.append(f"<tr><td>{esc(p.table or '')}</td><td>{esc(p.first)}</td>"
                        f"<td>{esc(p.second)}</td><td class='num'>{result_html}</td></tr>")
        out.append(f"<section class='box'><h2>{esc(t['round_n'].format(n=rnd))}</h2><table>"
                   f"<thead><tr><th>{esc(t['table'])}</th><th>{esc(t['first_side'])}</th>"
                   f"<th>{esc(t['second_side'])}</th><th class='num'>{esc(t['result'])}</th>"
                   f"</tr></thead><tbody>{''.join(rows)}</tbody></table></section>")
    return "".join(out)


def settle_forms(view: TournamentView, session: Session, lang: str) -> str:
    """The organiser's way out for a game of the current round that cannot be played or was
    lost: its result set by hand, with a reason."""
    t = texts(lang)
    open_ones = [p for p in view.pairings
                 if p.round == view.played and p.second is not None and p.points is None]
    if not open_ones:
        return ""
    csrf = csrf_field(session.csrf) + f'<input type="hidden" name="lang" value="{esc(lang)}">'
    choices = "".join(f'<option value="{v}">{esc(w)}</option>'
                      for v, w in (("1-0", "1 – 0"), ("0-1", "0 – 1"), ("0.5-0.5", "½ – ½"),
                                   ("0-0", "0 – 0")))
    forms = "".join(
        f'<form method="post" action="/admin/tournament/pairings/{p.id}/settle">{csrf}'
        f"<span>{esc(p.table or '')}: {esc(p.first)} — {esc(p.second)}</span>"
        f'<select name="points" aria-label="{esc(t["result"])}">{choices}</select>'
        f'<label>{esc(t["why"])} <input name="why" required maxlength="500"></label>'
        f'<button>{esc(t["settle"])}</button></form>' for p in open_ones)
    return (f'<section class="box"><h2>{esc(t["settle_title"])}</h2>'
            f'<p class="muted">{esc(t["settle_help"])}</p>{forms}</section>')


def standings_html(view: TournamentView, lang: str) -> str:
    t = texts(lang)
    rows = "".join(
        f"<tr><td class='num'>{n}</td><td>{esc(view.entrants[s.entrant])}</td>"
        f"<td class='num'><b>{half_points(s.score)}</b></td><td class='num'>{half_points(s.buchholz)}</td>"
        f"<td class='num hide-narrow'>{s.sonneborn_berger:g}</td>"
        f"<td class='num hide-narrow'>{s.points}</td></tr>"
        for n, s in enumerate(view.table, 1))
    return (f"<section class='box'><h2>{esc(t['standings'])}</h2><table><thead><tr>"
            f"<th class='num'>#</th><th>{esc(t['entrant'])}</th>"
            f"<th class='num'>{esc(t['score_pts'])}</th>"
            f"<th class='num' title='{esc(t['buchholz_long'])}'>{esc(t['buchholz'])}</th>"
            f"<th class='num hide-narrow' title='{esc(t['sb_long'])}'>{esc(t['sb'])}</th>"
            f"<th class='num hide-narrow'>{esc(t['game_points'])}</th></tr></thead><tbody>{rows}</tbody>"
            "</table></section>")


def admin_section(store: Store, session: Session, lang: str) -> str:
    """The tournament part of the organiser's page."""
    t = texts(lang)
    org, tours = store.organiser, store.tournaments
    if org.open_evening_row() is None:
        return ""
    csrf = csrf_field(session.csrf) + f'<input type="hidden" name="lang" value="{esc(lang)}">'
    row = tours.current()
    if row is not None:
        view = tours.view(row.id)
        state = t["round_of"].format(n=view.played, of=view.rounds)
        action = ""
        if view.over:
            state += " · " + t["tournament_over"]
        elif view.played and not view.round_over:
            state += " · " + t["round_running"]
        else:
            action = (f'<form method="post" action="/admin/tournament/{row.id}/round">{csrf}'
                      f'<button>{esc(t["start_round"].format(n=view.played + 1))}</button>'
                      "</form>")
        return (f'<section class="box"><h2>{esc(t["tournament"])}</h2><p>'
                f'<a href="{esc(href("/tournament", lang))}">{esc(t.get(view.game, view.game))}'
                f"</a> · {esc(state)}</p>{action}</section>")
    games = "".join(f'<option value="{g}">{esc(t.get(g, g))}</option>' for g in SWISS_GAMES)
    players = "\n".join(p.name for p in org.players(active_only=True))
    tables = "".join(
        f'<label><input type="checkbox" name="tables" value="{esc(tb.club)}/{esc(tb.name)}" '
        f'checked> {esc(tb.name)}</label> ' for tb in store.tables())
    return (f'<section class="box"><h2>{esc(t["tournament"])}</h2>'
            f'<form method="post" action="/admin/tournament" class="stack">{csrf}'
            f'<label>{esc(t["game"])} <select name="game">{games}</select></label>'
            f'<label>{esc(t["rounds"])} <input name="rounds" type="number" min="1" max="15" '
            f'value="3" required></label>'
            f'<label class="block">{esc(t["entrants_help"])}<textarea name="entrants" rows="8" '
            f'required>{esc(players)}</textarea></label>'
            f'<div>{esc(t["tables"])}: {tables or esc(t["no_tables"])}</div>'
            f'<button>{esc(t["create_tournament"])}</button></form></section>')


@router.post("/admin/tournament", response_model=None)
def create(request: Request, store: St, session: Admin, game: Annotated[str, Form()] = "",
           rounds: Annotated[str, Form()] = "", entrants: Annotated[str, Form()] = "",
           tables: Annotated[list[str] | None, Form()] = None,
           csrf: Annotated[str, Form()] = "", lang: LangForm = DEFAULT_LANG) -> Response:
    refused = checked(request, session, csrf, lang)
    if refused is not None:
        return refused
    back = href("/admin", lang)
    try:
        picked = []
        for line in entrants.splitlines():
            if not line.strip():
                continue
            ids = []
            for name in line.split("+"):
                player = store.organiser.find_player(name)
                if player is None:
                    raise ClubError("unknown-name", name=name.strip())
                ids.append(player.id)
            picked.append(ids)
        if not (rounds.strip().isascii() and rounds.strip().isdigit()) or len(rounds) > 3:
            raise ClubError("swiss-rounds", n="…")
        places = [tuple(v.split("/", 1)) for v in tables or [] if "/" in v]
        store.tournaments.create(game, int(rounds), picked,
                                 [(c, n) for c, n in places])
    except ClubError as exc:
        return refuse(request, lang, exc.text(lang), back)
    return RedirectResponse(href("/admin", lang, done="tournament"), 303)


@router.post("/admin/tournament/{tournament_id}/round", response_model=None)
def start_round(tournament_id: int, request: Request, store: St, session: Admin,
                csrf: Annotated[str, Form()] = "", lang: LangForm = DEFAULT_LANG) -> Response:
    refused = checked(request, session, csrf, lang)
    if refused is not None:
        return refused
    try:
        store.tournaments.start_round(tournament_id)
    except ClubError as exc:
        return refuse(request, lang, exc.text(lang), href("/admin", lang))
    return RedirectResponse(href("/tournament", lang, done="round"), 303)


@router.post("/admin/tournament/pairings/{pairing_id}/settle", response_model=None)
def settle(pairing_id: int, request: Request, store: St, session: Admin,
           points: Annotated[str, Form()] = "", why: Annotated[str, Form()] = "",
           csrf: Annotated[str, Form()] = "", lang: LangForm = DEFAULT_LANG) -> Response:
    refused = checked(request, session, csrf, lang)
    if refused is not None:
        return refused
    back = href("/tournament", lang)
    try:
        first, second = (float(v) for v in points.split("-"))
        store.tournaments.settle(pairing_id, first, second, why)
    except ValueError as exc:
        if isinstance(exc, ClubError):
            return refuse(request, lang, exc.text(lang), back)
        return refuse(request, lang, ClubError("settle-points").text(lang), back)
    return RedirectResponse(href("/tournament", lang, done="settled"), 303)
