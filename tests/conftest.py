"""Fixtures several test files share. Helpers that are not fixtures live in ``tests/_*.py``
modules (never collected: pytest only collects ``test_*.py``), and no test file imports another.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if TYPE_CHECKING:  # imported in the fixtures: a test that needs no controller does not load it
    from controller.core import Controller

MakeController = Callable[..., "Controller"]


@pytest.fixture
def data_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A deck-profile home of the test's own (``CARDTABLE_DATA_DIR``): taught decks never reach
    the user's. Files that teach use it on every test (``pytest.mark.usefixtures``)."""
    home = tmp_path_factory.mktemp("cardtable-data")
    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(home))
    return home


@pytest.fixture
def make_controller(tmp_path: Path) -> Iterator[MakeController]:
    """``make_controller(game, options, names, path=...)``: a Controller with a fresh game on a
    real SQLite log (``tmp_path/table.sqlite`` unless ``path`` says otherwise). The logs are
    closed after the test."""
    from controller.core import Controller
    from controller.log import GameLog

    logs: list[GameLog] = []

    def make(game: str = "belot2", options: dict[str, Any] | None = None,
             names: list[str] | None = None, *, path: Path | None = None) -> Controller:
        log = GameLog(path or tmp_path / "table.sqlite")
        logs.append(log)
        ctl = Controller(log)
        ctl.new_game(game, dict(options or {}), names)
        return ctl

    yield make
    for log in logs:
        log.close()


@pytest.fixture
def ctl(make_controller: MakeController) -> Controller:
    """A two-seat Durak game (Аня and Боря) on a fresh log: the web display's usual table."""
    return make_controller("durak2", {}, ["Аня", "Боря"])


@pytest.fixture
def toy_game(monkeypatch: pytest.MonkeyPatch) -> None:
    """The tiny game of tests/_toygame.py registered as ``toy`` for this test."""
    from engine import registry

    monkeypatch.setitem(registry.GAMES, "toy", "_toygame:Toy")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's headless Chromium through Playwright (never a downloaded browser), one per test
    module; tests that use it skip themselves where it is absent."""
    from playwright.sync_api import sync_playwright

    from table_ui.testing import CHROMIUM, CHROMIUM_ARGS

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()
