"""Real-browser tests of the display and admin (Debian's chromium via Playwright; no download).

A uvicorn server runs in a thread on a free port around a real Controller; the test feeds
inputs through ``controller.submit`` and asserts what the page's DOM shows. Screenshots go to
``tests/artifacts/``.
"""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from controller.core import Controller
from controller.inputs import Admin, ShoeCard
from controller.log import GameLog
from engine.view import table_view
from table_ui import i18n
from table_ui.testing import (
    CHROMIUM,
    LiveServer,
    at_defence,
    deal_until_play,
    illegal_beat,
    play_until,
)

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason=f"{CHROMIUM} is absent (apt-get install chromium)")

ARTIFACTS = Path(__file__).with_name("artifacts")
PIN = "2468"
SUITS = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
WAIT = 10_000  # ms: the longest any DOM wait may take


def wait_seq(page, seq: int) -> None:
    page.wait_for_function(f"Number(document.body.dataset.seq) >= {seq}", timeout=WAIT)


def test_display_shows_trump_trick_totals_and_illegal_play(ctl, browser):
    rng = random.Random(5)
    assert play_until(ctl, rng, at_defence)
    with LiveServer(ctl) as srv:
        page = browser.new_page(bypass_csp=True, viewport={"width": 1920, "height": 1080})
        page.goto(srv.url + "/")
        wait_seq(page, ctl.seq)
        v = table_view(ctl.game)
        assert page.locator("#trump").inner_text() == SUITS[v.trump]
        assert page.locator("#trump").get_attribute("data-suit") == v.trump
        assert page.locator(f'#trick svg.card[data-card="{v.trick[0].card}"]').count() == 1
        assert page.locator("#seat-bottom .name").inner_text().startswith("Аня")
        assert page.locator("#seat-top .name").inner_text().startswith("Боря")
        assert page.locator(".seat.turn").get_attribute("data-seat") == str(ctl.game.to_act())
        assert page.locator("#total-0").inner_text() == str(v.totals[0])
        # the whole display fits the TV: no scrolling
        assert page.evaluate("document.documentElement.scrollHeight <= innerHeight + 1")
        # an illegal play: red alert with the rule and the message
        reply = ctl.submit(Admin(action="event", event=illegal_beat(ctl)))
        assert reply.alerts and reply.alerts[0].level == "illegal"
        wait_seq(page, reply.seq)
        alert = page.locator("#alerts .alert.illegal")
        assert alert.count() == 1
        # worded in Russian from the rule id, with the player's name and the card in card style
        a = reply.alerts[0]
        assert alert.get_attribute("data-rule") == a.rule
        ru = i18n.CATALOGUE["ru"]
        code = a.params["card"]
        shown = ru["ranks"].get(code[0], code[0]) + SUITS[code[1]]
        who = ctl.names[a.seat]
        assert alert.inner_text() == f"{ru['illegal']} " + ru["rules"][a.rule].format(
            who=who, card=shown)
        assert who in ("Аня", "Боря") and a.rule not in alert.inner_text()
        # the covering card is drawn over its attack card
        assert page.locator("#trick .pair svg.cover").count() >= 1
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "display-1920x1080.png"))
        # English and international indices
        page.goto(srv.url + "/?lang=en&cards=intl")
        wait_seq(page, ctl.seq)
        assert "trump" in page.locator("#trump-label").inner_text()
        page.close()


