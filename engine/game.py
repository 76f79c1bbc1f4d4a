"""The game base class: a game is a fold over an append-only event log.

API in the spirit of python-chess:

* ``to_act()`` — the seat whose turn it is, or ``None`` while the shoe must deliver a card or the
  game is over (``expects_shoe``, ``is_over``);
* ``legal_actions(seat=None)`` — every legal event now (shoe events included while dealing);
* ``apply(event)`` / ``push`` — do a legal action, raise :class:`IllegalPlayError` for an illegal one;
* ``record(event)`` — what the physical table did: an illegal play is accepted and the returned
  :class:`Verdict` names the rule broken; the table policy decides what follows;
* ``pop()`` — remove the last event exactly, ``undo()`` — append an ``undo`` event;
* ``fix(n, event)`` — correct event *n* of the log (a misread card), replaying everything after it.

Taking back does not replay the whole log: the state is saved every ``CHECKPOINT_EVERY`` effective
events (when ``record`` passes one, and whenever a rewind replays past one), and ``undo``, ``pop``
and ``fix`` restore the nearest saved state at or before the point they go back to and fold the
few events after it again. ``apply`` saves nothing, so random playouts pay nothing for this; the
first rewind after a long run of ``apply`` folds that run once and saves states along the way.

Things that cannot physically happen, or that a panel can refuse before they happen (an unknown
card, a card dealt twice, acting out of turn, a card not in the hand, a bid not allowed now)
raise an :class:`EngineError` and leave the state and the log exactly as they were.

A game is written by filling in the same few places (docs/engine.md, "Adding a game"):
``settings_model``, ``_new_state``, one ``@judge(kind)`` method (check, never mutate) and one
``@fold(kind)`` method (mutate) per event kind, ``to_act``, ``expects_shoe``, ``is_over``,
``_unseen_mask``, ``_legal`` and ``score_sheet``. State lives in plain attributes so that
``snapshot()`` can compare two games; ``hands`` holds each seat's card mask and ``phase`` a
member of the game's ``Phase`` enum. Every game then has the same ``outcome`` (a typed
:class:`Outcome`), ``table_view()`` and ``legal_moves``.
"""

from __future__ import annotations

import copy
import dataclasses
import operator
from abc import ABC, abstractmethod
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from enum import Enum
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, overload

from engine.cards import Card, Composition, cards_in, composition, composition_mask
from engine.errors import (
    ActionNotAllowedError,
    BadEventError,
    DuplicateCardError,
    EngineError,
    IllegalPlayError,
)
from engine.events import DECLARE, FIX, SHOE, SHOE_EVENTS, UNDO, Event, parse_number
from engine.outcome import Outcome
from engine.scoresheet import ScoreSheet
from engine.settings import Policy, Settings
from engine.verdict import Verdict

if TYPE_CHECKING:
    from engine.view import DeclarationView, TableView, TrickCard

@dataclasses.dataclass(frozen=True)
class ShoeDue:
    """The card the shoe owes next, as the dealer must deal it (``Game.shoe_due``).

    ``seat``: the hand it goes to, or None when it is laid face up on the table; ``count``: how
    many cards in a row go the same way, this one included (the dealer's «3 карты Боре»);
    ``face_up``: what a card laid face up is — ``"trump"`` (turned for trump), ``"open"``
    (Belot's second open card), ``"ace-draw"`` (Joker's тузование: face up in front of ``seat``,
    or in the middle when ``seat`` is None); ``dealer``: who deals; ``draw``: a refill from the
    talon after a trick or bout, not the deal.
    """

    seat: int | None
    count: int = 1
    face_up: str | None = None
    dealer: int | None = None
    draw: bool = False


def run_length(table: Sequence[Any], start: int) -> int:
    """How many entries from ``start`` on equal ``table[start]`` (a deal table's packet)."""
    n = 1
    while start + n < len(table) and table[start + n] == table[start]:
        n += 1
    return n


