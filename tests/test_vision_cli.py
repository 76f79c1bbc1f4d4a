"""The `cardtable deck|read|footage` commands, run the way a user runs them."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import cv2
import pytest
from _deck_show import check_drawn_on_the_pass

from cardtable.cli import main
from synth.shoe import Truth, truth_path
from vision.cards import composition
from vision.profile import list_profiles, profile_path

DECK = "anglo"


pytestmark = pytest.mark.usefixtures("data_home")


@pytest.fixture(scope="module")
def teach_clip(tmp_path_factory):
    path = tmp_path_factory.mktemp("cli") / "pass.mp4"
    assert main(["footage", "make", str(path), "--deck", DECK, "--composition", "32",
                 "--difficulty", "easy", "--seed", "4"]) == 0
    return path


def test_footage_make_writes_video_and_truth(teach_clip):
    truth = Truth.load(truth_path(teach_clip))
    assert [i.card for i in truth.items] == composition("32")
    cap = cv2.VideoCapture(str(teach_clip))
    assert int(cap.get(cv2.CAP_PROP_FRAME_COUNT)) == truth.frames
    ok, frame = cap.read()
    assert ok and frame.shape == (480, 640, 3)


def test_footage_decks_lists_the_russian_deck(capsys):
    assert main(["footage", "decks"]) == 0
    assert "Атласные" in capsys.readouterr().out


def test_teach_list_show_and_read(teach_clip, tmp_path, capsys):
    assert main(["deck", "teach", "club32", "--video", str(teach_clip),
                 "--composition", "32"]) == 0
    assert "32 cards" in capsys.readouterr().out
    assert main(["deck", "list"]) == 0
    assert capsys.readouterr().out.startswith("club32\t32 cards")

    sheet = tmp_path / "sheet.png"
    assert main(["deck", "show", "club32", "--out", str(sheet)]) == 0
    shown = capsys.readouterr().out
    assert "QS" in shown
    image = cv2.imread(str(sheet))
    assert image is not None and image.shape[0] > 100 and image.shape[1] > 300
    # The classic shoe's geometry, drawn on the frame of the pass where the reader named a card.
    assert check_drawn_on_the_pass(shown) in composition("32")

    deal = composition("32")
    random.Random(1).shuffle(deal)
    clip = tmp_path / "deal.mp4"
    assert main(["footage", "make", str(clip), "--deck", DECK, "--cards", ",".join(deal[:10]),
                 "--difficulty", "hard", "--seed", "2"]) == 0
    capsys.readouterr()
    assert main(["read", str(clip), "--deck", "club32", "--progress"]) == 0
    out = capsys.readouterr()
    events = [json.loads(line) for line in out.out.splitlines()]
    assert [e["card"] for e in events] == deal[:10]
    assert all(set(e) >= {"frame", "card", "confidence"} for e in events)
    assert [e["frame"] for e in events] == sorted(e["frame"] for e in events)
    assert "frame" in out.err  # the tqdm bar went to stderr


def test_teach_with_wrong_count_saves_nothing(teach_clip, capsys):
    assert main(["deck", "teach", "wrong", "--video", str(teach_clip),
                 "--composition", "36"]) == 2
    err = capsys.readouterr().err
    assert "saw 32 cards" in err and "expected 36" in err and "nothing saved" in err
    assert not profile_path("wrong").exists()
    assert list_profiles() == []


def test_teach_from_images(tmp_path, capsys):
    stills = tmp_path / "stills"
    assert main(["footage", "stills", str(stills), "--deck", "simplistic",
                 "--composition", "36"]) == 0
    assert len(list(stills.glob("*.png"))) == 36
    assert main(["deck", "teach", "simple", "--images", str(stills)]) == 0
    assert "36 cards" in capsys.readouterr().out


def test_teach_needs_exactly_one_source(capsys):
    assert main(["deck", "teach", "x"]) == 2
    assert "exactly one of --video" in capsys.readouterr().err


def _one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


@pytest.mark.parametrize("cards", [
    "6C," * 35 + "6C",  # one card 36 times
    ",".join([*composition("36")[:-1], "6C"]),  # 36 cards, one of them twice
])
def test_teach_refuses_duplicates(teach_clip, capsys, cards):
    assert main(["deck", "teach", "dup", "--video", str(teach_clip), "--cards", cards]) == 2
    assert "more than once" in _one_line_error(capsys.readouterr().err)
    assert list_profiles() == []


def test_a_card_list_shorter_than_the_pass_is_refused_by_what_the_pass_shows(teach_clip, capsys):
    # The list is the pass (no composition is assumed): 31 codes for a pass of 32 cards.
    cards = ",".join(composition("32")[:-1])
    assert main(["deck", "teach", "short", "--video", str(teach_clip), "--cards", cards]) == 2
    line = _one_line_error(capsys.readouterr().err)
    assert "32" in line and "31" in line, line
    assert list_profiles() == []


def test_a_card_list_defines_the_pass_without_a_composition(tmp_path, capsys):
    # 36 cards and two jokers: the list alone says so (it was refused as "composition 36").
    cards = composition("38")
    clip = tmp_path / "pass38.mp4"
    assert main(["footage", "make", str(clip), "--deck", DECK, "--cards", ",".join(cards),
                 "--difficulty", "easy", "--seed", "5"]) == 0
    capsys.readouterr()
    assert main(["deck", "teach", "with-jokers", "--video", str(clip),
                 "--cards", ",".join(cards)]) == 0, capsys.readouterr().err
    assert "38 cards" in capsys.readouterr().out
    assert json.loads(profile_path("with-jokers").read_text())["cards"][-1]["code"] == cards[-1]


def test_teach_refuses_a_list_not_matching_the_composition(teach_clip, capsys):
    cards = ",".join(composition("32"))
    assert main(["deck", "teach", "c", "--video", str(teach_clip), "--cards", cards,
                 "--composition", "36"]) == 2
    assert "has 32 cards but composition 36 has 36" in _one_line_error(capsys.readouterr().err)
    assert list_profiles() == []


def test_teach_refuses_a_name_with_a_newline(teach_clip, capsys):
    assert main(["deck", "teach", "club\n", "--video", str(teach_clip),
                 "--composition", "32"]) == 2
    assert "bad deck name" in _one_line_error(capsys.readouterr().err)
    assert list_profiles() == []


def test_show_refuses_an_output_that_is_not_an_image(teach_clip, tmp_path, capsys):
    assert main(["deck", "teach", "s32", "--video", str(teach_clip), "--composition", "32"]) == 0
    capsys.readouterr()
    out = tmp_path / "x.txt"
    assert main(["deck", "show", "s32", "--out", str(out)]) == 2
    assert ".png" in _one_line_error(capsys.readouterr().err)
    assert not out.exists()


BLAS_PROBE = """
import sys
from cardtable.cli import main
main(["games"])
import numpy, threadpoolctl
print(max(i["num_threads"] for i in threadpoolctl.threadpool_info() if i["user_api"] == "blas"))
"""


@pytest.mark.parametrize("given, expected", [
    (None, 1), (("OPENBLAS_NUM_THREADS", "2"), 2), (("OMP_NUM_THREADS", "2"), 2)])
def test_the_cli_keeps_blas_to_one_thread_unless_the_user_says(given, expected):
    """The reader's small matrix products run slower on two BLAS threads, which also take the
    core the decoding thread needs; a thread count the user set, in any of the variables BLAS
    reads, is left alone."""
    pytest.importorskip("threadpoolctl")
    env = {k: v for k, v in os.environ.items()
           if k not in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
                        "GOTO_NUM_THREADS")}
    if given is not None:
        env[given[0]] = given[1]
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one core: BLAS uses one thread whatever the CLI does")
    out = subprocess.run([sys.executable, "-c", BLAS_PROBE], env=env, capture_output=True,
                         text=True, check=True).stdout.split()
    assert int(out[-1]) == expected
