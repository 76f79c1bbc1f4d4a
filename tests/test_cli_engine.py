"""`cardtable play` and `cardtable score` end to end (in-process, on the toy game)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cardtable.cli import main
from engine import record, registry


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", "_toygame:Toy")


def test_play_writes_a_record_that_score_reads_back(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "g.rec"
    assert main(["play", "--game", "toy", "--seed", "3", "--record", str(path), "--json"]) == 0
    sheet = json.loads(capsys.readouterr().out)
    rec = record.read(path)
    assert rec.meta["seed"] == "3"
    # two tricks in the toy game, one point each, whoever won them
    assert sum(sheet["totals"]) == 2
    assert main(["score", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == sheet


def test_same_seed_same_game(tmp_path: Path) -> None:
    a, b = tmp_path / "a.rec", tmp_path / "b.rec"
    main(["play", "--game", "toy", "--seed", "11", "--record", str(a), "-q"])
    main(["play", "--game", "toy", "--seed", "11", "--record", str(b), "-q"])
    assert a.read_text() == b.read_text()


def test_scripted_seat_and_stacked_shoe(tmp_path: Path) -> None:
    shoe = tmp_path / "shoe.txt"
    shoe.write_text("7H 8H 9S AC")  # seat 0: 7H 9S; seat 1: 8H AC
    script = tmp_path / "seat0.txt"
    script.write_text("# seat 0 leads spades first\n0 play 9S\n0 play 7H\n")
    path = tmp_path / "g.rec"
    main(["play", "--game", "toy", "--shoe", str(shoe), "--seat", f"0=script:{script}",
          "--seat", "1=first", "--record", str(path), "-q"])
    game = record.read(path).game
    # Trick 1: 9S led, seat 1 has no spade and "first" takes the lowest-index card, AC
    # (clubs come first): seat 0 wins. Trick 2: 7H led, seat 1 follows with 8H and wins. 1 : 1.
    assert [str(e) for e in game.raw_log if e.kind == "play"] == [
        "0 play 9S", "1 play AC", "0 play 7H", "1 play 8H"]
    assert game.score_sheet().totals == [1, 1]


def test_score_of_a_broken_record_names_line_and_rule(tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "bad.rec"
    path.write_text("cardtable-record 1\ngame toy\nshoe 7H\nshoe 7H\n")
    assert main(["score", str(path)]) == 2
    err = capsys.readouterr().err
    assert "line 4" in err and "card-dealt-twice" in err


def test_unknown_option_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "--game", "toy", "-o", "colour=red"]) == 2
    assert "known options" in capsys.readouterr().err
