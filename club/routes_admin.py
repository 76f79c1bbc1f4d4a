"""The organiser's pages behind the club's admin PIN: the evening (open, close, hide the
standings), results that need a decision, the players' register, and each game's result
(correct, award a score, void, reinstate, confirm or dispute for a side, change a seat's
player). Plain HTML forms (no script): each POST carries the session's CSRF token and answers
with a redirect, or with the page again saying in words why nothing was changed.

    GET  /admin                    login, or the organiser's page
    POST /admin/login | /admin/logout
    POST /admin/evening            action=open|close|hide|show [title]
    POST /admin/players            add: name [nickname]
    POST /admin/players/{id}       name, nickname, active
    POST /admin/games/{id}/result  kind, side, t0..tN, winner, why
    POST /admin/games/{id}/seat    seat, player | guest, why
"""

from __future__ import annotations

import time
from typing import Annotated

from fastapi import APIRouter, Form, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from club.deps import ADMIN_COOKIE, Admin, Lang, LangForm, St, checked, club_of, refuse
from club.i18n import DEFAULT_LANG, texts
from club.organiser import ORGANISER, ClubError, Kind, Result, ResultState
from club.render import csrf_field, esc, href, notice, page
from club.routes_tournament import admin_section
from table_ui.security import Session, verify_pin

router = APIRouter()


@router.get("/admin", response_class=HTMLResponse)
def admin_page(request: Request, store: St, session: Admin, lang: Lang = DEFAULT_LANG,
               done: str = "") -> HTMLResponse:
    t = texts(lang)
    if session is None:
        form = (f'<form method="post" action="/admin/login" class="box">'
                f'<input type="hidden" name="lang" value="{esc(lang)}">'
                f'<label>{esc(t["pin"])} <input name="pin" type="password" inputmode="numeric" '
                f'autocomplete="current-password" required maxlength="32"></label> '
                f'<button>{esc(t["log_in"])}</button></form>')
        return HTMLResponse(page(t["admin"], form, lang, club_of(request)))
    org = store.organiser
    csrf = csrf_field(session.csrf) + f'<input type="hidden" name="lang" value="{esc(lang)}">'
    evening = org.open_evening_row()
    if evening is None:
        ev = (f'<form method="post" action="/admin/evening">{csrf}'
              f'<input type="hidden" name="action" value="open">'
              f'<label>{esc(t["evening_title"])} <input name="title" maxlength="120" '
              f'placeholder="{esc(time.strftime("%Y-%m-%d"))}"></label> '
              f'<button>{esc(t["open_evening"])}</button></form>')
    else:
        hide = "show" if evening.hide_standings else "hide"
        ev = (f'<p><b>{esc(evening.title)}</b> · {esc(t["opened_at"])} '
              f'{esc(time.strftime("%H:%M", time.localtime(evening.opened)))}'
              + (f' · <span class="flag">{esc(t["standings_hidden"])}</span>'
                 if evening.hide_standings else "") + "</p>"
              f'<form method="post" action="/admin/evening" class="inline">{csrf}'
              f'<input type="hidden" name="action" value="close">'
              f'<button>{esc(t["close_evening"])}</button></form> '
              f'<form method="post" action="/admin/evening" class="inline">{csrf}'
              f'<input type="hidden" name="action" value="{hide}">'
              f'<button>{esc(t[hide + "_standings"])}</button></form>')
    past = "".join(
        f'<li><a href="{esc(href("/standings", lang, evening=str(e.id)))}">{esc(e.title)}</a> '
        f'<span class="muted">{esc(_day(e.opened))}</span> · '
        f'<a href="{esc(href(f"/evenings/{e.id}/sheet", lang))}">{esc(t["sheet_title"])}</a>'
        "</li>"
        for e in [e for e in org.evenings() if e.closed is not None][:30])
    attention = [r for r in org.results(since=evening.opened if evening else time.time() - 86400)
                 if r.state in (ResultState.DISPUTED, ResultState.NOT_COUNTED)]
    todo = "".join(
        f'<li><a href="{esc(href(f"/games/{r.game_id}", lang))}">{esc(r.table)}: '
        f'{esc(t.get(r.game, r.game))} — {esc(", ".join(s.name for s in r.seats))}</a> · '
        f'{esc(t["state_" + r.state.value])}</li>' for r in attention)
    players = "".join(_player_row(p.id, p.name, p.nickname or "", p.active, csrf, t)
                      for p in org.players())
    body = (notice(t.get("done_" + done)) +
            f'<section class="box"><h2>{esc(t["evening"])}</h2>{ev}'
            + (f'<h3>{esc(t["past_evenings"])}</h3><ul>{past}</ul>' if past else "")
            + "</section>" + admin_section(store, session, lang) +
            f'<section class="box"><h2>{esc(t["attention"])}</h2>'
            + (f"<ul>{todo}</ul>" if todo else f'<p class="muted">{esc(t["nothing_to_do"])}</p>')
            + "</section>"
            f'<section class="box"><h2>{esc(t["register"])}</h2>'
            f'<form method="post" action="/admin/players">{csrf}'
            f'<label>{esc(t["name"])} <input name="name" required maxlength="80"></label> '
            f'<label>{esc(t["nickname"])} <input name="nickname" maxlength="80"></label> '
            f'<button>{esc(t["add_player"])}</button></form>'
            f'<table><tbody>{players}</tbody></table></section>'
            f'<form method="post" action="/admin/logout">{csrf}'
            f'<button>{esc(t["log_out"])}</button></form>')
    return HTMLResponse(page(t["admin"], body, lang, club_of(request), admin=True))


