"""Every sentence of a score sheet reaches the pages as a key with parameters and has Russian words
(issue 33 item 5): ``engine.scoresheet.Line`` on the engine's side, ``table_ui/sheet_texts.py``
``SHEET_LINES`` on the display's.

The keys are found twice: in the engine's source (every ``Line(text, key, ...)`` call and the keys
a function builds before one), and in the lines that seeded random games of the five games write,
with illegal plays and the house rules that change the sheet (policies, Belot's short partie and
settlement, Joker's minus). A key without words, words for a key nothing writes, a template naming
a parameter its line does not carry, English naming other parameters than the Russian, or Latin
words in the Russian fail here; the history page itself is read in Chromium by
tests/test_russian_pages.py.
"""

from __future__ import annotations

import ast
import random
import re
import string
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from engine.game import Game
from engine.registry import game_class
from engine.scoresheet import Line, ScoreSheet
from table_ui.dealer_card import wrong_card
from table_ui.sheet_texts import SHEET_LINES

ROOT = Path(__file__).resolve().parents[1]
LATIN_WORD = re.compile(r"[A-Za-z]{3,}")
CYRILLIC = re.compile(r"[А-Яа-яЁё]")

# (game, options): the variants whose sheets say something the defaults' do not
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("belot2", {}), ("belot2", {"claims": False}), ("belot2", {"game_type": "short"}),
    ("belot2", {"rozaliev": True, "claims": False}), ("belot2", {"policy": "on_claim"}),
    ("belot2", {"game_type": "open150"}),
    ("durak2", {}), ("durak2", {"policy": "on_claim"}),
    ("joker", {}), ("joker", {"minus_joker": True}), ("joker", {"policy": "on_claim"}),
    ("bazar", {}), ("bazar", {"policy": "on_claim"}),
    ("terz", {}), ("terz", {"foul_penalty": "cards"}), ("terz", {"policy": "on_claim"}),
]
SEEDS = 8
CALL_PARAMS: dict[str, list[set[str | None]]] = {}  # key → each Line call's keywords (source_keys)


def source_keys() -> set[str]:
    """Every key the engine's source gives a sheet line."""
    found: set[str] = set()
    for path in (ROOT / "engine").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, ast.FunctionDef):
                continue
            assigned: set[str] = set()
            suffixes: set[str] = set()
            for node in ast.walk(fn):
                if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("Line", "line") \
                        and len(node.args) >= 2:
                    keys = _constants(node.args[1])
                    found |= keys
                    if node.func.id == "Line" and all(k.arg for k in node.keywords):
                        for key in keys:  # the parameters this call gives the line
                            CALL_PARAMS.setdefault(key, []).append({k.arg for k in node.keywords})
                elif isinstance(node, ast.Assign) and any(
                        isinstance(t, ast.Name) and t.id == "key" for t in node.targets):
                    assigned |= _constants(node.value)
                elif isinstance(node, ast.AugAssign) and getattr(node.target, "id", "") == "key":
                    suffixes |= _constants(node.value, suffix=True)
            for node in ast.walk(fn):  # how, key = "...", "key" (a tuple assigned at once)
                if isinstance(node, ast.Assign) and isinstance(node.targets[0], ast.Tuple) \
                        and isinstance(node.value, ast.Tuple):
                    for t, v in zip(node.targets[0].elts, node.value.elts, strict=False):
                        if isinstance(t, ast.Name) and t.id == "key":
                            assigned |= _constants(v)
            found |= assigned | {k + s for k in assigned for s in suffixes}
    return found


def _constants(node: ast.expr, suffix: bool = False) -> set[str]:
    """The key-like strings in an expression (``-settled``-like ones for a suffix)."""
    form = r"(-[a-z0-9]+)+" if suffix else r"[a-z0-9]+(-[a-z0-9]+)*"
    return {n.value for n in ast.walk(node) if isinstance(n, ast.Constant)
            and isinstance(n.value, str) and re.fullmatch(form, n.value)}


