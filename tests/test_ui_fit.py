"""Nothing overflows at 1920×1080 (the room's TV) or on a 390×844 phone: on the display (the
TV's page), the history and the admin page, text stays in its box (no text wider than its box
unless shortened with an ellipsis, no box out of its container or past the screen's edge, no
sideways scrolling), with long Russian names, four seats and a game in the history. Real
headless Chromium; screenshots go to tests/artifacts/."""

from __future__ import annotations

import os
import random
import shutil
import tempfile
from pathlib import Path

import pytest

from controller.core import Controller
from controller.inputs import Admin
from controller.log import GameLog
from table_ui.testing import (
    CHROMIUM,
    LiveServer,
    at_defence,
    illegal_beat,
    play_until,
)

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is absent")
ARTIFACTS = Path(__file__).with_name("artifacts")
PIN = "2468"
SIZES = {"tv": {"width": 1920, "height": 1080}, "phone": {"width": 390, "height": 844}}
NAMES = ["Александра Константиновна", "Бронислав Святославович", "Виктория Владимировна",
         "Гавриил Вячеславович"]

# every visible element with text of its own: does its text fit its box, and its box the screen?
OVERFLOWS = """() => {
  const bad = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > innerWidth + 1) bad.push(`the page scrolls sideways: ${doc.scrollWidth} > ${innerWidth}`);
  // a word broken across two lines: a run of letters whose pieces sit on different lines
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const host = node.parentElement;
    if (!host || host.closest("svg") || getComputedStyle(host).display === "none") continue;
    for (const m of node.textContent.matchAll(/[A-Za-zА-Яа-яЁё]{3,}/g)) {
      const range = document.createRange();
      range.setStart(node, m.index);
      range.setEnd(node, m.index + m[0].length);
      const tops = new Set(Array.from(range.getClientRects()).filter((q) => q.width > 0).map((q) => Math.round(q.top)));
      if (tops.size > 1) bad.push(`a word broken across lines: «${m[0]}» in ${host.tagName.toLowerCase()}#${host.id}`);
    }
  }
  const scrolls = (el) => { for (let a = el.parentElement; a; a = a.parentElement) { if (["auto", "scroll"].includes(getComputedStyle(a).overflowX)) return true; } return false; };
  for (const el of document.querySelectorAll("body *")) {
    const cs = getComputedStyle(el);
    if (scrolls(el)) continue;  // inside a box that scrolls sideways (a wide table on a phone)
    if (cs.display === "none" || cs.visibility === "hidden" || el.closest("svg")) continue;
    const own = Array.from(el.childNodes).some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const r = el.getBoundingClientRect();
    if (r.width === 0 && r.height === 0) continue;
    const what = `${el.tagName.toLowerCase()}#${el.id}.${el.className} «${el.textContent.trim().slice(0, 40)}»`;
    // text cut short on purpose ends in an ellipsis; any other text wider than its box spills
    const shortened = cs.textOverflow === "ellipsis" && cs.overflowX === "hidden";
    if (cs.display !== "inline" && !shortened && el.scrollWidth > el.clientWidth + 1 && !["auto", "scroll"].includes(cs.overflowX))
      bad.push(`text wider than its box (${el.scrollWidth} > ${el.clientWidth}): ${what}`);
    if (r.right > innerWidth + 1 || r.left < -1) bad.push(`past the screen's edge (${Math.round(r.left)}..${Math.round(r.right)}): ${what}`);
    const parent = el.parentElement;
    if (parent && cs.position !== "absolute" && cs.position !== "fixed" && getComputedStyle(parent).display !== "inline") {
      const pr = parent.getBoundingClientRect();
      if (r.left < pr.left - 1 || r.right > pr.right + 1)
        bad.push(`out of its container (${Math.round(r.left)}..${Math.round(r.right)} in ${Math.round(pr.left)}..${Math.round(pr.right)}): ${what}`);
    }
  }
  return bad;
}"""