JudgeFn = Callable[[Any, Event], Verdict]
FoldFn = Callable[[Any, Event, Verdict], None]
F = TypeVar("F", bound=Callable[..., Any])


def judge(kind: str) -> Callable[[F], F]:
    """Mark a method as the judge of events of ``kind``: ``(self, event) -> Verdict``."""
    def mark(fn: F) -> F:
        fn.__judges__ = kind  # type: ignore[attr-defined]
        return fn
    return mark


def fold(kind: str) -> Callable[[F], F]:
    """Mark a method as the fold of events of ``kind``: ``(self, event, verdict) -> None``."""
    def mark(fn: F) -> F:
        fn.__folds__ = kind  # type: ignore[attr-defined]
        return fn
    return mark


class LegalMoves(Sequence[Event]):
    """``game.legal_moves``: the legal events now, as python-chess has it — ``e in g.legal_moves``,
    iteration, ``len`` and indexing; ``g.legal_moves(seat)`` still lists one seat's."""

    __slots__ = ("_events", "_game")

    def __init__(self, game: Game) -> None:
        self._game = game
        self._events: list[Event] | None = None

    def _all(self) -> list[Event]:
        if self._events is None:
            self._events = self._game.legal_actions()
        return self._events

    def __call__(self, seat: int | None = None) -> list[Event]:
        return self._game.legal_actions(seat)

    def __contains__(self, event: object) -> bool:
        return event in self._all()

    def __iter__(self) -> Iterator[Event]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())

    @overload
    def __getitem__(self, i: int) -> Event: ...
    @overload
    def __getitem__(self, i: slice) -> list[Event]: ...
    def __getitem__(self, i: int | slice) -> Event | list[Event]:
        return self._all()[i]

    def __repr__(self) -> str:
        return f"<LegalMoves {', '.join(map(str, self._all()))}>"

_LOG_ATTRS = frozenset({"raw_log", "events", "verdicts", "settings", "_origin", "_checkpoints"})
_META_KINDS = frozenset({UNDO, FIX})
UNDO_EVENT = Event(UNDO)
CHECKPOINT_EVERY = 32
"""Effective events between two saved states: a rewind folds at most this many events again."""

_ATOMS = (int, str, float, bool, bytes, complex, type(None), frozenset, range, Card, Event, Verdict,
          Settings, type)
_ATOM_TYPES = frozenset({int, bool, str, float, type(None), Card, Event, Verdict})


def _hashable(value: Any) -> bool:
    try:
        hash(value)
    except TypeError:
        return False
    return True


def _frozen(value: Any) -> bool:
    params = getattr(type(value), "__dataclass_params__", None)
    return params is not None and params.frozen and dataclasses.is_dataclass(value)


def _clone(value: Any) -> Any:
    """A copy of a piece of game state that shares nothing mutable with it.

    Game state is ints, strings, cards, events, tuples, lists, dicts, sets and frozen dataclasses
    (interned tables); a hashable value is taken as immutable and shared, so a list of tuples is
    copied at C speed and identity checks on cards and events still hold after a restore.
    Anything else is deep-copied.
    """
    t = type(value)
    if t in _ATOM_TYPES:
        return value
    if t is list:
        return value[:] if _hashable(tuple(value)) else [_clone(v) for v in value]
    if t is tuple:
        return value if _hashable(value) else tuple(_clone(v) for v in value)
    if isinstance(value, tuple) and _hashable(value):  # a NamedTuple row of typed state
        return value
    if t is dict:
        return dict(value) if _hashable(tuple(value.values())) else {
            k: _clone(v) for k, v in value.items()}
    if t is set:
        return set(value)
    if isinstance(value, _ATOMS) or _frozen(value):
        return value
    return copy.deepcopy(value)


