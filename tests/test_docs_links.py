"""The README and the docs point only at files of the project: every markdown link and every path
of a project file they name resolves to a file or folder inside the repository, nothing points
outside it (``../shared`` …), and the rules reference the help texts cite is ``docs/rules.md``,
with its sections §1–§6.

What counts as a path (the rest — commands' other words, globs, placeholders — is left alone):

* the target of a markdown link ``[text](target)``, resolved from the page's own folder (web
  addresses and ``#anchors`` aside);
* a word (in prose, in ``code`` or in a code block) that starts with ``../`` or ``./``;
* a word in ``code`` or in a code block whose first part is one of the repository's top-level
  folders (``docs/…``, ``scripts/run``); in prose such a word counts when it has a file
  extension, a trailing ``/`` or a second ``/`` (``docs/records.md``, ``vision/table/``), so that
  prose like "club/spade" is no path. These resolve from the repository root or the page's folder;
* a bare ``NAME.md``: a page beside this one or at the root.

A word with a glob or placeholder character (``*?<>{}$``, e.g. ``tests/test_ui_*.py``,
``<data_dir>/…``) is not a path; a word without a folder part (``table.toml`` in a command line)
is an example name, not a project file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
NOT_PROJECT = {"__pycache__", "node_modules"}
TOP = {p.name for p in ROOT.iterdir()
       if p.is_dir() and not p.name.startswith(".") and not p.name.endswith(".egg-info")
       and p.name not in NOT_PROJECT}

CODE = re.compile(r"^(`{3,}|~{3,}).*?^\1[ \t]*$|(`+)(?!`).+?(?<!`)\2(?!`)", re.M | re.S)
LINK = re.compile(r"\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
WORD_SPLIT = re.compile(r"[\s`'\"()\[\],;|«»]+")
PLACEHOLDER = re.compile(r"[*?<>{}$\\]")
LEADING = "«“‘:"
TRAILING = ".,:;!?»”’"
LINE_SUFFIX = re.compile(r"(:\d+)+$")  # engine/terz.py:120
BARE_PAGE = re.compile(r"^[\w.-]+\.md$")
SECTION = re.compile(r"^#{1,6}\s+§(\d+)\b", re.M)
CITATION = re.compile(r"docs/rules\.md`?\s*§\s*(\d+)")


def _rel(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def _inside(path: Path) -> bool:
    return path.resolve().is_relative_to(ROOT)


def _links(text: str) -> list[str]:
    """Markdown link targets that name a file (not a web address, not an anchor on this page)."""
    out = []
    for target in LINK.findall(text):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("#"):
            continue
        out.append(target.split("#", 1)[0])
    return out


def _path_words(text: str) -> list[str]:
    """Words that look like a project path (see the module docstring)."""
    code = [m.group(0) for m in CODE.finditer(text)]
    prose = CODE.sub(" ", text)
    return _words(" ".join(code), strict=False) + _words(LINK.sub(" ", prose), strict=True)


def _words(text: str, strict: bool) -> list[str]:
    out = []
    for raw in WORD_SPLIT.split(text):
        word = LINE_SUFFIX.sub("", raw.lstrip(LEADING).rstrip(TRAILING))
        if not word or PLACEHOLDER.search(word) or "://" in word:
            continue
        word = word.split("#", 1)[0]
        if word.startswith(("../", "./")) or word == "..":
            out.append(word)
        elif "/" in word and word.split("/", 1)[0] in TOP:
            if not strict or word.endswith("/") or word.count("/") > 1 \
                    or re.search(r"\.\w+$", word):
                out.append(word)
        elif BARE_PAGE.match(word):
            out.append(word)
    return out


# What the tests and tools write (.gitignore's folders below the root, e.g. tests/artifacts/):
# a page may name them though a fresh clone has none yet.
GENERATED = tuple(line.strip().lstrip("/") for line in
                  (ROOT / ".gitignore").read_text(encoding="utf-8").splitlines()
                  if "/" in line.strip().strip("/") and not line.startswith("#"))


def _problems(page: Path, text: str) -> list[str]:
    where = _rel(page)
    problems = []
    for target in _links(text):
        path = page.parent / target
        if not _inside(path):
            problems.append(f"{where}: link ({target}) points outside the repository")
        elif not path.exists():
            problems.append(f"{where}: link ({target}) resolves to nothing")
    for word in _path_words(text):
        candidates = [page.parent / word] if word.startswith("..") \
            else [ROOT / word, page.parent / word]
        if not all(_inside(p) for p in candidates):
            problems.append(f"{where}: {word} points outside the repository")
        elif not any(p.exists() for p in candidates) and not word.startswith(GENERATED):
            problems.append(f"{where}: {word} is no file or folder of the project")
    return problems


@pytest.mark.parametrize("page", PAGES, ids=_rel)
def test_every_path_a_page_names_is_inside_the_project(page: Path) -> None:
    problems = _problems(page, page.read_text(encoding="utf-8"))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("text, bad", [
    ("Rules: `../shared/rules/RULES.md` §6.", "../shared/rules/RULES.md"),
    ("see ../shared/rules/RULES.md, §1", "../shared/rules/RULES.md"),
    ("[the rules](../../shared/rules/RULES.md)", "../../shared/rules/RULES.md"),
    ("the engine reads `docs/no-such-page.md`", "docs/no-such-page.md"),
    ("Rules: RULES.md §4.", "RULES.md"),
    ("[setup](build/nothing.md#parts)", "build/nothing.md"),
    ("run `scripts/no-such-script --fast`", "scripts/no-such-script"),
    ("```\ncardtable replay controller/data/nothing [--json]\n```", "controller/data/nothing"),
    ("the folder vision/nothing/ holds it", "vision/nothing/"),
])
def test_the_checker_catches_a_path_outside_or_missing(text: str, bad: str) -> None:
    problems = _problems(ROOT / "docs" / "engine.md", text)
    assert problems and bad in problems[0], problems


@pytest.mark.parametrize("text", [
    "`cardtable config init table.toml` writes `game.json` beside `shoe.mp4`",
    "`python -m pytest tests/test_ui_*.py -q` and `mpremote cp firmware/*.py :`",
    "`<data_dir>/table.calibration.json`, `cardtable/<club>/<table>/log`, `GET /api/games/{id}`",
    "`/etc/cardtable/table.toml`, https://example.org/a/b.md, [top](#эталонный-башмак)",
    "the rules (docs/rules.md §6), `engine/terz.py:120`, see docs/games/.",
    "its 15 `??` all club/spade; vision/table is the reader",
])
def test_the_checker_leaves_what_is_no_project_path(text: str) -> None:
    assert _problems(ROOT / "docs" / "engine.md", text) == []


def test_no_page_or_help_text_cites_the_rules_outside_the_project() -> None:
    texts = {_rel(p): p.read_text(encoding="utf-8") for p in PAGES}
    texts |= {_rel(p): p.read_text(encoding="utf-8")
              for p in sorted((ROOT / "engine").rglob("*.py"))}
    found = [f"{name}: {hit}" for name, text in texts.items()
             for hit in re.findall(r"\.\./shared\S*|\bRULES\.md\b", text)]
    assert not found, "cite docs/rules.md instead:\n" + "\n".join(found)


def test_rules_reference_has_sections_1_to_6_and_every_citation_exists() -> None:
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    sections = [int(n) for n in SECTION.findall(rules)]
    assert sections == [1, 2, 3, 4, 5, 6], sections
    assert re.search(r"^#{1,6}\s+Common conventions", rules, re.M)
    for game in ("belot2", "durak2", "joker", "bazar", "terz"):
        assert f"(games/{game}.md)" in rules, f"docs/rules.md does not link docs/games/{game}.md"
    texts = [p.read_text(encoding="utf-8") for p in PAGES]
    texts += [p.read_text(encoding="utf-8") for p in (ROOT / "engine").rglob("*.py")]
    cited = {int(n) for text in texts for n in CITATION.findall(text)}
    assert cited and cited <= set(sections), cited - set(sections)
