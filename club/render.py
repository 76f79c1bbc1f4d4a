"""What every club page shares: escaping, links that keep the language, the page frame.

Pages are rendered on the server and every value goes through :func:`esc`; the admin's forms
carry the session's CSRF token (:func:`csrf_field`).
"""

from __future__ import annotations

import html
import time
from typing import Any

from club.i18n import DEFAULT_LANG, texts
from club.organiser import Result, ResultState


def esc(value: Any) -> str:
    return html.escape(str(value), quote=True)


def href(path: str, lang: str, **extra: str) -> str:
    params = {**({"lang": lang} if lang != DEFAULT_LANG else {}), **extra}
    return path + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")


def page(title: str, body: str, lang: str, club: str, *, admin: bool = False) -> str:
    t = texts(lang)
    head = f"{t['club']} {club}".strip()
    links = [("/", t["room"]), ("/results", t["results"]), ("/standings", t["standings"]),
             ("/tournament", t["tournament"]), ("/ratings", t["ratings"]),
             ("/players", t["register"]),
             ("/admin", t["admin_on"] if admin else t["admin"])]
    nav = "<nav>" + "".join(f'<a href="{esc(href(p, lang))}">{esc(w)}</a>'
                            for p, w in links) + "</nav>"
    return (f'<!doctype html><html lang="{esc(lang)}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{esc(head)} — {esc(title)}</title>"
            '<link rel="stylesheet" href="/static/club.css"></head><body><div class="wrap">'
            f'{nav}<p class="muted">{esc(head)}</p><h1>{esc(title)}</h1>{body}</div></body></html>')


def half_points(score: float) -> str:
    """A score in whole and half points: 2, 1½, ½."""
    whole = int(score)
    if score - whole:
        return f"{whole}½" if whole else "½"
    return str(whole)


def player_link(name: str, lang: str) -> str:
    """A player's name, linked to their page."""
    from urllib.parse import quote

    return f'<a href="{esc(href("/players/" + quote(name, safe=""), lang))}">{esc(name)}</a>'


def csrf_field(token: str) -> str:
    return f'<input type="hidden" name="csrf" value="{esc(token)}">'


def notice(text: str | None, bad: bool = False) -> str:
    if not text:
        return ""
    return f'<p class="{"flag" if bad else "ok"} notice" role="status">{esc(text)}</p>'


def score(totals: list[int]) -> str:
    return " : ".join(str(v) for v in totals)


def state_html(r: Result, t: dict[str, str]) -> str:
    bad = r.state in (ResultState.DISPUTED, ResultState.VOID, ResultState.NOT_COUNTED)
    return (f'<span class="{"flag" if bad else "state"}">{esc(t["state_" + r.state.value])}'
            "</span>")


def results_table(results: list[Result], lang: str) -> str:
    """Games as a table (newest first as given): time, table, game, players, score, winner,
    state."""
    t = texts(lang)
    rows = "".join(_result_row(r, lang) for r in results) or \
        f'<tr><td colspan="7" class="muted">{esc(t["no_results"])}</td></tr>'
    return (f"<section class='box'><table><thead><tr><th>{esc(t['started'])}</th>"
            f"<th>{esc(t['table'])}</th><th>{esc(t['game'])}</th><th>{esc(t['players'])}</th>"
            f"<th class='num'>{esc(t['score'])}</th><th>{esc(t['winner'])}</th>"
            f"<th class='hide-narrow'>{esc(t['state'])}</th></tr></thead><tbody>{rows}"
            "</tbody></table></section>")


def _result_row(r: Result, lang: str) -> str:
    t = texts(lang)
    when = time.strftime("%H:%M", time.localtime(r.started))
    if r.finished and r.winner is not None:
        winner = r.side_name(r.winner)
    elif r.finished:
        winner = t["draw"]
    else:
        winner = ""
    return (f"<tr><td>{esc(when)}</td><td>{esc(r.table)}</td>"
            f'<td><a href="{href(f"/games/{r.game_id}", lang)}">{esc(t.get(r.game, r.game))}'
            f"</a></td><td>{esc(', '.join(s.name for s in r.seats))}</td>"
            f"<td class='num'>{esc(score(r.totals))}</td><td>{esc(winner)}</td>"
            f"<td class='hide-narrow'>{state_html(r, t)}</td></tr>")
