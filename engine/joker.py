"""Joker (Джокер) for four players, each for themselves — docs/rules.md §3,
docs/games/joker.md.

Event vocabulary (``[SEAT] KIND [CARD] [ARG]``):

* ``shoe XX`` — a card out of the shoe. Before the first deal (тузование) the cards go face up to
  seat ``ace_draw_first_seat``, then clockwise, until an ace: its receiver deals first. In a deal,
  card *k* goes to seat ``(dealer + 1 + k) % 4``; after 4×N cards the next one is turned for trump
  (deals of 1–8 cards only).
* ``S trump H`` / ``S trump none`` — 9-card deals: the dealer's left names trump (or no trump)
  once they hold three cards and before their fourth; their fourth card makes the deal no trump.
* ``S bid K`` — a bid of K tricks, ``0`` is «пас».
* ``S play XX`` — a card; a joker needs its mode: ``high`` («старшая», takes), ``low``
  («скидываю»), on lead ``want H`` («хочу ♥»), ``give H`` («забирай ♥»), and ``nominal 6S`` /
  ``nominal 6C`` («по номиналу»).
* ``S foul T`` — under policy ``on_claim``: seat S claims seat T's illegal play of this deal
  (until the next deal's first card); ``confirm`` closes the last deal's claims.

State is plain ints and lists; hands are bit masks, so legal moves are a few bitwise operations.
A finished deal is a :class:`DealResult` and each illegal play a :class:`Foul` (named tuples).
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NamedTuple

from pydantic import Field

from engine.cards import (
    ALL_CARDS,
    JOKERS_MASK,
    SUIT_MASK,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    Composition,
    composition_mask,
)
from engine.errors import (
    ActionNotAllowedError,
    BadEventError,
    BidNotAllowedError,
    CardNotInHandError,
    OutOfTurnError,
)
from engine.events import SHOE, SHOE_EVENTS, CardEvents, Event, card_event
from engine.game import Game, ShoeDue, fold, judge
from engine.scoresheet import (
    CLAIMED,
    LET_GO,
    PENALISED,
    DealScore,
    IllegalPlay,
    Line,
    ScoreItem,
    ScoreSheet,
)
from engine.settings import SEAT, Settings
from engine.verdict import Verdict, legal_verdict, share_legal_verdict

if TYPE_CHECKING:
    from engine.view import TrickCard

SEATS = 4
# Cards each in deals 1…24: pulka 1 grows 1…8, pulkas 2 and 4 are four 9-card deals, pulka 3 shrinks.
DEAL_SIZES: tuple[int, ...] = (*range(1, 9), 9, 9, 9, 9, *range(8, 0, -1), 9, 9, 9, 9)
PULKAS: tuple[range, ...] = (range(0, 8), range(8, 12), range(12, 20), range(20, 24))
PULKA_OF: tuple[int, ...] = tuple(p for p, r in enumerate(PULKAS) for _ in r)


class JokerPhase(StrEnum):
    """Strings, so that snapshots and describe() read well."""

    ACE_DRAW = "ace_draw"  # тузование: face-up cards until an ace picks the first dealer
    DEAL = "deal"          # cards out of the shoe (and the trump choice of a 9-card deal)
    BID = "bid"
    PLAY = "play"
    CONFIRM = "confirm"    # on_claim: the last deal's claims are open
    OVER = "over"


ACE_DRAW, DEAL, BID, PLAY, CONFIRM, OVER = JokerPhase

# Trump: a suit index 0…3 (C D H S), or these.
NO_TRUMP = -1
UNKNOWN = -2

# Joker modes.
PLAIN, HIGH, LOW, WANT, GIVE, NOMINAL = range(6)
MODE_WORDS = {HIGH: "high", LOW: "low", WANT: "want", GIVE: "give", NOMINAL: "nominal"}
RUSSIAN_MODE = {HIGH: "старшая", LOW: "скидываю", WANT: "хочу", GIVE: "забирай", NOMINAL: "по номиналу"}

PLAIN_MASK = (1 << 36) - 1
SUIT_MASKS: tuple[int, ...] = tuple(SUIT_MASK[s] for s in SUITS)
SIX_OF = {"S": ALL_CARDS[SUITS.index("S") * 9], "C": ALL_CARDS[SUITS.index("C") * 9]}
JOKERS = (ALL_CARDS[36], ALL_CARDS[37])

# Joker mode arguments (lower case, single spaces) -> (mode, suit index).
_MODE_ARGS: dict[str, tuple[int, int]] = {"high": (HIGH, -1), "low": (LOW, -1)}
for _i, _s in enumerate(SUITS):
    _MODE_ARGS[f"want {_s.lower()}"] = (WANT, _i)
    _MODE_ARGS[f"give {_s.lower()}"] = (GIVE, _i)
for _s in "SC":
    _MODE_ARGS[f"nominal 6{_s.lower()}"] = (NOMINAL, SUITS.index(_s))
_MODE_ALIASES = {"старшая": "high", "take": "high", "скидываю": "low", "discard": "low",
                 "хочу": "want", "забирай": "give", "номинал": "nominal"}

# Interned events (with their shared legal verdicts): legal-move lists reuse them.
PLAY_CARDS: tuple[CardEvents, ...] = tuple(CardEvents("play", s) for s in range(SEATS))


def _interned(kind: str, seat: int | None, arg: str = "") -> Event:
    return share_legal_verdict(Event(kind, seat, (), arg))


BID_EV: tuple[tuple[Event, ...], ...] = tuple(
    tuple(_interned("bid", s, str(k)) for k in range(10)) for s in range(SEATS))
TRUMP_WORDS = ("C", "D", "H", "S", "none")
TRUMP_EV: tuple[tuple[Event, ...], ...] = tuple(
    tuple(_interned("trump", s, w) for w in TRUMP_WORDS) for s in range(SEATS))
FOUL_EV: tuple[tuple[Event, ...], ...] = tuple(
    tuple(_interned("foul", s, str(t)) for t in range(SEATS)) for s in range(SEATS))
CONFIRM_EV = _interned("confirm", None)


class Foul(NamedTuple):
    """An illegal play of the deal being played (docs/rules.md §6)."""

    seat: int
    card: str    # its code
    trick: int   # from 1
    rule: str
    message: str


class DealFouls(NamedTuple):
    """A finished deal's illegal plays (only deals that had one)."""

    deal: int    # 0-based deal index
    fouls: tuple[Foul, ...]


