"""Terz (Терц) for two players — docs/rules.md §5; the full reading is in docs/games/terz.md.

Event vocabulary (``S`` is the seat, 0 or 1)::

    shoe XX            a card out of the shoe; the deal protocol below decides whose it is
    S play XX          seat S puts a card on the trick
    S declare A B C …  seat S declares a group: a run of 3+ cards of one suit in the order 7 8 9 10 J Q K A
    S bella            seat S declares the trump marriage (trump K + Q)
    S ask              «От чего?» / «рост»: the answering seat asks the top card of the declared group
                       (after it only a higher group of the same length may beat it)
    S pass             the answering seat cannot or will not beat the declared group: it scores
    S swap 7X          the holder of the trump seven puts it beside the talon and takes the turned card
    S claim            (policy on_claim) seat S claims the opponent's false declarations and illegal plays
    S confirm          (policy on_claim) after the last trick seat S accepts the deal's score: no claims
                       from S after it; once both seats confirmed, the deal is scored

Deal protocol from the shoe (defaults; all settings): shoe cards 1–18 are the hands, dealt in
packets of three to the dealer's opponent first and the dealer last (1–3, 7–9, 13–15 to the opponent,
4–6, 10–12, 16–18 to the dealer); card 19 is turned: its suit is trump and it lies beside the talon;
cards 20–32 stay in the shoe as the talon and come out one by one as they are drawn. After each trick,
while the talon lasts, the trick winner draws first, then the other; in the last refill the winner
draws the last shoe card and the other takes the turned card (or the trump seven swapped for it), so
all 32 cards are played and the card points add up to 150.

A declaration of cards the seat does not hold is a *false declaration*: ``apply`` (a seat panel)
refuses it with its verdict, ``record`` (what was said at the table) keeps it and the table policy
applies: its value goes to the opponent (penalize), must be taken back (retract) or goes to the
opponent if they claim it (on_claim).

State is plain ints, lists and tuples; hands and tricks are bit masks, events are interned. A
scored deal is a :class:`TerzDeal`, each false declaration or illegal play a :class:`TerzFoul`.
"""

from __future__ import annotations

from enum import IntEnum
from functools import cache
from typing import TYPE_CHECKING, Any, ClassVar, Literal, NamedTuple

from pydantic import Field, model_validator

from engine.cards import (
    BY_INDEX,
    SUIT_MASK,
    SUIT_SYMBOLS,
    SUITS,
    Card,
    Composition,
    card,
    composition_mask,
)
from engine.errors import (
    ActionNotAllowedError,
    BadEventError,
    CardNotInHandError,
    OutOfTurnError,
)
from engine.events import SHOE, CardEvents, Event, card_event
from engine.game import Game, ShoeDue, fold, judge, run_length
from engine.scoresheet import (
    CLAIMED,
    LET_GO,
    PENALISED,
    DealScore,
    IllegalPlay,
    Line,
    ScoreItem,
    ScoreSheet,
    line_of,
)
from engine.settings import SEAT, Settings
from engine.verdict import Verdict, legal_verdict, share_legal_verdict

if TYPE_CHECKING:
    from engine.view import DeclarationView, TrickCard

# ----------------------------------------------------------------------------- settings


class TerzSettings(Settings):
    """House rules of Terz; defaults from docs/rules.md §5 (every *(setting)* there is one
    here)."""

    first_dealer: int = Field(0, ge=0, le=1, json_schema_extra=SEAT,
                              description="seat that deals the first deal")
    hand_size: int = Field(9, ge=3, le=15, description="cards dealt to each player (and refilled to)")
    deal_packet: int = Field(3, ge=1, le=15, description="cards given at a time while dealing")
    dealer_last: bool = Field(True, description="the dealer's opponent receives the first packet, the dealer the last")
    leader: Literal["opponent", "dealer"] = Field("opponent", description="who leads the first trick")
    winner_draws_first: bool = Field(True, description="after a trick the winner draws from the talon first")
    next_dealer: Literal["last_trick", "alternate"] = Field(
        "last_trick", description="who deals next: the player who took the last trick, or by turns")
    target: int = Field(501, ge=1, description="the game ends when a player has this many points after a deal")
    terz_value: int = Field(20, ge=0, description="терц: three in sequence")
    four_value: int = Field(50, ge=0, description="четверик: four in sequence")
    five_value: int = Field(100, ge=0, description="пятерик and longer sequences")
    marriage_value: int = Field(20, ge=0, description="the trump marriage (trump K + Q)")
    declare_after_last_draw: bool = Field(
        True, description="the lead right after the last card is drawn may still declare "
        "(«последнее объявление делается, когда взята последняя карта из колоды»)")
    trump_group_wins_tie: bool = Field(
        True, description="of two groups of equal length and top card, the trump one is higher "
        "(otherwise the one declared first stands)")
    foul_penalty: Literal["all", "cards"] = Field(
        "all", description="an illegal play (follow duties): all (docs/rules.md §6, «байд с "
        "картами»): the opponent scores every point of the deal, the offender 0; cards: only the "
        "offender's card points and last trick go to the opponent")

    @model_validator(mode="after")
    def _packets_fit(self) -> TerzSettings:
        if self.hand_size % self.deal_packet:
            raise ValueError(f"deal_packet {self.deal_packet} does not divide hand_size {self.hand_size}")
        return self


# ----------------------------------------------------------------------------- tables

DECK_MASK = composition_mask("32")
LAST_TRICK = 10
_SUIT_BITS = tuple(SUIT_MASK[s] for s in SUITS)
# rank index inside a suit block: 0 six (not in this deck), 1 seven, 2 eight, 3 nine, 4 ten, 5 jack,
# 6 queen, 7 king, 8 ace — which is also the natural order of sequences (7 8 9 10 J Q K A).
_PLAIN_ORDER = (-1, 0, 1, 2, 6, 3, 4, 5, 7)      # A 10 K Q J 9 8 7
_TRUMP_ORDER = (-1, 0, 1, 6, 4, 7, 2, 3, 5)      # J 9 A 10 K Q 8 7
_PLAIN_POINTS = (0, 0, 0, 0, 10, 1, 2, 3, 11)    # A 11, 10 10, K 3, Q 2, J 1
_TRUMP_POINTS = (0, 0, 0, 13, 10, 20, 2, 3, 11)  # J 20, 9 13, A 11, 10 10, K 3, Q 2
SEVEN, NINE, JACK, QUEEN, KING = 1, 3, 5, 6, 7


