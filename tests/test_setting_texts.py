"""Every house-rule setting of every game is worded for the organiser (issue 33 item 5): the new-game
form on /admin and the display's rule chips show a Russian label, a one-sentence help with the
default, and Russian words for each choice (``table_ui.i18n``: SETTING_LABELS, SETTING_HELP,
SETTING_VALUES), never the engine's key, value or English description. The settings are read from
the engines themselves, so a new setting without words fails here. The last tests open the real
pages in headless Chromium."""

from __future__ import annotations

import os
import re
import typing
from pathlib import Path
from typing import Any, Literal

import pytest

from engine.registry import GAMES, game_class
from engine.settings import is_seat
from table_ui import i18n
from table_ui.testing import CHROMIUM, LiveServer

ARTIFACTS = Path(__file__).with_name("artifacts")
PIN = "2468"
WAIT = 10_000  # ms
CYRILLIC = re.compile(r"[А-Яа-яЁё]")
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
# Latin words a Russian text may hold: none. Ranks are Т К Д В 10, suits are ♠♣♦♥, ВК and БК are
# Cyrillic; an entry here needs a reason (a name the organiser types or reads in Latin letters).
ALLOWED_LATIN: frozenset[str] = frozenset()
# a word mixing the alphabets: a Latin look-alike typed into a Russian word («Kапо»)
MIXED = re.compile(r"\w*(?:[A-Za-z][А-Яа-яЁё]|[А-Яа-яЁё][A-Za-z])\w*")


def _settings() -> list[tuple[str, str, Any]]:
    """(game, key, pydantic field) for every setting of every game."""
    return [(g, k, f) for g in GAMES for k, f in game_class(g).settings_model.model_fields.items()]


def _choices(field: Any) -> list[str]:
    """A Literal setting's values as the form sends them (table_ui/routes_admin.py), else []."""
    ann = field.annotation
    args = [a for a in typing.get_args(ann) if a is not type(None)]
    if typing.get_origin(ann) is not Literal and len(args) == 1:
        ann = args[0]
    return [str(c) for c in typing.get_args(ann)] if typing.get_origin(ann) is Literal else []


def _help(lang: str, game: str, key: str) -> str | None:
    helps = i18n.catalogue(lang)["setting_help"]
    return helps.get(f"{game}:{key}") or helps.get(key)


def _russian(text: str) -> list[str]:
    """What is not Russian in a Russian text: no Cyrillic, English words, mixed-alphabet words."""
    bad = [] if CYRILLIC.search(text) else ["no Cyrillic"]
    bad += [w for w in LATIN_WORD.findall(text) if w not in ALLOWED_LATIN]
    return bad + MIXED.findall(text)


def test_there_are_settings_in_every_game() -> None:
    assert len(_settings()) >= 44
    assert {g for g, _, _ in _settings()} == set(GAMES)


def test_every_setting_has_a_label_and_a_help_in_both_languages() -> None:
    missing = [(lang, g, k, what) for g, k, _ in _settings() for lang in ("ru", "en")
               for what, text in (("label", i18n.catalogue(lang)["settings"].get(k)),
                                  ("help", _help(lang, g, k)))
               if not (text and text.strip())]
    assert missing == []


def test_every_choice_has_words_in_both_languages() -> None:
    missing = [(lang, g, k, c) for g, k, f in _settings() for c in _choices(f)
               for lang in ("ru", "en")
               if not i18n.catalogue(lang)["setting_values"].get(k, {}).get(c, "").strip()]
    assert missing == []
    # and the value words of a choice are told apart (the select would show two same options)
    for lang in ("ru", "en"):
        for k, words in i18n.catalogue(lang)["setting_values"].items():
            assert len(set(words.values())) == len(words), (lang, k)


def test_the_tables_name_only_real_settings_and_values() -> None:
    """No stale words: every entry belongs to a setting (and value) some game has."""
    by_key: dict[str, set[str]] = {}
    pairs = set()
    for g, k, f in _settings():
        by_key.setdefault(k, set()).update(_choices(f))
        pairs.add(f"{g}:{k}")
    assert sorted(set(i18n.SETTING_LABELS) - set(by_key)) == []
    assert sorted(h for h in i18n.SETTING_HELP if h not in by_key and h not in pairs) == []
    for k, words in i18n.SETTING_VALUES.items():
        assert set(words) <= by_key.get(k, set()), k


def test_the_russian_words_are_russian() -> None:
    ru = i18n.catalogue("ru")
    texts = [("label", k, t) for k, t in ru["settings"].items()]
    texts += [("help", k, t) for k, t in ru["setting_help"].items()]
    texts += [("value", f"{k}={v}", t) for k, words in ru["setting_values"].items()
              for v, t in words.items()]
    assert [(what, k, t, bad) for what, k, t in texts if (bad := _russian(t))] == []


def test_each_help_says_the_default() -> None:
    """The default as the organiser sees it: a number, «да»/«нет», or the choice's words."""
    wrong = []
    for g, k, f in _settings():
        for lang, yes_no in (("ru", ("по умолчанию да", "по умолчанию нет")),
                             ("en", ("on by default", "off by default"))):
            text, d = _help(lang, g, k) or "", f.default
            words = i18n.catalogue(lang)["setting_values"].get(k, {})
            if d is None:
                need = "(по умолчанию)" if lang == "ru" else "(the default)"
            elif isinstance(d, bool):
                need = yes_no[0] if d else yes_no[1]
            elif is_seat(f):  # a seat as the form shows it: «место 1»
                need = i18n.catalogue(lang)["seat"].replace("{n}", str(d + 1))
            elif _choices(f):
                need = words[str(d)]
            else:
                need = str(d)
            if need not in text or ("умолчанию" not in text and "default" not in text):
                wrong.append((lang, g, k, need, text))
    assert wrong == []