def _copier(value: Any) -> Any:
    """How to copy ``value`` (already private to a saved state) again on every restore."""
    t = type(value)
    if t in _ATOM_TYPES or isinstance(value, _ATOMS) or _frozen(value):
        return None
    if t is list and _hashable(tuple(value)):
        return list.copy
    if isinstance(value, tuple) and _hashable(value):
        return None
    if t is dict and _hashable(tuple(value.values())):
        return dict.copy
    if t is set:
        return set.copy
    return _clone


def _form_error(event: Event) -> BadEventError | None:
    """What is wrong with the shape of an event whatever the game, or ``None``.

    A shoe event is a card and nothing else (the deal protocol, not the line, says whose it is);
    a declaration lists its cards and nothing else.
    """
    if event.kind == SHOE:
        if event.seat is not None:
            return BadEventError(f"«{event}»: a shoe event has no seat, the deal protocol says whose "
                                 "card it is: write 'shoe CARD'", "bad-event")
        if event.arg or len(event.cards) != 1:
            return BadEventError(f"«{event}»: a shoe event is exactly one card and nothing after "
                                 "it: write 'shoe CARD'", "bad-event")
    elif event.kind == DECLARE and event.arg:
        return BadEventError(f"«{event}»: a declaration lists its cards and nothing else; "
                             f"{event.arg.split()[0]!r} is not a card code", "bad-event")
    return None


