"""Every rule id the engine or the controller can put on the display has its words, in Russian
and English (``table_ui/rule_texts.py``), and so has every camera note. The ids are found in the
source itself (every ``Verdict``, engine error, error class and alert), so a new rule without
words fails here. The Russian words hold no English word and no raw card code: the display fills
in the player's name and the card in its own style."""

from __future__ import annotations

import re
from pathlib import Path

from _rule_scan import rule_ids

from engine.scoresheet import CLAIMED, LET_GO, PENALISED
from table_ui import i18n
from table_ui.rule_texts import DEVICES, FLAGS, TEXTS
from vision.cards import ReaderFlag
from vision.table.reader import Silence

ROOT = Path(__file__).resolve().parents[1]
RULE_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
PLACEHOLDERS = {"who", "card", "button", "flag", "device", "n", "seen", "size", "phase"}


def test_every_rule_id_has_words() -> None:
    ids = rule_ids()
    assert len(ids) > 80  # the scan found the rules
    assert {"follow-suit", "must-trump", "out-of-turn", "device-lost", "camera-table"} <= ids
    assert sorted(ids - set(TEXTS)) == []


def test_every_camera_note_has_words() -> None:
    notes = [f.value for f in ReaderFlag] + [s.value for s in Silence]
    assert sorted(n for n in notes if n not in FLAGS) == []


def test_the_words_are_russian_and_english_with_the_same_placeholders() -> None:
    for key, (ru, en) in {**TEXTS, **FLAGS, **DEVICES}.items():
        ru_holes = set(re.findall(r"\{(\w+)\}", ru))
        assert ru_holes == set(re.findall(r"\{(\w+)\}", en)), key
        assert ru_holes <= PLACEHOLDERS, key
        bare = re.sub(r"\{\w+\}", "", ru)
        assert re.search("[а-яё]", bare), key
        # no English word and no card code: only Russian, «Партия!» and the like
        assert not re.search(r"[A-Za-z]{2,}", bare), (key, ru)


def test_the_pages_get_the_words() -> None:
    for lang, k in (("ru", 0), ("en", 1)):
        cat = i18n.catalogue(lang)
        assert cat["rules"]["follow-suit"] == TEXTS["follow-suit"][k]
        assert cat["flags"][ReaderFlag.GLARE.value] == FLAGS[ReaderFlag.GLARE.value][k]


def test_every_outcome_of_a_foul_has_words() -> None:
    for lang in ("ru", "en"):
        assert set(i18n.CATALOGUE[lang]["outcomes"]) == {PENALISED, CLAIMED, LET_GO}


def test_every_phase_of_every_game_has_words() -> None:
    """The phase a misdealt card's alert names («…, сейчас — торговля») and the admin page shows:
    every phase random games of the five games pass through has words in both languages."""
    import random

    from engine.registry import available_games, game_class

    seen: set[str] = set()
    for name in available_games():
        for seed in range(3):
            game, rng = game_class(name)({}), random.Random(seed)
            while True:
                seen.add(str(game.describe().get("phase")))
                if game.is_over:
                    break
                actions = game.legal_actions()
                game.apply(actions[rng.randrange(len(actions))])
    assert {"play", "bidding"} <= seen
    for lang in ("ru", "en"):
        assert sorted(seen - set(i18n.catalogue(lang)["phases"])) == [], lang
