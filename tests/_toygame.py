"""A tiny two-seat trick game that exercises the engine core without any real game's rules.

Two cards each from the shoe (seat 0, 1, 0, 1); seat 0 leads; follow suit if able; higher card of
the suit led wins; the winner leads; one point per trick. A revoke, under ``penalize``, gives the
offender's tricks to the opponent.
"""

from __future__ import annotations

from engine.cards import SUIT_MASK, Card, cards_in
from engine.errors import CardNotInHandError, OutOfTurnError
from engine.events import Event, card_event
from engine.game import Game
from engine.scoresheet import DealScore, ScoreItem, ScoreSheet
from engine.settings import Settings
from engine.verdict import Verdict


class ToySettings(Settings):
    cards_each: int = 2


class Toy(Game):
    name = "toy"
    settings_model = ToySettings

    def _new_state(self) -> None:
        self.hands = [0, 0]
        self.seen = 0
        self.dealt = 0
        self.turn = 0
        self.trick: list[tuple[int, str]] = []
        self.tricks = [0, 0]
        self.revokes = [0, 0]

    @property
    def n(self) -> int:
        return self.settings.cards_each  # type: ignore[attr-defined]

    @property
    def expects_shoe(self) -> bool:
        return self.dealt < 2 * self.n

    @property
    def is_over(self) -> bool:
        return sum(self.tricks) == self.n

    def to_act(self) -> int | None:
        return None if self.expects_shoe or self.is_over else self.turn

    def _unseen_mask(self) -> int:
        from engine.cards import composition_mask

        return composition_mask("32") & ~self.seen

    def _judge(self, event: Event) -> Verdict:
        if event.kind == "shoe":
            if not self.expects_shoe:
                raise OutOfTurnError("no card is due from the shoe")
            self._shoe_card(event, self.seen)
            return Verdict(event)
        if event.kind != "play" or self.expects_shoe or self.is_over:
            raise OutOfTurnError(f"{event} is not possible now")
        if event.seat != self.turn:
            raise OutOfTurnError(f"seat {self.turn} is to play, not seat {event.seat}")
        c = event.card
        if not c.bit & self.hands[event.seat]:
            raise CardNotInHandError(f"seat {event.seat} does not hold {c.code}")
        if self.trick:
            led = self.trick[0][1][1]
            if c.suit != led and self.hands[event.seat] & SUIT_MASK[led]:
                return Verdict(event, False, "follow-suit", f"held {led}, did not follow suit")
        return Verdict(event)

    def _do(self, event: Event, verdict: Verdict) -> None:
        if event.kind == "shoe":
            c = event.card
            self.seen |= c.bit
            self.hands[self.dealt % 2] |= c.bit
            self.dealt += 1
            return
        seat = event.seat
        assert seat is not None
        c = event.card
        self.hands[seat] &= ~c.bit
        if not verdict.legal:
            self.revokes[seat] += 1
        self.trick.append((seat, c.code))
        if len(self.trick) == 2:
            led = self.trick[0][1][1]
            best = max((p for p in self.trick if p[1][1] == led),
                       key=lambda p: "6789TJQKA".index(p[1][0]))
            self.tricks[best[0]] += 1
            self.turn = best[0]
            self.trick = []
        else:
            self.turn = 1 - seat

    def _legal(self, seat: int | None) -> list[Event]:
        s = self.to_act()
        if s is None or (seat is not None and seat != s):
            return []
        hand = self.hands[s]
        if self.trick:
            led = self.trick[0][1][1]
            if hand & SUIT_MASK[led]:
                hand &= SUIT_MASK[led]
        return [card_event("play", s, c) for c in cards_in(hand)]

    def score_sheet(self) -> ScoreSheet:
        points = list(self.tricks)
        items = [ScoreItem(s, "tricks", self.tricks[s], "trick") for s in (0, 1)]
        for s in (0, 1):
            if self.revokes[s] and self.settings.policy == "penalize":
                items.append(ScoreItem(1 - s, "revoke penalty", points[s], "revoke"))
                points[1 - s] += points[s]
                points[s] = 0
        return ScoreSheet("toy", ["seat 0", "seat 1"], self.settings.changed(),
                          [DealScore(1, points, items)], points, self.is_over)

    def card_list(self, seat: int) -> list[Card]:
        return self.hand(seat)
