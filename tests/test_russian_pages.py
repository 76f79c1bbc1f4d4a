"""A Russian player or organiser reads Russian: the three bundled games played through the table
display (every third state of the whole game, in real Chromium) show no English word and no raw
card code, and neither does the admin page at the end (its log file's path and a config file's
section name aside: those are typed as they are).

The games are the bundles' own events (controller/data/*/game.json) entered as the organiser's
events, so every deal, bid, declaration, illegal play and score of those games is on the screen
at some point; the history page's score sheet of the finished game (every item, note and the
result, worded from their keys: table_ui/sheet_texts.py) is read at the end."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest

from controller.inputs import Admin
from table_ui.testing import CHROMIUM, LiveServer

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason=f"{CHROMIUM} is absent (apt-get install chromium)")

DATA = Path(__file__).resolve().parents[1] / "controller" / "data"
PIN = "2468"
ENGLISH = re.compile(r"[A-Za-z]{3,}")  # an English word (Russian card indices are Т К Д В 10)
CARD_CODE = re.compile(r"\b(?:[6-9TJQKA][CDHS]|BJ|RJ)\b")  # the engine's codes, never shown
CONFIG_KEY = re.compile(r"\[[a-z_.]+\]")  # «[cameras.table] в конфигурации»: what is typed there
WAIT = 10_000


def _foreign(text: str) -> list[str]:
    return sorted(set(ENGLISH.findall(text)) | set(CARD_CODE.findall(text)))


@pytest.mark.parametrize("bundle", ["belot2", "durak2", "bazar"])
def test_a_whole_bundled_game_reads_in_russian(make_controller, browser, bundle: str) -> None:
    meta = json.loads((DATA / bundle / "game.json").read_text(encoding="utf-8"))
    ctl = make_controller(meta["game"], meta["options"], meta["names"])
    found: dict[str, str] = {}
    with LiveServer(ctl, pin=PIN) as srv:
        page = browser.new_page(bypass_csp=True, viewport={"width": 1920, "height": 1080})
        page.goto(srv.url + "/")
        last = len(meta["events"]) - 1
        for i, event in enumerate(meta["events"]):
            reply = ctl.submit(Admin(action="event", event=event))
            assert not [a for a in reply.alerts if a.level in ("warning", "error")], event
            if i % 3 and i != last:
                continue
            page.wait_for_function(f"Number(document.body.dataset.seq) >= {reply.seq}",
                                   timeout=WAIT)
            for word in _foreign(page.locator("body").inner_text()):
                found.setdefault(word, f"display after event {i + 1} «{event}»")
        assert ctl.game.is_over  # the whole game was on the screen
        page.goto(srv.url + "/admin")
        page.fill("#pin", PIN)
        page.click("#login")
        page.wait_for_selector("#panel:not(.hidden)", timeout=WAIT)
        page.wait_for_function("document.getElementById('now').textContent.length > 1",
                               timeout=WAIT)
        text = CONFIG_KEY.sub("", page.locator("body").inner_text().replace(str(ctl.log.path), ""))
        for word in _foreign(text):
            found.setdefault(word, "admin page")
        page.goto(srv.url + "/history")  # the game's score sheet: every item, note and the result
        page.click(f"[data-open='{ctl.game_id}']")
        page.wait_for_function("document.getElementById('notes').textContent.length > 1",
                               timeout=WAIT)
        sheet = page.locator("#detail").inner_text()
        assert str(ctl.game.score_sheet().totals[0]) in sheet
        for word in _foreign(page.locator("body").inner_text()):
            found.setdefault(word, "history page")
        page.close()
    assert found == {}