def playout(name: str, options: dict[str, Any], seed: int) -> Game:
    """A whole random game, one play in ten a card the seat may not play."""
    rng = random.Random(seed)
    game = game_class(name)(options)
    for _ in range(20_000):
        if game.is_over:
            break
        actions = game.legal_actions()
        if rng.random() < 0.1 and (wrong := wrong_card(game, actions)) is not None:
            game.record(wrong)
        else:
            game.apply(actions[rng.randrange(len(actions))])
    return game


def lines_of(sheet: ScoreSheet) -> Iterator[dict[str, Any]]:
    """Every line of a sheet as the pages get it (nested lines included)."""
    data = sheet.to_dict()
    top = [data["result_line"]]
    for d in data["deals"]:
        top += d["note_lines"] + [i["line"] for i in d["items"]]
    stack = [x for x in top if x["text"]]
    while stack:
        line = stack.pop()
        yield line
        for v in line["params"].values():
            for x in v if isinstance(v, list) else [v]:
                if isinstance(x, dict) and "key" in x:
                    stack.append(x)


@pytest.fixture(scope="module")
def written() -> dict[str, dict[str, Any]]:
    """Key → one line the random games wrote with it."""
    out: dict[str, dict[str, Any]] = {}
    for (name, options), seed in [(v, s) for v in VARIANTS for s in range(SEEDS)]:
        game = playout(name, options, seed)
        half = game_class(name).replay(game.raw_log[:len(game.raw_log) // 2], options)
        for line in [*lines_of(game.score_sheet()), *lines_of(half.score_sheet())]:
            out.setdefault(line["key"], line)
    return out


def _placeholders(template: str) -> set[str]:
    return {f for _, f, _, _ in string.Formatter().parse(template) if f}


def test_every_key_in_the_source_has_russian_words_and_every_word_a_key() -> None:
    keys = source_keys()
    assert len(keys) > 90  # the scan found the engine's lines at all
    assert sorted(keys - SHEET_LINES.keys()) == []
    assert sorted(SHEET_LINES.keys() - keys) == []
    for key, calls in CALL_PARAMS.items():  # rare lines too: what each call gives its line
        for given in calls:
            for words in SHEET_LINES[key]:
                missing = _placeholders(words) - given
                assert not missing, f"{key}: the words name {missing}, a Line call gives {given}"


def test_every_line_the_games_write_has_a_key_and_words_for_its_parameters(written) -> None:
    assert "" not in written, f"a sheet line without a key: {written.get('')}"
    for key, line in written.items():
        assert key in SHEET_LINES, f"no words for {key}: {line['text']}"
        for words in SHEET_LINES[key]:
            missing = _placeholders(words) - line["params"].keys()
            assert not missing, f"{key}: the words name {missing}, it carries {line['params']}"
    # the random games reach most of the lines; the rest are rare (both seats' illegal plays at
    # once, a short partie's every outcome) and checked by the source scan above
    assert len(written) >= 0.6 * len(SHEET_LINES), sorted(SHEET_LINES.keys() - written.keys())


def test_the_russian_words_are_russian_and_the_english_say_the_same_things() -> None:
    for key, (words, english) in SHEET_LINES.items():
        assert _placeholders(words) == _placeholders(english), key
        text = re.sub(r"\{\w+\}", "", words)  # the placeholders are filled with names and numbers
        assert not LATIN_WORD.findall(text), f"{key}: {words}"
        assert CYRILLIC.search(text) or not re.search(r"\w", text), f"{key}: {words}"


def test_a_line_is_its_english_sentence_and_survives_copies() -> None:
    import copy
    import json
    import pickle

    line = Line("seat 1 wins the partie 151 : 40", "partie-won", seat=1, won=151, lost=40)
    assert line == "seat 1 wins the partie 151 : 40" and "wins" in line
    for twin in (copy.deepcopy(line), pickle.loads(pickle.dumps(line))):
        assert isinstance(twin, Line) and twin.key == "partie-won" and twin.params["won"] == 151
    assert json.loads(json.dumps({"r": line})) == {"r": "seat 1 wins the partie 151 : 40"}
