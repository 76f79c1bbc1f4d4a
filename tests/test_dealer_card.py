"""The dealer's card (``/dealer-card/{game}``): one printed page per game, in Russian, with the
deal order read from the engine and the buttons that game uses. The orders below are worked by
hand from docs/rules.md; the page is printed to PDF by real Chromium and must be one page."""

from __future__ import annotations

import os
import re

import pytest

from engine.registry import GAMES
from table_ui import i18n
from table_ui.testing import CHROMIUM, LiveServer

pytestmark = pytest.mark.skipif(not os.path.exists(CHROMIUM),
                                reason=f"{CHROMIUM} is absent (apt-get install chromium)")

TRUMP = "1 карта: открыть на стол: козырь"
ORDERS = {
    # §1: 3 + 3 each, the non-dealer first, the trump turned; bidding; 3 + 3, the open card
    "belot2": ["3 карты сопернику", "3 карты себе", "3 карты сопернику", "3 карты себе", TRUMP,
               "торговля: сдача ждёт, пока назначат козырь", "3 карты сопернику",
               "3 карты себе",
               "1 карта: открыть на стол: вторая открытая карта (в игре не участвует)"],
    # §2: 3 + 3 each, the non-dealer first, then the trump under the talon
    "durak2": ["3 карты сопернику", "3 карты себе", "3 карты сопернику", "3 карты себе", TRUMP],
    # §3: one at a time clockwise from the dealer's left (the first deal: one card each)
    "joker": ["по одной карте по кругу, начиная с игрока слева", TRUMP],
    # §4: packets of four clockwise from the dealer's left, twice round
    "bazar": ["4 карты игроку слева", "4 карты партнёру напротив", "4 карты игроку справа",
              "4 карты себе"] * 2,
    # §5 defaults: 9 each in packets of 3, the dealer last, then the trump
    "terz": ["3 карты сопернику", "3 карты себе"] * 3 + [TRUMP],
}


def test_every_game_has_its_card_on_one_page(make_controller, browser) -> None:
    assert set(ORDERS) == set(GAMES)
    ctl = make_controller("belot2", {}, ["Аня", "Боря"])
    ru = i18n.CATALOGUE["ru"]
    with LiveServer(ctl) as srv:
        page = browser.new_page()
        for game, order in ORDERS.items():
            page.goto(f"{srv.url}/dealer-card/{game}")
            assert page.locator("#title").inner_text() == f"Карточка сдающего — {ru['games'][game]}"
            assert page.locator("#order li").all_inner_texts() == order
            panel = page.locator("#panel li").all_inner_texts()
            assert "«Отмена»" in panel
            text = page.locator("body").inner_text()
            assert not re.search(r"[A-Za-z]", text), re.findall(r"[A-Za-z]+", text)
            pdf = page.pdf(format="A4")
            assert len(re.findall(rb"/Type\s*/Page\b", pdf)) == 1, game
        # the buttons each game uses, from the engine: Durak takes and beats, never bids
        page.goto(f"{srv.url}/dealer-card/durak2")
        durak = page.locator("#panel li").all_inner_texts()
        assert {"«Беру»", "«Бито»"} <= set(durak) and "«Играю»" not in durak
        page.goto(f"{srv.url}/dealer-card/belot2")
        assert {"«Играю»", "«Бэла»", "♥"} <= set(page.locator("#panel li").all_inner_texts())
        page.goto(f"{srv.url}/dealer-card/belot2?lang=en")
        assert page.locator("#order li").first.inner_text() == "3 cards to your opponent"
        page.close()


def test_an_unknown_game_is_a_clear_404(make_controller) -> None:
    import httpx

    ctl = make_controller("belot2", {}, ["Аня", "Боря"])
    with LiveServer(ctl) as srv:
        r = httpx.get(f"{srv.url}/dealer-card/poker")
    assert r.status_code == 404 and "unknown game 'poker'" in r.text and "belot2" in r.text