class DealResult(NamedTuple):
    """A finished deal: what its score and the pulka premiums are computed from."""

    cards: int                 # cards each
    dealer: int
    trump: int                 # suit index, or NO_TRUMP
    bids: tuple[int, ...]      # per seat
    taken: tuple[int, ...]     # tricks per seat
    penalised: tuple[int, ...]  # 1: the seat's illegal play is penalised (−foul_penalty)
    fouls: tuple[int, ...]     # illegal plays per seat


def _joker_event(seat: int, j: Card, mode: int, suit: int) -> Event:
    if mode in (HIGH, LOW):
        arg = MODE_WORDS[mode]
    elif mode == NOMINAL:
        arg = f"nominal 6{SUITS[suit]}"
    else:
        arg = f"{MODE_WORDS[mode]} {SUITS[suit]}"
    return card_event("play", seat, j, arg)


# [seat][joker 0/1] -> events
LEAD_EV = tuple(tuple(tuple(_joker_event(s, j, m, x) for m in (WANT, GIVE) for x in range(4))
                      for j in JOKERS) for s in range(SEATS))
HIGHLOW_EV = tuple(tuple((_joker_event(s, j, HIGH, -1), _joker_event(s, j, LOW, -1))
                         for j in JOKERS) for s in range(SEATS))
NOMINAL_EV = tuple(tuple({x: _joker_event(s, j, NOMINAL, x) for x in (0, 3)} for j in JOKERS)
                   for s in range(SEATS))


def suit_name(s: int) -> str:
    return SUIT_SYMBOLS[SUITS[s]] if s >= 0 else ("no trump" if s == NO_TRUMP else "?")


def _trump_param(s: int) -> str:
    """A sheet line's ``trump``: the suit letter, "none" (no trump) or "?" (not chosen)."""
    return SUITS[s] if s >= 0 else ("none" if s == NO_TRUMP else "?")


class JokerModeError(ActionNotAllowedError):
    """A joker mode that does not fit (e.g. «хочу» when not on lead): the panel refuses it."""

    rule = "joker-mode"


class JokerSettings(Settings):
    deck: Literal["36j", "38"] = Field(
        "36j", description="36j: 6♠ and 6♣ replaced by the two jokers; 38: all four sixes and two jokers")
    minus_joker: bool = Field(
        False, description="«минусовой джокер»: a made bid k scores 100×k, short by d tricks −100×d")
    joker_lead_modes: bool = Field(
        True, description="a joker on lead is played «хочу <suit>» or «забирай <suit>» (Georgian "
        "rules); off: on lead too it is high or low and the first plain card sets the suit")
    joker_nominal: bool = Field(
        True, description="«по номиналу»: a joker may be played as 6♠ or 6♣ (36j deck only)")
    first_dealer: int | None = Field(
        None, ge=0, le=3, json_schema_extra=SEAT,
        description="seat that deals first; unset: тузование from the shoe")
    ace_draw_first_seat: int = Field(
        0, ge=0, le=3, json_schema_extra=SEAT,
        description="тузование: the seat that receives the first face-up card")
    ace_draw_center_card: bool = Field(
        False, description="тузование: the first card goes to the centre of the table (seed text)")
    foul_penalty: int = Field(
        200, ge=0, description="an illegal play penalised (policy penalize, or claimed under "
        "on_claim): the offender's deal scores −foul_penalty and misses the pulka premium")


def deal_points(bid: int, took: int, n: int, minus: bool) -> tuple[int, str, str]:
    """Points, rule id and an explanation a person can check (docs/rules.md §3 deal score)."""
    def line(text: str, key: str) -> Line:
        return Line(text, key, bid=bid, took=took, each=n)

    if bid == 0:
        if took == 0:
            return 50, "pass-made", line("bid 0 («пас»), took 0: 50", "joker-pass-made")
        return 10 * took, "tricks", line(f"bid 0, took {took}: 10 × {took}", "joker-tricks")
    if minus:
        if took == bid:
            return 100 * bid, "minus-made", line(f"bid {bid}, took {bid}: 100 × {bid}",
                                                 "joker-minus-made")
        if took < bid:
            return -100 * (bid - took), "minus-short", Line(
                f"bid {bid}, took {took}: −100 × {bid - took}", "joker-minus-short", bid=bid,
                took=took, short=bid - took)
        return 10 * took, "tricks", line(f"bid {bid}, took {took}: 10 × {took}", "joker-tricks")
    if took == bid:
        if bid == n:
            return 100 * bid, "all-tricks", line(f"bid all {n}, took all: 100 × {n}",
                                                 "joker-all-tricks")
        return 50 * (bid + 1), "bid-made", line(f"bid {bid}, took {bid}: 50 × ({bid} + 1)",
                                                "joker-bid-made")
    if took == 0:
        return -200, "hisht", line(f"bid {bid}, took none: хишт", "joker-hisht")
    return 10 * took, "tricks", line(f"bid {bid}, took {took}: 10 × {took}", "joker-tricks")