def test_display_guides_the_dealer_in_the_engines_order(make_controller, browser):
    """docs/rules.md §1: the non-dealer's 3 cards first, then the dealer's, ... then the trump
    card turned; the prompt names the dealer and where the cards go (Аня deals, seat 0)."""
    ctl = make_controller("belot2", {}, ["Аня", "Боря"])
    deck = [r + s for s in "CDHS" for r in "789TJQKA"]
    with LiveServer(ctl) as srv:
        page = browser.new_page(bypass_csp=True, viewport={"width": 1920, "height": 1080})
        page.goto(srv.url + "/")
        wait_seq(page, ctl.seq)
        prompt = page.locator("#centre-note .dealing")
        assert prompt.inner_text() == "сдаёт Аня: 3 карты → Боря"
        assert page.locator("#deal").inner_text() == "раздача 1 · ● сдаёт Аня"  # the ●'s legend
        seen = []
        for n, code in enumerate(deck[:12]):
            reply = ctl.submit(ShoeCard(card=code))
            if n in (2, 6, 11):
                wait_seq(page, reply.seq)
                seen.append(prompt.inner_text())
        assert seen == ["сдаёт Аня: 3 карты себе", "сдаёт Аня: 2 карты → Боря",
                        "сдаёт Аня: открыть козырь"]
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "display-dealer-prompt.png"))
        page.goto(srv.url + "/?lang=en")
        wait_seq(page, ctl.seq)
        assert page.locator("#centre-note .dealing").inner_text() == "Аня deals: turn the trump card"
        page.goto(srv.url + "/")
        assert ctl.submit(ShoeCard(card=deck[12])).accepted  # the trump card turned
        reply = ctl.submit(ShoeCard(card=deck[13]))  # one card too many: the bidding has begun
        assert [x.rule for x in reply.alerts] == ["shoe-not-expected"]
        page.wait_for_selector('#alerts .alert[data-rule="shoe-not-expected"]', timeout=10_000)
        assert page.locator('#alerts .alert[data-rule="shoe-not-expected"]').inner_text() \
            .endswith("карта из шуза не ожидалась: сдача окончена, сейчас — торговля")
        page.close()


def test_display_says_why_a_deal_scored_as_it_did(make_controller, browser):
    """A Belot deal the declarer lost (docs/rules.md §1, байд: the declarer has less than the
    defender, and the defender scores both): the display says so under the score, in words."""
    from engine.playout import play_out
    from engine.registry import game_class

    def bayd(g) -> bool:
        return any("bayd" in {i.rule for i in d.items} for d in g.score_sheet().deals)

    played = play_out(game_class("belot2")({}), random.Random(8), stop=bayd)
    assert bayd(played)
    deal = played.score_sheet().deals[-1]
    ctl = make_controller("belot2", {}, ["Аня", "Боря"])
    with LiveServer(ctl) as srv:
        page = browser.new_page(bypass_csp=True, viewport={"width": 1920, "height": 1080})
        page.goto(srv.url + "/")
        for event in played.raw_log:
            reply = ctl.submit(Admin(action="event", event=str(event)))
            assert not [a for a in reply.alerts if a.level in ("warning", "error")], reply.alerts
        wait_seq(page, ctl.seq)
        why = page.locator("#deal-why").inner_text()
        assert why == (f"сдача {deal.number}: байд — у разыгрывающего меньше, все его очки у "
                       "защиты"), why
        assert 0 in deal.points  # the declarer's side kept nothing
        page.screenshot(path=str(ARTIFACTS / "display-deal-why.png"))
        page.close()


def test_an_illegal_play_stays_up_for_its_trick_then_joins_the_deals_notes(make_controller,
                                                                           browser):
    """Policy penalize (docs/rules.md, common conventions): the illegal card stands; its alert is
    up while the trick lies on the table and, once the trick is taken, is listed under the score
    among the deal's illegal plays."""
    from table_ui.dealer_card import wrong_card

    ctl = make_controller("belot2", {"policy": "penalize"}, ["Аня", "Боря"])
    rng = random.Random(3)
    g = ctl.game
    while True:  # legal moves until the second card of a trick can be a wrong one
        actions = g.legal_actions()
        if not g.expects_shoe and g.table_view().trick and wrong_card(g, actions) is not None:
            break
        event = actions[rng.randrange(len(actions))]
        ctl.submit(Admin(action="event", event=str(event)))
    wrong = wrong_card(g, g.legal_actions())
    with LiveServer(ctl) as srv:
        page = browser.new_page(bypass_csp=True, viewport={"width": 1920, "height": 1080})
        page.goto(srv.url + "/")
        reply = ctl.submit(Admin(action="event", event=str(wrong)))
        assert reply.alerts and reply.alerts[0].level == "illegal"
        wait_seq(page, reply.seq)
        # a Belot trick is two cards: this one completed it; it is up till the next trick begins
        assert not g.table_view().trick
        assert page.locator("#alerts .alert.illegal").count() == 1
        more = ctl.submit(Admin(action="event", event=str(g.legal_actions()[0])))
        wait_seq(page, more.seq)
        assert page.locator("#alerts .alert.illegal").count() == 0
        notes = page.locator("#deal-fouls .foul").all_inner_texts()
        assert len(notes) == 1 and ctl.names[wrong.seat] in notes[0], notes
        page.close()


