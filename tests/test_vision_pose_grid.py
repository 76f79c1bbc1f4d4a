"""A shoe set up again several percent larger or smaller than it was taught still reads.

Why: the reader fits the session's scale from a grid of poses around the taught one. The taught
scale itself is a measurement (a one-sided shoe learns it from the cards' length along the
travel, and it came out 0.1% different under OpenCV 5.1's footage than under 5.0's); the
session's mounting adds a few percent. Where the two together put the session's scale beyond
the grid's last step, the fit stopped at that step, every card's residual rose, and a deal read
10 of 32 instead of 29 (tests/test_vision_residual_bar.py, OpenCV 5.1). The grid now reaches
9% either way, so the parabola through the best pose and its neighbours has both neighbours.

Each deal is the session-1 shoe with its scale changed by ``k`` and nothing else, read with the
profile taught on session 1 (anglo, all 36 cards, 30% of the deal turned).
"""

from __future__ import annotations

import random

import pytest

from synth.evaluate import score
from synth.shoe import SHOES, Shoe, make_clip, session_geometry
from vision.cards import composition
from vision.reader import ShoeReader
from vision.teach import teach_from_video
from vision.video import frames

CARDS = composition("36")


def read_rescaled(folder, shoe: str, k: float, teach_seed: int, deal_seed: int,
                  shuffle_seed: int):
    """Teach anglo on session 1 of ``shoe``, then read one hard deal on session 1 with its
    scale times ``k``: the reader and its score."""
    base = SHOES[shoe]
    taught_on = session_geometry(base, 1)
    make_clip(folder / "teach.mp4", "anglo", CARDS, "easy", seed=teach_seed, shoe=shoe,
              session=1)
    profile = teach_from_video("grid", folder / "teach.mp4", CARDS)
    moved = Shoe(name=shoe, geometry=taught_on.model_copy(update={"scale": taught_on.scale * k}),
                 speed=base.speed)
    deal = list(CARDS)
    random.Random(shuffle_seed).shuffle(deal)
    truth = make_clip(folder / "deal.mp4", "anglo", deal, "hard", seed=deal_seed, shoe=moved,
                      session=0, rotated=0.3)
    reader = ShoeReader(profile)
    events = [e for f in frames(folder / "deal.mp4") for e in reader.feed(f)] + reader.finish()
    return reader, score(events, truth, set(CARDS))


@pytest.mark.parametrize(("shoe", "k", "min_read"), [
    # Read of 36, grid at 0.94-1.06 (the fit stuck at its last step) -> grid at 0.91-1.09:
    # narrow-down x0.92: 24 -> 33 under OpenCV 5.1 and under 5.0 alike;
    # left-big x1.08: 23 -> 35 under 5.1, 25 -> 30 under 5.0. 0 wrong in all eight.
    # Round IX (each scale finds the index with its own templates), under 5.1: 33 -> 36 and
    # 35 -> 35, fitted at 0.91 and 1.09 (both the grid's last step; no neighbour beyond).
    ("narrow-down", 0.92, 34),
    ("left-big", 1.08, 33),
], ids=["8-percent-smaller", "8-percent-larger"])
def test_a_shoe_set_up_at_another_scale_still_reads(tmp_path, shoe, k, min_read):
    reader, result = read_rescaled(tmp_path, shoe, k, teach_seed=3, deal_seed=51, shuffle_seed=1)
    assert result.wrong == 0 and result.lost == 0 and result.late == 0, result.problems
    assert result.read >= min_read, result.line()
    # The fit lands on the side the shoe moved to. (Until round IX it fell short of it: the
    # index was found with templates of the taught size, which settle off a larger or smaller
    # index by more than the poses are searched around; docs/vision.md, round IX.)
    assert reader._pose is not None
    assert (reader._pose[0] < 1.0) == (k < 1.0)


def test_a_look_alike_the_pair_tests_do_not_rule_out_is_not_named(tmp_path):
    """narrow-down x0.92 as bench/bench_geometry.py --rescale deals it (teaching seed 11, deal
    seed 1101): the session's scale fitted at 0.91, TC's whole corner scored under TS's in both
    looks (0.877 and 0.931 against 0.959 and 0.957) while both looks' pair tests, on the part
    where the two differ, gave TC 0.06. Named TS at 0.989 before the reader weighed the pair
    tests' sign; now it is unsure, and nothing in the deal is named wrongly."""
    _, result = read_rescaled(tmp_path, "narrow-down", 0.92, teach_seed=11, deal_seed=1101,
                              shuffle_seed=1101)
    assert result.wrong == 0, result.problems
    # The rule costs this deal nothing else: 34 of 36 read either way (TC unsure, not wrong).
    assert result.read >= 33, result.line()
