"""Decks with a thick dark border all round the face: the generator draws one on any deck, and
such a deck teaches and reads (two borders back to back make a dark band the edge finder takes
for a boundary; ink that reaches the border, like an index set close to it, is not one)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from synth.evaluate import score
from synth.shoe import BORDERS, Border, Truth, get_border, make_clip, truth_path
from vision.artwork import BACK, add_border, card_images
from vision.cards import composition
from vision.reader import read_video
from vision.teach import teach_from_video


def test_the_border_is_drawn_inside_the_outline_round_the_corners():
    plain = card_images("anglo", 400)
    drawn = add_border(plain, 0.03, (30, 30, 30))
    face, before = drawn["7H"], plain["7H"]
    h, w = face.shape[:2]
    inside = face[:, :, 3] >= 128
    # 12 px (3% of 400) in from every side, along the straight parts of the outline.
    for band in (face[h // 2, 1:11, :3], face[h // 2, w - 11: w - 1, :3],
                 face[1:11, w // 2, :3], face[h - 11: h - 1, w // 2, :3]):
        assert band.max() <= 40, band
    # Following the rounded corner: along the diagonal, the first card pixels are border too.
    diag = [k for k in range(60) if inside[k, k]]
    assert face[diag[0]: diag[0] + 8, diag[0]: diag[0] + 8][..., :3].max() <= 60
    # Beyond the border the face is untouched, and so is the outline (alpha) and the back.
    assert np.array_equal(face[40:-40, 14:-14], before[40:-40, 14:-14])
    assert np.array_equal(face[14:-14, 40:-40], before[14:-14, 40:-40])
    assert np.array_equal(face[:, :, 3], before[:, :, 3])
    assert drawn[BACK] is plain[BACK]


def test_a_bordered_clip_records_its_border_and_bad_styles_are_refused(tmp_path):
    truth = make_clip(tmp_path / "b.mp4", "anglo", ["7C", "KS"], "easy", seed=1, border="dark")
    assert truth.border == {"thickness": BORDERS["dark"].thickness,
                            "colour": list(BORDERS["dark"].colour)}
    assert Truth.load(truth_path(tmp_path / "b.mp4")).border == truth.border
    plain = make_clip(tmp_path / "p.mp4", "anglo", ["7C", "KS"], "easy", seed=1)
    assert plain.border is None
    # The index is in view at the same frames: the border does not move the ground truth.
    assert [(i.visible_frame, i.exit_frame) for i in plain.items] == \
        [(i.visible_frame, i.exit_frame) for i in truth.items]
    assert get_border((0.04, 0)).colour == (0, 0, 0)
    # As `footage make --border` gives it: a grey level, or B,G,R.
    assert get_border("0.03,30") == get_border((0.03, 30)) == Border(0.03, (30, 30, 30))
    assert get_border("0.02,0,0,80").colour == (0, 0, 80)
    for bad in ("wavy", (0.5, 30), (0.03, 300), "0.03", "0.03,x", "0.03,1,2"):
        with pytest.raises(ValueError):
            get_border(bad)


def _teach_and_read(tmp_path, deck, comp, border, shoe=None, seed=5):
    cards = composition(comp)
    extra = {} if shoe is None else {"shoe": shoe, "session": 1}
    make_clip(tmp_path / "pass.mp4", deck, cards, "easy", seed=seed, border=border, **extra)
    profile = teach_from_video(deck, tmp_path / "pass.mp4", cards)
    deal = cards[:]
    random.Random(seed).shuffle(deal)
    more = {} if shoe is None else {"shoe": shoe, "session": 2, "rotated": 0.3}
    truth = make_clip(tmp_path / "deal.mp4", deck, deal, "hard", seed=seed * 10, border=border,
                      **more)
    return score(list(read_video(tmp_path / "deal.mp4", profile)), truth)


@pytest.mark.parametrize(("deck", "comp", "shoe"), [("Атласные", "36j", None),
                                                    ("anglo", "36", "narrow-down")],
                         ids=["Атласные-classic", "anglo-narrow-down"])
def test_a_bordered_deck_teaches_and_reads(deck, comp, shoe, tmp_path):
    result = _teach_and_read(tmp_path, deck, comp, "dark", shoe)
    print(f"\n{deck} dark border, {shoe or 'classic'}: {result.line()}")
    assert result.wrong == 0, result.problems
    assert result.lost == 0 and result.extra == 0, result.problems
    assert result.read_rate >= 0.95, result.problems
