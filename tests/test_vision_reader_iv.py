"""Round IV reader mends: two confident wrong cards of real encoded clips, now never named wrongly.

Why these two clips: each held a card the round III reader named wrongly with confidence, by a
path vision/reader.py has since closed (both only in a learned geometry; the classic shoe
decides as before):

- narrow-down x anglo, 32 taught (seed 71, first deal): 9C named 9S from its first look alone,
  a look that caught the index blurred as it came in (9S 0.957, 9C 0.818); the next looks, which
  would have shown a club, were never taken. Once the pose is calibrated, one look now names a
  card only when the reader must answer (the card left, or its time is up);
- right-small x slavic_costumes (220 px cards; seed 15, second deal): 8S named JS. Two early,
  lower looks favoured JS; the clearest look favoured 8S, and its own pair test (on the part
  where the two differ) put 8S ahead by 0.38, yet over the whole corner 8S led by too little to
  veto. A look's pair test that decisively favours its best card is now a veto.

Each clip is made exactly as bench/bench_geometry.py makes it (teaching pass on session 1, the
deal on its own session, 30% of the cards turned).
"""

from __future__ import annotations

import pytest
from _shoe_deal import teach_and_deal

from synth.evaluate import score
from vision.cards import composition
from vision.reader import read_video


def _read_deal(tmp_path, shoe: str, deck: str, taught: list[str], seed: int, k: int):
    profile, clip, truth = teach_and_deal(tmp_path, shoe, deck, taught, seed, k)
    return score(list(read_video(clip, profile)), truth, set(taught))


@pytest.mark.parametrize(("shoe", "deck", "comp", "seed", "k", "min_read"), [
    ("narrow-down", "anglo", "32", 71, 0, 31),
    ("right-small", "slavic_costumes", "36", 15, 1, 29),
], ids=["first-look-9C-as-9S", "small-card-8S-as-JS"])
def test_no_card_is_named_wrongly(tmp_path, shoe, deck, comp, seed, k, min_read):
    result = _read_deal(tmp_path, shoe, deck, composition(comp), seed, k)
    assert result.wrong == 0, result.problems
    assert result.lost == 0 and result.late == 0, result.problems
    assert result.read >= min_read, result.line()
    if comp == "32":  # the sixes were never taught: each is a "??", never an eight
        assert result.rejected == result.foreign, result.line()