def test_declarations_are_words_and_cards_not_codes(make_controller, browser):
    """docs/rules.md §1: Боря (seat 1) declares a terz; the display names it with its cards in
    the display's card style, never the raw codes «JS QS KS»."""
    from _belot2_helpers import deal

    from engine.belot2 import Belot2

    g = Belot2(game_type="501")
    deal(g, {1: "KS QS JS 7D 9D JD 7H 9H JH", 0: "QC JC TC 8D TD QD 8H TH QH"}, "KH",
         ["1 bid play"])
    ctl = make_controller("belot2", {"game_type": "501"}, ["Аня", "Боря"])
    for event in [*g.raw_log, "1 declare KS QS JS"]:
        ctl.submit(Admin(action="event", event=str(event)))
    with LiveServer(ctl) as srv:
        page = browser.new_page(bypass_csp=True, viewport={"width": 1920, "height": 1080})
        page.goto(srv.url + "/")
        wait_seq(page, ctl.seq)
        assert page.locator("#declarations .decl").all_inner_texts() == ["Боря: терц В♠ Д♠ К♠"]
        page.close()


def test_display_four_seats_and_finished_partie(tmp_path, browser):
    c = Controller(GameLog(tmp_path / "joker.sqlite"))
    c.new_game("joker", {"minus_joker": True}, ["Анна", "Борис", "Вера", "Глеб"])
    rng = random.Random(3)
    assert play_until(c, rng, lambda c: len(c.game.score_sheet().deals) >= 2
                      and len(table_view(c.game).trick) >= 2, limit=5000)
    with LiveServer(c) as srv:
        page = browser.new_page(bypass_csp=True, viewport={"width": 1920, "height": 1080})
        page.goto(srv.url + "/")
        wait_seq(page, c.seq)
        for pos, name in zip(("bottom", "left", "top", "right"), ("Анна", "Борис", "Вера", "Глеб"),
                             strict=True):
            assert page.locator(f"#seat-{pos} .name").inner_text().startswith(name)
        assert page.locator("#trick .played").count() == len(table_view(c.game).trick)
        assert page.locator("svg.chart polyline").count() == 4
        assert "минусовой джокер" in page.locator("#rules").inner_text()
        assert page.evaluate("document.documentElement.scrollHeight <= innerHeight + 1")
        page.screenshot(path=str(ARTIFACTS / "display-joker-1920x1080.png"))
        page.close()


def test_display_shows_the_winner_and_the_score_of_a_finished_game(tmp_path, browser):
    c = Controller(GameLog(tmp_path / "over.sqlite"))
    c.new_game("durak2", {"game_type": "super_short"}, ["Аня", "Боря"])
    rng = random.Random(11)
    assert play_until(c, rng, lambda c: c.game.is_over, limit=500)
    out = c.game.outcome
    with LiveServer(c) as srv:
        page = browser.new_page(bypass_csp=True, viewport={"width": 1920, "height": 1080})
        page.goto(srv.url + "/")
        wait_seq(page, c.seq)
        over = page.locator("#over").inner_text()
        # Russian by default: the winner by name and the totals, not the engine's English reason
        assert f"счёт {out.totals[0]} : {out.totals[1]}" in over
        if out.winner is not None:
            assert "Победитель: " + ("Аня", "Боря")[out.winner] in " ".join(over.split())
        assert "wins" not in over
        page.goto(srv.url + "/?lang=en")
        wait_seq(page, c.seq)
        assert out.reason.split()[-1] in page.locator("#over").inner_text()
        page.close()


