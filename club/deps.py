"""The club app's dependencies: the store, the page language and the organiser's session.

The organiser logs in with the club's admin PIN (its scrypt hash is kept in the club database,
``cardtable club admin-pin`` sets it; the table's own ``table_ui.security`` does the hashing,
the login rate limit and the sessions). The session cookie is HttpOnly and SameSite=Strict, and
every admin form carries the session's CSRF token.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Form, Query, Request
from fastapi.responses import HTMLResponse

from club.i18n import texts
from club.render import esc, href, notice, page
from club.store import Store
from table_ui.security import Session, csrf_ok

ADMIN_COOKIE = "ct_club_admin"


def get_store(request: Request) -> Store:
    return request.app.state.store


def admin_session(request: Request) -> Session | None:
    """The organiser's session of this request's cookie, or None."""
    return request.app.state.sessions.get(request.cookies.get(ADMIN_COOKIE))


St = Annotated[Store, Depends(get_store)]
Lang = Annotated[str, Query(pattern="^(ru|en)$")]
Admin = Annotated[Session | None, Depends(admin_session)]
LangForm = Annotated[str, Form(pattern="^(ru|en)$")]


def club_of(request: Request) -> str:
    return str(request.app.state.club_name)


def refuse(request: Request, lang: str, message: str, back: str, status: int = 400
            ) -> HTMLResponse:
    t = texts(lang)
    body = notice(message, bad=True) + f'<p><a href="{esc(back)}">{esc(t["back_to"])}</a></p>'
    return HTMLResponse(page(t["not_done"], body, lang, club_of(request), admin=True), status)


def checked(request: Request, session: Session | None, csrf: str, lang: str
             ) -> HTMLResponse | None:
    """None when the request may change something; else the page that says why not."""
    t = texts(lang)
    if session is None:
        return refuse(request, lang, t["login_first"], href("/admin", lang), 401)
    if not csrf_ok(session, csrf):
        return refuse(request, lang, t["stale_form"], href("/admin", lang), 403)
    return None