def _pattern_points(points: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sum(points[r] for r in range(9) if p >> r & 1) for p in range(512))


_PTS9 = (_pattern_points(_PLAIN_POINTS), _pattern_points(_TRUMP_POINTS))


def _runs(pattern: int) -> tuple[int, ...]:
    """Every run of 3+ consecutive ranks inside a 9-bit suit pattern (the groups it holds)."""
    out = []
    for lo in range(1, 9):
        for hi in range(lo + 2, 9):
            run = ((1 << (hi - lo + 1)) - 1) << lo
            if pattern & run == run:
                out.append(run)
    return tuple(out)


_RUNS9 = tuple(_runs(p) for p in range(512))


def _follower_wins_table(trump: int) -> bytes:
    out = bytearray(36 * 36)
    for a in range(36):
        for b in range(36):
            sa, sb = a // 9, b // 9
            if sa == sb:
                order = _TRUMP_ORDER if sa == trump else _PLAIN_ORDER
                out[a * 36 + b] = order[b % 9] > order[a % 9]
            else:
                out[a * 36 + b] = sb == trump
    return bytes(out)


_FOLLOWER_WINS = tuple(_follower_wins_table(t) for t in range(4))

# Interned events with their shared legal verdicts: legal-move lists reuse them.
PLAY_CARDS = (CardEvents("play", 0), CardEvents("play", 1))
SWAP_EV = tuple(tuple(card_event("swap", s, c) for c in BY_INDEX[:36]) for s in (0, 1))


def _interned(kind: str) -> tuple[Event, Event]:
    return share_legal_verdict(Event(kind, 0)), share_legal_verdict(Event(kind, 1))


PASS_EV = _interned("pass")
ASK_EV = _interned("ask")
BELLA_EV = _interned("bella")
CLAIM_EV = _interned("claim")
CONFIRM_EV = _interned("confirm")

GROUP_NAMES = {3: "терц", 4: "четверик", 5: "пятерик", 6: "шестерик", 7: "семерик", 8: "восьмерик"}


def card_points(mask: int, trump: int) -> int:
    """Card points of the cards in ``mask`` with ``trump`` (suit index) as trumps."""
    total = 0
    for s in range(4):
        total += _PTS9[s == trump][(mask >> (9 * s)) & 511]
    return total


@cache
def declare_event(seat: int, mask: int) -> Event:
    """Interned declaration of the group ``mask`` (cards low to high)."""
    cs = []
    m = mask
    while m:
        low = m & -m
        cs.append(BY_INDEX[low.bit_length() - 1])
        m ^= low
    return share_legal_verdict(Event("declare", seat, tuple(cs)))


def group_suit(mask: int) -> int:
    return ((mask & -mask).bit_length() - 1) // 9


def group_top(mask: int) -> int:
    """Rank index (1 seven … 8 ace) of the top card of a group."""
    return (mask.bit_length() - 1) % 9


def is_group(mask: int) -> bool:
    """Three or more cards of one suit in unbroken sequence 7 … A."""
    if mask.bit_count() < 3:
        return False
    s = group_suit(mask)
    pattern = mask >> (9 * s)
    if pattern >> 9 or pattern & 1:
        return False
    run = pattern >> ((pattern & -pattern).bit_length() - 1)
    return run & (run + 1) == 0


def group_name(mask: int) -> Line:
    n = mask.bit_count()
    top = BY_INDEX[mask.bit_length() - 1]
    name = GROUP_NAMES.get(n, f"{n} in sequence")
    return Line(f"{name} от {top.pretty(russian=True)}", "terz-group", name=name, card=top.code)


# stages of a lead
ST_LEAD, ST_RESPOND, ST_ASKED, ST_LEAD_PLAY, ST_FOLLOW_FREE, ST_FOLLOW = range(6)
STAGE_NAMES = ("lead (may declare)", "answer the declaration", "answer after «от чего?»",
               "lead", "follow (may declare)", "follow")


class TerzPhase(IntEnum):
    DEAL = 0   # the hands and the turned card out of the shoe
    DRAW = 1   # the shoe owes the refill after a trick
    PLAY = 2
    OVER = 3
    # policy on_claim only: the deal is played out and waits for both seats to confirm its
    # score, so that a foul can still be claimed at the count («before the score is confirmed»)
    SCORE = 4


PH_DEAL, PH_DRAW, PH_PLAY, PH_OVER, PH_SCORE = TerzPhase
PHASE_NAMES = ("deal", "draw", "play", "over", "score")


class TerzFoul(NamedTuple):
    """A false declaration or an illegal play of the deal being played."""

    seat: int
    kind: str       # "declaration" or "play"
    ref: int        # a declaration's number in the deal (its items carry it), -1 for a play
    counted: bool   # it stands against the seat: penalised, or claimed under on_claim
    message: str
    value: int      # a declaration's value
    card: str       # a play's card code, "" for a declaration
    trick: int
    rule: str


class Declared(NamedTuple):
    """A declaration's score item in the deal being played."""

    side: int
    what: str
    points: int
    rule: str
    ref: int


class TerzDeal(NamedTuple):
    """A scored deal: the score sheet's row. ``items`` are (side, what, points, rule)."""

    number: int
    points: tuple[int, int]
    items: tuple[tuple[int, str, int, str], ...]
    notes: tuple[str, ...]


class DealFouls(NamedTuple):
    """The illegal plays and false declarations that stood in a scored deal, as the sheet's
    :class:`IllegalPlay` fields (seat, card, trick, rule, message, outcome)."""

    number: int
    plays: tuple[tuple[int, str, int, str, str, str], ...]


