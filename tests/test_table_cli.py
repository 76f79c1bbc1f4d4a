"""`cardtable read --source table`, `cardtable footage table` and `cardtable table faces`, run
the way a user runs them, including the bad input (unreadable video, another camera's calibration,
a broken hands file)."""

from __future__ import annotations

import hashlib
import json

import cv2
import numpy as np
import pytest
from _table_kit import data_dir, table_clip, taught

from cardtable.cli import main
from synth.table import TableTruth, truth_path
from vision.profile import profile_path
from vision.table.faces import faces_path

pytestmark = pytest.mark.timeout(1200)
CARDS = ["JS", "7H", "AC", "QD"]


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    base = tmp_path_factory.getbasetemp()
    taught(base, "anglo", "36")
    return table_clip(base, "anglo", 2, CARDS, "tricks", 41)


@pytest.fixture(autouse=True)
def data(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(data_dir(tmp_path_factory.getbasetemp())))


def _lines(out: str) -> list[dict]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def test_read_table_prints_json_lines(setup, capsys, tmp_path):
    path, truth = setup
    hands = tmp_path / "hands.json"
    hands.write_text(json.dumps(truth.hands))
    for extra in ([], ["--hands", str(hands)]):
        assert main(["read", str(path), "--deck", "anglo", "--source", "table", "--seats", "2",
                     *extra]) == 0
        events = _lines(capsys.readouterr().out)
        placed = [(e["seat"], e["card"]) for e in events if e["event"] == "placed"]
        assert placed == [(p.seat, p.card) for p in truth.placed]
        removed = [sorted(e["cards"]) for e in events if e["event"] == "removed"]
        assert removed == [sorted(r.cards) for r in truth.removed]


def test_footage_table_writes_clip_and_truth(tmp_path, capsys):
    out = tmp_path / "mini.mp4"
    assert main(["footage", "table", str(out), "--deck", "simplistic", "--cards", "9H,KS",
                 "--seats", "2", "--difficulty", "easy", "--table", "wood", "--seed", "2"]) == 0
    truth = TableTruth.load(truth_path(out))
    assert sorted(p.card for p in truth.placed) == ["9H", "KS"] and truth.table == "wood"
    cap = cv2.VideoCapture(str(out))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == truth.frames
    ok, frame = cap.read()
    assert ok and frame.shape == (720, 1280, 3)
    assert "wrote" in capsys.readouterr().out


def test_faces_sidecar_leaves_the_profile_alone(setup, capsys):
    before = hashlib.sha256(profile_path("anglo").read_bytes()).hexdigest()
    assert main(["table", "faces", "anglo"]) == 0
    assert faces_path("anglo").is_file()
    assert hashlib.sha256(profile_path("anglo").read_bytes()).hexdigest() == before
    assert "36 cards" in capsys.readouterr().out


@pytest.mark.parametrize("case", ["not-a-video", "other-camera", "bad-hands", "seat-5",
                                  "unknown-deck", "hands-on-shoe"])
def test_bad_input_is_one_clear_line(setup, case, tmp_path, capsys):
    path, _ = setup
    args = ["read", str(path), "--deck", "anglo", "--source", "table"]
    want = ""
    if case == "not-a-video":
        junk = tmp_path / "junk.mp4"
        junk.write_bytes(b"\x00" * 500)
        args[1], want = str(junk), "cannot read video"
    elif case == "other-camera":
        cal = tmp_path / "cal.json"
        cal.write_text(json.dumps({"version": 1, "image_size": [1920, 1080],
                                   "corners": [[400, 1000], [400, 100], [1500, 100], [1500, 1000]]}))
        args += ["--calibration", str(cal)]
        want = "the calibration is for a 1920x1080 camera but the frames are 1280x720"
    elif case == "bad-hands":
        hands = tmp_path / "hands.json"
        hands.write_text('{"0": ["7C", "XX"]}')
        args += ["--hands", str(hands)]
        want = "not a card code"
    elif case == "seat-5":
        hands = tmp_path / "hands.json"
        hands.write_text('{"5": ["7C"]}')
        args += ["--hands", str(hands)]
        want = "seat '5' is not one of 0..1"
    elif case == "unknown-deck":
        args[3], want = "nosuchdeck", "no deck profile called 'nosuchdeck'"
    else:
        args = ["read", str(path), "--deck", "anglo", "--hands", "x.json"]
        want = "--calibration, --hands and --marker-cm are for --source table"
    assert main(args) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("error: ") and want in err and "\n" not in err, err


def test_black_video_reads_nothing_without_crashing(setup, tmp_path, capsys):
    """A camera that is covered from the start: no markers to calibrate from, a clear error."""
    path = tmp_path / "black.mp4"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"mp4v"), 30.0, (1280, 720))
    for _ in range(5):
        writer.write(np.zeros((720, 1280, 3), np.uint8))
    writer.release()
    assert main(["read", str(path), "--deck", "anglo", "--source", "table"]) == 2
    assert "cannot be calibrated" in capsys.readouterr().err