class Game(ABC):
    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    num_seats: ClassVar[int] = 2
    settings_model: ClassVar[type[Settings]] = Settings
    #: the game's phases; ``self.phase`` is always one of its members
    Phase: ClassVar[type[Enum]]
    #: event kind → judge / fold, collected from the ``@judge`` and ``@fold`` methods
    judges: ClassVar[dict[str, JudgeFn]] = {}
    folds: ClassVar[dict[str, FoldFn]] = {}
    hands: list[int]  # each seat's cards, as a mask (engine.cards)
    phase: Any
    #: rules whose breach can never stand, whatever the policy: the play must be taken back as
    #: under ``retract`` (Durak's illegal attack or throw-in, docs/rules.md §6)
    always_retracted: ClassVar[frozenset[str]] = frozenset()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        judges: dict[str, JudgeFn] = {}
        folds: dict[str, FoldFn] = {}
        for klass in reversed(cls.__mro__):
            for fn in vars(klass).values():
                if getattr(fn, "__judges__", None):
                    judges[fn.__judges__] = fn
                if getattr(fn, "__folds__", None):
                    folds[fn.__folds__] = fn
        if set(judges) != set(folds):
            raise TypeError(f"{cls.__name__}: event kinds judged but never folded or folded but "
                            f"never judged: {sorted(set(judges) ^ set(folds))}")
        cls.judges, cls.folds = judges, folds

    def __init__(self, settings: Settings | Mapping[str, Any] | None = None, **options: Any) -> None:
        model = type(self).settings_model
        if isinstance(settings, model) and not options:
            self.settings = settings
        else:
            base = settings.model_dump() if isinstance(settings, Settings) else dict(settings or {})
            self.settings = model.build({**base, **options})
        # _retract: some illegal play may have to be taken back before anything else is recorded
        #: what follows an illegal play: ``retract``, ``penalize`` or ``on_claim``
        self.policy: Policy = self.settings.policy
        self._retract = self.policy == "retract" or bool(self.always_retracted)
        self.raw_log: list[Event] = []
        self.events: list[Event] = []
        self.verdicts: list[Verdict] = []
        # Raw-log numbers (1-based) of the effective events. Only undo/fix/pop need it, so commits
        # leave it behind and _sync_origin completes it: the effective events past its end are
        # the last raw-log entries, committed one after another since the last meta operation.
        self._origin: list[int] = []
        # (number of effective events, saved state), in increasing order; see _rewind.
        self._checkpoints: list[tuple[int, dict[str, tuple[Any, Any]]]] = []
        self._new_state()

    # ----------------------------------------------------------------- subclass hooks
    @abstractmethod
    def _new_state(self) -> None: ...

    def _judge(self, event: Event) -> Verdict:
        """Check an event against the state. Raise for the impossible; never mutate.

        By default the ``@judge`` method of its kind; a game may override this for a fast path
        and hand the rest on here."""
        judge = self.judges.get(event.kind)
        if judge is None:
            raise BadEventError(
                f"{self.name} has no event {event.kind!r}; its events are "
                f"{', '.join(self.judges)} (and undo, fix)")
        return judge(self, event)

    def _do(self, event: Event, verdict: Verdict) -> None:
        """Fold one judged event into the state (the ``@fold`` method of its kind)."""
        self.folds[event.kind](self, event, verdict)

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

    @property
    def outcome(self) -> Outcome:
        """The typed result so far: finished, the winning seat or side, totals, the reason."""
        return Outcome.of(bool(self.is_over), self.score_sheet())

    def table_view(self) -> TableView:
        """The one typed public view of the table (no hands): what displays read."""
        from engine.view import table_view

        return table_view(self)

    def shoe_due(self) -> ShoeDue | None:
        """The card the shoe owes next and where the dealer puts it (None when none is due)."""
        if not self.expects_shoe or self.is_over:
            return None
        return self._shoe_due()

    def _shoe_due(self) -> ShoeDue | None:
        """A game's answer to :meth:`shoe_due` (while the shoe is due); None: the game does not
        say."""
        return None

    # -- the game's own part of the table view (engine.view.table_view asks, never by name) --
    def view_trick(self, d: dict[str, Any]) -> list[TrickCard]:
        """The cards on the table now, by seat; ``d`` is :meth:`describe`'s answer."""
        return []

    def view_trump(self, d: dict[str, Any]) -> str | None:
        """The trump as every display reads it: a suit letter, "none" (no trump), "all" (every
        suit is trump) or None (not known yet)."""
        t = d.get("trump")
        return t if isinstance(t, str) or t is None else str(t)

    def view_deal(self, d: dict[str, Any]) -> int | None:
        """The number the display shows as the deal (Durak: the game's number)."""
        deal = d.get("deal")
        return deal if isinstance(deal, int) else None

    def view_declarations(self, d: dict[str, Any]) -> list[DeclarationView]:
        """Declarations in view: combinations shown and bella (Belot's ``declared`` and
        ``bella`` keys of :meth:`describe`; other games override)."""
        from engine.view import DeclarationView

        out = [DeclarationView(seat=item["seat"], kind="combination", cards=list(item["cards"]))
               for item in d.get("declared") or [] if isinstance(item, dict)]
        out += [DeclarationView(seat=seat, kind="bella") for seat in d.get("bella") or []]
        return out

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
        if self._retract and self._retract_pending() is not None:
            return [UNDO_EVENT]
        if self.expects_shoe:
            cards = SHOE_EVENTS.of(self._unseen_mask()) if seat is None else []
            beside = self._legal_beside_shoe(seat)
            return cards + beside if beside else cards
        return self._legal(seat)

    def _legal_beside_shoe(self, seat: int | None) -> list[Event]:
        """Actions a seat may take while the shoe is due (none by default; Joker's claims on the
        last deal until the next deal's first card)."""
        return []

    @property
    def legal_moves(self) -> LegalMoves:
        return LegalMoves(self)

    def judge(self, event: Event) -> Verdict:
        """The verdict ``record`` would give, without recording. Raises like ``record``."""
        verdict = self._judge(event)
        bad = _form_error(event)
        if bad is not None:
            raise bad
        return verdict

    def is_legal(self, event: Event) -> bool:
        try:
            return self._retract_pending() is None and self.judge(event).legal
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
        kind = event.kind
        if (kind == SHOE and (event.seat is not None or event.arg)) or (
                kind == DECLARE and event.arg):
            raise _form_error(event) or AssertionError(event)
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
            number, text = _fix_parts(event)
            self.fix(number, Event.parse(text))
            return Verdict(event)
        self._check_retract()
        verdict = self.judge(event)
        self._commit(event, verdict)
        if not len(self.events) % CHECKPOINT_EVERY:
            self._save_checkpoint()
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
        last = self.raw_log[-1]
        if last.kind in _META_KINDS:
            self._rebuild(self.raw_log[:-1])  # rare: folds the effective events once
        else:  # a committed event is the last effective one
            self._sync_origin()
            self._rewind(len(self.events) - 1)
            self.raw_log.pop()
        return last

    def undo(self) -> None:
        """Take back the last effective event; the ``undo`` stays in the log."""
        if not self.events:
            raise ActionNotAllowedError("nothing to undo", "nothing-to-undo")
        self._sync_origin()
        self._rewind(len(self.events) - 1)
        self.raw_log.append(UNDO_EVENT)

    def fix(self, number: int, event: Event) -> None:
        """Replace event ``number`` (1-based, in the raw log) and replay what followed."""
        if not 1 <= number <= len(self.raw_log) or self.raw_log[number - 1].kind in (UNDO, FIX):
            raise ActionNotAllowedError(
                f"cannot fix event {number}: the log has {len(self.raw_log)} events and only "
                "cards, bids and plays can be corrected", "bad-fix")
        if event.kind in _META_KINDS:
            raise ActionNotAllowedError(
                f"cannot fix event {number} into «{event}»: a fix names a card, bid or play",
                "bad-fix")
        self._sync_origin()
        i = bisect_left(self._origin, number)
        if i == len(self._origin) or self._origin[i] != number:
            raise ActionNotAllowedError(
                f"cannot fix event {number}: it was undone or is not in the log", "bad-fix")
        # Keep what is needed to put everything back if the corrected log cannot be replayed.
        tail = (self.events[i:], self.verdicts[i:], self._origin[i:])
        checkpoints = list(self._checkpoints)
        self._rewind(i)
        try:
            for e, n in zip([event, *tail[0][1:]], tail[2], strict=True):
                self._check_retract()
                verdict = self.judge(e)
                self._do(e, verdict)
                self.events.append(e)
                self.verdicts.append(verdict)
                self._origin.append(n)
                if not len(self.events) % CHECKPOINT_EVERY:
                    self._save_checkpoint()
        except EngineError:
            # Back to the log as it was: its saved states still hold, fold from the last one.
            del self.events[i:], self.verdicts[i:], self._origin[i:]
            self.events += tail[0]
            self.verdicts += tail[1]
            self._origin += tail[2]
            self._checkpoints = checkpoints
            self._rewind(len(self.events))
            raise
        self.raw_log.append(Event(FIX, None, (), f"{number} {event}"))

    # ----------------------------------------------------------------- replay
    @staticmethod
    def effective(raw: Iterable[Event]) -> list[Event]:
        """The events that count once ``undo`` and ``fix`` are applied."""
        return [e for _, e in Game._effective_numbered(raw)]

    @staticmethod
    def _effective_numbered(raw: Iterable[Event]) -> list[tuple[int, Event]]:
        """The effective events with their raw-log numbers; one pass, a bisection per ``fix``."""
        kept: list[tuple[int, Event]] = []
        for number, event in enumerate(raw, start=1):
            if event.kind == UNDO:
                if not kept:
                    raise ActionNotAllowedError("nothing to undo", "nothing-to-undo")
                kept.pop()
            elif event.kind == FIX:
                target, text = _fix_parts(event)
                i = bisect_left(kept, target, key=lambda pair: pair[0])
                if i == len(kept) or kept[i][0] != target:
                    raise ActionNotAllowedError(
                        f"cannot fix event {target}: it was undone or is not in the log", "bad-fix")
                kept[i] = (target, Event.parse(text))
            else:
                kept.append((number, event))
        return kept

    def _rebuild(self, raw: list[Event]) -> None:
        fresh = type(self)(self.settings)
        kept = self._effective_numbered(raw)
        for _, event in kept:
            fresh.record(event)
        fresh.raw_log = list(raw)
        fresh._origin = [n for n, _ in kept]
        self.__dict__.clear()
        self.__dict__.update(fresh.__dict__)

    # ----------------------------------------------------------------- saved states
    def _saved_state(self) -> dict[str, tuple[Any, Any]]:
        """The state, copied: attribute → (value, how to copy it again when restoring).

        A list that only grew since the last saved state (a party's deal history) is checked
        for mutable items only past the part already checked, so saving stays cheap late in a
        long party.
        """
        previous = self._checkpoints[-1][1] if self._checkpoints else {}
        out = {}
        for k, v in self.__dict__.items():
            if k in _LOG_ATTRS:
                continue
            if type(v) is list:
                before = previous.get(k)
                if before is not None and before[1] is list.copy:
                    old = before[0]
                    m = len(old)
                    if (len(v) >= m and all(map(operator.is_, old, v))
                            and _hashable(tuple(v[m:]))):
                        out[k] = (v[:], list.copy)
                        continue
            v = _clone(v)
            out[k] = (v, _copier(v))
        return out

    def _restore(self, state: dict[str, tuple[Any, Any]]) -> None:
        d = self.__dict__
        for k in [k for k in d if k not in _LOG_ATTRS and k not in state]:
            del d[k]
        for k, (v, copier) in state.items():
            d[k] = v if copier is None else copier(v)

    def _save_checkpoint(self) -> None:
        n = len(self.events)
        if not self._checkpoints or self._checkpoints[-1][0] < n:
            self._checkpoints.append((n, self._saved_state()))

    def _sync_origin(self) -> None:
        missing = len(self.events) - len(self._origin)
        if missing:
            end = len(self.raw_log)
            self._origin.extend(range(end - missing + 1, end + 1))

    def _rewind(self, n: int) -> None:
        """Go back to the state after the first ``n`` effective events (``_origin`` in sync)."""
        cps = self._checkpoints
        del cps[bisect_right(cps, n, key=lambda c: c[0]):]
        if not cps:
            cps.append((0, type(self)(self.settings)._saved_state()))
        start, state = cps[-1]
        self._restore(state)
        events, verdicts = self.events, self.verdicts
        for i in range(start, n):  # fold again what came after the saved state, as it was judged
            self._do(events[i], verdicts[i])
            if not (i + 1) % CHECKPOINT_EVERY and i + 1 < n:
                cps.append((i + 1, self._saved_state()))
        del events[n:], verdicts[n:], self._origin[n:]

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
            last = self.verdicts[-1]
            if self.settings.policy == "retract" or last.rule in self.always_retracted:
                return last
        return None

    def must_retract(self, verdict: Verdict) -> bool:
        """Whether this illegal verdict, once recorded, must be taken back before play goes on."""
        return not verdict.legal and (self.settings.policy == "retract"
                                      or verdict.rule in self.always_retracted)

    def _check_retract(self) -> None:
        pending = self._retract_pending()
        if pending is not None:
            why = ("policy retract" if self.settings.policy == "retract"
                   else "such a play can never stand")
            raise ActionNotAllowedError(
                f"the illegal play «{pending.event}» must be taken back first ({why}): "
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


def _fix_parts(event: Event) -> tuple[int, str]:
    """``fix N EVENT`` → (N, EVENT text); refuses anything else with a readable message."""
    number, _, text = event.arg.partition(" ")
    n = parse_number(number)
    if n is None or not text.strip():
        raise BadEventError(f"fix needs an event number and an event ('fix 12 shoe TD'), got "
                            f"{event.arg!r}", "bad-fix")
    return n, text
