"""Bad input: a clear error or a flagged event, never a crash and never a confident wrong card."""

from __future__ import annotations

import json

import pytest

from cardtable.cli import main
from synth.evaluate import score
from synth.shoe import make_clip
from vision.cards import UNKNOWN, composition
from vision.profile import ProfileError, load_profile, save_profile
from vision.reader import read_video
from vision.teach import TeachError, teach_from_video
from vision.video import VideoError

DECK = "Атласные"


@pytest.fixture(scope="module")
def profile(tmp_path_factory):
    path = tmp_path_factory.mktemp("bad") / "pass.mp4"
    make_clip(path, DECK, composition("36j"), "easy", seed=21)
    return teach_from_video("atlas", path, composition("36j"))


@pytest.fixture(autouse=True)
def data_home(tmp_path, monkeypatch, profile):
    monkeypatch.setenv("CARDTABLE_DATA_DIR", str(tmp_path / "data"))
    save_profile(profile)


def test_missing_video(tmp_path, profile, capsys):
    with pytest.raises(VideoError, match="no such video"):
        list(read_video(tmp_path / "nope.mp4", profile))
    assert main(["read", str(tmp_path / "nope.mp4"), "--deck", "atlas"]) == 2
    assert "no such video" in capsys.readouterr().err


def test_unreadable_video(tmp_path, profile, capsys):
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"this is not a video at all" * 100)
    with pytest.raises(VideoError):
        list(read_video(junk, profile))
    assert main(["read", str(junk), "--deck", "atlas"]) == 2
    assert "error:" in capsys.readouterr().err


def test_empty_video(tmp_path, profile, capsys):
    empty = tmp_path / "empty.mp4"
    empty.write_bytes(b"")
    with pytest.raises(VideoError):
        list(read_video(empty, profile))
    assert main(["read", str(empty), "--deck", "atlas"]) == 2


def test_teaching_from_unreadable_video_is_a_clear_error(tmp_path, capsys):
    junk = tmp_path / "junk.avi"
    junk.write_bytes(b"\x00" * 1000)
    assert main(["deck", "teach", "x", "--video", str(junk)]) == 2
    assert "error:" in capsys.readouterr().err


def test_video_with_no_cards(tmp_path, profile, capsys):
    path = tmp_path / "nothing.mp4"
    make_clip(path, DECK, [], "hard", seed=1, lead_in=30)
    assert list(read_video(path, profile)) == []
    assert main(["read", str(path), "--deck", "atlas"]) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and "no cards seen" in captured.err
    with pytest.raises(TeachError, match="no cards seen"):
        teach_from_video("x", path, ["QS"])


def test_face_down_cards_are_flagged_not_named(tmp_path, profile):
    path = tmp_path / "backs.mp4"
    cards = ["7C", "QS", "9H", "AD"]
    truth = make_clip(path, DECK, cards, "hard", seed=3, face_down=2)
    events = list(read_video(path, profile))
    result = score(events, truth)
    assert result.wrong == 0 and result.others_named == 0, result.problems
    assert result.read == 4, result.problems
    flagged = [e for e in events if e.card == UNKNOWN]
    assert len(flagged) == 2 and all(e.flag for e in flagged)


def test_foreign_object_in_the_window(tmp_path, profile):
    path = tmp_path / "finger.mp4"
    cards = ["8D", "KS", "BJ", "TC"]
    truth = make_clip(path, DECK, cards, "hard", seed=5, objects=2)
    events = list(read_video(path, profile))
    result = score(events, truth)
    assert result.wrong == 0 and result.others_named == 0, result.problems
    assert result.read == 4, result.problems
    assert any(e.flag == "obstruction" for e in events)


def test_unknown_deck_name(tmp_path, capsys):
    assert main(["read", str(tmp_path / "x.mp4"), "--deck", "no-such-deck"]) == 2
    err = capsys.readouterr().err
    assert "no deck profile called 'no-such-deck'" in err and "atlas" in err
    assert main(["deck", "show", "no-such-deck"]) == 2


def test_corrupt_profile(tmp_path, capsys):
    path = tmp_path / "data" / "decks" / "atlas.json"
    raw = json.loads(path.read_text())
    del raw["cards"][3]["png"]
    path.write_text(json.dumps(raw))
    with pytest.raises(ProfileError, match="corrupt"):
        load_profile("atlas")
    assert main(["read", str(tmp_path / "x.mp4"), "--deck", "atlas"]) == 2
    assert "corrupt" in capsys.readouterr().err
    assert main(["deck", "list"]) == 0
    assert "CORRUPT" in capsys.readouterr().out


def test_not_json_at_all(tmp_path, capsys):
    path = tmp_path / "data" / "decks" / "atlas.json"
    path.write_bytes(b"\x89PNG garbage")
    assert main(["deck", "show", "atlas"]) == 2
    assert "corrupt" in capsys.readouterr().err
