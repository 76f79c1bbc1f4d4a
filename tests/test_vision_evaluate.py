"""The scorer that every accuracy figure comes from: a reader's failure is counted once, as what
it was, and never turns the events of the cards after it into wrong ones."""

from __future__ import annotations

from synth.evaluate import score
from synth.shoe import Truth, TruthItem
from vision.reader import CardEvent


def _truth(*items: tuple[str, int, int]) -> Truth:
    t = Truth(deck="anglo", difficulty="hard", seed=0, frames=100, fps=30)
    t.items = [TruthItem(card, visible, leaves) for card, visible, leaves in items]
    return t


# Back-to-back cards 4 frames apart, each in view for 5 frames: every card's claim window
# (2 frames before its index is in view to 4 frames after it leaves) reaches the next two events.
CARDS = [("7C", 10, 15), ("QH", 14, 19), ("TS", 18, 23), ("AD", 22, 27)]


def test_a_lost_card_is_one_lost_card_not_a_run_of_wrong_ones():
    events = [CardEvent(11, "7C", 0.99), CardEvent(19, "TS", 0.99), CardEvent(23, "AD", 0.99)]
    s = score(events, _truth(*CARDS))  # QH gave no event
    assert (s.cards, s.read, s.lost, s.wrong, s.extra) == (4, 3, 1, 0, 0)


def test_a_wrong_name_is_still_wrong():
    # QH named as KH: nothing else names QH or KH, so the event pairs with QH and is wrong.
    events = [CardEvent(11, "7C", 0.99), CardEvent(15, "KH", 0.95), CardEvent(19, "TS", 0.99),
              CardEvent(23, "AD", 0.99)]
    s = score(events, _truth(*CARDS))
    assert (s.read, s.wrong, s.lost, s.extra) == (3, 1, 0, 0)


def test_naming_the_next_card_is_wrong_even_when_that_card_is_named_too():
    # The tracker took QH's look for TS (names the next card) and TS is then read as itself:
    # one card is named wrongly (whichever event QH is paired with) and none is hidden.
    events = [CardEvent(11, "7C", 0.99), CardEvent(15, "TS", 0.95), CardEvent(19, "TS", 0.99),
              CardEvent(23, "AD", 0.99)]
    s = score(events, _truth(*CARDS))
    assert s.wrong == 1 and s.read == 3 and s.lost == 0 and s.extra == 0


def test_an_unsure_card_and_a_late_one():
    events = [CardEvent(11, "7C", 0.99), CardEvent(15, "??", 0.5), CardEvent(22, "TS", 0.99),
              CardEvent(23, "AD", 0.99)]
    s = score(events, _truth(*CARDS))
    # TS answered at 22, index in view at 18: 4 frames > 3 is late.
    assert (s.read, s.unsure, s.late, s.wrong) == (3, 1, 1, 0)