# -- the real pages --------------------------------------------------------------------------------
chromium = pytest.mark.skipif(not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is absent")

FORM = """() => {
  const box = document.getElementById("fields");
  return {
    labels: [...box.querySelectorAll("label")].map((x) => x.textContent),
    helps: [...box.querySelectorAll(".help")].map((x) => x.textContent),
    selects: [...box.querySelectorAll("select")].map((s) => ({
      key: s.dataset.opt, value: s.value,
      options: [...s.options].map((o) => ({ value: o.value, text: o.textContent }))})),
  };
}"""


@chromium
def test_the_new_game_form_is_russian_for_every_game(make_controller, browser) -> None:
    ctl = make_controller("durak2", {}, ["Аня", "Боря"])
    by_game = {g: game_class(g).settings_model.model_fields for g in GAMES}
    with LiveServer(ctl, pin=PIN) as srv:
        page = browser.new_page(bypass_csp=True, viewport={"width": 390, "height": 844},
                                is_mobile=True, has_touch=True)
        page.goto(srv.url + "/admin")
        page.fill("#pin", PIN)
        page.click("#login")
        page.wait_for_selector("#panel:not(.hidden)", timeout=WAIT)
        page.wait_for_selector("#game option", state="attached", timeout=WAIT)  # fetched after
        games = page.eval_on_selector_all("#game option", "xs => xs.map((x) => x.value)")
        assert set(games) == set(GAMES)
        titles = page.eval_on_selector_all("#game option", "xs => xs.map((x) => x.textContent)")
        assert titles == [i18n.CATALOGUE["ru"]["games"][g] for g in games]  # not the engine's
        for g in games:
            page.select_option("#game", g)
            page.wait_for_function(f"!!document.getElementById('opt-{next(iter(by_game[g]))}')",
                                   timeout=WAIT)
            form = page.evaluate(FORM)
            fields = by_game[g]
            assert len(form["labels"]) == len(fields) == len(form["helps"]), g
            english = [(g, t) for t in form["labels"] + form["helps"] if LATIN_WORD.search(t)]
            assert english == []
            assert not any(t in fields for t in form["labels"]), g  # no engine key shown
            for s in form["selects"]:
                if is_seat(fields[s["key"]]):  # the seats by name (none typed: «место N»)
                    f = fields[s["key"]]
                    seats = game_class(g)().num_seats
                    unset = [""] if f.default is None else []
                    assert [o["value"] for o in s["options"]] == unset + [
                        str(i) for i in range(seats)], (g, s["key"])
                    assert [o["text"] for o in s["options"]][len(unset):] == [
                        f"место {i + 1}" for i in range(seats)]
                    assert all(CYRILLIC.search(o["text"]) for o in s["options"]), (g, s)
                    assert s["value"] == ("" if f.default is None else str(f.default))
                    continue
                choices = _choices(fields[s["key"]])
                assert [o["value"] for o in s["options"]] == choices, (g, s["key"])
                words = i18n.CATALOGUE["ru"]["setting_values"][s["key"]]
                assert [o["text"] for o in s["options"]] == [words[c] for c in choices]
                assert all(CYRILLIC.search(o["text"]) for o in s["options"]), (g, s)
                assert s["value"] == str(fields[s["key"]].default), (g, s["key"])
            if g == "bazar":
                ARTIFACTS.mkdir(exist_ok=True)
                page.screenshot(path=str(ARTIFACTS / "admin-settings-bazar-390x844.png"),
                                full_page=True)
        page.select_option("#game", "belot2")
        page.wait_for_selector("#opt-game_type", timeout=WAIT)
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "admin-settings-390x844.png"), full_page=True)
        page.close()


@chromium
def test_the_form_still_sends_the_engines_values(make_controller, browser) -> None:
    """A Russian option starts the game with the engine's value, and the display's chips then
    say the choice in Russian."""
    ctl = make_controller("durak2", {}, ["Аня", "Боря"])
    with LiveServer(ctl, pin=PIN) as srv:
        page = browser.new_page(bypass_csp=True, viewport={"width": 1280, "height": 900})
        page.goto(srv.url + "/admin")
        page.fill("#pin", PIN)
        page.click("#login")
        page.wait_for_selector("#panel:not(.hidden)", timeout=WAIT)
        page.select_option("#game", "terz")
        page.wait_for_selector("#opt-leader", timeout=WAIT)
        page.select_option("#opt-leader", label="сдающий")
        page.select_option("#opt-foul_penalty", label="только очки карт")
        names = page.locator(".pname")
        names.nth(0).fill("Аня")
        names.nth(1).fill("Боря")
        page.select_option("#opt-first_dealer", label="Боря")  # a seat by the name typed
        page.on("dialog", lambda d: d.accept())
        page.click("#start")
        page.wait_for_function("document.getElementById('msg').classList.contains('ok')",
                               timeout=WAIT)
        assert ctl.game.settings.leader == "dealer" and ctl.game.settings.foul_penalty == "cards"
        assert ctl.game.settings.first_dealer == 1 and ctl.names == ["Аня", "Боря"]
        page.goto(srv.url + "/")
        page.wait_for_function(f"Number(document.body.dataset.seq) >= {ctl.seq}", timeout=WAIT)
        chips = page.locator("#rules .chip").all_inner_texts()
        assert "первый ход: сдающий" in chips and "штраф за нарушение: только очки карт" in chips
        assert "первый сдающий: Боря" in chips
        page.close()