def _player_row(pid: int, name: str, nick: str, active: bool, csrf: str, t: dict[str, str]
                ) -> str:
    return (f'<tr{"" if active else " class=muted"}><td><form method="post" '
            f'action="/admin/players/{pid}" class="inline">{csrf}'
            f'<input name="name" value="{esc(name)}" required maxlength="80" '
            f'aria-label="{esc(t["name"])}"> '
            f'<input name="nickname" value="{esc(nick)}" maxlength="80" '
            f'aria-label="{esc(t["nickname"])}"> '
            f'<label><input type="checkbox" name="active" value="1"'
            f'{" checked" if active else ""}> {esc(t["active_player"])}</label> '
            f'<button>{esc(t["save"])}</button></form></td></tr>')


def _day(when: float) -> str:
    return time.strftime("%Y-%m-%d", time.localtime(when))


@router.post("/admin/login", response_model=None)
def login(request: Request, store: St, pin: Annotated[str, Form(max_length=32)] = "",
          lang: LangForm = DEFAULT_LANG) -> Response:
    t = texts(lang)
    limiter = request.app.state.limiter
    key = request.client.host if request.client else "?"
    if not limiter.attempt(key):  # counted before the (slow) check: tries at once cannot race
        return refuse(request, lang, t["too_many_pins"], href("/admin", lang), 429)
    stored = store.organiser.pin_hash()
    if stored is None or not verify_pin(pin, stored):
        return refuse(request, lang, t["bad_pin"], href("/admin", lang), 401)
    limiter.reset(key)
    session = request.app.state.sessions.create()
    response = RedirectResponse(href("/admin", lang), 303)
    response.set_cookie(ADMIN_COOKIE, session.token, max_age=int(request.app.state.sessions.ttl),
                        httponly=True, samesite="strict", path="/")
    return response


@router.post("/admin/logout", response_model=None)
def logout(request: Request, session: Admin, csrf: Annotated[str, Form()] = "",
           lang: LangForm = DEFAULT_LANG) -> Response:
    refused = checked(request, session, csrf, lang)
    if refused is not None:
        return refused
    assert session is not None
    request.app.state.sessions.drop(session.token)
    response = RedirectResponse(href("/", lang), 303)
    response.delete_cookie(ADMIN_COOKIE, path="/")
    return response


