"""The organiser's club pages in real headless Chromium (a phone's viewport): log in with the
admin PIN, open an evening, register players, correct a table's result (the original stays on
the page), hide the standings from players, and a refusal said in Russian with nothing changed.
Plain forms: each POST needs the session and its CSRF token."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import uvicorn

from club.protocol import GameHeader, LogMessage
from club.store import Store, sqlite_url
from club.web import create_club_app
from engine.playout import play_out
from engine.registry import game_class
from table_ui.security import hash_pin
from table_ui.testing import free_port

playwright = pytest.importorskip("playwright.sync_api")
PIN = "246810"
PHONE = {"width": 390, "height": 844}


def publish(store: Store, table: str, names: list[str], seed: int) -> list[int]:
    game = play_out(game_class("durak2")({}), random.Random(seed))
    out = game.outcome
    head = GameHeader(id=1, name="durak2", names=names, started=time.time(), status="finished",
                      ended=time.time(), outcome={"finished": True, "winner": out.winner,
                                                  "totals": list(out.totals)})
    events = [str(e) for e in game.raw_log]
    store.ingest_many([("spb", table, LogMessage(log=f"log-{table}-0001", seq=i, prev=i - 1,
                                                 game=head, t=float(i), kind="event",
                                                 body={"event": e}))
                       for i, e in enumerate(events, 1)])
    return list(out.totals)


@pytest.fixture
def club(tmp_path: Path) -> Iterator[tuple[Store, str]]:
    store = Store(sqlite_url(tmp_path / "club.sqlite"))
    store.organiser.set_pin_hash(hash_pin(PIN))
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_club_app(store, "spb"), host="127.0.0.1",
                                           port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 15
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.02)
    yield store, f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(10)
    store.close()


def log_in(page, url: str, pin: str = PIN) -> None:
    page.goto(url + "/admin")
    page.fill("input[name=pin]", pin)
    page.click("text=Войти")


def test_an_evening_from_the_organisers_phone(club, browser, tmp_path: Path) -> None:
    store, url = club
    page = browser.new_page(viewport=PHONE)
    log_in(page, url)
    page.fill("input[name=title]", "Пятница")
    page.click("text=Открыть вечер")
    assert "Вечер открыт" in page.inner_text("body")
    for name in ("Аня", "Боря"):
        page.fill("form[action='/admin/players'] input[name=name]", name)
        page.click("text=Добавить игрока")
        assert "Игрок добавлен" in page.inner_text("body")
    totals = publish(store, "t1", ["Аня", "Боря"], seed=3)
    (gid,) = [g.id for g in store.games()]

    page.goto(f"{url}/games/{gid}")
    assert "предварительный" in page.inner_text("body")
    page.select_option("select[name=kind]", "correct")
    page.fill("input[name=t0]", "5")
    page.fill("input[name=t1]", "2")
    page.select_option("select[name=winner]", "1")
    page.locator("form:has(select[name=kind]) input[name=why]").fill("ошибка в протоколе")
    page.locator("form:has(select[name=kind]) button").click()
    body = page.inner_text("body")
    assert "Счёт исправлен" in body and "5 : 2" in body
    assert f"Счёт стола по правилам: {totals[0]} : {totals[1]}" in body  # the original stays
    assert "ошибка в протоколе" in body and "организатор" in body
    page.screenshot(path=str(tmp_path / "game-phone.png"), full_page=True)

    page.goto(url + "/standings")
    rows = page.locator("table tbody tr")
    assert rows.nth(0).inner_text().split("\t")[1:3] == ["Аня", "1"]

    # hidden from players, not from the organiser
    page.goto(url + "/admin")
    page.click("text=Скрыть таблицу")
    public = browser.new_page(viewport=PHONE)
    public.goto(url + "/standings")
    assert "скрыл таблицу" in public.inner_text("body")
    assert "Аня" not in public.inner_text("body")  # nothing of the table below the notice
    public.goto(url + f"/standings?period=month&month={time.strftime('%Y-%m')}")
    assert "Аня" not in public.inner_text("body")  # nor in a month that takes it in
    assert httpx.get(url + "/standings.json").status_code == 403
    page.goto(url + "/standings")
    assert "Аня" in page.inner_text("table")

    page.goto(url + "/admin")
    page.click("text=Закрыть вечер")
    assert "Вечер закрыт" in page.inner_text("body")
    page.goto(url + "/ratings")
    assert "Аня" in page.inner_text("body")  # final now, both registered: rated

    # the evening's result sheet, on paper: no navigation, the correction and its reason kept
    page.goto(url + "/admin")
    page.click("text=Протокол вечера")
    page.emulate_media(media="print")
    assert not page.locator("nav").is_visible()
    sheet = page.inner_text("body")
    assert "Протокол вечера: Пятница" in sheet and "окончательный" in sheet
    assert "Исправить счёт: ошибка в протоколе" in sheet
    pdf = page.pdf(format="A4")
    assert pdf.startswith(b"%PDF") and len(pdf) > 5000


def test_a_refusal_is_said_in_russian_and_changes_nothing(club, browser) -> None:
    store, url = club
    store.organiser.open_evening("Вторник")
    store.organiser.add_player("Аня")
    page = browser.new_page(viewport=PHONE)
    log_in(page, url)
    page.fill("form[action='/admin/players'] input[name=name]", "аня")
    page.click("text=Добавить игрока")
    assert "«аня» уже есть в списке игроков" in page.inner_text("body")
    assert [p.name for p in store.organiser.players()] == ["Аня"]
    page.goto(url + "/admin")
    assert page.locator("text=Открыть вечер").count() == 0  # one evening at a time
    assert "Вторник" in page.inner_text("body")


def test_a_wrong_pin_or_a_form_without_its_token_changes_nothing(club, browser) -> None:
    store, url = club
    page = browser.new_page(viewport=PHONE)
    log_in(page, url, "000000")
    assert "Неверный PIN-код" in page.inner_text("body")
    assert httpx.post(url + "/admin/evening", data={"action": "open"}).status_code == 401
    log_in(page, url)
    cookies = {c["name"]: c["value"] for c in page.context.cookies()}
    forged = httpx.post(url + "/admin/evening", data={"action": "open", "csrf": "nope"},
                        cookies=cookies)
    assert forged.status_code == 403 and "Форма устарела" in forged.text
    assert store.organiser.open_evening_row() is None


def test_a_tournament_from_the_organisers_phone(club, browser, tmp_path: Path) -> None:
    """Create a Swiss tournament from the form (4 players, 2 tables), start round 1: the page
    shows the pairings; a round cannot be started again before its games are played; once the
    tables' games arrive their results and the standings show."""
    from club.protocol import Status

    store, url = club
    store.organiser.open_evening("Четверг")
    for name in ("Аня", "Боря", "Вера", "Глеб"):
        store.organiser.add_player(name)
    for table in ("t1", "t2"):
        store.status("spb", table, Status(state="online"))
    page = browser.new_page(viewport=PHONE)
    log_in(page, url)
    page.select_option("select[name=game]", "durak2")
    page.fill("input[name=rounds]", "2")
    page.click("text=Создать турнир")
    assert "Турнир создан" in page.inner_text("body")
    page.click("text=Начать тур 1 на столах")
    body = page.inner_text("body")
    assert "Тур 1" in body and "ждёт отправки" in body
    page.goto(url + "/admin")
    assert page.locator("text=Начать тур 2 на столах").count() == 0  # round 1 is on
    tour = store.tournaments.current()
    assert tour is not None
    for p in store.tournaments.view(tour.id).pairings:  # the server sent them; the tables play
        store.tournaments.mark(p.id, sent=True)
        publish(store, p.table or "", p.names, seed=p.id)
    page.goto(url + "/tournament")
    body = page.inner_text("body")
    assert body.count("1 – 0") + body.count("0 – 1") + body.count("½ – ½") == 2
    assert "Бухгольц" in body
    page.screenshot(path=str(tmp_path / "tournament-phone.png"), full_page=True)
    page.goto(url + "/admin")
    assert page.locator("text=Начать тур 2 на столах").count() == 1


