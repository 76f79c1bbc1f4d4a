"""The typed public view and the action labels panels and displays show."""

from __future__ import annotations

import random

import pytest

from engine.events import ev
from engine.registry import game_class
from engine.view import event_label, table_view


@pytest.mark.parametrize(("text", "label"), [
    ("0 bid 8:BK", "8 БК"),
    ("0 bid kapo:VK+5", "Капо ВК + 5"),
    ("2 bid hand:S", "Капо с руки ♠"),
    ("1 bid pass", "пас"),
    ("0 bid contra", "Контра"),
    ("1 bid play", "играю"),
    ("1 bid H", "♥"),
    ("2 bid 5", "5"),
    ("0 trump S", "козырь ♠"),
    ("0 declare 7H 8H 9H", "объявление 7♥ 8♥ 9♥"),
    ("1 swap 7H", "обмен 7♥"),
    ("0 claim", "«Партия!»"),
    ("1 done", "бито"),
])
def test_event_labels(text: str, label: str) -> None:
    assert event_label(ev(text)) == label


@pytest.mark.parametrize("name", ["belot2", "durak2", "joker", "bazar", "terz"])
def test_view_of_every_game_hides_the_hands(name: str) -> None:
    """Through a random game the view never names a card of a hand that has not been shown."""
    g = game_class(name)()
    rng = random.Random(5)
    for _ in range(300):
        if g.is_over:
            break
        actions = [a for a in g.legal_actions() if a.kind not in ("claim", "foul")] or g.legal_actions()
        g.record(actions[rng.randrange(len(actions))])
        view = table_view(g)
        assert view.game == name and len(view.hand_sizes) in (0, g.num_seats)
        if g.expects_shoe or view.over:
            continue
        shown = {view.trump_card, *(t.card for t in view.trick), *(t.covered_by for t in view.trick),
                 *(c for d in view.declarations for c in d.cards)}  # declared: shown to all
        text = view.model_dump_json()
        # a hand's card may appear only where the table shows it (turned trump, the trick,
        # declarations and the Joker ace draw are public); never as a list of a seat's cards
        assert '"hands"' not in text and '"hand":' not in text
        for seat in range(g.num_seats):
            hand = {c.code for c in g.hand(seat)} - shown
            assert not (hand and all(f'"{c}"' in text for c in hand)), (seat, hand)
