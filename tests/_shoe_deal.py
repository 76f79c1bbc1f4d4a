"""One teaching pass and one hard deal through a named shoe, made exactly as
bench/bench_geometry.py makes them (teaching on session 1, the deal on its own session, 30% of
the cards turned), for tests that read a deal the bench once reported on."""

from __future__ import annotations

import random
from pathlib import Path

from synth.shoe import Truth, make_clip
from vision.cards import composition
from vision.profile import DeckProfile
from vision.teach import teach_from_video

ROTATED = 0.3  # as bench/bench_geometry.py


def teach_and_deal(folder: Path, shoe: str, deck: str, taught: list[str], seed: int, k: int
                   ) -> tuple[DeckProfile, Path, Truth]:
    """The profile taught from ``taught`` and deal ``k`` of all 36 cards, with its truth."""
    teach = folder / "teach.mp4"
    make_clip(teach, deck, taught, "easy", seed=seed, shoe=shoe, session=1)
    profile = teach_from_video(deck, teach, taught)
    deal = composition("36")
    random.Random(seed * 100 + k).shuffle(deal)
    clip = folder / "deal.mp4"
    truth = make_clip(clip, deck, deal, "hard", seed=seed * 100 + k, shoe=shoe, session=2 + k,
                      rotated=ROTATED)
    return profile, clip, truth