def test_bad_input_on_the_pages_is_a_page_in_russian_not_an_error(club) -> None:
    """Values no form sends (other digits, huge ids, a token that is not ASCII, bad periods):
    a short answer in Russian, never a server error, nothing changed."""
    store, url = club
    store.organiser.open_evening()
    gid = None
    publish(store, "t1", ["Аня", "Боря"], seed=1)
    (gid,) = [g.id for g in store.games()]
    with httpx.Client(base_url=url) as c:
        c.post("/admin/login", data={"pin": PIN})
        page_html = c.get(f"/games/{gid}").text
        csrf = page_html.split('name="csrf" value="')[1].split('"')[0]
        before = store.changes
        for path, data in [
            (f"/admin/games/{gid}/result", {"kind": "confirm", "side": "²", "csrf": csrf}),
            (f"/admin/games/{gid}/seat", {"seat": "²", "guest": "x", "csrf": csrf}),
            (f"/admin/games/{gid}/result", {"kind": "correct", "t0": "1e9", "t1": "2",
                                            "why": "x", "csrf": csrf}),
            ("/admin/evening", {"action": "open", "csrf": "ё"}),
            ("/admin/players/99999999999999999999", {"name": "x", "csrf": csrf}),
            ("/admin/tournament", {"game": "durak2", "rounds": "²", "entrants": "Аня",
                                   "csrf": csrf}),
        ]:
            r = c.post(path, data=data)
            assert r.status_code < 500, (path, r.status_code, r.text[:200])
            assert "Traceback" not in r.text
        assert store.changes == before
        for path in ["/games/99999999999999999999", "/tournament?id=99999999999999999999",
                     "/standings?period=season&season=100000000000000000000",
                     "/standings?period=month&month=100000000000000000000-01",
                     "/standings?period=season&season=abc", "/nope"]:
            r = c.get(path)
            assert 400 <= r.status_code < 500, (path, r.status_code)
            assert "запрос" in r.text or "нет" in r.text.lower() or "Месяц" in r.text \
                or "Сезон" in r.text, (path, r.text[:300])
