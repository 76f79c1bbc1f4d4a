"""Card codes and compositions used by the shoe reader."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from vision.cards import all_codes, composition, parse_card_list


def test_36_is_nine_ranks_per_suit_in_standard_order():
    cards = composition("36")
    assert len(cards) == 36
    assert cards[:9] == ["6C", "7C", "8C", "9C", "TC", "JC", "QC", "KC", "AC"]
    assert cards[9] == "6D" and cards[-1] == "AS"


def test_32_drops_the_sixes():
    cards = composition("32")
    assert len(cards) == 32
    assert not [c for c in cards if c.startswith("6")]
    assert cards[0] == "7C"


def test_36j_swaps_black_sixes_for_jokers_at_the_end():
    cards = composition("36j")
    assert len(cards) == 36
    assert "6S" not in cards and "6C" not in cards
    assert "6D" in cards and "6H" in cards
    assert cards[0] == "7C" and cards[-2:] == ["BJ", "RJ"]


def test_unknown_composition_is_a_clear_error():
    with pytest.raises(ValueError, match="unknown composition"):
        composition("52")


def test_parse_accepts_ten_and_lower_case():
    assert parse_card_list("10h, qs,bj") == ["TH", "QS", "BJ"]


@pytest.mark.parametrize("text", ["", "ZZ", "QS,1H", "5C"])
def test_parse_rejects_bad_lists(text):
    with pytest.raises(ValueError):
        parse_card_list(text)


@given(st.lists(st.sampled_from(all_codes()), min_size=1, max_size=40))
def test_parse_round_trips_any_list(codes):
    assert parse_card_list(",".join(codes)) == codes


def test_the_readers_know_every_deck_the_engine_deals() -> None:
    # one vocabulary: every engine composition (38 included) is a composition of the readers
    from typing import get_args

    from engine.cards import Composition
    from engine.cards import composition as engine_composition

    for name in get_args(Composition):
        assert composition(name) == [c.code for c in engine_composition(name)]
    assert len(composition("38")) == 38 and composition("38")[-2:] == ["BJ", "RJ"]