def deal_scores(results: list[DealResult], settings: JokerSettings) -> list[list[int]]:
    """Each finished deal's points per seat, before premiums."""
    minus = settings.minus_joker
    penalty = settings.foul_penalty
    return [[-penalty if r.penalised[s] else deal_points(r.bids[s], r.taken[s], r.cards, minus)[0]
             for s in range(SEATS)] for r in results]


def premiums(results: list[DealResult], scores: list[list[int]],
             ) -> list[tuple[int, list[int], list[ScoreItem]]]:
    """(pulka 1–4, points per seat, items) for every finished pulka; ``scores`` per deal."""
    out = []
    for p, deals in enumerate(PULKAS):
        if len(scores) < deals.stop:
            break
        made = [s for s in range(SEATS)
                if all(results[d].bids[s] == results[d].taken[s] and not results[d].penalised[s]
                       for d in deals)]
        best = [max(scores[d][s] for d in deals) for s in range(SEATS)]
        points = [0, 0, 0, 0]
        items = []
        for s in made:
            points[s] += best[s]
            items.append(ScoreItem(s, Line(f"premium of pulka {p + 1}: made every bid, + own "
                                           f"highest deal score {best[s]}", "joker-premium",
                                           pulka=p + 1, best=best[s]), best[s], "premium"))
        if len(made) == 1:
            for s in range(SEATS):
                if s != made[0]:
                    lost = max(best[s], 0)
                    points[s] -= lost
                    what = (f"− own highest deal score {best[s]}" if lost else
                            f"own highest deal score {best[s]} is negative: nothing lost")
                    items.append(ScoreItem(s, Line(
                        f"seat {made[0]}'s premium of pulka {p + 1}: {what}",
                        "joker-premium-loss" if lost else "joker-premium-loss-none",
                        seat=made[0], pulka=p + 1, best=best[s]), -lost, "premium-loss"))
        out.append((p + 1, points, items))
    return out


def illegal_plays(fouls: tuple[Foul, ...], pen: tuple[int, ...], policy: str) -> list[IllegalPlay]:
    """A finished deal's illegal plays as the sheet names them (docs/rules.md §6).

    Under ``retract`` an illegal play is taken back before play goes on, so none stands.
    """
    if policy == "retract":
        return []
    return [IllegalPlay(f.seat, f.card, f.trick, f.rule, f.message,
                        PENALISED if policy == "penalize" else CLAIMED if pen[f.seat] else LET_GO)
            for f in fouls]


