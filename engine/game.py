"""The game base class: a game is a fold over an append-only event log.

API in the spirit of python-chess:

* ``to_act()`` — the seat whose turn it is, or ``None`` while the shoe must deliver a card or the
  game is over (``expects_shoe``, ``is_over``);
* ``legal_actions(seat=None)`` — every legal event now (shoe events included while dealing);
* ``apply(event)`` / ``push`` — do a legal action, raise :class:`IllegalPlayError` for an illegal one;
* ``record(event)`` — what the physical table did: an illegal play is accepted and the returned
  :class:`Verdict` names the rule broken; the table policy decides what follows;
* ``pop()`` — remove the last event exactly (by replay), ``undo()`` — append an ``undo`` event;
* ``fix(n, event)`` — correct event *n* of the log (a misread card), replaying everything after it.

Things that cannot physically happen, or that a panel can refuse before they happen (an unknown
card, a card dealt twice, acting out of turn, a card not in the hand, a bid not allowed now)
raise an :class:`EngineError` and leave the state and the log exactly as they were.

Subclasses implement ``_new_state``, ``_judge`` (check, never mutate), ``_do`` (mutate),
``to_act``, ``expects_shoe``, ``_unseen_mask``, ``_legal``, ``is_over`` and ``score_sheet``, and keep
all their state in plain attributes so that ``snapshot()`` can compare two games.
"""

from __future__ import annotations

import copy
from abc import ABC, abstractmethod
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

from engine.cards import Card, Composition, cards_in, composition, composition_mask
from engine.errors import (
    ActionNotAllowedError,
    BadEventError,
    DuplicateCardError,
    EngineError,
    IllegalPlayError,
)
from engine.events import FIX, SHOE_EVENTS, UNDO, Event
from engine.scoresheet import ScoreSheet
from engine.settings import Settings
from engine.verdict import Verdict

_LOG_ATTRS = frozenset({"raw_log", "events", "verdicts", "settings"})
_META_KINDS = frozenset({UNDO, FIX})
UNDO_EVENT = Event(UNDO)


