"""Helpers for the Bazar-Belot tests: stack the shoe so the hands are known, run event lines."""

from __future__ import annotations

from engine.bazar import BazarBelot
from engine.bazar.tables import deal_seats
from engine.cards import cards, mask_of
from engine.events import Event, ev, shoe

# One whole suit per seat: whoever leads wins every trick of a game where no one can trump.
SUITS_DEAL = {
    0: "7C 8C 9C TC JC QC KC AC",
    1: "7D 8D 9D TD JD QD KD AD",
    2: "7H 8H 9H TH JH QH KH AH",
    3: "7S 8S 9S TS JS QS KS AS",
}


def shoe_events(hands: dict[int, str], dealer: int, pattern: str = "4+4") -> list[Event]:
    """The shoe order that gives each seat ``hands[seat]`` (8 codes) when ``dealer`` deals."""
    given = {s: list(cards(h)) for s, h in hands.items()}
    assert sorted(c.code for h in given.values() for c in h) == sorted(
        c.code for c in cards(" ".join(SUITS_DEAL.values()))), "not a 32-card deck"
    taken = dict.fromkeys(range(4), 0)
    out = []
    for offset in deal_seats(pattern):
        seat = (dealer + offset) % 4
        out.append(shoe(given[seat][taken[seat]]))
        taken[seat] += 1
    return out


def new_game(**options: object) -> BazarBelot:
    options.setdefault("first_dealer", 0)
    return BazarBelot(options)


def deal(game: BazarBelot, hands: dict[int, str]) -> None:
    for e in shoe_events(hands, game.dealer, game.settings.deal_pattern):
        game.apply(e)
    for seat, h in hands.items():
        assert game.hands[seat] == mask_of(cards(h))


def run(game: BazarBelot, *lines: str) -> None:
    """Apply event lines; a line may hold several events separated by ``;``."""
    for line in lines:
        for text in line.split(";"):
            if text.strip():
                game.apply(ev(text.strip()))


def args(game: BazarBelot, seat: int) -> set[str]:
    return {e.arg for e in game.legal_actions(seat) if e.kind == "bid"}
