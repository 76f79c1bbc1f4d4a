"""The record format: round trip, and errors that name the line and the rule."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine import record, registry
from engine.errors import RecordError


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry.GAMES, "toy", "_toygame:Toy")


GOOD = """cardtable-record 1
game toy
option policy=penalize
meta table=club-3
# deal
shoe 7H
shoe 8H
shoe 9S
shoe AC
0 play 7H
1 play AC
"""


def test_a_record_replays_with_its_verdicts_and_meta(tmp_path: Path) -> None:
    path = tmp_path / "g.rec"
    path.write_text(GOOD)
    rec = record.read(path)
    assert rec.meta == {"table": "club-3"}
    assert [v.rule for v in rec.game.illegal_plays] == ["follow-suit"]
    assert record.loads(record.dumps(rec.game, rec.meta)).game.snapshot() == rec.game.snapshot()


@pytest.mark.parametrize(
    ("text", "line", "rule"),
    [
        ("", 1, "record-header"),
        ("chess 1\n", 1, "record-header"),
        ("cardtable-record 9\n", 1, "record-version"),
        ("cardtable-record 1\ngame nosuch\n", 2, "unknown-game"),
        ("cardtable-record 1\nshoe 7H\n", 2, "record-game"),
        ("cardtable-record 1\ngame toy\noption cards_each=many\nshoe 7H\n", 4, "bad-setting"),
        ("cardtable-record 1\ngame toy\nshoe 7H\nshoe XX\n", 4, "unknown-card"),
        ("cardtable-record 1\ngame toy\nshoe 7H\nshoe 7H\n", 4, "card-dealt-twice"),
        ("cardtable-record 1\ngame toy\nshoe 7H\nshoe 8H\nshoe 9S\nshoe AC\n1 play 8H\n", 7, "out-of-turn"),
    ],
)
def test_record_errors_name_the_line_and_the_rule(text: str, line: int, rule: str) -> None:
    with pytest.raises(RecordError) as info:
        record.loads(text)
    assert info.value.line == line
    assert info.value.rule == rule
    assert f"line {line}" in str(info.value)


def test_unreadable_record_file_is_a_record_error(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        record.read(tmp_path / "missing.rec")
