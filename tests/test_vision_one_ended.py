"""A deck whose index is at one end of the face only cannot be read dealt the other end first; its
teaching pass must be refused with a reason that says so, not "the geometry changed" or "deal more
slowly" (what round VI's held-back run printed for gnome-cards tango_nuevo).

tango_nuevo prints the rank at the top left and the suit at the top right, and its big pips and
figures run off the bottom edge. Dealt bottom first (as the footage generator deals every deck),
the artwork cut by the card's side hides the side on many cards (a side in one half of the pass
only), and in a shoe that sees a big card's corner the pips look like gaps between cards (a pass
of 36 counted 82). The clips are real encoded video of full teaching passes, through the command a
user runs.
"""

from __future__ import annotations

import pytest

from cardtable.cli import main
from vision.profile import list_profiles

DECK = "tango_nuevo"


pytestmark = pytest.mark.usefixtures("data_home")


def _teach(tmp_path, capsys, shoe: str) -> str:
    clip = tmp_path / "pass.mp4"
    assert main(["footage", "make", str(clip), "--deck", DECK, "--composition", "36",
                 "--difficulty", "easy", "--seed", "12", "--shoe", shoe, "--session", "1"]) == 0
    capsys.readouterr()
    assert main(["deck", "teach", "tango", "--video", str(clip), "--composition", "36"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and err.startswith("error: "), err  # no traceback
    assert "nothing saved" in err and list_profiles() == []
    return err


def test_a_side_hidden_by_artwork_is_not_called_a_moved_camera(tmp_path, capsys):
    err = _teach(tmp_path, capsys, "left-mid-tilt")
    assert "half of the pass only" in err
    assert "rank and suit together" in err and "Limits" in err
    assert "deal more slowly" not in err


def test_pips_taken_for_gaps_between_cards_are_named(tmp_path, capsys):
    err = _teach(tmp_path, capsys, "down-huge")
    assert "in a pass of 36" in err and "gap between two cards" in err
    assert "rank and suit together" in err
    # not the contradictory advice printed before: too fast, and face down
    assert "too fast" not in err and "face down" not in err
