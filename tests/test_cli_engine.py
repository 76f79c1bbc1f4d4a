"""`cardtable play` and `cardtable score` end to end (in-process, on the toy game)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from cardtable.cli import main
from engine import record

pytestmark = pytest.mark.usefixtures("toy_game")  # tests/conftest.py


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


# --- human seats ------------------------------------------------------------------------------


def _stdin(monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(text))


def _toy_shoe(tmp_path: Path) -> Path:
    shoe = tmp_path / "shoe.txt"
    shoe.write_text("7H 8H 9S AC")  # seat 0: 7H 9S; seat 1: 8H AC
    return shoe


def test_human_seat_reasks_on_a_typo_with_the_legal_choices(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.rec"
    _stdin(monkeypatch, "zzz\n7\n0\n0\n")
    code = main(["play", "--game", "toy", "--shoe", str(_toy_shoe(tmp_path)), "--seat",
                 "0=human", "--seat", "1=first", "--record", str(path), "-q"])
    out = capsys.readouterr().out
    assert code == 0
    assert "'zzz' is not one of the choices" in out and "'7' is not one of the choices" in out
    assert out.count("0 play 7H") >= 2  # the choices are listed again after the typo
    assert len([e for e in record.read(path).game.raw_log if e.kind == "play"]) == 4


def test_human_seat_takes_an_event_typed_in_full_but_only_a_legal_one_of_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.rec"
    # Another seat's card, a card not in hand, an undo, a shoe card: all re-asked, not recorded.
    _stdin(monkeypatch, "1 play AC\n0 play KD\nundo\nshoe 6S\n0 bid pass\n0 play 9S\nPLAY 7h\n")
    code = main(["play", "--game", "toy", "--shoe", str(_toy_shoe(tmp_path)), "--seat",
                 "0=human", "--seat", "1=first", "--record", str(path), "-q"])
    out = capsys.readouterr().out
    assert code == 0, out
    game = record.read(path).game
    assert [str(e) for e in game.raw_log if e.kind == "play"] == [
        "0 play 9S", "1 play AC", "0 play 7H", "1 play 8H"]
    assert len(game.raw_log) == 8 and not game.illegal_plays
    assert out.count("is not one of the choices") == 5


def test_human_seat_at_end_of_input_stops_and_keeps_the_record(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.rec"
    _stdin(monkeypatch, "0 play 9S\n")  # then the input ends
    code = main(["play", "--game", "toy", "--shoe", str(_toy_shoe(tmp_path)), "--seat",
                 "0=human", "--seat", "1=first", "--record", str(path), "-q"])
    err = capsys.readouterr().err
    assert code == 1
    assert "end of input" in err and str(path) in err and len(err.strip().splitlines()) == 1
    game = record.read(path).game
    assert [str(e) for e in game.raw_log] == [
        "shoe 7H", "shoe 8H", "shoe 9S", "shoe AC", "0 play 9S", "1 play AC"]
    assert not game.is_over


def test_script_that_runs_out_stops_and_keeps_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = tmp_path / "seat0.txt"
    script.write_text("0 play 9S\n")
    path = tmp_path / "g.rec"
    code = main(["play", "--game", "toy", "--shoe", str(_toy_shoe(tmp_path)), "--seat",
                 f"0=script:{script}", "--record", str(path), "-q"])
    assert code == 1 and "ran out" in capsys.readouterr().err
    assert "0 play 9S" in path.read_text()


# --- bad arguments: one line on stderr, exit status 2 ------------------------------------------


def _bad_play_args(tmp_path: Path) -> dict[str, tuple[list[str], str]]:
    unknown = tmp_path / "unknown.txt"
    unknown.write_text("7H ZZ 9S")
    twice = tmp_path / "twice.txt"
    twice.write_text("7H 7H")
    foreign = tmp_path / "foreign.txt"
    foreign.write_text("7H BJ")  # a joker is in no 32-card deck
    script = tmp_path / "bad-script.txt"
    script.write_text("# fine\n0 play 9S\n0 !!\n")
    binary = tmp_path / "binary.txt"
    binary.write_bytes(b"\xff\xfe\x00")
    return {
        "negative seed": (["--seed", "-1"], "--seed"),
        "seat out of range": (["--seat", "9=human"], "2 seats"),
        "negative seat": (["--seat=-1=human"], "2 seats"),
        "seat not a number": (["--seat", "x=human"], "'x'"),
        "seat twice": (["--seat", "0=human", "--seat", "0=first"], "seat 0"),
        "unknown seat kind": (["--seat", "0=robot"], "robot"),
        "missing script": (["--seat", "0=script:/nope"], "/nope"),
        "script with a bad line": (["--seat", f"0=script:{script}"], "line 3"),
        "missing shoe": (["--shoe", "/nope"], "/nope"),
        "shoe is a folder": (["--shoe", str(tmp_path)], str(tmp_path)),
        "binary shoe": (["--shoe", str(binary)], str(binary)),
        "unknown card in shoe": (["--shoe", str(unknown)], "ZZ"),
        "card not in the deck": (["--shoe", str(foreign)], "BJ"),
        "repeated card in shoe": (["--shoe", str(twice)], "7H"),
        "record in a missing folder": (["--record", str(tmp_path / "nope" / "x.rec")], "nope"),
        "record is a folder": (["--record", str(tmp_path)], str(tmp_path)),
        "negative delay": (["--delay", "-1"], "--delay"),
        "nan delay": (["--delay", "nan"], "--delay"),
        "option not key=value": (["-o", "colour"], "colour"),
    }


BAD_PLAY = list(_bad_play_args(Path("/tmp")))


@pytest.mark.parametrize("case", BAD_PLAY)
def test_bad_play_arguments_are_one_line_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str
) -> None:
    extra, wanted = _bad_play_args(tmp_path)[case]
    try:
        code = main(["play", "--game", "toy", "-q", *extra])
    except SystemExit as exc:  # argparse's own
        code = exc.code
    captured = capsys.readouterr()
    lines = [ln for ln in captured.err.splitlines() if not ln.startswith(("usage:", " "))]
    assert code == 2, captured
    assert len(lines) == 1 and "error" in lines[0] and wanted in lines[0], captured.err
    assert "score" not in captured.out and "total" not in captured.out  # no game was played


def test_negative_seed_is_not_the_same_game_as_the_positive_one(tmp_path: Path) -> None:
    with pytest.raises(SystemExit) as info:
        main(["play", "--game", "toy", "--seed", "-1", "-q"])
    assert info.value.code == 2
