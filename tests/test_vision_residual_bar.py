"""The residual bar follows the session: a shoe set up so the templates fit less well still
names its cards, and cards never taught are still refused.

Why: in round IV's held-back set, whole deals of the 1,000 px one-sided shoe came out ``??``
one card in four (berlin, orell: every residual over the fixed bar, with clear leads), while
the same shoe on another day read every card. Set up that way, every card's residual against
its best template rises alike; a stroke that the view has and the template lacks (a six read
against an eight) still stands well above that level. So in a learned geometry the bar is
RESIDUAL_RATIO times the median residual of the cards this session has named (vision/reader.py).

Clips are made as bench/bench_geometry.py makes them: teaching pass on session 1, the deal on
its own session, 30% of the cards turned.
"""

from __future__ import annotations

from _shoe_deal import teach_and_deal

from synth.evaluate import score
from vision.cards import composition
from vision.reader import MAX_RESIDUAL, RESIDUAL_CAP, ShoeReader
from vision.video import frames


def _read(tmp_path, shoe, deck, taught, seed, k):
    profile, clip, truth = teach_and_deal(tmp_path, shoe, deck, taught, seed, k)
    reader = ShoeReader(profile)
    events = [e for f in frames(clip) for e in reader.feed(f)] + reader.finish()
    return reader, score(events, truth, set(taught))


def test_a_session_the_templates_fit_less_well_names_its_cards_and_refuses_sixes(tmp_path):
    # right-mirror-huge x berlin, seed 18, first deal (session 2), 32 cards taught (no sixes):
    # the named cards' median residual is about 4, so under the fixed bar of 4.6 this deal read
    # 21 of the 32 taught cards (11 "??" flagged not a known face, each the right card first
    # with a clear lead). The bar rises here, yet each six (residual about 7 against its eight,
    # where the taught cards reach about 5) stays "??", flagged. Under OpenCV 5.1 teaching
    # learned a 0.14% larger scale, the pose fit stopped at the grid's last step (1.06) and the
    # deal read 10 of 32, its level never named into the bar; with the grid to 1.09 (round
    # VIII) it reads 31 of 32 under 5.1 and 29 under 5.0.
    reader, result = _read(tmp_path, "right-mirror-huge", "berlin", composition("32"), 18, 0)
    assert result.wrong == 0 and result.lost == 0 and result.late == 0, result.problems
    assert MAX_RESIDUAL < reader.residual_bar <= RESIDUAL_CAP
    assert result.read >= 27, result.line()
    assert result.foreign == 4 and result.rejected == 4, result.line()
