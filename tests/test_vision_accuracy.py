"""Accuracy on the project's own hard clips: 540 cards over three deck designs.

Each deck is taught from one slow pass, then read from five shuffled deals at the "hard"
setting (2-3 frames of index, heavy blur, glare, colour cast, noise, JPEG 60 + MPEG-4). The bar
from the issue: no confident wrong card and at least 99.8% read, per deck.
"""

from __future__ import annotations

import pytest

from vision.evaluate import accuracy_run

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
