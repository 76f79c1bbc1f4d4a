"""A deck whose two indexes are not turned copies of each other: KDE's ancient-egyptians draws
the bottom-right index the same way up as the top-left one, so a card dealt turned round shows
an index the upright pass never saw, and for diamonds (alike either way up) a turned 6 is an
upright 9 pixel for pixel. Without a turned pass such cards must not be named wrongly; with
one (`--turned`) they are read. Its order is checked by colour, as its turned corners look like
no upright one.

Real encoded video through the classic shoe."""

from __future__ import annotations

import random

import pytest

from synth.evaluate import score
from synth.shoe import make_clip
from vision.cards import composition
from vision.reader import read_video
from vision.teach import TeachError, teach_from_video

DECK = "kde-ancient-egyptians"
CARDS = composition("36")


@pytest.fixture(scope="module")
def passes(tmp_path_factory):
    folder = tmp_path_factory.mktemp("asymmetric")
    upright, turned = folder / "pass.mp4", folder / "turned.mp4"
    make_clip(upright, DECK, CARDS, "easy", seed=5)
    make_clip(turned, DECK, CARDS, "easy", seed=6, rotated=1.0)
    # Every card dealt turned, the 6 and 9 of diamonds among them.
    deal = CARDS[:]
    random.Random(2).shuffle(deal)
    clip = folder / "deal.mp4"
    truth = make_clip(clip, DECK, deal, "hard", seed=7, rotated=1.0)
    return folder, upright, turned, clip, truth


def test_turned_pass_of_an_asymmetric_deck_is_taught_and_read(passes):
    _, upright, turned, clip, truth = passes
    two = teach_from_video(DECK, upright, CARDS, turned=turned)
    # Every turned corner differs from its upright one; a turned 6D is an upright 9D, and is
    # kept all the same (left out, a turned 6D would be read as the 9D).
    assert {c.code for c in two.turned} >= {"6D", "9D", "AD", "QS"}
    both = score(list(read_video(clip, two)), truth)
    assert both.wrong == 0 and both.lost == 0, both.problems
    assert both.read >= 30, both.problems  # 36 dealt turned; 6D and 9D may not be told apart
    events = list(read_video(clip, two))
    assert not any(e.card in ("6D", "9D") and e.card != item.card
                   for e, item in zip(events, truth.items, strict=False))


def test_without_the_turned_pass_only_the_six_and_nine_of_diamonds_can_be_swapped(passes):
    _, upright, _, clip, truth = passes
    one = teach_from_video(DECK, upright, CARDS)
    alone = score(list(read_video(clip, one)), truth)
    # A turned card shows an index the upright pass never saw: mostly `??`. A turned 6D is the
    # upright 9D's very corner (and back), which no reader can tell apart without a turned
    # pass: that pair is the only one that may come out wrong.
    wrong = [p for p in alone.problems if "WRONG" in p]
    assert all(p.split()[0] in ("6D", "9D") and p.split()[-1] in ("6D", "9D") for p in wrong), (
        alone.problems)
    assert alone.read <= 8 and alone.lost == 0, alone.problems


def test_turned_pass_in_another_order_is_refused(passes):
    folder, upright, _, _, _ = passes
    shuffled = CARDS[:]
    random.Random(3).shuffle(shuffled)
    other = folder / "shuffled.mp4"
    make_clip(other, DECK, shuffled, "easy", seed=8, rotated=1.0)
    with pytest.raises(TeachError, match="same order"):
        teach_from_video(DECK, upright, CARDS, turned=other)
