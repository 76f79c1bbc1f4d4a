"""Accuracy on the project's own hard clips: 540 cards over three deck designs.

Each deck is taught from one slow pass, then read from five shuffled deals at the "hard"
setting (2-3 frames of index, heavy blur, glare, colour cast, noise, JPEG 60 + MPEG-4). The bar
from the issue: no confident wrong card and at least 99.8% read, per deck.
"""

from __future__ import annotations

import pytest

from synth.evaluate import accuracy_run

DECKS = [
    ("Атласные", "36j", 1),  # Russian indices Т К Д В, with jokers
    ("anglo", "36", 2),  # international A K Q J 10
    ("simplistic", "36", 3),  # international, plain court cards
]


@pytest.mark.slow
@pytest.mark.parametrize(("deck", "comp", "seed"), DECKS, ids=[d[0] for d in DECKS])
def test_hard_clips_per_deck(deck, comp, seed, tmp_path):
    result = accuracy_run(deck, comp, deals=5, folder=tmp_path, seed=seed + 100)
    print(f"\n{deck}: {result.line()}")
    assert result.cards == 180
    assert result.wrong == 0, result.problems
    assert result.lost == 0 and result.extra == 0, result.problems
    assert result.read_rate >= 0.998, result.problems


# Open set: a card the profile was never taught must come out "??" flagged "not a known card
# face", never as the nearest taught card (a 32-card profile used to read every six as an eight).
# The rejection was tuned on Атласные and anglo only; simplistic is held back (see docs/vision.md).
OPEN_SET = [
    ("Атласные", None, 7),  # tuned
    ("anglo", None, 8),  # tuned
    ("simplistic", None, 9),  # held back
    # the index box once stopped short of the rank on this deck, so sixes read as eights
    # (vision/teach.py now lets the box reach the leading edge)
    ("neoclassical", None, 9),
    ("Атласные", "anglo", 12),  # another design's profile: every card untaught
]


@pytest.mark.slow
@pytest.mark.parametrize(("deck", "taught_design", "seed"), OPEN_SET,
                         ids=[f"{d[0]}-taught-{d[1] or '32'}" for d in OPEN_SET])
def test_untaught_cards_are_not_named(deck, taught_design, seed, tmp_path):
    comp = "36"
    result = accuracy_run(deck, comp, deals=1, folder=tmp_path, seed=seed, teach_comp=comp
                          if taught_design else "32", teach_deck=taught_design)
    print(f"\n{deck} (taught {taught_design or '32 cards'}): {result.line()}")
    assert result.wrong == 0, result.problems
    assert result.lost == 0 and result.extra == 0, result.problems
    if taught_design is None:
        assert (result.cards, result.foreign) == (32, 4)
        assert result.read == 32, result.problems
    else:
        assert result.foreign == 36
    assert result.rejected == result.foreign, result.problems