class Game(ABC):
    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    num_seats: ClassVar[int] = 2
    settings_model: ClassVar[type[Settings]] = Settings

    def __init__(self, settings: Settings | Mapping[str, Any] | None = None, **options: Any) -> None:
        model = type(self).settings_model
        if isinstance(settings, model) and not options:
            self.settings = settings
        else:
            base = settings.model_dump() if isinstance(settings, Settings) else dict(settings or {})
            self.settings = model.build({**base, **options})
        self._retract = self.settings.policy == "retract"
        self.raw_log: list[Event] = []
        self.events: list[Event] = []
        self.verdicts: list[Verdict] = []
        self._new_state()

    # ----------------------------------------------------------------- subclass hooks
    @abstractmethod
    def _new_state(self) -> None: ...

    @abstractmethod
    def _judge(self, event: Event) -> Verdict:
        """Check an event against the state. Raise for the impossible; never mutate."""

    @abstractmethod
    def _do(self, event: Event, verdict: Verdict) -> None:
        """Fold one judged event into the state."""

    @abstractmethod
    def to_act(self) -> int | None: ...

    @property
    @abstractmethod
    def expects_shoe(self) -> bool: ...

    @property
    @abstractmethod
    def is_over(self) -> bool: ...

    @abstractmethod
    def _unseen_mask(self) -> int:
        """Cards of the composition that may still come out of the shoe in this deal."""

    @abstractmethod
    def _legal(self, seat: int | None) -> list[Event]:
        """Legal non-shoe actions of ``seat`` (every seat when ``None``)."""

    @abstractmethod
    def score_sheet(self) -> ScoreSheet: ...

    def problems(self) -> list[str]:
        """Broken invariants of the state (cards conserved, caps …); empty when valid. For tests."""
        return []

    @property
    def deck(self) -> Composition:
        return "32"

    def describe(self) -> dict[str, Any]:
        """Public state for displays; games add trump, table, scores …"""
        return {
            "game": self.name,
            "to_act": self.to_act(),
            "expects_shoe": self.expects_shoe,
            "over": self.is_over,
        }

    # ----------------------------------------------------------------- queries
    def hand(self, seat: int) -> list[Card]:
        hands: list[int] = getattr(self, "hands")  # noqa: B009 - every game keeps masks here
        return list(cards_in(hands[seat]))

    def deck_cards(self) -> tuple[Card, ...]:
        return composition(self.deck)

    def unseen_cards(self) -> list[Card]:
        return list(cards_in(self._unseen_mask()))

    def legal_actions(self, seat: int | None = None) -> list[Event]:
        if self.is_over:
            return []
        if self._retract and self.verdicts and not self.verdicts[-1].legal:
            return [UNDO_EVENT]
        if self.expects_shoe:
            return SHOE_EVENTS.of(self._unseen_mask()) if seat is None else []
        return self._legal(seat)

    legal_moves = legal_actions

    def judge(self, event: Event) -> Verdict:
        """The verdict ``record`` would give, without recording. Raises like ``record``."""
        return self._judge(event)

    def is_legal(self, event: Event) -> bool:
        try:
            return self._retract_pending() is None and self._judge(event).legal
        except EngineError:
            return False

    def snapshot(self) -> dict[str, Any]:
        """Everything that makes up the state (not the logs): equal snapshots, equal games."""
        return copy.deepcopy({k: v for k, v in vars(self).items() if k not in _LOG_ATTRS})

    @property
    def illegal_plays(self) -> list[Verdict]:
        return [v for v in self.verdicts if not v.legal]

    # ----------------------------------------------------------------- actions
    def apply(self, event: Event) -> Verdict:
        """Do a legal action; an illegal play raises :class:`IllegalPlayError`."""
        # The hot path of every playout and of the benchmark: _commit is written out here.
        if event.kind in _META_KINDS:
            return self.record(event)
        if self._retract:
            self._check_retract()
        verdict = self._judge(event)
        if not verdict.legal:
            raise IllegalPlayError(verdict)
        self._do(event, verdict)
        self.raw_log.append(event)
        self.events.append(event)
        self.verdicts.append(verdict)
        return verdict

    push = apply

    def record(self, event: Event) -> Verdict:
        """Record what happened at the table, legal or not, and say which rule it broke."""
        if event.kind == UNDO:
            self.undo()
            return Verdict(event)
        if event.kind == FIX:
            number, _, text = event.arg.partition(" ")
            if not number.isdigit():
                raise BadEventError(f"fix needs an event number and an event, got {event.arg!r}")
            self.fix(int(number), Event.parse(text))
            return Verdict(event)
        self._check_retract()
        verdict = self._judge(event)
        self._commit(event, verdict)
        return verdict

    def _commit(self, event: Event, verdict: Verdict) -> None:
        self._do(event, verdict)
        self.raw_log.append(event)
        self.events.append(event)
        self.verdicts.append(verdict)

    def pop(self) -> Event:
        """Remove the last event of the log, as if it never happened."""
        if not self.raw_log:
            raise ActionNotAllowedError("nothing to take back: the log is empty", "nothing-to-undo")
        raw = self.raw_log[:-1]
        last = self.raw_log[-1]
        self._rebuild(raw)
        return last

    def undo(self) -> None:
        """Take back the last effective event; the ``undo`` stays in the log."""
        if not self.events:
            raise ActionNotAllowedError("nothing to undo", "nothing-to-undo")
        self._rebuild([*self.raw_log, Event(UNDO)])

    def fix(self, number: int, event: Event) -> None:
        """Replace event ``number`` (1-based, in the raw log) and replay what followed."""
        if not 1 <= number <= len(self.raw_log) or self.raw_log[number - 1].kind in (UNDO, FIX):
            raise ActionNotAllowedError(
                f"cannot fix event {number}: the log has {len(self.raw_log)} events and only "
                "cards, bids and plays can be corrected", "bad-fix")
        self._rebuild([*self.raw_log, Event(FIX, None, (), f"{number} {event}")])

    # ----------------------------------------------------------------- replay
    @staticmethod
    def effective(raw: Iterable[Event]) -> list[Event]:
        """The events that count once ``undo`` and ``fix`` are applied."""
        kept: list[tuple[int, Event]] = []
        for number, event in enumerate(raw, start=1):
            if event.kind == UNDO:
                if not kept:
                    raise ActionNotAllowedError("nothing to undo", "nothing-to-undo")
                kept.pop()
            elif event.kind == FIX:
                target_text, _, text = event.arg.partition(" ")
                target = int(target_text)
                for i, (n, _old) in enumerate(kept):
                    if n == target:
                        kept[i] = (n, Event.parse(text))
                        break
                else:
                    raise ActionNotAllowedError(
                        f"cannot fix event {target}: it was undone or is not in the log", "bad-fix")
            else:
                kept.append((number, event))
        return [e for _, e in kept]

    def _rebuild(self, raw: list[Event]) -> None:
        fresh = type(self)(self.settings)
        for event in self.effective(raw):
            fresh.record(event)
        fresh.raw_log = list(raw)
        self.__dict__.clear()
        self.__dict__.update(fresh.__dict__)

    @classmethod
    def replay(cls, events: Iterable[Event | str], settings: Settings | Mapping[str, Any] | None = None,
               ) -> Game:
        game = cls(settings)
        for e in events:
            game.record(Event.parse(e) if isinstance(e, str) else e)
        return game

    def copy(self) -> Game:
        other = type(self)(self.settings)
        other._rebuild(self.raw_log)
        return other

    # ----------------------------------------------------------------- policy
    def _retract_pending(self) -> Verdict | None:
        if self._retract and self.verdicts and not self.verdicts[-1].legal:
            return self.verdicts[-1]
        return None

    def _check_retract(self) -> None:
        pending = self._retract_pending()
        if pending is not None:
            raise ActionNotAllowedError(
                f"the illegal play «{pending.event}» must be taken back first (policy retract): "
                f"{pending.message}", "retract-pending")

    # ----------------------------------------------------------------- helpers for games
    def _shoe_card(self, event: Event, seen: int) -> Card:
        """Validate a shoe event's card against the composition and what this deal has seen."""
        c = event.card
        if not c.bit & composition_mask(self.deck):
            raise DuplicateCardError(
                f"{c.code} is not in the {self.deck}-card deck of this game", "card-not-in-deck")
        if c.bit & seen:
            raise DuplicateCardError(
                f"{c.code} already came out of the shoe in this deal (two decks mixed, or a misread)")
        return c