@pytest.fixture
def table():
    """A four-seat Joker in play after two deals, with long names and an illegal play up, and a
    finished Durak game in the history; the log where a table keeps it, a short path."""
    folder = Path(tempfile.mkdtemp(prefix="ct-"))
    ctl = Controller(GameLog(folder / "table.sqlite"))
    ctl.new_game("durak2", {"game_type": "super_short", "policy": "penalize"}, NAMES[:2])
    rng = random.Random(11)
    assert play_until(ctl, rng, at_defence)
    foul = ctl.submit(Admin(action="event", event=illegal_beat(ctl)))  # it stands: penalised
    assert foul.alerts and foul.alerts[0].level == "illegal"
    assert play_until(ctl, rng, lambda c: c.game.is_over, limit=500)
    ctl.new_game("joker", {"minus_joker": True}, NAMES)
    rng = random.Random(3)
    assert play_until(ctl, rng, lambda c: len(c.game.score_sheet().deals) >= 2
                      and len(c.game.legal_actions()) > 0 and not c.game.expects_shoe
                      and any(a.kind == "play" for a in c.game.legal_actions()), limit=5000)
    seat = ctl.game.to_act()
    legal = {a.cards[0].code for a in ctl.game.legal_actions() if a.kind == "play"}
    wrong = [c.code for c in ctl.game.hand(seat) if c.code not in legal]
    if wrong:
        ctl.submit(Admin(action="event", event=f"{seat} play {wrong[0]}"))
    yield ctl
    ctl.log.close()
    shutil.rmtree(folder, ignore_errors=True)


@pytest.mark.parametrize("size", SIZES)
def test_no_text_overflows_its_box(table, browser, size):
    with LiveServer(table, pin=PIN) as srv:
        page = browser.new_page(bypass_csp=True, viewport=SIZES[size], is_mobile=size == "phone",
                                has_touch=size == "phone")
        found: dict[str, list[str]] = {}
        page.goto(srv.url + "/")  # the room's TV, or a phone's one column
        page.wait_for_function(f"Number(document.body.dataset.seq) >= {table.seq}",
                               timeout=10_000)
        found["display"] = page.evaluate(OVERFLOWS)
        page.screenshot(path=str(ARTIFACTS / f"fit-display-{size}.png"), full_page=True)
        page.goto(srv.url + "/history")
        page.wait_for_selector("#games tr >> nth=1", timeout=10_000)
        page.locator("#games a >> nth=0").click()
        page.wait_for_selector("#detail:not(.hidden)", timeout=10_000)
        found["history"] = page.evaluate(OVERFLOWS)
        page.screenshot(path=str(ARTIFACTS / f"fit-history-{size}.png"), full_page=True)
        page.goto(srv.url + "/admin")
        page.fill("#pin", PIN)
        page.click("#login")
        page.wait_for_selector("#panel:not(.hidden)", timeout=10_000)
        page.wait_for_function("document.getElementById('now').textContent.length > 1",
                               timeout=10_000)
        found["admin"] = page.evaluate(OVERFLOWS)
        page.screenshot(path=str(ARTIFACTS / f"fit-admin-{size}.png"), full_page=True)
        page.close()
    assert {k: v for k, v in found.items() if v} == {}


def test_the_history_says_the_games_and_their_fouls_in_russian(table, browser):
    with LiveServer(table, pin=PIN) as srv:
        page = browser.new_page(bypass_csp=True, viewport=SIZES["tv"])
        page.goto(srv.url + "/history")
        page.wait_for_selector("#games tr >> nth=2", timeout=10_000)
        titles = page.locator("#games tbody tr td:nth-child(2)").all_inner_texts()
        assert titles == ["Джокер", "Дурак вдвоём"]  # the catalogue's names, not the engine's
        page.locator('#games a[data-open="1"]').click()
        page.wait_for_selector("#detail:not(.hidden)", timeout=10_000)
        notes = page.inner_text("#notes")
        foul = next(line for line in notes.splitlines() if line.strip().startswith("Нарушение:"))
        assert NAMES[0] in foul or NAMES[1] in foul
        assert "illegal play" not in notes and "[beat]" not in notes and "штраф" in foul
        page.goto(srv.url + "/history?lang=en")  # English words, the same names
        page.locator('#games a[data-open="1"]').click()
        page.wait_for_selector("#detail:not(.hidden)", timeout=10_000)
        english = page.inner_text("#notes")
        assert "seat 0" not in english and "seat 1" not in english
        assert (NAMES[0] in english or NAMES[1] in english) and "Illegal play" in english
        page.close()