# ----------------------------------------------------------------------------- scoring


class PlayedDeal(NamedTuple):
    """What a played-out deal's score is computed from."""

    number: int
    dealer: int
    trump: int
    taken: tuple[int, int]      # each seat's trick cards, as masks
    tricks: tuple[int, int]
    last_winner: int
    declared: tuple[Declared, ...]
    fouls: tuple[TerzFoul, ...]


def score_deal(d: PlayedDeal, foul_penalty: str) -> TerzDeal:
    """The score of a played-out deal (docs/rules.md §5, illegal plays §6), as items to check."""
    t = d.trump
    cp = [card_points(d.taken[0], t), card_points(d.taken[1], t)]
    lw = d.last_winner
    items: list[tuple[int, str, int, str]] = [
        (0, Line(f"card points ({d.tricks[0]} tricks)", "card-points", tricks=d.tricks[0]), cp[0],
         "card-points"),
        (1, Line(f"card points ({d.tricks[1]} tricks)", "card-points", tricks=d.tricks[1]), cp[1],
         "card-points"),
        (lw, Line("last trick", "last-trick"), LAST_TRICK, "last-trick"),
    ]
    items += [(it.side, it.what, it.points, it.rule) for it in d.declared]
    notes = [Line(f"dealer seat {d.dealer}, trump {SUIT_SYMBOLS[SUITS[t]]}", "terz-deal",
                  seat=d.dealer, trump=SUITS[t])]
    offenders = [f.seat for f in d.fouls if f.kind == "play" and f.counted]
    if offenders and foul_penalty == "all":
        # docs/rules.md §6, «байд с картами»: the opponent scores every point of the deal
        # (both sides' card points, the last trick, every declaration that scored), the
        # offender 0.
        # Both seats caught: each scores 0, neither is an innocent opponent (as in Belot).
        own = [sum(pts for side, _w, pts, _r in items if side == k) for k in (0, 1)]
        if len(set(offenders)) == 1:
            off = offenders[0]
            items.append((off, Line("illegal play: every point of the deal goes to the opponent "
                                    "(docs/rules.md §6)", "terz-foul-all-offender",
                                    points=own[off]), -own[off], "foul"))
            items.append((1 - off, Line(f"illegal play by seat {off}: every point of the deal, "
                                        f"{own[1 - off]} + {own[off]} = {sum(own)}",
                                        "terz-foul-all-opponent", offender_seat=off,
                                        own=own[1 - off], moved=own[off], total=sum(own)),
                          own[off], "foul"))
        else:
            for k in (0, 1):
                items.append((k, Line(f"illegal plays by both seats: seat {k} scores 0 of its "
                                      f"{own[k]}", "terz-foul-both", points=own[k]),
                              -own[k], "foul"))
    elif offenders:
        for off in sorted(set(offenders)):
            moved = cp[off] + (LAST_TRICK if lw == off else 0)
            items.append((off, Line("illegal play: the card points and last trick go to the "
                                    "opponent", "terz-foul-offender", points=moved),
                          -moved, "foul"))
            items.append((1 - off, Line(f"illegal play by seat {off}", "terz-foul-opponent",
                                        offender_seat=off, points=moved), moved, "foul"))
    notes += [Line(f"seat {f.seat}: {f.message}" + ("" if f.counted else " (not claimed)"),
                   "terz-foul-note" if f.counted else "terz-foul-note-unclaimed",
                   seat=f.seat, rule=f.rule)
              for f in d.fouls]
    p0, p1 = (sum(p for side, _w, p, _r in items if side == k) for k in (0, 1))
    return TerzDeal(d.number, (p0, p1), tuple(items), tuple(notes))


# ----------------------------------------------------------------------------- the game


