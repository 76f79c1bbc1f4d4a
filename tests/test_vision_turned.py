"""A deck whose two corners differ: swiss-xvii's court cards are drawn once (single-headed, no
index), so a card dealt turned round leads with a corner the first pass never showed. A second
pass with the deck turned round teaches those corners (`cardtable deck teach --turned`).

Real encoded video through the classic shoe; the CLI is run the way a user runs it."""

from __future__ import annotations

import random

import cv2
import pytest

from cardtable.cli import main
from synth.evaluate import score
from synth.shoe import make_clip
from vision.cards import UNKNOWN, composition
from vision.profile import load_profile, profile_path, save_profile
from vision.reader import read_video
from vision.teach import TeachError, teach_from_video

DECK = "swiss-xvii"
CARDS = composition("36")
COURT = [c for c in CARDS if c[0] in "JQK"]


pytestmark = pytest.mark.usefixtures("data_home")


@pytest.fixture(scope="module")
def passes(tmp_path_factory):
    folder = tmp_path_factory.mktemp("turned")
    upright, turned = folder / "pass.mp4", folder / "turned.mp4"
    make_clip(upright, DECK, CARDS, "easy", seed=5)
    make_clip(turned, DECK, CARDS, "easy", seed=6, rotated=1.0)  # every card turned round
    deal = COURT[:]
    random.Random(1).shuffle(deal)
    clip = folder / "deal.mp4"
    truth = make_clip(clip, DECK, deal, "hard", seed=7, rotated=1.0)
    return folder, upright, turned, clip, truth


@pytest.fixture(scope="module")
def profiles(passes):
    """Taught from the upright pass alone, and from it and the turned pass."""
    _, upright, turned, _, _ = passes
    return (teach_from_video(DECK, upright, CARDS),
            teach_from_video(DECK, upright, CARDS, turned=turned))


def test_turned_court_cards_need_the_turned_pass(passes, profiles):
    _, _, _, clip, truth = passes
    one, two = profiles
    assert not one.turned
    # Every court card's turned corner (a figure's feet, no index) differs from its upright one.
    assert set(COURT) <= {c.code for c in two.turned}
    assert all(it.turned for it in truth.items)
    alone = score(list(read_video(clip, one)), truth)
    both = score(list(read_video(clip, two)), truth)
    # One pass never saw these corners: no card may be named, let alone wrongly.
    assert alone.wrong == 0 and alone.read <= 2, alone.problems
    assert both.wrong == 0 and both.read >= 11, both.problems
    assert both.lost == 0 and both.extra == 0


def test_upright_cards_still_read_with_turned_corners_taught(passes, profiles):
    upright, two = passes[1], profiles[1]
    # The teaching pass itself, read back: each card once, upright; the turned corners of the
    # same cards are never its rivals and never named instead of it.
    events = list(read_video(upright, two))
    named = [e.card for e in events if e.card != UNKNOWN]
    assert named == [c for c in CARDS if c in named]  # in pass order, none twice
    assert len(named) >= 34


def test_a_turned_pass_in_another_order_is_refused_and_nothing_is_saved(passes, capsys):
    folder, upright, _, _, _ = passes
    shuffled = CARDS[:]
    random.Random(3).shuffle(shuffled)
    other = folder / "turned-shuffled.mp4"
    make_clip(other, DECK, shuffled, "easy", seed=8, rotated=1.0)
    assert main(["deck", "teach", "swiss", "--video", str(upright), "--turned", str(other)]) == 2
    err = capsys.readouterr().err
    assert "same order" in err and "nothing saved" in err and "Traceback" not in err
    assert not profile_path("swiss").exists()


def test_cli_teach_with_turned_pass_lists_and_shows_the_turned_corners(passes, profiles, tmp_path,
                                                                       capsys):
    _, upright, turned, _, _ = passes
    assert main(["deck", "teach", "swiss", "--video", str(upright), "--turned", str(turned)]) == 0
    out = capsys.readouterr().out
    assert "36 cards" in out and "also turned round" in out
    saved = load_profile("swiss")
    assert len(saved.turned) >= len(COURT)
    assert main(["deck", "list"]) == 0
    assert f"(+{len(saved.turned)} turned)" in capsys.readouterr().out
    sheet = tmp_path / "sheet.png"
    assert main(["deck", "show", "swiss", "--out", str(sheet)]) == 0
    assert "turned corners of" in capsys.readouterr().out
    with_turned = cv2.imread(str(sheet))
    save_profile(profiles[0].model_copy(update={"name": "swiss1"}))
    assert main(["deck", "show", "swiss1", "--out", str(tmp_path / "one.png")]) == 0
    one = cv2.imread(str(tmp_path / "one.png"))
    assert with_turned.shape[0] > one.shape[0]  # more rows of corners on the sheet


def test_the_same_pass_given_as_turned_adds_nothing(passes, capsys):
    _, upright, _, _, _ = passes
    assert main(["deck", "teach", "swiss", "--video", str(upright), "--turned", str(upright)]) == 0
    assert "nothing was added" in capsys.readouterr().out
    assert not load_profile("swiss").turned


def test_turned_needs_a_video_pass(tmp_path, capsys):
    assert main(["deck", "teach", "swiss", "--images", str(tmp_path), "--turned",
                 str(tmp_path / "x.mp4")]) == 2
    assert "--turned" in capsys.readouterr().err
    assert not profile_path("swiss").exists()


def test_an_unreadable_turned_pass_is_a_clear_error_before_any_teaching(passes, tmp_path,
                                                                        capsys):
    _, upright, _, _, _ = passes
    junk = tmp_path / "turned.mp4"
    junk.write_bytes(b"not a video at all")
    assert main(["deck", "teach", "swiss", "--video", str(upright), "--turned", str(junk)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "cannot read video" in err and "Traceback" not in err
    assert main(["deck", "teach", "swiss", "--video", str(upright), "--turned",
                 str(tmp_path / "missing.mp4")]) == 2
    assert "no such video" in capsys.readouterr().err
    assert not profile_path("swiss").exists()


def test_a_turned_pass_of_another_length_is_refused(passes, tmp_path):
    upright = passes[1]
    short = tmp_path / "short.mp4"
    make_clip(short, DECK, CARDS[:30], "easy", seed=9, rotated=1.0)
    with pytest.raises(TeachError, match="saw 30 cards in the turned pass"):
        teach_from_video(DECK, upright, CARDS, turned=short)
