"""The club's pages in real headless Chromium (Debian's, through Playwright): the room in
Russian and live, a game's score sheet as the engine folds it, tonight's results, a player's
games, the exports; English with ?lang=en; every value escaped."""

from __future__ import annotations

import csv
import io
import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from club.i18n import TEXTS
from club.protocol import GameHeader, LogMessage, Status
from club.store import Store, sqlite_url
from club.web import create_club_app
from engine.playout import play_out
from engine.registry import game_class
from table_ui.testing import free_port

playwright = pytest.importorskip("playwright.sync_api")


def publish(store: Store, table: str, log: str, game_id: int, name: str, names: list[str],
            events: list[str], status: str = "active", outcome: dict | None = None,
            first: int = 1) -> None:
    head = GameHeader(id=game_id, name=name, names=names, started=time.time(), status=status,
                      outcome=outcome)
    for i, e in enumerate(events, start=first):
        store.ingest("spb", table, LogMessage(log=log, seq=i, prev=i - 1, game=head, t=float(i),
                                              kind="event", body={"event": e}))


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[Store, str, dict]]:
    store = Store(sqlite_url(tmp_path / "club.sqlite"))
    done = play_out(game_class("durak2")({}), random.Random(7))
    events = [str(e) for e in done.raw_log]
    out = done.outcome
    result = {"finished": True, "winner": out.winner, "totals": list(out.totals)}
    publish(store, "t1", "log-aaaa-1", 1, "durak2", ["Аня", "Боря <b>"], events, "finished",
            result)
    publish(store, "t2", "log-bbbb-2", 1, "belot2", ["Вера", "Глеб"], ["shoe 7C"])
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_club_app(store, "spb"), host="127.0.0.1",
                                           port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield store, f"http://127.0.0.1:{port}", {"events": events, **result}
    server.should_exit = True
    thread.join(10)
    store.close()


def test_the_room_in_russian_is_live(club, browser):
    store, url, game = club
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(url + "/")
    page.wait_for_selector("#live:not(.lost)")
    rows = page.locator("#rows tr")
    assert rows.count() == 2
    first = rows.nth(0).inner_text()
    assert "Дурак вдвоём" in first and "Аня" in first and "по правилам" in first
    assert " : ".join(map(str, game["totals"])) in first
    assert "Боря <b>" in first  # escaped: shown as text, not markup
    second = rows.nth(1).inner_text()
    assert "Белот вдвоём" in second and "раздача из шуза" in second
    # a new entry at table 2 reaches the open page without a reload
    publish(store, "t2", "log-bbbb-2", 1, "belot2", ["Вера", "Глеб"], ["shoe 8C"], first=2)
    store.status("spb", "t1", Status(state="offline"))
    page.wait_for_function("document.querySelector('#rows').innerText.includes('нет связи')",
                           timeout=10_000)
    assert "нет связи" in rows.nth(0).inner_text()


def test_a_games_page_shows_the_engines_score_sheet(club, browser):
    _store, url, game = club
    page = browser.new_page(viewport={"width": 390, "height": 844})
    page.goto(url + "/games/1")
    text = page.inner_text("body")
    assert "Протокол" in text and "Итого" in text and "по правилам" in text
    totals = page.locator("table tr").last.inner_text().split()
    assert totals[-2:] == [str(v) for v in game["totals"]]
    assert game["events"][0] in page.inner_text("pre")


def test_results_players_and_exports(club, browser):
    _store, url, game = club
    page = browser.new_page()
    page.goto(url + "/results")
    body = page.inner_text("body")
    assert "Результаты вечера" in body and "Дурак вдвоём" in body
    winner = ["Аня", "Боря <b>"][game["winner"]]
    assert winner in body
    page.goto(url + "/players/" + "Вера")
    assert "Белот вдвоём" in page.inner_text("body")
    assert "Дурак" not in page.inner_text("table")
    rows = list(csv.reader(io.StringIO(httpx.get(url + "/export.csv").text)))
    assert rows[0][:3] == ["id", "table", "game"]
    assert {r[1] for r in rows[1:]} == {"t1", "t2"}
    data = httpx.get(url + "/export.json").json()
    (durak,) = [g for g in data if g["game"] == "durak2"]
    # played outside any evening: by the rules, but counted in no standings
    assert (durak["totals"], durak["check"], durak["state"], durak["counted"]) == (
        game["totals"], "ok", "casual", False)


def test_english_with_lang_en(club, browser):
    _store, url, _game = club
    page = browser.new_page()
    page.goto(url + "/?lang=en")
    page.wait_for_selector("#live:not(.lost)")
    text = page.inner_text("body")
    assert "Room" in text and "Two-player Durak" in text and "Зал" not in text


def test_every_language_has_every_text() -> None:
    keys = [set(t) for t in TEXTS.values()]
    assert all(k == keys[0] for k in keys)
    assert all(v.strip() for t in TEXTS.values() for v in t.values())