@router.post("/admin/evening", response_model=None)
def evening(request: Request, store: St, session: Admin, action: Annotated[str, Form()],
            csrf: Annotated[str, Form()] = "", title: Annotated[str, Form()] = "",
            lang: LangForm = DEFAULT_LANG) -> Response:
    refused = checked(request, session, csrf, lang)
    if refused is not None:
        return refused
    org = store.organiser
    try:
        if action == "open":
            org.open_evening(title)
        elif action == "close":
            org.close_evening()
        elif action in ("hide", "show"):
            org.hide_standings(action == "hide")
        else:
            return refuse(request, lang, texts(lang)["stale_form"], href("/admin", lang))
    except ClubError as exc:
        return refuse(request, lang, exc.text(lang), href("/admin", lang))
    return RedirectResponse(href("/admin", lang, done="evening_" + action), 303)


@router.post("/admin/players", response_model=None)
def add_player(request: Request, store: St, session: Admin, name: Annotated[str, Form()] = "",
               nickname: Annotated[str, Form()] = "", csrf: Annotated[str, Form()] = "",
               lang: LangForm = DEFAULT_LANG) -> Response:
    refused = checked(request, session, csrf, lang)
    if refused is not None:
        return refused
    try:
        store.organiser.add_player(name, nickname or None)
    except ClubError as exc:
        return refuse(request, lang, exc.text(lang), href("/admin", lang))
    return RedirectResponse(href("/admin", lang, done="player_added"), 303)


@router.post("/admin/players/{player_id}", response_model=None)
def edit_player(player_id: int, request: Request, store: St, session: Admin,
                name: Annotated[str, Form()] = "", nickname: Annotated[str, Form()] = "",
                active: Annotated[str, Form()] = "", csrf: Annotated[str, Form()] = "",
                lang: LangForm = DEFAULT_LANG) -> Response:
    refused = checked(request, session, csrf, lang)
    if refused is not None:
        return refused
    try:
        store.organiser.update_player(player_id, name=name, nickname=nickname,
                                      active=active == "1")
    except ClubError as exc:
        return refuse(request, lang, exc.text(lang), href("/admin", lang))
    return RedirectResponse(href("/admin", lang, done="player_saved"), 303)


@router.post("/admin/games/{game_id}/result", response_model=None)
async def game_result(game_id: int, request: Request, store: St, session: Admin,
                      kind: Annotated[str, Form()], csrf: Annotated[str, Form()] = "",
                      side: Annotated[str, Form()] = "", winner: Annotated[str, Form()] = "",
                      why: Annotated[str, Form()] = "", lang: LangForm = DEFAULT_LANG
                      ) -> Response:
    refused = checked(request, session, csrf, lang)
    if refused is not None:
        return refused
    back = href(f"/games/{game_id}", lang)
    form = await request.form()
    totals: list[int] | None = None
    if kind in (Kind.CORRECT, Kind.ADJUST):
        try:
            totals = [int(str(form[f"t{k}"]).strip()) for k in range(8) if f"t{k}" in form]
        except ValueError:
            return refuse(request, lang, texts(lang)["bad_number"], back)
    try:
        store.organiser.record(game_id, kind, by=ORGANISER, why=why,
                               side=_index(side), totals=totals, winner=_index(winner))
    except ClubError as exc:
        return refuse(request, lang, exc.text(lang), back)
    return RedirectResponse(href(f"/games/{game_id}", lang, done="result_" + kind), 303)


@router.post("/admin/games/{game_id}/seat", response_model=None)
def game_seat(game_id: int, request: Request, store: St, session: Admin,
              seat: Annotated[str, Form()] = "", player: Annotated[str, Form()] = "",
              guest: Annotated[str, Form()] = "", why: Annotated[str, Form()] = "",
              csrf: Annotated[str, Form()] = "", lang: LangForm = DEFAULT_LANG) -> Response:
    refused = checked(request, session, csrf, lang)
    if refused is not None:
        return refused
    back = href(f"/games/{game_id}", lang)
    seat_no = _index(seat)
    try:
        if seat_no is None:
            raise ClubError("seat-range", game=game_id, seats="?", seat=seat or "?")
        store.organiser.seat(game_id, seat_no, player_id=_index(player, 0),
                             guest=guest or None, by=ORGANISER, why=why)
    except ClubError as exc:
        return refuse(request, lang, exc.text(lang), back)
    return RedirectResponse(href(f"/games/{game_id}", lang, done="seat"), 303)


