"""The learned index box holds the whole index: rank and suit mark, wherever the deck puts them.

Shared ink alone can find only half of an index: tango's big suit symbol (shared across suits)
outweighs its rank glyphs, and on some decks the suit mark shares too little ink to join the
rank. Teaching then grows the box towards where cards that look alike differ (same-rank cards of
different suits, or same-suit cards of different ranks). Real artwork from the footage generator;
stills and short passes of a few cards that differ only in rank or only in suit.
"""

from __future__ import annotations

import shutil

import cv2
import pytest

from synth.shoe import make_clip, write_stills
from vision.reader import MIN_DISTINCT, distinctness
from vision.teach import (
    STILL_CORNER,
    TeachError,
    _corner,
    _cut,
    _index_box,
    teach_from_images,
    teach_from_video,
)

# Pairs alike but for the suit (7C/7S, TC/TS, QC/QS, 8D/8H) and alike but for the rank.
CARDS = ["7C", "7S", "TC", "TS", "QC", "QS", "8D", "8H"]


def _gap(profile, a: str, b: str) -> float:
    t = profile.templates()
    return distinctness([t[a], t[b]])[0]


def test_stills_box_takes_in_the_half_shared_ink_missed(tmp_path):
    """On tango stills the shared-ink box holds a sliver that every card has; grown, it tells
    every card apart (before this box growth these profiles were saved with identical corners)."""
    for deck in ("tango", "dondorf", "simplistic"):
        folder = tmp_path / deck
        write_stills(folder, deck, CARDS)
        profile = teach_from_images(deck, folder, CARDS)
        gap, _, _ = distinctness(profile.templates().values())
        assert gap >= MIN_DISTINCT, (deck, gap, profile.roi)
        assert _gap(profile, "TC", "TS") >= 2 * MIN_DISTINCT, (deck, profile.roi)
        assert _gap(profile, "TC", "QC") >= 2 * MIN_DISTINCT, (deck, profile.roi)
    # The growth is what did it: the shared-ink box alone cannot tell tango's tens apart.
    width = 400.0
    corners = []
    for code in CARDS:
        img = cv2.imread(str(tmp_path / "tango" / f"{code}.png"))
        img = cv2.resize(img, (400, round(img.shape[0] * width / img.shape[1])),
                         interpolation=cv2.INTER_AREA)
        pad = cv2.copyMakeBorder(img, 40, 40, 4, 4, cv2.BORDER_CONSTANT, value=(0, 0, 0))
        corner = _corner(pad, 4 + img.shape[1] - 1,
                         40 + img.shape[0] - round(STILL_CORNER * width), width)
        assert corner is not None
        corners.append(corner)
    cut = _cut(corners, _index_box(corners, width)[0], width)
    tens = [cut[CARDS.index("TC")], cut[CARDS.index("TS")]]
    assert distinctness(tens)[0] < MIN_DISTINCT


def test_right_big_teaches_tango_and_tells_suits_apart(tmp_path):
    """Round II's refusal ("TC and TS look the same") in the right-big shoe: the box now holds
    tango's suit symbol and rank, so cards alike but for the suit (or the rank) differ."""
    clip = tmp_path / "tango.mp4"
    make_clip(clip, "tango", CARDS, "easy", seed=5, shoe="right-big", session=1)
    profile = teach_from_video("tango", clip, CARDS)
    for a, b in (("TC", "TS"), ("7C", "7S"), ("QC", "QS"), ("8D", "8H"), ("7C", "QC")):
        assert _gap(profile, a, b) >= 2 * MIN_DISTINCT, (a, b, profile.roi)


def test_mirrored_shoe_teaches_tango(tmp_path):
    """A mirrored shoe with both card sides in view: the box is grown on either side's corner
    and the index side still wins (its boxes tell the cards apart best). Round II's "7C and QC
    look the same (difference 0.000)" in left-mirror-small was a box holding tango's suit symbol
    and not the rank; the un-mirrored corner itself was right."""
    clip = tmp_path / "tango.mp4"
    make_clip(clip, "tango", CARDS, "easy", seed=5, shoe="up-mirror-small", session=1)
    profile = teach_from_video("tango", clip, CARDS)
    assert profile.geometry.mirror
    for a, b in (("7C", "QC"), ("TS", "QS"), ("TC", "TS")):
        assert _gap(profile, a, b) >= MIN_DISTINCT, (a, b, profile.roi)


def test_stills_with_two_corners_alike_are_refused(tmp_path):
    """Stills are refused like a pass when two cards' corners cannot be told apart (a profile
    whose two cards are the same image was saved before)."""
    write_stills(tmp_path, "anglo", CARDS)
    shutil.copy(tmp_path / "7C.png", tmp_path / "7S.png")
    with pytest.raises(TeachError, match=r"7C and 7S look the same.*nothing saved"):
        teach_from_images("anglo", tmp_path, CARDS)


def test_rank_set_apart_from_its_suit_mark_is_taken_in(tmp_path):
    """KDE's ancient-egyptians puts each corner's rank about 20 px below its suit mark, further
    than the marks are joined: the shared-ink box held the suit mark and no more, grown it held
    a band between the two (rank tops and suit tips), and aces of one colour were read as each
    other (AD as AH, AC as AS, round XI). The box now runs from the suit mark down to the
    leading edge, and cards alike but for the suit, or the rank, differ."""
    cards = ["AD", "AH", "AC", "AS", "6C", "8C", "9C", "TC"]
    folder = tmp_path / "stills"
    write_stills(folder, "kde-ancient-egyptians", cards)
    profile = teach_from_images("kde-ancient-egyptians", folder, cards)
    _, y0, _, y1 = profile.roi
    width = profile.card_width
    assert y1 >= -0.03 * width, profile.roi  # down to the rank's foot at the leading edge
    assert y1 - y0 >= 0.3 * width, profile.roi  # the suit mark above it as well
    for a, b in (("AD", "AH"), ("AC", "AS"), ("6C", "8C"), ("8C", "9C")):
        assert _gap(profile, a, b) >= 2 * MIN_DISTINCT, (a, b, profile.roi)
