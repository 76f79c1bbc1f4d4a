"""Helpers for the Joker tests: stack the shoe so the hands are known, bid, play, skip deals."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from engine.cards import cards
from engine.events import ev, shoe
from engine.joker import Joker
from engine.playout import play_out

SEATS = 4


def new(**options: Any) -> Joker:
    """A game whose first dealer is seat 0 (no тузование) unless told otherwise."""
    options.setdefault("first_dealer", 0)
    return Joker(options)


def shoe_order(game: Joker, hands: Sequence[str]) -> list[str]:
    """The shoe order that gives seat s the cards ``hands[s]``: one at a time from the dealer's left."""
    per_seat = [[c.code for c in cards(h)] for h in hands]
    n = game.n
    assert all(len(h) == n for h in per_seat), f"each hand needs {n} cards: {per_seat}"
    out = []
    for k in range(4 * n):
        seat = (game.dealer + 1 + k) % SEATS
        out.append(per_seat[seat][k // SEATS])
    return out


def deal(game: Joker, hands: Sequence[str], turned: str | None = None) -> None:
    """Deal the hands (by seat) from the shoe, then the turned card (deals of 1–8 cards)."""
    for code in shoe_order(game, hands):
        game.apply(shoe(code))
    if turned is not None:
        game.apply(shoe(turned))


def bid(game: Joker, by_seat: Sequence[int]) -> None:
    """Bids given by seat, made in turn from the dealer's left."""
    for i in range(SEATS):
        seat = (game.dealer + 1 + i) % SEATS
        game.apply(ev(f"{seat} bid {by_seat[seat]}"))


def plays(game: Joker, *texts: str) -> None:
    for t in texts:
        game.apply(ev(t))


def skip_to_deal(game: Joker, number: int, seed: int = 5) -> Joker:
    """Play random legal deals until deal ``number`` (1-based) is about to be dealt."""
    play_out(game, random.Random(seed),
             stop=lambda g: g.deal_no == number - 1 and g.dealt == 0 and g.phase == "deal")
    assert game.deal_no == number - 1
    return game


RANKS8 = "789TJQKA"
SUIT_CYCLE = "DHCS"


def scripted_deal(game: Joker, winners: Sequence[int], by_seat: Sequence[int]) -> None:
    """Deal, bid and play a deal of up to 8 cards, no trump, in which trick j is won by winners[j].

    Trick j is played in suit DHCS[j % 4]; everyone follows with the card kept for that trick and
    the planned winner holds the highest of the four (ranks 7 8 9 T for tricks 0–3, J Q K A for
    4–7). The turned card is a joker, so the deal is played without trump.
    """
    n = game.n
    assert len(winners) == n <= 8
    hands: list[list[str]] = [[] for _ in range(SEATS)]
    tricks: list[list[tuple[int, str]]] = []
    lead = game.left
    for j, w in enumerate(winners):
        suit = SUIT_CYCLE[j % 4]
        ranks = RANKS8[4 * (j // 4): 4 * (j // 4) + 4]
        order = [(lead + i) % SEATS for i in range(SEATS)]
        others = [s for s in order if s != w]
        mine = {w: ranks[3] + suit, **{s: r + suit for s, r in zip(others, ranks[:3], strict=True)}}
        for s in range(SEATS):
            hands[s].append(mine[s])
        tricks.append([(s, mine[s]) for s in order])
        lead = w
    deal(game, [" ".join(h) for h in hands], turned="BJ")
    bid(game, by_seat)
    for trick in tricks:
        for s, code in trick:
            game.apply(ev(f"{s} play {code}"))


def scripted_nine(game: Joker, winners: Sequence[int], by_seat: Sequence[int], trump: str = "H") -> None:
    """Deal, name trump, bid and play a 9-card deal (36j deck) in which trick j is won by winners[j].

    Tricks 0–7 are played in suits HDSC HDSC, everyone following with the card kept for that trick
    and the planned winner holding the highest of the four. Trick 8 is led by the winner of trick 7
    (so winners[8] must equal winners[7]) with A♥; the others hold A♦ and the two jokers, played low.
    The dealer's left names ``trump`` once they hold three cards.
    """
    assert game.n == 9 and len(winners) == 9 and winners[8] == winners[7]
    ranks = {"H": "6789TJQKA", "D": "6789TJQKA", "S": "789TJQKA", "C": "789TJQKA"}
    hands: list[list[str]] = [[] for _ in range(SEATS)]
    tricks: list[list[tuple[int, str]]] = []
    lead = game.left
    for j, w in enumerate(winners[:8]):
        suit = "HDSC"[j % 4]
        four = ranks[suit][4 * (j // 4): 4 * (j // 4) + 4]
        order = [(lead + i) % SEATS for i in range(SEATS)]
        others = [s for s in order if s != w]
        mine = {w: four[3] + suit, **{s: r + suit for s, r in zip(others, four[:3], strict=True)}}
        for s in range(SEATS):
            hands[s].append(mine[s])
        tricks.append([(s, mine[s]) for s in order])
        lead = w
    order = [(lead + i) % SEATS for i in range(SEATS)]
    last = dict(zip(order, ["AH", "AD", "BJ", "RJ"], strict=True))
    for s in range(SEATS):
        hands[s].append(last[s])
    tricks.append([(s, last[s] + (" low" if last[s].endswith("J") else "")) for s in order])
    for k, code in enumerate(shoe_order(game, [" ".join(h) for h in hands])):
        if k == 9:  # the dealer's left holds three cards
            game.apply(ev(f"{game.left} trump {trump}"))
        game.apply(shoe(code))
    bid(game, by_seat)
    for trick in tricks:
        for s, code in trick:
            game.apply(ev(f"{s} play {code}"))
