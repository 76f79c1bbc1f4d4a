"""The synthetic shoe: ground truth that matches the clip, at the difficulty asked for."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from synth.shoe import FACE_DOWN, OBJECT, Truth, make_clip, truth_path
from vision.artwork import ArtworkError, card_images
from vision.cards import composition
from vision.video import frames


def test_artwork_renders_every_card_at_one_size():
    images = card_images("Атласные")
    assert set(images) >= set(composition("36")) | {"BJ", "RJ", "back"}
    shapes = {img.shape for img in images.values()}
    assert len(shapes) == 1
    h, w, channels = shapes.pop()
    assert (w, channels) == (400, 4) and 1.4 < h / w < 1.6
    # Corners are rounded: the very corner pixel is transparent, the centre opaque.
    assert images["QS"][0, 0, 3] == 0 and images["QS"][h // 2, w // 2, 3] == 255


def test_kde_decks_render_each_card_on_its_own(tmp_path, monkeypatch):
    """KDE's decks (one SVG element per card) are named ``kde-<deck>``: each card is its own
    element, so the seven of clubs and of spades must come out different, every face at one
    size; nicu-white has jokers, oxygen has none (and gives none rather than failing)."""
    monkeypatch.setenv("CARDTABLE_CACHE_DIR", str(tmp_path))
    nicu = card_images("kde-nicu-white", width=120)
    assert set(nicu) == set(composition("36j")) | {"6C", "6D", "6H", "6S", "back"}
    assert len({img.shape for img in nicu.values()}) == 1
    h, w, _ = nicu["7C"].shape
    assert w == 120 and 1.3 < h / w < 1.6
    assert np.abs(nicu["7C"].astype(int) - nicu["7S"].astype(int)).mean() > 1.0
    oxygen = card_images("kde-oxygen", width=120)
    assert "BJ" not in oxygen and set(oxygen) >= set(composition("36")) | {"back"}
    # The red queen is red: more red than blue in its opaque pixels (BGR).
    queen = oxygen["QH"][oxygen["QH"][:, :, 3] == 255]
    assert queen[:, 2].mean() > queen[:, 0].mean() + 30
    # Cached: a second call reads the files, and gives the same pixels.
    assert np.array_equal(card_images("kde-oxygen", width=120)["QH"], oxygen["QH"])


def test_artwork_that_will_not_render_is_a_clear_error(tmp_path):
    """rsvg-convert's own reason, not its command line (KDE's bitmap decks, konqi-modern and
    xskat-french, cannot be rendered card by card: "has no dimensions")."""
    from vision.artwork import _rasterise

    bad = tmp_path / "bad.svg"
    bad.write_text("<svg xmlns='http://www.w3.org/2000/svg'><rect id='x'/></svg")
    with pytest.raises(ArtworkError, match=r"could not rasterise x of bad\.svg: rsvg-convert says"):
        _rasterise(["-i", "x", str(bad)], tmp_path / "out.png", "x of bad.svg")


def test_unknown_artwork_is_a_clear_error():
    with pytest.raises(ArtworkError, match="no card artwork called"):
        card_images("no-such-deck")


def test_hard_clip_shows_each_index_for_only_a_few_frames(tmp_path):
    cards = composition("32")[:16]
    truth = make_clip(tmp_path / "hard.mp4", "anglo", cards, "hard", seed=1)
    assert [i.card for i in truth.items] == cards
    spans = [i.exit_frame - i.visible_frame for i in truth.items]
    assert all(1 <= s <= 5 for s in spans), spans
    starts = [i.visible_frame for i in truth.items]
    assert starts == sorted(starts) and len(set(starts)) == len(starts)
    assert Truth.load(truth_path(tmp_path / "hard.mp4")) == truth


def test_same_seed_same_clip(tmp_path):
    a = make_clip(tmp_path / "a.mp4", "simplistic", ["QS", "7D"], "normal", seed=4)
    b = make_clip(tmp_path / "b.mp4", "simplistic", ["QS", "7D"], "normal", seed=4)
    assert a.items == b.items and a.frames == b.frames
    fa = cv2.VideoCapture(str(tmp_path / "a.mp4")).read()[1]
    fb = cv2.VideoCapture(str(tmp_path / "b.mp4")).read()[1]
    assert np.array_equal(fa, fb)


def test_extras_are_in_the_truth(tmp_path):
    truth = make_clip(tmp_path / "x.mp4", "anglo", ["AS", "KH"], "easy", seed=2,
                      face_down=1, objects=1)
    kinds = sorted(i.card for i in truth.items)
    assert kinds == sorted(["AS", "KH", FACE_DOWN, OBJECT])


def test_lighting_and_glare_make_the_card_uneven(tmp_path):
    make_clip(tmp_path / "l.mp4", "anglo", ["7C"], "hard", seed=3, lead_in=0)
    cap = cv2.VideoCapture(str(tmp_path / "l.mp4"))
    frames = [cap.read()[1] for _ in range(6)]
    # The brightest frame has a card in view; its white should vary a lot across the card.
    frame = max(frames, key=lambda f: float(f.mean()))
    card = frame[:, 140:500].reshape(-1, 3).astype(int).sum(axis=1)
    white = card[card > np.percentile(card, 50)]
    assert white.max() - white.min() > 120


# The clips of the classic shoe, of another shoe with turned cards, and of the classic shoe as
# mounted again (a session), as the two renderers made them before they were merged into one
# (tests/data/shoe_clips_before_the_merge.*: each frame grey at 32x24, and the truth, written on
# 6 Dec 2026 by the code of that day). One renderer must still make them: the same truth, and
# frames equal but for rounding.
BEFORE = Path(__file__).with_name("data") / "shoe_clips_before_the_merge"
CLIPS = {"classic": dict(difficulty="hard", seed=11, face_down=1, objects=1),
         "up-wide": dict(difficulty="normal", seed=5, face_down=1, objects=1, shoe="up-wide",
                         rotated=0.3),
         "classic-session": dict(difficulty="easy", seed=2, shoe="classic", session=2)}


@pytest.mark.parametrize("name", CLIPS)
def test_one_renderer_makes_every_shoe_as_before(tmp_path, name):
    out = tmp_path / f"{name}.mp4"
    truth = make_clip(out, "Атласные", ["7C", "QS", "AH", "TD", "6S", "KD"], **CLIPS[name])
    assert json.loads(truth_path(out).read_text()) == \
        json.loads(BEFORE.with_suffix(".json").read_text())[name]
    assert truth.frames == len(np.load(BEFORE.with_suffix(".npz"))[name])
    small = np.stack([cv2.resize(cv2.cvtColor(f, cv2.COLOR_BGR2GRAY), (32, 24),
                                 interpolation=cv2.INTER_AREA) for f in frames(out)])
    before = np.load(BEFORE.with_suffix(".npz"))[name]
    assert small.shape == before.shape
    assert int(np.abs(small.astype(np.int16) - before).max()) <= 3