def _index(text: str, base: int = 1) -> int | None:
    """A form's number (sides and seats are shown from 1; player ids as they are)."""
    text = (text or "").strip()
    if not (text.isascii() and text.isdigit()) or len(text) > 9:
        return None
    return int(text) - base


def result_forms(r: Result, session: Session, lang: str, players: list[tuple[int, str]]) -> str:
    """The organiser's forms on a game's page."""
    t = texts(lang)
    csrf = csrf_field(session.csrf) + f'<input type="hidden" name="lang" value="{esc(lang)}">'
    action = f"/admin/games/{r.game_id}/result"
    n = r.n_sides
    sides = "".join(f'<option value="{k + 1}">{esc(r.side_name(k))}</option>' for k in range(n))
    winners = "".join(f'<option value="{k + 1}"{" selected" if k == r.winner else ""}>'
                      f"{esc(r.side_name(k))}</option>" for k in range(n))
    totals = "".join(
        f'<label>{esc(r.side_name(k))} <input name="t{k}" inputmode="numeric" size="5" '
        f'required pattern="-?[0-9]+" value="{esc(r.totals[k]) if k < len(r.totals) else ""}">'
        f"</label> " for k in range(n))
    kinds = "".join(f'<option value="{k}">{esc(t["kind_" + k])}</option>'
                    for k in (Kind.CORRECT, Kind.ADJUST))
    void = Kind.REINSTATE if r.state == ResultState.VOID else Kind.VOID
    who = "".join(f'<option value="{pid}">{esc(name)}</option>' for pid, name in players)
    seats = "".join(f'<option value="{s.seat + 1}">{esc(t["seat"].format(n=s.seat + 1))}: '
                    f"{esc(s.name)}</option>" for s in r.seats)
    return (
        f'<section class="box"><h2>{esc(t["organiser_decides"])}</h2>'
        f'<form method="post" action="{action}">{csrf}'
        f'<select name="kind" aria-label="{esc(t["what"])}">{kinds}</select> {totals}'
        f'<label>{esc(t["winner"])} <select name="winner"><option value="">{esc(t["draw"])}'
        f'</option>{winners}</select></label> '
        f'<label>{esc(t["why"])} <input name="why" required maxlength="500"></label> '
        f'<button>{esc(t["save"])}</button></form>'
        f'<form method="post" action="{action}">{csrf}'
        f'<input type="hidden" name="kind" value="{void}">'
        f'<label>{esc(t["why"])} <input name="why" maxlength="500"'
        f'{" required" if void == Kind.VOID else ""}></label> '
        f'<button>{esc(t["kind_" + void])}</button></form>'
        f'<form method="post" action="{action}">{csrf}'
        f'<select name="side" aria-label="{esc(t["side_word"])}">{sides}</select> '
        f'<button name="kind" value="confirm">{esc(t["kind_confirm"])}</button> '
        f'<button name="kind" value="dispute">{esc(t["kind_dispute"])}</button> '
        f'<label>{esc(t["why"])} <input name="why" maxlength="500"></label></form>'
        f'<form method="post" action="/admin/games/{r.game_id}/seat">{csrf}'
        f'<select name="seat" aria-label="{esc(t["seat_word"])}">{seats}</select> '
        f'<select name="player" aria-label="{esc(t["player"])}"><option value="">'
        f'{esc(t["guest"])}</option>{who}</select> '
        f'<input name="guest" maxlength="80" placeholder="{esc(t["guest_name"])}"> '
        f'<label>{esc(t["why"])} <input name="why" maxlength="500"></label> '
        f'<button>{esc(t["change_seat"])}</button></form></section>')
