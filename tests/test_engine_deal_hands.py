"""``engine.playout.deal_hands``: one helper stacks the shoe for given hands in any game."""

from __future__ import annotations

import random

import pytest

from engine.belot2 import Belot2
from engine.durak2 import Durak2
from engine.events import ev
from engine.playout import deal_hands
from engine.terz import Terz


def codes(game, seat: int) -> set[str]:
    return {c.code for c in game.hand(seat)}


def test_durak_gets_the_hands_asked_for_and_the_turned_trump() -> None:
    g = Durak2()
    events = deal_hands(g, {0: "6C 6D 6H 6S 7C 7D", 1: "8C 8D 8H 7S 9C 9D"}, "8S")
    assert len(events) == 13  # 6 + 6 + the turned card
    assert codes(g, 0) == {"6C", "6D", "6H", "6S", "7C", "7D"}
    assert codes(g, 1) == {"8C", "8D", "8H", "7S", "9C", "9D"}
    assert g.describe()["trump_card"] == "8S" and g.to_act() == 0  # 6S is the lowest trump


def test_belot_in_two_batches_around_the_bidding() -> None:
    g = Belot2(game_type="301")
    deal_hands(g, {1: "JH 9H AH AS TS KS", 0: "7H 8H QH 7S 8S 9S"}, "TH")
    assert g.describe()["trump_card"] == "TH" and g.to_act() == 1  # bidding, seat 1 first
    g.apply(ev("1 bid play"))
    deal_hands(g, {1: "AC TC KC", 0: "7C 8C 9C"}, "8D")  # second batch, second open card
    assert codes(g, 1) == {"JH", "9H", "AH", "AS", "TS", "KS", "AC", "TC", "KC"}
    assert codes(g, 0) == {"7H", "8H", "QH", "7S", "8S", "9S", "7C", "8C", "9C"}
    assert g.describe()["second_open"] == "8D"


@pytest.mark.parametrize("seed", range(5))
def test_terz_random_hands_arrive_where_asked(seed: int) -> None:
    # Terz (docs/games/terz.md): 9 each in packets of 3, then the turned trump; random hands land
    # exactly where they were asked to, and then the play begins.
    g = Terz()
    deck = [c.code for c in g.unseen_cards()]
    random.Random(seed).shuffle(deck)
    events = deal_hands(g, {0: deck[:9], 1: deck[9:18]}, deck[18:19])
    assert len(events) == 19
    assert codes(g, 0) == set(deck[:9]) and codes(g, 1) == set(deck[9:18])
    assert not g.expects_shoe and g.to_act() is not None


def test_a_hand_that_runs_out_is_a_clear_error() -> None:
    g = Durak2()
    with pytest.raises(ValueError, match="no card is left for it"):
        deal_hands(g, {0: "6C 6D", 1: "8C 8D 8H 7S 9C 9D"}, "8S")
