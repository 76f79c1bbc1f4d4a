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


# Hearts game by seat 1 (dealer 0, seat 1 leads).
DUTY_DEAL = {
    0: "9H KH AC AD KD QS KS AS",
    1: "7H JH 7C 8C 9C 7D 8D 7S",
    2: "QH AH TC JC 9D TD 8S 9S",
    3: "8H TH QC KC JD QD TS JS",
}
DUTY_TRICKS = (
    "1 play 7H; 2 play AH; 3 play 8H; 0 play 9H",  # 0 wins: 0 + 11 + 0 + 14 = 25
    "0 play AC; 1 play 7C; 2 play TC; 3 play QC",  # 0 wins: 11 + 0 + 10 + 3 = 24
    "0 play AS; 1 play 7S; 2 play 8S; 3 play TS",  # 0 wins: 11 + 0 + 0 + 10 = 21
    "0 play KS; 1 play JH; 2 play 9S; 3 play JS",  # 1 wins: 4 + 20 + 0 + 2 = 26
)


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


def play_duty_deal_with_a_foul(game: BazarBelot) -> None:
    run(game, *DUTY_TRICKS, "1 play 8C; 2 play JC; 3 play KC")
    verdict = game.record(ev("0 play AD"))  # void in ♣, opponent winning, holds K♥: must trump
    assert not verdict.legal and verdict.rule == "must-trump"


FOUL_REST = (
    "3 play TH; 0 play KH; 1 play 9C; 2 play QH",  # 3 wins: 10 + 4 + 0 + 3 = 17
    "3 play JD; 0 play KD; 1 play 7D; 2 play TD",  # 2 wins: 2 + 4 + 0 + 10 = 16
    "2 play 9D; 3 play QD; 0 play QS; 1 play 8D",  # 3 wins: 0 + 3 + 3 + 0 = 6, last trick 10
)
# Tricks 1–3 to pair 0 & 2 (25 + 24 + 21), trick 4 to pair 1 & 3 (26), trick 5 (with the foul)
# to seat 3: 0 + 2 + 4 + 11 = 17. Pair 0 & 2: 70 + 16 = 86; pair 1 & 3: 26 + 17 + 17 + 6 + 10 = 76.
