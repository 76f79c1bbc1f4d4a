"""The club app's dependencies: the store, the page language and the organiser's session.

The organiser logs in with the club's admin PIN (its scrypt hash is kept in the club database,
``cardtable club admin-pin`` sets it; the table's own ``table_ui.security`` does the hashing,
the login rate limit and the sessions). The session cookie is HttpOnly and SameSite=Strict, and
every admin form carries the session's CSRF token.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Query, Request

from club.store import Store
from table_ui.security import Session

ADMIN_COOKIE = "ct_club_admin"


def get_store(request: Request) -> Store:
    return request.app.state.store


def admin_session(request: Request) -> Session | None:
    """The organiser's session of this request's cookie, or None."""
    return request.app.state.sessions.get(request.cookies.get(ADMIN_COOKIE))


St = Annotated[Store, Depends(get_store)]
Lang = Annotated[str, Query(pattern="^(ru|en)$")]
Admin = Annotated[Session | None, Depends(admin_session)]
