"""The shoe camera's footage is kept per deal while the table plays (controller.archive, for
disputes): the simulated table plays a bundled recording through the shoe loop with a real
footage archive on disk, and every deal of the game has its clip, in the deal's frames."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from controller.archive import FootageArchive
from controller.footage import BUNDLES, load_bundle
from controller.table import SimulatedTable
from vision.video import frames


def test_every_deal_of_a_played_game_has_its_shoe_clip(make_controller, tmp_path: Path,
                                                       caplog: pytest.LogCaptureFixture) -> None:
    bundle = load_bundle(BUNDLES / "bazar")
    ctl = make_controller(bundle.game, bundle.options, bundle.names)
    archive = FootageArchive(tmp_path / "footage", fps=10)
    with caplog.at_level(logging.ERROR, logger="cardtable.table"):
        SimulatedTable(ctl, bundle, speed=0, archive=archive).play(resume=False)
    assert "footage archive" not in caplog.text  # no error swallowed on the way
    game = ctl.game
    assert game is not None and game.is_over
    deals = {d.number for d in game.score_sheet().deals}
    clips = archive.clips(ctl.game_id)
    assert deals and {c.deal for c in clips} == deals  # one clip (or more) per deal, no deal 0
    for clip in clips:
        kept = sum(1 for _ in frames(clip.path))
        assert kept == clip.last_frame - clip.first_frame + 1 > 0
