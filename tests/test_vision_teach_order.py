"""A teaching pass that is not the deck in the order given is refused with what went wrong:
a card missed (the count), a suit block out of place, the deck dealt rank by rank. The same
cards dealt in the order given teach (run the way a user runs `cardtable deck teach`)."""

from __future__ import annotations

import pytest

from cardtable.cli import main
from synth.shoe import make_clip
from vision.cards import composition
from vision.profile import list_profiles

pytestmark = pytest.mark.usefixtures("data_home")

DECK = "anglo"
STANDARD = composition("36")
SUIT = {s: [c for c in STANDARD if c[1] == s] for s in "CDHS"}
PASSES = {
    "hearts before diamonds": SUIT["C"] + SUIT["H"] + SUIT["D"] + SUIT["S"],
    "rank by rank": [r + s for r in "6789TJQKA" for s in "CDHS"],
    "9C missing": [c for c in STANDARD if c != "9C"],
}


@pytest.fixture(scope="module")
def clip(tmp_path_factory):
    """Easy passes of the anglo deck, made on first use: (kind, shoe) -> path."""
    folder = tmp_path_factory.mktemp("order")
    made = {}

    def make(kind: str, shoe: str | None = None):
        if (kind, shoe) not in made:
            path = folder / f"{len(made)}.mp4"
            make_clip(path, DECK, PASSES[kind], "easy", seed=3, shoe=shoe)
            made[kind, shoe] = path
        return made[kind, shoe]

    return make


def _refusal(capsys) -> str:
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), lines
    assert "nothing saved" in lines[0], lines
    return lines[0]


@pytest.mark.parametrize("shoe", [None, "narrow-down"])
def test_a_suit_block_out_of_place_is_refused_as_another_order(clip, capsys, shoe):
    # Dealt clubs, hearts, diamonds, spades where the standard order has diamonds second: the
    # cards of one rank and of one suit still group together, so only the suit marks tell.
    assert main(["deck", "teach", "club", "--video", str(clip("hearts before diamonds", shoe)),
                 "--composition", "36"]) == 2
    line = _refusal(capsys)
    assert "the pass is not in the order given" in line
    assert "the cards given as diamonds (cards 10-18) show the heart mark" in line
    assert "the cards given as hearts (cards 19-27) show the diamond mark" in line
    assert "look the same" not in line and "cardtable deck teach --help" in line
    assert list_profiles() == []


def test_a_pass_dealt_rank_by_rank_is_named(clip, capsys):
    assert main(["deck", "teach", "club", "--video", str(clip("rank by rank")),
                 "--composition", "36"]) == 2
    line = _refusal(capsys)
    assert "do not look to be in the order given" in line
    assert "they look dealt rank by rank (6C 6D 6H 6S 7C ...)" in line
    assert list_profiles() == []


def test_the_order_the_pass_was_dealt_in_given_with_cards_teaches(clip, capsys):
    pass_ = PASSES["hearts before diamonds"]
    assert main(["deck", "teach", "club", "--video", str(clip("hearts before diamonds")),
                 "--cards", ",".join(pass_)]) == 0, capsys.readouterr().err
    assert "36 cards" in capsys.readouterr().out
    assert list_profiles() == ["club"]


@pytest.mark.parametrize("shoe", [None, "narrow-down"])
def test_a_pass_missing_a_card_says_one_card_fewer(clip, capsys, shoe):
    assert main(["deck", "teach", "club", "--video", str(clip("9C missing", shoe)),
                 "--composition", "36"]) == 2
    line = _refusal(capsys)
    assert "saw 35 cards" in line and "expected 36" in line
    assert "one card fewer than the order given (a card missed" in line
    assert "look the same" not in line and "not in the order given" not in line
    assert list_profiles() == []