class Joker(Game):
    """The whole partie: тузование, 24 deals in 4 pulkas, premiums, end after deal 24."""

    name: ClassVar[str] = "joker"
    title: ClassVar[str] = "Joker (Джокер), 4 players"
    num_seats: ClassVar[int] = SEATS
    settings_model: ClassVar[type[Settings]] = JokerSettings
    settings: JokerSettings
    Phase = JokerPhase

    # ----------------------------------------------------------------- state
    def _new_state(self) -> None:
        s = self.settings
        self._deck_mask = composition_mask(s.deck)
        self._lead_modes = bool(s.joker_lead_modes)
        self._nominal = bool(s.joker_nominal) and s.deck == "36j"
        self._enter(ACE_DRAW if s.first_dealer is None else DEAL)
        self.deal_no = 0                 # 0-based index of the deal being played
        self.dealer = -1 if s.first_dealer is None else s.first_dealer
        self.n = DEAL_SIZES[0]           # cards each in this deal
        self.ace_next = s.ace_draw_first_seat
        self.ace_cards: list[tuple[int, str]] = []   # тузование: (seat or -1 for the centre, card)
        self.seen = 0                    # cards out of the shoe in this deal (or in the тузование)
        self.dealt = 0
        self.hands = [0, 0, 0, 0]
        self.trump = UNKNOWN
        self.trump_card = -1             # index of the turned card, -1 if none
        self.trump_how = ""
        self.bids = [-1, -1, -1, -1]
        self.bid_count = 0
        self.turn = -1
        self.taken = [0, 0, 0, 0]
        self.played = 0                  # cards played in this deal
        self.tricks_done = 0
        self.trick: list[tuple[int, int, int, int]] = []   # (seat, card index, mode, mode suit)
        self.leader = -1
        self.led = -1                    # suit to follow in this trick, -1 not set yet
        self.lead_mode = PLAIN
        self.win_seat = -1
        self.win_key = -100
        self.nominal_used = 0            # six bits already stood for by a joker this deal
        self.fouls = [0, 0, 0, 0]        # illegal plays per seat in this deal
        self.claimed = [0, 0, 0, 0]
        self.foul_log: list[Foul] = []   # this deal's illegal plays
        # the finished deals that had an illegal play, with that deal's foul_log
        self.deal_fouls: list[DealFouls] = []
        self.results: list[DealResult] = []  # the finished deals

    @property
    def deck(self) -> Composition:
        return self.settings.deck

    @property
    def left(self) -> int:
        """The dealer's left: first card, first bid, first lead, trump choice in 9-card deals."""
        return (self.dealer + 1) % SEATS

    @property
    def pulka(self) -> int:
        return PULKA_OF[min(self.deal_no, 23)] + 1

    def _choice_open(self) -> bool:
        """9-card deal: the dealer's left holds three cards and has not seen a fourth."""
        return self.phase is DEAL and self.n == 9 and self.trump == UNKNOWN and 9 <= self.dealt <= 12

    # expects_shoe and is_over are plain attributes kept in step with the state by _enter and
    # the shoe and trump folds: the playout loop reads both after every event. The shoe is due
    # in the тузование and in a deal, except while the dealer's left may name trump (9 cards).
    expects_shoe: bool = True
    is_over: bool = False

    def _enter(self, phase: JokerPhase) -> None:
        self.phase = phase
        self.expects_shoe = phase is DEAL or phase is ACE_DRAW
        self.is_over = phase is OVER

    def to_act(self) -> int | None:
        phase = self.phase
        if phase in (PLAY, BID):
            return self.turn
        if phase is DEAL and self._choice_open():
            return self.left
        return None

    def _unseen_mask(self) -> int:
        return self._deck_mask & ~self.seen

    # ----------------------------------------------------------------- legal actions
    def _legal_beside_shoe(self, seat: int | None) -> list[Event]:
        # Under on_claim the last deal's illegal plays can still be claimed until the next
        # deal's first card, so the claims are listed with the shoe cards then.
        if self.phase is DEAL and not self.dealt and self.policy == "on_claim":
            return self._claims(seat)
        return []

    def _legal(self, seat: int | None) -> list[Event]:
        # The base class has answered for a finished game, a pending retraction and the shoe.
        phase = self.phase
        if phase is PLAY:
            s = self.turn
            if seat is not None and seat != s:
                return self._claims(seat)
            out = self._plays(s)
            if self.policy == "on_claim" and any(self.fouls):
                out += self._claims(seat)
            return out
        if phase is BID:
            s = self.turn
            out = []
            if seat is None or seat == s:
                banned = self._banned_bid(s)
                row = BID_EV[s]
                out = [row[k] for k in range(self.n + 1) if k != banned]
            if self.policy == "on_claim" and any(self.fouls):
                out += self._claims(seat)
            return out
        if phase is DEAL:
            # the 9-card trump choice: the dealer's left names trump, or the fourth card comes
            out = SHOE_EVENTS.of(self._unseen_mask()) if seat is None else []
            if seat is None or seat == self.left:
                out += TRUMP_EV[self.left]
            return out
        if phase is CONFIRM:
            return [*self._claims(seat), *([CONFIRM_EV] if seat is None else [])]
        return []

    def _claims(self, seat: int | None) -> list[Event]:
        if self.policy != "on_claim":
            return []
        out = []
        for t in range(SEATS):
            if self.fouls[t] and not self.claimed[t]:
                out += [FOUL_EV[s][t] for s in range(SEATS) if s != t and seat in (None, s)]
        return out

    def _plays(self, s: int) -> list[Event]:
        hand = self.hands[s]
        out = PLAY_CARDS[s].of(self._allowed(hand & PLAIN_MASK))
        if hand & JOKERS_MASK:
            leading = not self.trick
            for j in (0, 1):
                if not hand >> (36 + j) & 1:
                    continue
                if leading and self._lead_modes:
                    out += LEAD_EV[s][j]
                else:
                    out += HIGHLOW_EV[s][j]
                if self._nominal:
                    for x, e in NOMINAL_EV[s][j].items():
                        six = SUIT_MASKS[x] & -SUIT_MASKS[x]
                        if not six & self.nominal_used and (
                                leading or self._allowed((hand & PLAIN_MASK) | six) & six):
                            out.append(e)
        return out

    def _allowed(self, plain: int) -> int:
        """The plain cards of ``plain`` that may be played to the current trick."""
        led = self.led
        if led < 0:
            return plain
        s = plain & SUIT_MASKS[led]
        if s:
            return 1 << (s.bit_length() - 1) if self.lead_mode == WANT else s
        t = self.trump
        if t >= 0:
            s = plain & SUIT_MASKS[t]
            if s:
                return s
        return plain

    def _banned_bid(self, seat: int) -> int:
        """The bid the dealer may not make (it would make the total equal N), else -1."""
        if seat != self.dealer or self.bid_count != 3:
            return -1
        rest = self.n - (sum(self.bids) + 1)  # the dealer's own entry is -1
        return rest if 0 <= rest <= self.n else -1

    # ----------------------------------------------------------------- judging
    def _judge(self, event: Event) -> Verdict:
        if self.phase is OVER:
            raise ActionNotAllowedError(f"{event}: the game is over (24 deals played)", "game-over")
        kind = event.kind
        if kind == "play":  # the hot paths, without the dispatch
            return self._judge_play(event)
        if kind == SHOE:
            return self._judge_shoe(event)
        return super()._judge(event)

    @judge("confirm")
    def _judge_confirm(self, event: Event) -> Verdict:
        if self.phase is not CONFIRM:
            raise ActionNotAllowedError("nothing to confirm now: claims close with the next "
                                        "deal's first card", "not-allowed-now")
        return legal_verdict(event)

    def _seat_of(self, event: Event) -> int:
        seat = event.seat
        if seat is None or not 0 <= seat < SEATS:
            raise BadEventError(f"{event}: a seat 0–3 must act")
        return seat

    @judge(SHOE)
    def _judge_shoe(self, event: Event) -> Verdict:
        phase = self.phase
        if phase is ACE_DRAW:
            self._shoe_card(event, self.seen)
            return legal_verdict(event)
        if phase is not DEAL:
            what = "the deal is complete" if phase in (BID, PLAY) else "claims are being settled"
            raise ActionNotAllowedError(f"{event}: no card is due from the shoe ({what})",
                                        "shoe-not-expected")
        cs = event.cards
        c = cs[0] if len(cs) == 1 else event.card
        if not self._deck_mask & c.bit or self.seen & c.bit:
            self._shoe_card(event, self.seen)  # raises with the core's message
        return legal_verdict(event)

    @judge("bid")
    def _judge_bid(self, event: Event) -> Verdict:
        seat = self._seat_of(event)
        if self.phase is not BID:
            raise BidNotAllowedError(f"{event}: no bidding now ({self._phase_text()})")
        if seat != self.turn:
            raise OutOfTurnError(f"{event}: seat {self.turn} bids now, not seat {seat}")
        text = event.arg.strip()
        if not text.isdigit():
            raise BidNotAllowedError(f"{event}: a bid is a number of tricks 0–{self.n} (0 is «пас»)")
        k = int(text)
        if k > self.n:
            raise BidNotAllowedError(f"{event}: only {self.n} cards each in this deal, bid 0–{self.n}")
        if k == self._banned_bid(seat):
            others = sum(self.bids) + 1
            raise BidNotAllowedError(
                f"{event}: the dealer may not make the total equal {self.n} "
                f"(the others bid {others}; {others} + {k} = {self.n})", "dealer-total")
        return legal_verdict(event)

    @judge("trump")
    def _judge_trump(self, event: Event) -> Verdict:
        seat = self._seat_of(event)
        if self.phase is not DEAL or self.n != 9:
            raise ActionNotAllowedError(
                f"{event}: trump is named only while a 9-card deal is dealt; otherwise the turned "
                "card sets it", "trump-not-now")
        if seat != self.left:
            raise OutOfTurnError(f"{event}: only seat {self.left}, left of the dealer, names trump")
        if self.trump != UNKNOWN:
            raise ActionNotAllowedError(f"{event}: trump is already settled ({suit_name(self.trump)}"
                                        f"{', a fourth card was seen' if self.dealt > 12 else ''})",
                                        "trump-settled")
        if self.dealt < 9:
            raise ActionNotAllowedError(f"{event}: trump is named after seeing three cards; seat "
                                        f"{seat} has {(self.dealt + 3) // 4}", "trump-too-early")
        word = event.arg.strip().upper()
        if word not in ("C", "D", "H", "S", "NONE"):
            raise BadEventError(f"{event}: name a suit C D H S or none (no trump)")
        return legal_verdict(event)

    @judge("foul")
    def _judge_foul(self, event: Event) -> Verdict:
        seat = self._seat_of(event)
        if self.policy != "on_claim":
            raise ActionNotAllowedError(f"{event}: claims are for policy on_claim (now "
                                        f"{self.policy})", "no-claims")
        text = event.arg.strip()
        if not (text.isdigit() and int(text) < SEATS):
            raise BadEventError(f"{event}: name the offending seat 0–3, e.g. '{seat} foul 2'")
        t = int(text)
        if t == seat:
            raise ActionNotAllowedError(f"{event}: a player cannot claim their own play", "bad-claim")
        open_ = self.phase in (BID, PLAY, CONFIRM) or (self.phase is DEAL and self.dealt == 0)
        if not open_ or not self.fouls[t] or self.claimed[t]:
            raise ActionNotAllowedError(f"{event}: seat {t} has no unclaimed illegal play in this "
                                        "deal (claims close with the next deal's first card)",
                                        "bad-claim")
        return legal_verdict(event)

    @judge("play")
    def _judge_play(self, event: Event) -> Verdict:
        if self.phase is not PLAY:
            raise ActionNotAllowedError(f"{event}: no card play now ({self._phase_text()})")
        seat = event.seat
        if seat != self.turn:
            if seat is None or not 0 <= seat < SEATS:
                raise BadEventError(f"{event}: a seat 0–3 must play")
            raise OutOfTurnError(f"{event}: seat {self.turn} is to play, not seat {seat}")
        cs = event.cards
        c = cs[0] if len(cs) == 1 else event.card  # event.card names a bad code or the count
        hand = self.hands[seat]
        if not hand & c.bit:
            where = "was already played" if self.played & c.bit else (
                "is not in this game's deck" if not self._deck_mask & c.bit else "is not in the hand")
            raise CardNotInHandError(f"{event}: seat {seat} does not hold {c.code} (it {where})")
        plain = hand & PLAIN_MASK
        if not c.is_joker:
            if event.arg:
                raise BadEventError(f"{event}: only a joker is played with a mode ({event.arg!r})")
            if self._allowed(plain) & c.bit:
                return legal_verdict(event)
            return self._illegal(event, plain, c.index, c.pretty())
        mode, x = self._parse_mode(event)
        leading = not self.trick
        if mode == NOMINAL:
            if not self._nominal:
                raise JokerModeError(f"{event}: «по номиналу» is not played here (deck "
                                     f"{self.deck}, joker_nominal={self.settings.joker_nominal})")
            six = SUIT_MASKS[x] & -SUIT_MASKS[x]
            if six & self.nominal_used:
                raise JokerModeError(f"{event}: the other joker already stands for 6{SUITS[x]} "
                                     "in this deal")
            if leading or self._allowed(plain | six) & six:
                return legal_verdict(event)
            return self._illegal(event, plain | six, x * 9, f"the joker as 6{SUIT_SYMBOLS[SUITS[x]]}")
        if leading:
            if self._lead_modes and mode in (HIGH, LOW):
                raise JokerModeError(f"{event}: a joker on lead is «хочу <suit>» (want H) or "
                                     "«забирай <suit>» (give H), or «по номиналу» (nominal 6S)")
            if not self._lead_modes and mode in (WANT, GIVE):
                raise JokerModeError(f"{event}: «{RUSSIAN_MODE[mode]}» is off at this table "
                                     "(joker_lead_modes=false); a joker on lead plays high or low")
        elif mode in (WANT, GIVE):
            raise JokerModeError(f"{event}: «{RUSSIAN_MODE[mode]}» is only for a joker on lead; "
                                 "following, a joker plays high («старшая») or low («скидываю»)")
        return legal_verdict(event)

    def _parse_mode(self, event: Event) -> tuple[int, int]:
        arg = event.arg
        found = _MODE_ARGS.get(arg)
        if found is None:
            words = arg.lower().split()
            if words:
                words[0] = _MODE_ALIASES.get(words[0], words[0])
            found = _MODE_ARGS.get(" ".join(words))
        if found is None:
            if not arg:
                raise JokerModeError(f"{event}: say how the joker plays: high, low, want <suit>, "
                                     "give <suit> or nominal 6S/6C")
            raise JokerModeError(f"{event}: unknown joker mode {arg!r} (high, low, want <suit>, "
                                 "give <suit>, nominal 6S, nominal 6C)")
        return found

    def _illegal(self, event: Event, plain: int, index: int, shown: str) -> Verdict:
        led, t = self.led, self.trump
        if plain & SUIT_MASKS[led]:
            sym = SUIT_SYMBOLS[SUITS[led]]
            if self.lead_mode == WANT and index // 9 == led:
                best = ALL_CARDS[(plain & SUIT_MASKS[led]).bit_length() - 1]
                return Verdict(event, False, "want-highest",
                               f"«хочу {sym}»: held {best.pretty()}, played {shown}; the highest "
                               f"{sym} was due")
            return Verdict(event, False, "follow-suit", f"held {sym}, did not follow suit")
        return Verdict(event, False, "must-trump",
                       f"void in {SUIT_SYMBOLS[SUITS[led]]}, held trump {suit_name(t)}, did not trump")

    def _phase_text(self) -> str:
        return {ACE_DRAW: "тузование: the first dealer is being drawn", DEAL: "dealing",
                BID: "bidding", PLAY: "playing", CONFIRM: "the last deal's claims are open",
                OVER: "the game is over"}[self.phase]

    # ----------------------------------------------------------------- folding
    @fold("bid")
    def _do_bid(self, event: Event, verdict: Verdict) -> None:
        seat = self.turn
        self.bids[seat] = int(event.arg)
        self.bid_count += 1
        if self.bid_count == SEATS:
            self._enter(PLAY)
            self.turn = self.leader = self.left
            self._new_trick()
        else:
            self.turn = (seat + 1) % SEATS

    @fold("trump")
    def _do_trump(self, event: Event, verdict: Verdict) -> None:
        word = event.arg.strip().upper()
        self.trump = NO_TRUMP if word == "NONE" else SUITS.index(word)
        self.trump_how = "named"
        self.expects_shoe = True

    @fold("foul")
    def _do_foul(self, event: Event, verdict: Verdict) -> None:
        t = int(event.arg)
        self.claimed[t] = 1
        if self.phase in (DEAL, CONFIRM):  # the deal is over: re-mark its result
            r = self.results[-1]
            self.results[-1] = r._replace(
                penalised=tuple(1 if i == t else p for i, p in enumerate(r.penalised)))

    @fold("confirm")
    def _do_confirm(self, event: Event, verdict: Verdict) -> None:
        self._enter(OVER)

    def _shoe_due(self) -> ShoeDue | None:
        if self.phase is ACE_DRAW:
            if not self.ace_cards and self.settings.ace_draw_center_card:
                return ShoeDue(None, 1, "ace-draw")
            return ShoeDue(self.ace_next, 1, "ace-draw")
        if self.phase is not DEAL:
            return None
        k = self.dealt
        if k >= 4 * self.n:
            return ShoeDue(None, 1, "trump", self.dealer)
        return ShoeDue((self.dealer + 1 + k) % SEATS, 1, dealer=self.dealer)

    @fold(SHOE)
    def _do_shoe(self, event: Event, verdict: Verdict) -> None:
        c = event.cards[0]
        bit = c.bit
        if self.phase is ACE_DRAW:
            self.seen |= bit
            if not self.ace_cards and self.settings.ace_draw_center_card:
                self.ace_cards.append((-1, c.code))
                return
            seat = self.ace_next
            self.ace_cards.append((seat, c.code))
            if c.rank == "A":
                self.dealer = seat
                self._enter(DEAL)
                self.seen = 0
            else:
                self.ace_next = (seat + 1) % SEATS
            return
        k = self.dealt
        if k == 0:
            self.fouls = [0, 0, 0, 0]
            self.claimed = [0, 0, 0, 0]
            self.foul_log = []
        self.seen |= bit
        self.dealt = k + 1
        n4 = 4 * self.n
        if k < n4:
            seat = (self.dealer + 1 + k) % SEATS
            self.hands[seat] |= bit
            if self.n == 9:
                if k == 12 and self.trump == UNKNOWN:
                    self.trump = NO_TRUMP
                    self.trump_how = "fourth card seen"
                # the trump choice is open while the dealer's left holds three cards
                self.expects_shoe = not (self.trump == UNKNOWN and 9 <= k + 1 <= 12)
                if k + 1 == n4:
                    self._start_bidding()
        else:  # the turned card
            self.trump_card = c.index
            self.trump = NO_TRUMP if c.is_joker else c.index // 9
            self.trump_how = "turned"
            self._start_bidding()

    def _start_bidding(self) -> None:
        self._enter(BID)
        self.turn = self.left
        self.bid_count = 0

    def _new_trick(self) -> None:
        self.trick = []
        self.led = -1
        self.lead_mode = PLAIN
        self.win_seat = -1
        self.win_key = -100

    @fold("play")
    def _do_play(self, event: Event, verdict: Verdict) -> None:
        seat = self.turn
        c = event.cards[0]
        bit = c.bit
        self.hands[seat] ^= bit
        self.played |= bit
        if not verdict.legal:
            self.fouls[seat] += 1
            self.foul_log.append(Foul(seat, c.code, self.tricks_done + 1, verdict.rule,
                                      verdict.message))
        trick = self.trick
        pos = len(trick)
        if c.is_joker:
            mode, x = self._parse_mode(event)
            if mode == HIGH:
                key = 1000 + pos
            elif mode == LOW:
                key = -1
            elif mode == WANT:
                self.led, self.lead_mode = x, WANT
                key = 1000
            elif mode == GIVE:
                self.led, self.lead_mode = x, GIVE
                key = 499 if x == self.trump else 99
            else:  # NOMINAL: the six it replaced
                self.nominal_used |= SUIT_MASKS[x] & -SUIT_MASKS[x]
                key = self._card_key(x * 9)
            trick.append((seat, c.index, mode, x))
        else:
            key = self._card_key(c.index)
            trick.append((seat, c.index, PLAIN, -1))
        if key > self.win_key:
            self.win_key = key
            self.win_seat = seat
        if pos < 3:
            self.turn = (seat + 1) % SEATS
            return
        w = self.win_seat
        self.taken[w] += 1
        self.tricks_done += 1
        self.turn = self.leader = w
        self._new_trick()
        if self.tricks_done == self.n:
            self._end_deal()

    def _card_key(self, index: int) -> int:
        s = index // 9
        led = self.led
        if led < 0:  # the first plain card sets the suit to follow, a trump too
            self.led = led = s
        if s == self.trump:
            return 500 + index % 9
        return 100 + index % 9 if s == led else 0

    def _end_deal(self) -> None:
        policy = self.policy
        if policy == "penalize":
            pen = tuple(1 if f else 0 for f in self.fouls)
        elif policy == "on_claim":
            pen = tuple(self.claimed)
        else:
            pen = (0, 0, 0, 0)
        self.results.append(DealResult(self.n, self.dealer, self.trump, tuple(self.bids),
                                       tuple(self.taken), pen, tuple(self.fouls)))
        if self.foul_log:
            self.deal_fouls.append(DealFouls(self.deal_no, tuple(self.foul_log)))
        self.deal_no += 1
        self.turn = -1
        self.leader = -1
        if self.deal_no == len(DEAL_SIZES):
            unclaimed = any(f and not c for f, c in zip(self.fouls, self.claimed, strict=True))
            self._enter(CONFIRM if policy == "on_claim" and unclaimed else OVER)
            return
        self._enter(DEAL)
        self.dealer = (self.dealer + 1) % SEATS
        self.n = DEAL_SIZES[self.deal_no]
        self.seen = 0
        self.dealt = 0
        self.trump = UNKNOWN
        self.trump_card = -1
        self.trump_how = ""
        self.bids = [-1, -1, -1, -1]
        self.bid_count = 0
        self.taken = [0, 0, 0, 0]
        self.played = 0
        self.tricks_done = 0
        self.nominal_used = 0

    # ----------------------------------------------------------------- scoring
    def deal_scores(self) -> list[list[int]]:
        """Each finished deal's points per seat, before premiums."""
        return deal_scores(self.results, self.settings)

    def premiums(self) -> list[tuple[int, list[int], list[ScoreItem]]]:
        """(pulka 1–4, points per seat, items) for every finished pulka."""
        return premiums(self.results, self.deal_scores())

    def totals(self) -> list[int]:
        t = [0, 0, 0, 0]
        for row in self.deal_scores():
            for s in range(SEATS):
                t[s] += row[s]
        for _p, points, _items in self.premiums():
            for s in range(SEATS):
                t[s] += points[s]
        return t

    def score_sheet(self) -> ScoreSheet:
        minus = self.settings.minus_joker
        penalty = self.settings.foul_penalty
        by_deal = {PULKAS[p - 1].stop - 1: (pts, items) for p, pts, items in self.premiums()}
        fouls_of = dict(self.deal_fouls)
        deals = []
        for d, (n, dealer, trump, bids, taken, pen, fouls) in enumerate(self.results):
            items, points = [], []
            for s in range(SEATS):
                pts, rule, what = deal_points(bids[s], taken[s], n, minus)
                if pen[s]:
                    what = Line(f"{what}; illegal play penalised: −{penalty} instead of {pts}",
                                "joker-foul", bid=bids[s], took=taken[s], penalty=penalty,
                                points=pts)
                    pts, rule = -penalty, "foul"
                items.append(ScoreItem(s, what, pts, rule))
                points.append(pts)
            notes: list[str] = [Line(f"pulka {PULKA_OF[d] + 1}, {n} card{'s' if n > 1 else ''} "
                                     f"each, dealer seat {dealer}, trump {suit_name(trump)}",
                                     "joker-deal", pulka=PULKA_OF[d] + 1, each=n, seat=dealer,
                                     trump=_trump_param(trump))]
            notes += [Line(f"seat {s}: {fouls[s]} illegal play(s) not penalised",
                           "joker-fouls-let-go", seat=s, count=fouls[s])
                      for s in range(SEATS) if fouls[s] and not pen[s]]
            if d in by_deal:
                bonus, pitems = by_deal[d]
                items += pitems
                points = [a + b for a, b in zip(points, bonus, strict=True)]
                notes.append(Line(f"end of pulka {PULKA_OF[d] + 1}: premiums included",
                                  "joker-pulka-end", pulka=PULKA_OF[d] + 1))
            deals.append(DealScore(d + 1, points, items, notes,
                                   illegal_plays(fouls_of.get(d, ()), pen, self.policy)))
        totals = self.totals()
        finished = self.phase is OVER
        winner: int | None = None
        result = ""
        if finished:
            top = max(totals)
            leaders = [s for s in range(SEATS) if totals[s] == top]
            if len(leaders) == 1:
                winner = leaders[0]
                result = Line(f"seat {winner} wins with {top}", "joker-won", seat=winner,
                              points=top)
            else:
                result = Line(f"tie at {top} between seats {', '.join(map(str, leaders))}",
                              "joker-tie", seats=leaders, points=top)
        return ScoreSheet(self.name, [f"seat {s}" for s in range(SEATS)], self.settings.as_dict(),
                          deals, totals, finished, winner, result)

    # ----------------------------------------------------------------- displays and checks
    def view_trick(self, d: dict[str, Any]) -> list[TrickCard]:
        from engine.view import TrickCard

        return [TrickCard(seat=t["seat"], card=t["card"], mode=t.get("mode", ""))
                for t in d.get("table") or []]

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        d.update({
            "phase": self.phase,
            "deal": self.deal_no + 1 if self.phase is not OVER else len(self.results),
            "pulka": self.pulka,
            "cards_each": self.n,
            "dealer": self.dealer,
            "trump": None if self.trump == UNKNOWN else ("none" if self.trump == NO_TRUMP
                                                        else SUITS[self.trump]),
            "trump_card": ALL_CARDS[self.trump_card].code if self.trump_card >= 0 else None,
            "trump_how": self.trump_how,
            "trump_chooser": self.left if self._choice_open() else None,
            "ace_draw": [{"seat": s, "card": c} for s, c in self.ace_cards],
            "bids": [b if b >= 0 else None for b in self.bids],
            "taken": list(self.taken),
            "hand_sizes": [h.bit_count() for h in self.hands],
            "table": [{"seat": s, "card": ALL_CARDS[i].code,
                       "mode": "" if m == PLAIN else (MODE_WORDS[m] if x < 0 else
                                                      _joker_event(s, ALL_CARDS[i], m, x).arg)}
                      for s, i, m, x in self.trick],
            "led": SUITS[self.led] if self.led >= 0 else None,
            "banned_bid": self._banned_bid(self.turn) if self.phase is BID else -1,
            "scores": self.totals(),
        })
        return d

    def problems(self) -> list[str]:
        out: list[str] = []
        if self.phase in (ACE_DRAW, OVER, CONFIRM):
            return out
        h = self.hands
        union = 0
        for s in range(SEATS):
            if union & h[s]:
                out.append(f"seat {s}'s hand overlaps another hand")
            union |= h[s]
        if union & self.played:
            out.append("a played card is still in a hand")
        tc = (1 << self.trump_card) if self.trump_card >= 0 else 0
        if tc & (union | self.played):
            out.append("the turned card is in play")
        if (union | self.played | tc) != self.seen:
            out.append("cards not conserved: hands + played + turned card != cards out of the shoe")
        if self.seen & ~self._deck_mask:
            out.append("a card outside the deck came out")
        if sum(self.taken) != self.tricks_done:
            out.append("tricks taken do not add up to tricks played")
        if self.phase is PLAY:
            in_trick = {s for s, *_ in self.trick}
            for s in range(SEATS):
                want = self.n - self.tricks_done - (s in in_trick)
                if h[s].bit_count() != want:
                    out.append(f"seat {s} holds {h[s].bit_count()} cards, expected {want}")
            if self.played.bit_count() != 4 * self.tricks_done + len(self.trick):
                out.append("played cards do not match tricks")
        for d, r in enumerate(self.results):
            if sum(r.taken) != r.cards:
                out.append(f"deal {d + 1}: tricks taken {sum(r.taken)} != cards each {r.cards}")
            if sum(r.bids) == r.cards:
                out.append(f"deal {d + 1}: the bids add up to {r.cards}")
        return out