class Terz(Game):
    name: ClassVar[str] = "terz"
    title: ClassVar[str] = "Терц (Terz), two players"
    num_seats: ClassVar[int] = 2
    settings_model: ClassVar[type[Settings]] = TerzSettings
    settings: TerzSettings
    Phase = TerzPhase

    @property
    def deck(self) -> Composition:
        return "32"

    # ------------------------------------------------------------------ state
    def _new_state(self) -> None:
        s = self.settings
        # settings read once into plain attributes (the hot paths never touch pydantic)
        self.hand_size = s.hand_size
        self.values = (0, 0, 0, s.terz_value, s.four_value, s.five_value)
        self.trump_tie = s.trump_group_wins_tie
        self.declare_last = s.declare_after_last_draw
        self.winner_first = s.winner_draws_first
        self.dealer = s.first_dealer
        self.deal_no = 0
        self.totals = [0, 0]
        self.history: list[TerzDeal] = []
        # the deals in history whose illegal plays or false declarations stood
        # (docs/rules.md §6: the sheet names each one)
        self.deal_fouls: list[DealFouls] = []
        self.winner: int | None = None
        self._start_deal()

    def _start_deal(self) -> None:
        s = self.settings
        self.deal_no += 1
        self._enter(PH_DEAL)
        self.hands = [0, 0]
        self.seen = 0
        self.dealt = 0
        self.trump = -1
        self.turned = -1            # card index beside the talon, -1 once drawn
        self.talon = 0              # cards still to draw, the turned card included
        self.draws: list[int] = []  # seats still to draw in this refill, in order
        first = 1 - self.dealer if s.dealer_last else self.dealer
        self.deal_seats = tuple(first if (n // s.deal_packet) % 2 == 0 else 1 - first
                                for n in range(2 * self.hand_size))
        self.leader = 1 - self.dealer if s.leader == "opponent" else self.dealer
        self.stage = ST_LEAD
        self.table: list[int] = []
        self.trick = 1
        self.taken = [0, 0]
        self.tricks = [0, 0]
        self.last_winner = -1
        self.decl_open = True
        self.pending: tuple[int, int, bool, int] | None = None  # seat, group mask, false, ref
        self.groups: list[list[int]] = [[], []]   # true groups scored this deal, per seat
        self.marriage = -1                        # seat that scored the trump marriage
        self.items: list[Declared] = []
        self.fouls: list[TerzFoul] = []
        self.refs = 0
        self.confirmed = [False, False]           # on_claim: who accepted the deal's score

    # ------------------------------------------------------------------ queries
    def to_act(self) -> int | None:
        if self.phase is not PH_PLAY:
            if self.phase is PH_SCORE:
                return 0 if not self.confirmed[0] else 1
            return None
        st = self.stage
        return self.leader if st in (ST_LEAD, ST_LEAD_PLAY) else 1 - self.leader

    # expects_shoe and is_over are plain attributes kept in step with the phase by _enter: the
    # playout loop reads both after every event.
    expects_shoe: bool = True
    is_over: bool = False

    def _enter(self, phase: TerzPhase) -> None:
        self.phase = phase
        self.expects_shoe = phase is PH_DEAL or phase is PH_DRAW
        self.is_over = phase is PH_OVER

    def _unseen_mask(self) -> int:
        return DECK_MASK & ~self.seen

    @property
    def trump_suit(self) -> str | None:
        return SUITS[self.trump] if self.trump >= 0 else None

    def _allowed(self, seat: int) -> int:
        """Cards ``seat`` may put on the trick now (the whole hand unless follow duties bind)."""
        hand = self.hands[seat]
        if not self.table or self.talon:
            return hand
        led = self.table[0] // 9
        t = self.trump
        follow = hand & _SUIT_BITS[led]
        jack = 1 << (t * 9 + JACK)
        if led == t:
            # trump led: follow with a trump, but the trump jack alone need not be played
            return follow if follow & ~jack else hand
        if follow:
            return follow
        trumps = hand & _SUIT_BITS[t]
        return trumps if trumps & ~jack else hand

    def _groups_of(self, seat: int) -> list[int]:
        hand = self.hands[seat]
        scored = self.groups[seat]
        out = []
        for s in range(4):
            for run in _RUNS9[(hand >> (9 * s)) & 511]:
                g = run << (9 * s)
                if not any(g & old == g for old in scored):
                    out.append(g)
        return out

    def _beats(self, mask: int, other: int) -> bool:
        """«Рост»: longer wins; same length, higher top card; same top, trump (setting)."""
        la, lb = mask.bit_count(), other.bit_count()
        if la != lb:
            return la > lb
        ta, tb = group_top(mask), group_top(other)
        if ta != tb:
            return ta > tb
        return self.trump_tie and group_suit(mask) == self.trump and group_suit(other) != self.trump

    def group_value(self, mask: int) -> int:
        return self.values[min(mask.bit_count(), 5)]

    def _legal(self, seat: int | None) -> list[Event]:
        # The base class has answered for a finished game, a pending retraction and the shoe.
        out: list[Event] = []
        if self.phase is PH_SCORE:
            for s in (0, 1) if seat is None else (seat,):
                if not self.confirmed[s]:
                    if any(f.seat != s and not f.counted for f in self.fouls):
                        out.append(CLAIM_EV[s])
                    out.append(CONFIRM_EV[s])
            return out
        # the play phase (to_act written out: this runs for every event of a playout)
        st = self.stage
        actor = self.leader if st in (ST_LEAD, ST_LEAD_PLAY) else 1 - self.leader
        if seat is None or seat == actor:
            if st in (ST_RESPOND, ST_ASKED):
                pend = self.pending
                assert pend is not None
                if st == ST_RESPOND:
                    out.append(ASK_EV[actor])
                out.append(PASS_EV[actor])
                other = pend[1]
                n = other.bit_count()
                for g in self._groups_of(actor):
                    if self._beats(g, other) and (st == ST_RESPOND or g.bit_count() == n):
                        out.append(declare_event(actor, g))
            else:
                out = PLAY_CARDS[actor].of(self._allowed(actor))
                if st in (ST_LEAD, ST_FOLLOW_FREE):
                    out.extend(declare_event(actor, g) for g in self._groups_of(actor))
                    kq = (1 << (self.trump * 9 + KING)) | (1 << (self.trump * 9 + QUEEN))
                    if self.marriage < 0 and self.hands[actor] & kq == kq:
                        out.append(BELLA_EV[actor])
        # out of turn: the trump seven swap, claims
        if self.turned >= 0:
            seven = self.trump * 9 + SEVEN
            for s in (0, 1) if seat is None else (seat,):
                if self.hands[s] >> seven & 1:
                    out.append(SWAP_EV[s][seven])
        if self.fouls and self.policy == "on_claim":
            for s in (0, 1) if seat is None else (seat,):
                if any(f.seat != s and not f.counted for f in self.fouls):
                    out.append(CLAIM_EV[s])
        return out

    # ------------------------------------------------------------------ judging
    def _judge(self, event: Event) -> Verdict:
        # What every seat's event needs (a seat, the play phase or the score step) is checked
        # here once; the @judge method of the kind does the rest.
        kind = event.kind
        if kind == SHOE:
            cs = event.cards
            if self.expects_shoe and event.seat is None and len(cs) == 1:  # the hot path
                bit = cs[0].bit
                if bit & DECK_MASK and not bit & self.seen:
                    return legal_verdict(event)
            return self._judge_shoe(event)
        if kind not in self.judges:
            return super()._judge(event)  # raises, naming Terz's events
        seat = event.seat
        if seat is None or (seat != 0 and seat != 1):
            raise BadEventError(f"{event}: Terz needs seat 0 or 1 first, e.g. '0 {kind}'")
        phase = self.phase
        if phase is PH_PLAY:
            if kind == "play":
                return self._play_verdict(event, seat)
        elif phase is PH_SCORE:
            if kind != "claim" and kind != "confirm":
                raise ActionNotAllowedError(
                    f"{event}: the deal is played out; each seat confirms its score "
                    f"(or claims a foul first): '0 confirm', '1 confirm'", "score-step")
        elif phase is PH_OVER:
            raise ActionNotAllowedError("the game is over", "game-over")
        else:
            raise ActionNotAllowedError(
                f"{event}: the shoe must deal first ({'dealing' if phase is PH_DEAL else 'refilling'})",
                "not-allowed-now")
        return super()._judge(event)

    @staticmethod
    def _seat(event: Event) -> int:
        """The seat of an event that ``_judge`` has let through (0 or 1)."""
        seat = event.seat
        assert seat is not None
        return seat

    @judge(SHOE)
    def _judge_shoe(self, event: Event) -> Verdict:
        if self.phase > PH_DRAW:
            raise ActionNotAllowedError(
                "the game is over" if self.phase is PH_OVER else
                f"no card is due from the shoe now: seat {self.to_act()} is to act",
                "game-over" if self.phase is PH_OVER else "shoe-not-expected")
        if event.seat is not None:
            raise BadEventError(f"{event}: a shoe card has no seat (the deal protocol decides whose it is)")
        c = event.card
        if c.bit & DECK_MASK and not c.bit & self.seen:
            return legal_verdict(event)
        self._shoe_card(event, self.seen)  # raises the base class's error for it
        raise AssertionError(f"{event}: shoe check")

    @judge("ask")
    def _judge_ask(self, event: Event) -> Verdict:
        return self._judge_answer(event)

    @judge("pass")
    def _judge_pass(self, event: Event) -> Verdict:
        return self._judge_answer(event)

    def _judge_answer(self, event: Event) -> Verdict:
        """«От чего?» or pass: the answering seat's word on a declared group."""
        seat, kind = event.seat, event.kind
        self._no_cards(event)
        st = self.stage
        if st != ST_RESPOND and (kind == "ask" or st != ST_ASKED):
            raise ActionNotAllowedError(
                f"{event}: there is no declared group to answer"
                + (" (only one «от чего?» per declaration)" if st == ST_ASKED else ""),
                "nothing-to-answer")
        if seat == self.leader:
            raise OutOfTurnError(f"{event}: seat {seat} declared; seat {1 - seat} answers", "out-of-turn")
        return legal_verdict(event)

    @staticmethod
    def _check_arg(event: Event) -> None:
        """Terz events carry no argument: a card-like word is an unknown card code, else bad."""
        word = event.arg.split()[0]
        if len(word) == 2 or (len(word) == 3 and word.startswith("10")):
            card(word)  # raises UnknownCardError naming it
        raise BadEventError(f"{event}: '{event.kind}' takes no argument {word!r}")

    def _no_cards(self, event: Event) -> None:
        if event.arg:
            self._check_arg(event)
        if event.cards:
            raise BadEventError(f"{event}: '{event.kind}' takes no cards")

    def _one_card(self, event: Event) -> Card:
        if event.arg:
            self._check_arg(event)
        return event.card

    @judge("play")
    def _judge_play(self, event: Event) -> Verdict:
        return self._play_verdict(event, self._seat(event))

    def _play_verdict(self, event: Event, seat: int) -> Verdict:
        c = event.cards[0] if len(event.cards) == 1 and not event.arg else self._one_card(event)
        st = self.stage  # the play phase: to_act written out
        actor = self.leader if st in (ST_LEAD, ST_LEAD_PLAY) else 1 - self.leader
        if seat != actor:
            if st in (ST_RESPOND, ST_ASKED):
                raise OutOfTurnError(f"{event}: seat {actor} must first answer the declared group "
                                     "(pass, ask «от чего?» or declare a higher group)")
            raise OutOfTurnError(f"{event}: it is seat {actor}'s turn")
        if st in (ST_RESPOND, ST_ASKED):
            raise ActionNotAllowedError(
                f"{event}: answer the declared group first (pass, «от чего?» or a higher group)",
                "answer-declaration")
        bit = c.bit
        if not self.hands[seat] & bit:
            raise CardNotInHandError(f"{event}: seat {seat} does not hold {c.pretty()}")
        if self.table and not self.talon and not bit & self._allowed(seat):
            return self._duty_verdict(event, seat)
        return legal_verdict(event)

    def _duty_verdict(self, event: Event, seat: int) -> Verdict:
        led = self.table[0] // 9
        t = self.trump
        sym = SUIT_SYMBOLS[SUITS[led]]
        if self.hands[seat] & _SUIT_BITS[led]:
            what = f"held {sym}{' (trumps)' if led == t else ''}, did not follow suit"
            return Verdict(event, False, "follow-suit", what)
        return Verdict(event, False, "must-trump",
                       f"void in {sym}, held a trump ({SUIT_SYMBOLS[SUITS[t]]}) other than the trump "
                       "jack, did not trump")

    def _declaring_seat_check(self, event: Event, seat: int) -> None:
        if not self.decl_open:
            raise ActionNotAllowedError(
                f"{event}: declarations are made only while the talon lasts; the talon ran out "
                "before this lead, so no more declarations in this deal", "declarations-closed")
        st = self.stage
        if st == ST_LEAD:
            if seat != self.leader:
                raise OutOfTurnError(f"{event}: seat {self.leader} leads and declares first; "
                                     f"seat {seat} may declare after a silent lead", "out-of-turn")
        elif st in (ST_RESPOND, ST_ASKED):
            if seat == self.leader:
                raise ActionNotAllowedError(
                    f"{event}: seat {seat} has declared on this lead already (one declaration a lead)",
                    "one-declaration-a-lead")
        elif st == ST_FOLLOW_FREE:
            if seat != 1 - self.leader:
                raise ActionNotAllowedError(f"{event}: seat {seat} led without declaring; only the "
                                            "opponent may declare now", "one-declaration-a-lead")
        else:
            raise ActionNotAllowedError(
                f"{event}: this lead's declaration is settled (one declaration a lead)",
                "one-declaration-a-lead")

    @judge("declare")
    def _judge_declare(self, event: Event) -> Verdict:
        seat = self._seat(event)
        if event.arg:
            self._check_arg(event)
        self._declaring_seat_check(event, seat)
        mask = 0
        for c in event.cards:
            if mask & c.bit:
                raise BadEventError(f"{event}: {c.code} is listed twice", "not-a-group")
            mask |= c.bit
        if not is_group(mask):
            raise BadEventError(
                f"{event}: not a group: a group is 3 or more cards of one suit in sequence "
                "(7 8 9 10 J Q K A)", "not-a-group")
        for old in self.groups[seat]:
            if old & mask == mask:
                raise ActionNotAllowedError(
                    f"{event}: the {group_name(mask)} lies inside the {group_name(old)} seat {seat} "
                    "already scored in this deal", "group-inside-scored")
        st = self.stage
        if st in (ST_RESPOND, ST_ASKED):
            assert self.pending is not None
            other = self.pending[1]
            if st == ST_ASKED and mask.bit_count() != other.bit_count():
                raise ActionNotAllowedError(
                    f"{event}: after «от чего?» only a higher {GROUP_NAMES.get(other.bit_count())} "
                    f"may beat the {group_name(other)}", "asked-same-length")
            if not self._beats(mask, other):
                raise ActionNotAllowedError(
                    f"{event}: the {group_name(mask)} does not beat the {group_name(other)}; pass instead",
                    "does-not-beat")
        if self.hands[seat] & mask != mask:
            missing = " ".join(c.pretty() for c in event.cards if not self.hands[seat] & c.bit)
            return Verdict(event, False, "false-declaration",
                           f"seat {seat} declared the {group_name(mask)} without holding {missing}: "
                           f"a false declaration, its {self.group_value(mask)} go to the opponent")
        return legal_verdict(event)

    @judge("bella")
    def _judge_bella(self, event: Event) -> Verdict:
        seat = self._seat(event)
        self._no_cards(event)
        self._declaring_seat_check(event, seat)
        if self.stage == ST_RESPOND or self.stage == ST_ASKED:
            raise ActionNotAllowedError(
                f"{event}: the trump marriage neither beats nor is beaten; it cannot answer a group",
                "marriage-cannot-beat")
        if self.marriage >= 0:
            raise ActionNotAllowedError(f"{event}: the trump marriage is already scored in this deal",
                                        "marriage-scored")
        t = self.trump
        kq = (1 << (t * 9 + KING)) | (1 << (t * 9 + QUEEN))
        if self.hands[seat] & kq != kq:
            return Verdict(event, False, "false-declaration",
                           f"seat {seat} declared the trump marriage without holding "
                           f"K{SUIT_SYMBOLS[SUITS[t]]} and Q{SUIT_SYMBOLS[SUITS[t]]}: a false declaration, "
                           f"its {self.settings.marriage_value} go to the opponent")
        return legal_verdict(event)

    @judge("swap")
    def _judge_swap(self, event: Event) -> Verdict:
        seat = self._seat(event)
        c = self._one_card(event) if event.arg or len(event.cards) != 1 else event.cards[0]
        t = self.trump
        if c.index != t * 9 + SEVEN:
            raise ActionNotAllowedError(
                f"{event}: only the seven of trumps (7{SUIT_SYMBOLS[SUITS[t]]}) may replace the turned card",
                "swap-seven-only")
        if self.turned < 0:
            raise ActionNotAllowedError(f"{event}: the turned trump has been drawn; nothing to swap",
                                        "swap-gone")
        if not self.hands[seat] & c.bit:
            raise CardNotInHandError(f"{event}: seat {seat} does not hold {c.pretty()}")
        return legal_verdict(event)

    @judge("claim")
    def _judge_claim(self, event: Event) -> Verdict:
        seat = self._seat(event)
        self._no_cards(event)
        if self.policy != "on_claim":
            raise ActionNotAllowedError(
                f"{event}: claims are for policy on_claim; this table plays "
                f"{self.settings.policy}", "claim-not-used")
        if not any(f.seat != seat and not f.counted for f in self.fouls):
            raise ActionNotAllowedError(
                f"{event}: seat {1 - seat} has made no false declaration or illegal play to claim in "
                "this deal", "nothing-to-claim")
        if self.confirmed[seat]:
            raise ActionNotAllowedError(
                f"{event}: seat {seat} has confirmed the deal's score: too late to claim", "claim-too-late")
        return legal_verdict(event)

    @judge("confirm")
    def _judge_confirm(self, event: Event) -> Verdict:
        seat = self._seat(event)
        self._no_cards(event)
        if self.phase is not PH_SCORE:
            raise ActionNotAllowedError(
                f"{event}: there is no deal score to confirm yet: the deal is still being played"
                + ("" if self.policy == "on_claim" else f" (and policy {self.policy} has no confirm step)"),
                "nothing-to-confirm")
        if self.confirmed[seat]:
            raise ActionNotAllowedError(
                f"{event}: seat {seat} has confirmed already; waiting for seat {1 - seat}",
                "already-confirmed")
        return legal_verdict(event)

    # ------------------------------------------------------------------ folding
    @fold("declare")
    def _do_declare(self, event: Event, verdict: Verdict) -> None:
        mask = 0
        for c in event.cards:
            mask |= c.bit
        self._declared(self._seat(event), mask, group_name(mask), self.group_value(mask), "group",
                       verdict)

    @fold("bella")
    def _do_bella(self, event: Event, verdict: Verdict) -> None:
        self._declared(self._seat(event), -1, Line("trump marriage K+Q", "terz-marriage"), self.settings.marriage_value,
                       "trump-marriage", verdict)

    @fold("ask")
    def _do_ask(self, event: Event, verdict: Verdict) -> None:
        self.stage = ST_ASKED

    @fold("pass")
    def _do_pass(self, event: Event, verdict: Verdict) -> None:
        pend = self.pending
        assert pend is not None
        self.pending = None
        self._score_group(*pend)
        self.stage = ST_LEAD_PLAY

    @fold("swap")
    def _do_swap(self, event: Event, verdict: Verdict) -> None:
        seven = event.cards[0].index
        self.hands[self._seat(event)] ^= (1 << seven) | (1 << self.turned)
        self.turned = seven

    @fold("claim")
    def _do_claim(self, event: Event, verdict: Verdict) -> None:
        self._claim(self._seat(event))

    @fold("confirm")
    def _do_confirm(self, event: Event, verdict: Verdict) -> None:
        self.confirmed[self._seat(event)] = True
        if self.confirmed[0] and self.confirmed[1]:
            self._end_deal()

    def _shoe_due(self) -> ShoeDue | None:
        if self.phase is PH_DRAW:
            return ShoeDue(self.draws[0], 1, dealer=self.dealer, draw=True)
        if self.phase is not PH_DEAL:
            return None
        n = self.dealt
        if n >= 2 * self.hand_size:
            return ShoeDue(None, 1, "trump", self.dealer)
        return ShoeDue(self.deal_seats[n], run_length(self.deal_seats, n), dealer=self.dealer)

    @fold(SHOE)
    def _do_shoe(self, event: Event, verdict: Verdict) -> None:
        idx = event.cards[0].index
        bit = 1 << idx
        self.seen |= bit
        n = self.dealt
        self.dealt = n + 1
        if self.phase is PH_DEAL:
            if n < 2 * self.hand_size:
                self.hands[self.deal_seats[n]] |= bit
            else:
                self.turned = idx
                self.trump = idx // 9
                self.talon = 32 - 2 * self.hand_size
                self._start_lead(True)
            return
        draws = self.draws
        self.hands[draws[0]] |= bit
        self.talon -= 1
        rest = draws[1:]
        if rest and self.dealt == 32:
            # the shoe is empty: the last drawer takes the card lying beside the talon
            self.hands[rest[0]] |= 1 << self.turned
            self.turned = -1
            self.talon -= 1
            rest = []
        self.draws = rest
        if not rest:
            self._start_lead(self.talon > 0 or self.declare_last)

    def _start_lead(self, decl_open: bool) -> None:
        self._enter(PH_PLAY)
        self.decl_open = decl_open
        self.stage = ST_LEAD if decl_open else ST_LEAD_PLAY

    @fold("play")
    def _do_play(self, event: Event, verdict: Verdict) -> None:
        seat = event.seat
        assert seat is not None
        idx = event.cards[0].index
        bit = 1 << idx
        self.hands[seat] ^= bit
        if not verdict.legal:
            self.fouls.append(TerzFoul(seat, "play", -1, self.policy != "on_claim", verdict.message,
                                       0, BY_INDEX[idx].code, self.trick, verdict.rule))
        if not self.table:
            self.table = [idx]
            self.stage = ST_FOLLOW_FREE if self.stage == ST_LEAD else ST_FOLLOW
            return
        lead = self.table[0]
        leader = self.leader
        winner = seat if _FOLLOWER_WINS[self.trump][lead * 36 + idx] else leader
        self.taken[winner] |= bit | (1 << lead)
        self.tricks[winner] += 1
        self.table = []
        self.trick += 1
        self.leader = winner
        if not self.hands[winner] and not self.hands[1 - winner]:
            self.last_winner = winner
            if self.policy == "on_claim":
                self._enter(PH_SCORE)   # claims stay open until both seats confirm the score
            else:
                self._end_deal()
        elif self.talon:
            self._enter(PH_DRAW)
            first_draws = winner if self.winner_first else 1 - winner
            self.draws = [first_draws, 1 - first_draws]
        else:
            self._start_lead(False)

    def _declared(self, seat: int, mask: int, what: str, value: int, rule: str, verdict: Verdict) -> None:
        """A group (mask) or the marriage (mask -1) is declared, truly or falsely."""
        ref = self.refs
        self.refs = ref + 1
        false = not verdict.legal
        on_claim = self.policy == "on_claim"
        if false:
            self.fouls.append(TerzFoul(seat, "declaration", ref, not on_claim, verdict.message,
                                       value, "", self.trick, verdict.rule))
            if not on_claim:
                self.items.append(Declared(1 - seat, Line(
                    f"false declaration by seat {seat}: {what}", "terz-false-declaration",
                    seat=seat, declared=line_of(what)), value, "false-declaration", ref))
        st = self.stage
        if mask < 0:  # the marriage scores at once: nothing can beat it
            if not false:
                self.marriage = seat
            if not false or on_claim:
                self.items.append(Declared(seat, what, value, rule, ref))
            self.stage = ST_LEAD_PLAY if st == ST_LEAD else ST_FOLLOW
        elif st == ST_LEAD:
            self.pending = (seat, mask, false, ref)
            self.stage = ST_RESPOND
        elif st == ST_FOLLOW_FREE:
            self._score_group(seat, mask, false, ref)
            self.stage = ST_FOLLOW
        else:  # a higher group beats the pending one, which scores nothing
            self.pending = None
            self._score_group(seat, mask, false, ref)
            self.stage = ST_LEAD_PLAY

    def _score_group(self, seat: int, mask: int, false: bool, ref: int) -> None:
        if not false:
            self.groups[seat].append(mask)
            self.items.append(Declared(seat, group_name(mask), self.group_value(mask), "group", ref))
        elif self.policy == "on_claim" and not any(
                f.ref == ref and f.counted for f in self.fouls if f.kind == "declaration"):
            # an unclaimed false declaration stands until claimed; one claimed while it was still
            # waiting for the answer never scores
            self.items.append(Declared(seat, group_name(mask), self.group_value(mask), "group", ref))

    def _claim(self, seat: int) -> None:
        fouls = []
        for f in self.fouls:
            if f.seat != seat and not f.counted:
                if f.kind == "declaration":
                    ref = f.ref
                    self.items = [it for it in self.items if it.ref != ref]
                    self.items.append(Declared(seat, Line(
                        f"claimed false declaration by seat {f.seat}",
                        "terz-false-declaration-claimed", seat=f.seat), f.value,
                        "false-declaration", ref))
                f = f._replace(counted=True)
            fouls.append(f)
        self.fouls = fouls

    # ------------------------------------------------------------------ scoring
    def _end_deal(self) -> None:
        s = self.settings
        played = PlayedDeal(self.deal_no, self.dealer, self.trump, (self.taken[0], self.taken[1]),
                            (self.tricks[0], self.tricks[1]), self.last_winner, tuple(self.items),
                            tuple(self.fouls))
        deal = score_deal(played, s.foul_penalty)
        self.history.append(deal)
        if self.fouls and self.policy != "retract":
            on_claim = self.policy == "on_claim"
            self.deal_fouls.append(DealFouls(self.deal_no, tuple(
                (f.seat, f.card, f.trick, f.rule, f.message, CLAIMED if on_claim and f.counted else
                 LET_GO if on_claim else PENALISED) for f in self.fouls)))
        points = deal.points
        self.totals = [self.totals[0] + points[0], self.totals[1] + points[1]]
        a, b = self.totals
        if max(a, b) >= s.target and a != b:
            self.winner = 0 if a > b else 1
            self._enter(PH_OVER)
            return
        self.dealer = self.last_winner if s.next_dealer == "last_trick" else 1 - self.dealer
        self._start_deal()

    def score_sheet(self) -> ScoreSheet:
        fouls_of = dict(self.deal_fouls)
        deals = [DealScore(d.number, list(d.points), [ScoreItem(*it) for it in d.items],
                           list(d.notes), [IllegalPlay(*f) for f in fouls_of.get(d.number, ())])
                 for d in self.history]
        sheet = ScoreSheet(self.name, ["seat 0", "seat 1"], self.settings.as_dict(), deals,
                           list(self.totals), self.is_over, self.winner)
        if self.winner is not None:
            w = self.winner
            sheet.result = Line(f"seat {w} wins {self.totals[w]} : {self.totals[1 - w]} "
                                f"(game to {self.settings.target})", "terz-won", seat=w,
                                won=self.totals[w], lost=self.totals[1 - w],
                                target=self.settings.target)
        return sheet

    # ------------------------------------------------------------------ displays and checks
    def view_trick(self, d: dict[str, Any]) -> list[TrickCard]:
        from engine.view import TrickCard

        leader = d.get("leader") or 0
        return [TrickCard(seat=(leader + i) % self.num_seats, card=c)
                for i, c in enumerate(d.get("table") or [])]

    def view_declarations(self, d: dict[str, Any]) -> list[DeclarationView]:
        from engine.view import DeclarationView

        out = [DeclarationView(seat=s, kind="points", value=p)
               for s, p in enumerate(d.get("declared") or []) if p]
        pend = d.get("pending_declaration")
        if pend:
            out.append(DeclarationView(seat=pend["seat"], kind="asking", name=pend["group"],
                                       value=pend["value"]))
        return out

    def describe(self) -> dict[str, Any]:
        out = super().describe()
        pend = self.pending
        out.update({
            "deal": self.deal_no,
            "dealer": self.dealer,
            "phase": PHASE_NAMES[self.phase],
            "stage": STAGE_NAMES[self.stage] if self.phase is PH_PLAY else None,
            "trump": self.trump_suit,
            "trump_card": BY_INDEX[self.turned].code if self.turned >= 0 else None,
            "talon": self.talon,
            "hand_sizes": [h.bit_count() for h in self.hands],
            "leader": self.leader,
            "trick": self.trick,
            "table": [BY_INDEX[i].code for i in self.table],
            "declarations_open": self.decl_open,
            "pending_declaration": None if pend is None else {
                "seat": pend[0], "group": group_name(pend[1]), "value": self.group_value(pend[1])},
            "tricks": list(self.tricks),
            "declared_points": [sum(p for side, _w, p, _r, _ref in self.items if side == k)
                                for k in (0, 1)],
            "totals": list(self.totals),
            "winner": self.winner,
            "confirmed": list(self.confirmed),
            "fouls": [{"seat": f.seat, "kind": f.kind, "rule": f.rule, "message": f.message,
                       "counted": f.counted} for f in self.fouls],
        })
        return out

    def problems(self) -> list[str]:
        out = []
        parts = [self.hands[0], self.hands[1], self.taken[0] | self.taken[1],
                 sum(1 << i for i in self.table), (1 << self.turned) if self.turned >= 0 else 0,
                 DECK_MASK & ~self.seen]
        union = 0
        for p in parts:
            if union & p:
                out.append("a card is in two places at once")
            union |= p
        if union != DECK_MASK:
            out.append(f"cards not conserved: {(DECK_MASK ^ union).bit_count()} missing or extra")
        if self.phase is not PH_OVER:
            taken = (self.taken[0] | self.taken[1]).bit_count()
            if taken != 2 * (self.trick - 1) or self.tricks[0] + self.tricks[1] != self.trick - 1:
                out.append("tricks taken do not match the trick count")
            if self.phase is PH_PLAY:
                sizes = [h.bit_count() for h in self.hands]
                on_table = [0, 0]
                for k, _i in enumerate(self.table):
                    on_table[(self.leader + k) % 2] += 1
                if sizes[0] + on_table[0] != sizes[1] + on_table[1] or sizes[0] > self.hand_size:
                    out.append(f"hand sizes {sizes} do not fit")
                expected_talon = (32 - self.dealt) + (self.turned >= 0)
                if self.talon != expected_talon:
                    out.append(f"talon count {self.talon} != {expected_talon}")
        for number, points, items, _notes in self.history:
            cards = sum(p for _s, _w, p, rule in items if rule in ("card-points", "last-trick"))
            if cards != 150:
                out.append(f"deal {number}: card points and last trick sum to {cards}, not 150")
            if list(points) != [sum(p for s, _w, p, _r in items if s == k) for k in (0, 1)]:
                out.append(f"deal {number}: points do not add up")
        if self.totals != [sum(h[1][k] for h in self.history) for k in (0, 1)]:
            out.append("totals are not the sum of the deals")
        return out


__all__ = ["LAST_TRICK", "Terz", "TerzSettings", "card_points", "declare_event", "group_name", "is_group"]