def test_admin_wrong_pin_then_confirms_a_doubtful_card(ctl, browser):
    unseen = [x.code for x in ctl.game.unseen_cards()]
    with LiveServer(ctl, pin=PIN) as srv:
        display = browser.new_page(bypass_csp=True, viewport={"width": 1920, "height": 1080})
        display.goto(srv.url + "/")
        wait_seq(display, ctl.seq)
        phone = browser.new_page(bypass_csp=True, viewport={"width": 390, "height": 844}, is_mobile=True,
                                 has_touch=True)
        phone.goto(srv.url + "/admin")
        phone.fill("#pin", "1111")
        phone.click("#login")
        phone.wait_for_function("document.getElementById('login-msg').textContent.length > 0",
                                timeout=WAIT)
        assert phone.locator("#panel").is_hidden()
        phone.fill("#pin", PIN)
        phone.click("#login")
        phone.wait_for_selector("#panel:not(.hidden)", timeout=WAIT)
        # the shoe reader is unsure of a card
        reply = ctl.submit(ShoeCard(card="??", candidates=[unseen[0], unseen[1]]))
        wait_seq(display, reply.seq)
        assert display.locator('#alerts [data-rule="confirm-card"]').count() == 1
        phone.wait_for_selector(f'#cands button[data-card="{unseen[1]}"]', timeout=WAIT)
        phone.screenshot(path=str(ARTIFACTS / "admin-390x844.png"), full_page=True)
        phone.click(f'#cands button[data-card="{unseen[1]}"]')
        phone.wait_for_function("document.getElementById('msg').className.includes('ok')",
                                timeout=WAIT)
        assert ctl.state.pending is None
        assert ctl.game.raw_log[-1].kind == "shoe"
        wait_seq(display, ctl.seq)
        assert display.locator('#alerts [data-rule="confirm-card"]').count() == 0
        # a typed code for the next doubtful card, and the form of a new game
        ctl.submit(ShoeCard(card="??", candidates=[]))
        phone.wait_for_function("document.getElementById('pending-box').dataset.pending == '1'",
                                timeout=WAIT)
        phone.fill("#card", unseen[2].lower())
        phone.click("#confirm")
        phone.wait_for_function("document.getElementById('pending-box').dataset.pending == '0'",
                                timeout=WAIT)
        assert str(ctl.game.raw_log[-1]) == f"shoe {unseen[2]}"
        phone.select_option("#game", "joker")
        phone.fill("#names input >> nth=0", "Зоя")
        phone.check("#opt-minus_joker")
        phone.click("#start")
        joker = i18n.CATALOGUE["ru"]["games"]["joker"]  # the Russian page names it in Russian
        phone.wait_for_function(f"document.getElementById('now').textContent.includes('{joker}')",
                                timeout=WAIT)
        assert ctl.game.name == "joker" and ctl.names[0] == "Зоя"
        assert ctl.game.settings.minus_joker is True
        phone.close()
        display.close()


def test_display_reconnects_after_a_server_restart(tmp_path, browser):
    path = tmp_path / "restart.sqlite"
    c1 = Controller(GameLog(path))
    c1.new_game("durak2", {}, ["Аня", "Боря"])
    deal_until_play(c1, random.Random(9))
    seq = c1.seq
    first = LiveServer(c1)
    port = first.port
    first.__enter__()
    page = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 720})
    try:
        page.goto(first.url + "/")
        wait_seq(page, seq)
        first.stop()
        page.wait_for_function("document.body.dataset.online == '0'", timeout=WAIT)
        c1.log.close()
        c2 = Controller(GameLog(path))  # the table restarts from its log
        assert c2.seq == seq
        with LiveServer(c2, port=port) as second:
            page.wait_for_function("document.body.dataset.online == '1'", timeout=WAIT)
            wait_seq(page, seq)
            assert page.locator("#trump").get_attribute("data-suit") == table_view(c2.game).trump
            deal_until_play(c2, random.Random(1))
            reply = c2.submit(Admin(action="undo"))
            wait_seq(page, reply.seq)
            assert second.port == port
    finally:
        page.close()
