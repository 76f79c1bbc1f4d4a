"""Two-player Belot (Белот вдвоём), docs/rules.md §1, as a fold over the table's event log.

Event vocabulary (seat 0 or 1 first, see docs/games/belot2.md for the full protocol):

    shoe 9H          the next card out of the shoe; the deal protocol says whose it is
    0 bid play       «играю»: round 1, play on the turned card's suit
    0 bid pass       «пас», either round
    0 bid S          round 2: name another suit (C D H S) as trump
    0 swap 7S        seven swap: the trump 7 for the turned card, before one's first play
    0 declare QS JS TS   a combination (a maximal sequence of 3+ in one suit), before one's first card
    0 bella          bella (trump K + Q), before playing the second of them
    0 play JS        a card on the table
    0 claim          «Партия!» (long games, on lead, with a trick)
    1 foul 8H        policy on_claim: seat 1 points at seat 0's illegal play of 8H (score phase)
    0 confirm        seat 0 accepts the deal's score (no foul claims after it); once both seats
                     confirmed, the next deal starts (or the partie ends)

Shoe order per deal: cards 1-3 to the non-dealer, 4-6 to the dealer, 7-9 non-dealer, 10-12 dealer,
13 turned (candidate trump); after the bidding 14-16 non-dealer, 17-19 dealer, 20 the second open
card (not under ``rozaliev`` or ``second_open_card=false``).
"""

from __future__ import annotations

from enum import IntEnum
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from engine.belot2.scoring import (
    DealFacts,
    DealResult,
    Declared,
    Foul,
    IllegalPlayFields,
    illegal_plays,
    score_deal,
)
from engine.belot2.settings import OPEN_BONUS, TARGETS, Belot2Settings
from engine.belot2.tables import (
    BELLA,
    DECK,
    HIGHER_TRUMP,
    PLAY_CARDS,
    POINTS,
    RUNS,
    SEVEN,
    STRENGTH,
    SUIT_BITS,
    SUIT_OF,
    SUIT_SHIFT,
    cards_of,
    declare_event,
    pretty,
    simple,
    suit_name,
)
from engine.cards import BY_INDEX, SUITS, Card, card
from engine.errors import (
    ActionNotAllowedError,
    BadEventError,
    BidNotAllowedError,
    CardNotInHandError,
    OutOfTurnError,
)
from engine.events import UNDO, Event, card_event
from engine.game import Game, ShoeDue, fold, judge, run_length
from engine.scoresheet import DealScore, IllegalPlay, Line, ScoreItem, ScoreSheet
from engine.verdict import Verdict, legal_verdict

if TYPE_CHECKING:
    from engine.view import TrickCard


# Phases of a deal.
class Belot2Phase(IntEnum):
    DEAL1 = 0  # the first batch and the turned card
    BID = 1
    DEAL2 = 2  # the second batch (and the second open card)
    PLAY = 3
    SCORE = 4  # both seats confirm the deal's score


DEAL1, BID, DEAL2, PLAY, SCORE = Belot2Phase
PHASE_NAMES = ("dealing", "bidding", "dealing the second batch", "play", "scoring")
# Shoe position (0-based) -> 0 non-dealer, 1 dealer, 2 turned card; then the second batch.
FIRST_BATCH = (0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 2)
SECOND_BATCH = (0, 0, 0, 1, 1, 1, 3)

_BIDS_ROUND1 = [[simple("bid", s, "play"), simple("bid", s, "pass")] for s in (0, 1)]
_CONFIRMS = [simple("confirm", 0), simple("confirm", 1)]
_UNDO = Event(UNDO)


class DealRecord(NamedTuple):
    """One line of the score sheet, as the game keeps it."""

    number: int
    points: tuple[int, int]
    items: tuple[tuple[int, str, int, str], ...]  # side, what, points, rule
    notes: tuple[str, ...]
    illegal: tuple[IllegalPlayFields, ...]


class Belot2(Game):
    """Two-player Belot: shoe deal, two bidding rounds, seven swap, combinations, bella, байд."""

    name: ClassVar[str] = "belot2"
    title: ClassVar[str] = "Belot for two (Белот вдвоём)"
    num_seats: ClassVar[int] = 2
    settings_model: ClassVar[type[Belot2Settings]] = Belot2Settings
    Phase = Belot2Phase

    # ----------------------------------------------------------------- state
    def _new_state(self) -> None:
        st: Belot2Settings = self.settings  # type: ignore[assignment]
        # Settings as plain attributes: the hot loop never touches pydantic.
        self._rozaliev = st.rozaliev
        self._short = st.game_type == "short"
        self._target = 501 if st.rozaliev else TARGETS[st.game_type]
        self._stake = st.stake
        self._bonus = OPEN_BONUS.get(st.game_type, 0)
        self._proposer = st.proposer
        self._seq_order = st.sequence_order
        self._second_open = st.second_open_card and not st.rozaliev
        self._nondealer_first = st.first_speaker == "non_dealer" or st.rozaliev
        self._claims = st.claims and not self._short
        # The partie.
        self.dealer = st.first_dealer
        self.first = 1 - self.dealer if self._nondealer_first else st.lot
        self.deal_no = 1
        self.totals = [0, 0]
        if self._bonus:
            self.totals[self._proposer] = self._bonus
        self.pot = 0  # висячий байд: points waiting for the next deal's higher scorer
        self.deals: list[DealRecord] = []
        self.is_over = False
        self.winner: int | None = None
        self.result = ""
        self._new_deal()

    def _new_deal(self) -> None:
        self.phase = DEAL1
        self.expects_shoe = True
        self.n = 0                      # shoe cards this deal
        self.seen = 0
        self.hands = [0, 0]
        self.turned = -1
        self.second = -1
        self.speaker = self.first
        self.bid_round = 1
        self.trump = -1
        self.declarer = -1
        self.swapped = False
        self.avail: list[list[tuple[int, int, int, int]]] = [[], []]  # (mask, length, top, suit)
        self.declared: list[Declared] = []
        self.bella = [False, False]
        self.bella_seat = -1            # the seat dealt trump K + Q (after a swap too), or -1
        self.played = [0, 0]
        self.nplayed = [0, 0]
        self.lead = -1
        self.turn = self.first
        self.tricks_won = [0, 0]
        self.points = [0, 0]
        self.won = [0, 0]
        self.ntricks = 0
        self.last_trick = -1
        self.fouls: list[Foul] = []  # the illegal plays of this deal
        self.fouls_claimed: list[Foul] = []
        self.claimant = -1
        self.confirmed = [False, False]      # scoring phase: who accepted the score

    # ----------------------------------------------------------------- base-class queries
    # ``expects_shoe`` and ``is_over`` are plain attributes kept in step with the phase (the
    # playout loop reads them for every event; a property call costs more than the read).
    expects_shoe: bool = True
    is_over: bool = False

    def to_act(self) -> int | None:
        if self.is_over:
            return None
        phase = self.phase
        if phase == PLAY:
            return self.turn
        if phase == BID:
            return self.speaker
        if phase == SCORE:
            nxt = 1 - self.dealer  # the next dealer confirms first
            return nxt if not self.confirmed[nxt] else 1 - nxt
        return None

    def _unseen_mask(self) -> int:
        return DECK & ~self.seen

    @property
    def non_dealer(self) -> int:
        return 1 - self.dealer

    @property
    def trump_suit(self) -> str | None:
        return SUITS[self.trump] if self.trump >= 0 else None

    # ----------------------------------------------------------------- legal actions

    def _legal(self, seat: int | None) -> list[Event]:
        phase = self.phase
        if phase == PLAY:
            t = self.turn
            out: list[Event] = []
            if seat is None or seat == t:
                if self.lead < 0:
                    out = PLAY_CARDS[t].of(self.hands[t])
                    if self._claims and self.tricks_won[t]:
                        out.append(simple("claim", t))
                else:
                    out = PLAY_CARDS[t].of(self._follow_mask(t))
            nplayed = self.nplayed
            if not (nplayed[0] and nplayed[1]):
                for s in (0, 1) if seat is None else (seat,):
                    if not nplayed[s]:
                        out.extend(declare_event(s, a[0]) for a in self.avail[s])
                        if self._can_swap(s):
                            out.append(card_event("swap", s, BY_INDEX[SEVEN[self.trump]]))
            b = self.bella_seat
            if (b >= 0 and not self.bella[b] and (seat is None or seat == b)
                    and self.hands[b] & BELLA[self.trump]):
                out.append(simple("bella", b))
            return out
        if phase == BID:
            sp = self.speaker
            if seat is not None and seat != sp:
                return []
            if self.bid_round == 1:
                return list(_BIDS_ROUND1[sp])
            ts = SUIT_OF[self.turned]
            return [*(simple("bid", sp, SUITS[s]) for s in range(4) if s != ts), simple("bid", sp, "pass")]
        if phase == SCORE:
            out = [_CONFIRMS[s] for s in ((0, 1) if seat is None else (seat,))
                   if not self.confirmed[s]]
            if self.policy == "on_claim":
                for f in self.fouls:
                    s = f[0]
                    if (f not in self.fouls_claimed and seat in (None, 1 - s)
                            and not self.confirmed[1 - s]):
                        out.append(card_event("foul", 1 - s, BY_INDEX[f[1]]))
            return out
        return []

    def _follow_mask(self, seat: int) -> int:
        """The cards ``seat`` may play to the card led: follow, else trump, else any;
        on a trump lead, beat it if able."""
        lead = self.lead
        hand = self.hands[seat]
        ls = SUIT_OF[lead]
        same = hand & SUIT_BITS[ls]
        if same:
            if ls == self.trump:
                return (same & HIGHER_TRUMP[lead]) or same
            return same
        return (hand & SUIT_BITS[self.trump]) or hand

    def _can_swap(self, s: int) -> bool:
        return (not self.swapped and self.trump >= 0 and self.trump == SUIT_OF[self.turned]
                and bool(self.hands[s] >> SEVEN[self.trump] & 1) and not self.nplayed[s]
                and not self._declared_with(s, 1 << SEVEN[self.trump]))

    def _declared_with(self, s: int, cards: int) -> bool:
        """Whether one of seat ``s``'s declared combinations holds any of ``cards``."""
        return any(d[0] == s and d[1] & cards for d in self.declared)

    def _can_bella(self, s: int) -> bool:
        if self.bella[s] or self.trump < 0:
            return False
        pair = BELLA[self.trump]
        return (self.hands[s] | self.played[s]) & pair == pair and bool(self.hands[s] & pair)

    # ----------------------------------------------------------------- judging
    def _judge(self, event: Event) -> Verdict:
        if event.arg and event.kind in _CARD_KINDS:
            token = event.arg.split()[0]
            if len(token) <= 3:
                card(token)  # an unreadable card code: UnknownCardError names it
            raise BadEventError(f"«{event}»: {event.kind} takes cards only, not {event.arg!r}")
        if self.is_over:
            raise ActionNotAllowedError(f"the partie is over: {self.result}", "game-over")
        judge = self.judges.get(event.kind)
        if judge is None:
            return super()._judge(event)  # names the kinds there are
        return judge(self, event)

    def _phase_error(self, what: str, rule: str = "not-allowed-now") -> ActionNotAllowedError:
        return ActionNotAllowedError(f"{what}: the deal is in the {PHASE_NAMES[self.phase]} phase", rule)

    @staticmethod
    def _seat(event: Event) -> int:
        seat = event.seat
        if seat != 0 and seat != 1:
            raise BadEventError(f"«{event}» needs seat 0 or 1 in front (e.g. '0 {event.kind} …')")
        return seat

    @staticmethod
    def _no_words(event: Event) -> None:
        if event.cards or event.arg:
            raise BadEventError(f"«{event}»: '{event.kind}' names no card and takes no words")

    @judge("shoe")
    def _judge_shoe(self, event: Event) -> Verdict:
        if event.seat is not None:
            raise BadEventError("a shoe event has no seat: 'shoe 9H'")
        phase = self.phase
        if phase != DEAL1 and phase != DEAL2:
            raise self._phase_error(f"no card is due from the shoe now ({event})",
                                    "shoe-not-expected")
        cs = event.cards
        if len(cs) != 1:
            raise BadEventError(f"«{event}»: a shoe event is exactly one card")
        bit = cs[0].bit
        if not bit & DECK or bit & self.seen:
            self._shoe_card(event, self.seen)  # raises the core's message for either case
        return legal_verdict(event)

    @judge("bid")
    def _judge_bid(self, event: Event) -> Verdict:
        seat = self._seat(event)
        if self.phase != BID:
            raise BidNotAllowedError(
                f"no bidding now: the deal is in the {PHASE_NAMES[self.phase]} phase"
                + (f" and trump is {suit_name(self.trump)}" if self.trump >= 0 else ""))
        if seat != self.speaker:
            raise OutOfTurnError(f"it is seat {self.speaker}'s word in the bidding, not seat {seat}'s")
        if event.cards:
            raise BadEventError("a bid names no card: 'bid play', 'bid pass' or 'bid H'")
        word = _bid_word(event.arg)
        turned = suit_name(SUIT_OF[self.turned])
        if word == "pass":
            return legal_verdict(event)
        if word == "play":
            if self.bid_round == 1:
                return legal_verdict(event)
            raise BidNotAllowedError(
                f"round 2: «играю» on {turned} is over (both passed it); name another suit or pass")
        if word in SUITS:
            if self.bid_round == 1:
                raise BidNotAllowedError(
                    f"round 1: say 'play' («играю») to take {turned} as trump, or 'pass'; "
                    "other suits can be named in round 2")
            if SUITS.index(word) == SUIT_OF[self.turned]:
                raise BidNotAllowedError(
                    f"round 2: {turned} was refused in round 1; name another suit or pass")
            return legal_verdict(event)
        raise BadEventError(f"unknown bid {word!r}: 'pass', 'play' (round 1) or a suit C D H S (round 2)")

    @judge("play")
    def _judge_play(self, event: Event) -> Verdict:
        if self.phase != PLAY:
            raise self._phase_error("no card can be played now", "not-playing-now")
        seat = event.seat
        if seat != self.turn:
            self._seat(event)
            raise OutOfTurnError(f"seat {self.turn} is to play, not seat {seat}")
        cs = event.cards
        if len(cs) != 1:
            raise BadEventError(f"«{event}»: a play is exactly one card")
        c = cs[0]
        if not c.bit & self.hands[seat]:
            raise CardNotInHandError(f"seat {seat} does not hold {c.pretty()} ({c.code})")
        if self.lead < 0 or c.bit & self._follow_mask(seat):
            return legal_verdict(event)
        return self._illegal(event, seat, c)

    def _illegal(self, event: Event, seat: int, c: Card) -> Verdict:
        lead = self.lead
        ls = SUIT_OF[lead]
        hand = self.hands[seat]
        led = BY_INDEX[lead].pretty()
        if hand & SUIT_BITS[ls] and SUIT_OF[c.index] != ls:
            return Verdict(event, False, "follow-suit",
                           f"held {suit_name(ls)}, did not follow suit to {led} with {c.pretty()}")
        if ls == self.trump:
            return Verdict(event, False, "overtrump",
                           f"trump {led} led: held a higher trump, played {c.pretty()} without beating it")
        return Verdict(event, False, "must-trump",
                       f"void in {suit_name(ls)} but held a trump ({suit_name(self.trump)}); "
                       f"played {c.pretty()} instead of trumping {led}")

    @judge("swap")
    def _judge_swap(self, event: Event) -> Verdict:
        seat = self._seat(event)
        if self.phase != PLAY:
            raise self._phase_error("the seven swap comes after the deal, before one's first play")
        if len(event.cards) != 1:
            raise BadEventError("swap names the trump seven: 'swap 7H'")
        c = event.cards[0]
        if self.trump != SUIT_OF[self.turned]:
            raise ActionNotAllowedError(
                f"no seven swap: trump {suit_name(self.trump)} was named in round 2, not the turned "
                f"card's suit", "seven-swap")
        if c.index != SEVEN[self.trump]:
            raise ActionNotAllowedError(
                f"only the trump seven (7{SUITS[self.trump]}) can be swapped, not {c.code}", "seven-swap")
        if not c.bit & self.hands[seat]:
            raise CardNotInHandError(f"seat {seat} does not hold {c.pretty()} ({c.code})")
        if self.nplayed[seat]:
            raise ActionNotAllowedError("the seven swap must come before one's first play", "seven-swap")
        if self._declared_with(seat, c.bit):
            raise ActionNotAllowedError(
                f"{c.pretty()} is in a combination seat {seat} declared: a declared combination "
                "stays in the hand", "seven-swap")
        return legal_verdict(event)

    @judge("declare")
    def _judge_declare(self, event: Event) -> Verdict:
        seat = self._seat(event)
        if self.phase != PLAY:
            raise self._phase_error("combinations are declared once the cards are dealt and trump "
                                    "is set, before one's first card")
        if self.nplayed[seat]:
            raise ActionNotAllowedError(
                f"seat {seat} has played a card: combinations are declared before one's first card",
                "declare-too-late")
        mask = 0
        for c in event.cards:
            if mask & c.bit:
                raise BadEventError(f"{c.code} is named twice in the declaration")
            mask |= c.bit
        if not mask:
            raise BadEventError("declare names the cards of the combination: 'declare QS JS TS'")
        missing = mask & ~self.hands[seat]
        if missing:
            raise CardNotInHandError(f"seat {seat} does not hold {pretty(missing)}: "
                                     "a combination is declared from one's hand")
        if any(a[0] == mask for a in self.avail[seat]):
            return legal_verdict(event)
        if any(d[0] == seat and d[1] == mask for d in self.declared):
            raise ActionNotAllowedError(f"{pretty(mask)} is already declared", "declare")
        raise ActionNotAllowedError(
            f"{pretty(mask)} is not a combination: declare a whole sequence of three or more cards "
            f"of one suit in the order {self._seq_order} (the longest run the hand holds)", "declare")

    @judge("bella")
    def _judge_bella(self, event: Event) -> Verdict:
        seat = self._seat(event)
        if self.phase != PLAY:
            raise self._phase_error("bella is announced during the play")
        self._no_words(event)
        if self.bella[seat]:
            raise ActionNotAllowedError(f"seat {seat} has already announced bella", "bella")
        pair = BELLA[self.trump]
        if (self.hands[seat] | self.played[seat]) & pair != pair:
            raise ActionNotAllowedError(
                f"bella needs the trump king and queen ({pretty(pair)}) in one hand", "bella")
        if not self.hands[seat] & pair:
            raise ActionNotAllowedError(
                "too late for bella: it is announced no later than playing the second of K and Q",
                "bella")
        return legal_verdict(event)

    @judge("claim")
    def _judge_claim(self, event: Event) -> Verdict:
        seat = self._seat(event)
        self._no_words(event)
        if self._short:
            raise ActionNotAllowedError("«Партия!» is for long games; this partie is short", "claim")
        if not self._claims:
            raise ActionNotAllowedError("«Партия!» claims are off at this table (claims=false)", "claim")
        if self.phase != PLAY:
            raise self._phase_error("«Партия!» is claimed during the play")
        if seat != self.turn or self.lead >= 0:
            raise OutOfTurnError(f"«Партия!» is claimed on one's own lead; seat {self.turn} is to "
                                 + ("lead" if self.lead < 0 else "play"))
        if not self.tricks_won[seat]:
            raise ActionNotAllowedError(
                f"seat {seat} has no trick yet: «Партия!» needs at least one trick", "claim")
        return legal_verdict(event)

    @judge("foul")
    def _judge_foul(self, event: Event) -> Verdict:
        seat = self._seat(event)
        if self.policy != "on_claim":
            raise ActionNotAllowedError(
                f"foul claims are for policy on_claim; this table's policy is {self.policy}", "foul")
        if self.phase != SCORE:
            raise self._phase_error("неправильный бой is claimed when the tricks are opened, before "
                                    "the score is confirmed", "foul")
        if len(event.cards) != 1:
            raise BadEventError("foul names the offending card: '1 foul 8H'")
        if self.confirmed[seat]:
            raise ActionNotAllowedError(
                f"seat {seat} has confirmed the score: too late to claim неправильный бой", "foul")
        idx = event.cards[0].index
        offender = 1 - seat
        for f in self.fouls:
            if f[0] == offender and f[1] == idx:
                if f in self.fouls_claimed:
                    raise ActionNotAllowedError(f"that play of {event.cards[0].pretty()} is already "
                                                "claimed", "foul")
                return legal_verdict(event)
        raise ActionNotAllowedError(
            f"seat {offender} played {event.cards[0].pretty()} legally (or did not play it) in this "
            "deal: no неправильный бой to claim", "foul")

    @judge("confirm")
    def _judge_confirm(self, event: Event) -> Verdict:
        seat = self._seat(event)
        self._no_words(event)
        if self.phase != SCORE:
            raise self._phase_error("there is no deal score to confirm yet")
        if self.confirmed[seat]:
            raise ActionNotAllowedError(f"seat {seat} has already confirmed this deal's score; "
                                        f"waiting for seat {1 - seat}", "confirm")
        return legal_verdict(event)

    def _shoe_due(self) -> ShoeDue | None:
        table: tuple[int, ...]
        if self.phase == DEAL1:
            table, i = FIRST_BATCH, self.n
        elif self.phase == DEAL2:
            table, i = SECOND_BATCH if self._second_open else SECOND_BATCH[:-1], self.n - 13
        else:
            return None
        dest = table[i]
        if dest >= 2:
            return ShoeDue(None, 1, "trump" if dest == 2 else "open", self.dealer)
        return ShoeDue(self.dealer if dest else 1 - self.dealer, run_length(table, i),
                       dealer=self.dealer)

    # ----------------------------------------------------------------- folding
    @fold("shoe")
    def _do_shoe(self, event: Event, _v: Verdict) -> None:
        c = event.cards[0]
        n = self.n
        self.n = n + 1
        self.seen |= c.bit
        if self.phase == DEAL1:
            dest = FIRST_BATCH[n]
            if dest == 2:
                self.turned = c.index
                self.phase = BID
                self.expects_shoe = False
            else:
                self.hands[self.dealer if dest else 1 - self.dealer] |= c.bit
            return
        dest = SECOND_BATCH[n - 13]
        if dest == 3:
            self.second = c.index
        else:
            self.hands[self.dealer if dest else 1 - self.dealer] |= c.bit
        if dest == 3 or (n == 18 and not self._second_open):
            self._start_play()

    def _start_play(self) -> None:
        self.phase = PLAY
        self.expects_shoe = False
        self.turn = self.first
        self.avail = [self._runs(self.hands[0]), self._runs(self.hands[1])]
        self._find_bella()

    def _find_bella(self) -> None:
        pair = BELLA[self.trump]
        h = self.hands
        self.bella_seat = 0 if h[0] & pair == pair else 1 if h[1] & pair == pair else -1

    def _runs(self, hand: int) -> list[tuple[int, int, int, int]]:
        runs = RUNS[self._seq_order]
        out = []
        for s in range(4):
            shift = SUIT_SHIFT[s]
            for length, top, byte in runs[hand >> shift & 255]:
                out.append((byte << shift, length, top, s))
        return out

    @fold("bid")
    def _do_bid(self, event: Event, _v: Verdict) -> None:
        word = _bid_word(event.arg)
        seat = event.seat
        assert seat is not None
        if word == "pass":
            if seat == self.first:
                self.speaker = 1 - seat
            elif self.bid_round == 1:
                self.bid_round = 2
                self.speaker = self.first
            else:
                self._redeal()
            return
        self.trump = SUIT_OF[self.turned] if word == "play" else SUITS.index(word)
        self.declarer = seat
        self.phase = DEAL2
        self.expects_shoe = True

    def _redeal(self) -> None:
        self.deals.append(DealRecord(self.deal_no, (0, 0), (), (Line(
            f"redeal: both players passed twice (turned {BY_INDEX[self.turned].pretty()}); "
            f"the first word passes to seat {1 - self.first}", "redeal-passed",
            card=BY_INDEX[self.turned].code, seat=1 - self.first),), ()))
        self.deal_no += 1
        self.dealer = 1 - self.dealer
        self.first = 1 - self.first
        self._new_deal()

    @fold("play")
    def _do_play(self, event: Event, verdict: Verdict) -> None:
        seat = self.turn
        c = event.cards[0]
        bit = c.bit
        self.hands[seat] ^= bit
        self.played[seat] |= bit
        self.nplayed[seat] += 1
        if not verdict.legal:
            self.fouls.append(Foul(seat, c.index, verdict.rule, self.nplayed[seat], verdict.message))
        lead = self.lead
        if lead < 0:
            self.lead = c.index
            self.turn = 1 - seat
            return
        trump = self.trump
        idx = c.index
        strength = STRENGTH[trump]
        winner = 1 - seat
        if (SUIT_OF[idx] == SUIT_OF[lead] or SUIT_OF[idx] == trump) and strength[idx] > strength[lead]:
            winner = seat
        pts = POINTS[trump]
        self.points[winner] += pts[idx] + pts[lead]
        self.tricks_won[winner] += 1
        self.won[winner] |= bit | (1 << lead)
        self.lead = -1
        self.turn = winner
        self.ntricks += 1
        if self.ntricks == 9:
            self.last_trick = winner
            self.phase = SCORE

    @fold("swap")
    def _do_swap(self, event: Event, _v: Verdict) -> None:
        seat = event.seat
        assert seat is not None
        seven = event.cards[0]
        self.hands[seat] ^= seven.bit | (1 << self.turned)
        self.turned = seven.index
        self.swapped = True
        # Runs touching a declared combination stay as declared (the new card may extend one).
        self.avail[seat] = [a for a in self._runs(self.hands[seat])
                            if not self._declared_with(seat, a[0])]
        self._find_bella()

    @fold("declare")
    def _do_declare(self, event: Event, _v: Verdict) -> None:
        seat = event.seat
        assert seat is not None
        mask = 0
        for c in event.cards:
            mask |= c.bit
        for i, a in enumerate(self.avail[seat]):
            if a[0] == mask:
                del self.avail[seat][i]
                self.declared.append(Declared(seat, *a))
                return

    @fold("bella")
    def _do_bella(self, event: Event, _v: Verdict) -> None:
        self.bella[event.seat] = True  # type: ignore[index]

    @fold("claim")
    def _do_claim(self, event: Event, _v: Verdict) -> None:
        self.claimant = event.seat  # type: ignore[assignment]
        self.phase = SCORE

    @fold("foul")
    def _do_foul(self, event: Event, _v: Verdict) -> None:
        offender = 1 - event.seat  # type: ignore[operator]
        idx = event.cards[0].index
        for f in self.fouls:
            if f[0] == offender and f[1] == idx:
                self.fouls_claimed.append(f)
                return

    @fold("confirm")
    def _do_confirm(self, event: Event, _v: Verdict) -> None:
        self.confirmed[event.seat] = True  # type: ignore[index]
        if not (self.confirmed[0] and self.confirmed[1]):
            return
        facts = self._facts()
        r = score_deal(facts)
        pts = r.points
        notes = list(r.notes)
        self.totals[0] += pts[0]
        self.totals[1] += pts[1]
        self.pot = r.pot
        winner: int | None = None
        if self.claimant >= 0 or self._short:
            winner = r.winner
        else:
            dfd = 1 - self.declarer
            if self.totals[dfd] >= self._target:
                winner = dfd
                if self.totals[self.declarer] >= self._target:
                    notes.append(Line(f"both passed {self._target}: the defender's points count "
                                      "first", "both-passed-target", target=self._target))
            elif self.totals[self.declarer] >= self._target:
                winner = self.declarer
            if winner is not None and self.pot:
                notes.append(Line(f"the hanging {self.pot} points are dropped: the partie is over",
                                  "pot-dropped", pot=self.pot))
                self.pot = 0
        self.deals.append(DealRecord(self.deal_no, (pts[0], pts[1]), tuple(r.items), tuple(notes),
                                     illegal_plays(facts)))
        if winner is not None:
            self._finish(winner, r)
            return
        # The loser of the deal speaks first in the next (a tie: the declarer, who scored nothing).
        loser = (0 if pts[0] < pts[1] else 1) if pts[0] != pts[1] else self.declarer
        self.deal_no += 1
        self.dealer = 1 - self.dealer
        self.first = 1 - self.dealer if self._nondealer_first else loser
        self._new_deal()

    def _finish(self, winner: int, r: DealResult) -> None:
        self.is_over = True
        self.expects_shoe = False
        self.winner = winner
        self.phase = SCORE
        loser = 1 - winner
        t = self.totals
        if self._short:
            d = self.declarer
            if r.short_stakes > 0:
                self.result = Line(f"seat {d} (declarer) wins the short partie: seat {loser} pays "
                                   f"{self._stake}", "short-partie-won", seat=d,
                                   loser_seat=loser, stake=self._stake)
            else:
                n = -r.short_stakes * self._stake
                self.result = Line(f"seat {d} (declarer) loses the short partie: pays seat "
                                   f"{winner} {-r.short_stakes} stake"
                                   f"{'s' if r.short_stakes < -1 else ''} = {n}",
                                   "short-partie-lost", seat=d, winner_seat=winner,
                                   stakes=-r.short_stakes, paid=n)
            return
        if self.claimant < 0:
            how, key = f"reaching {self._target}", "partie-won"
        else:
            how = f"«Партия!» by seat {self.claimant} {'stood' if r.claim_won else 'failed'}"
            key = "partie-won-claim" if r.claim_won else "partie-won-failed-claim"
        text = f"seat {winner} wins the partie {t[winner]} : {t[loser]} ({how})"
        params: dict[str, Any] = {"seat": winner, "won": t[winner], "lost": t[loser],
                                  "target": self._target, "claim_seat": self.claimant}
        if self._rozaliev:
            owed = max(0, 501 - t[loser]) * self._stake
            text += f"; settlement (501 − {t[loser]}) × {self._stake} = {owed}"
            key += "-settled"
            params.update(stake=self._stake, owed=owed)
        self.result = Line(text, key, **params)

    # ----------------------------------------------------------------- reports
    def score_sheet(self) -> ScoreSheet:
        deals: list[DealScore] = []
        if self._bonus:
            deals.append(DealScore(0, [self._bonus if s == self._proposer else 0 for s in (0, 1)],
                                   [ScoreItem(self._proposer, Line(
                                       "open-cards bonus (plays every deal with open cards)",
                                       "open-cards-bonus"), self._bonus, "open-cards-bonus")],
                                   [Line("before the first deal", "before-first-deal")]))
        for number, pts, items, notes, illegal in self.deals:
            deals.append(DealScore(number, list(pts), [ScoreItem(*i) for i in items], list(notes),
                                   [IllegalPlay(*f) for f in illegal]))
        return ScoreSheet(
            game=self.name,
            sides=["seat 0", "seat 1"],
            options=self.settings.as_dict(),
            deals=deals,
            totals=list(self.totals),
            finished=self.is_over,
            winner=self.winner,
            result=self.result or Line(f"in progress: deal {self.deal_no}, "
                                       f"{PHASE_NAMES[self.phase]}"
                                       + (f", {self.pot} points hanging" if self.pot else ""),
                                       "in-progress-pot" if self.pot else "in-progress",
                                       deal=self.deal_no, pot=self.pot),
        )

    def preview(self) -> DealResult | None:
        """The current deal's score as it would be confirmed now (scoring phase only)."""
        return score_deal(self._facts()) if self.phase == SCORE and not self.is_over else None

    def _facts(self) -> DealFacts:
        """The deal as scoring reads it."""
        return DealFacts(
            card_points=(self.points[0], self.points[1]),
            tricks_won=(self.tricks_won[0], self.tricks_won[1]),
            declared=tuple(self.declared), trump=self.trump,
            bella=(self.bella[0], self.bella[1]), claimant=self.claimant,
            last_trick=self.last_trick, fouls=tuple(self.fouls),
            fouls_claimed=tuple(self.fouls_claimed), policy=self.policy,
            declarer=self.declarer, pot=self.pot, totals=(self.totals[0], self.totals[1]),
            target=self._target, short=self._short, seq_order=self._seq_order)

    def view_trick(self, d: dict[str, Any]) -> list[TrickCard]:
        from engine.view import TrickCard

        to_act = d.get("to_act")
        leader = 1 - to_act if to_act is not None else 0
        return [TrickCard(seat=leader, card=c) for c in d.get("table") or []]

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        d.update(
            phase=PHASE_NAMES[self.phase],
            deal=self.deal_no,
            dealer=self.dealer,
            first_speaker=self.first,
            bidding_round=self.bid_round if self.phase == BID else None,
            trump_card=BY_INDEX[self.turned].code if self.turned >= 0 else None,
            second_open=BY_INDEX[self.second].code if self.second >= 0 else None,
            trump=self.trump_suit,
            declarer=self.declarer if self.declarer >= 0 else None,
            table=[BY_INDEX[self.lead].code] if self.lead >= 0 else [],
            hand_sizes=[h.bit_count() for h in self.hands],
            tricks=list(self.tricks_won),
            card_points=list(self.points),
            declared=[{"seat": s, "cards": [c.code for c in cards_of(m)], "length": ln}
                      for s, m, ln, _t, _s in self.declared],
            bella=[s for s in (0, 1) if self.bella[s]],
            fouls=[{"seat": s, "card": BY_INDEX[i].code, "rule": r, "trick": t, "message": m,
                    "claimed": (s, i, r, t, m) in self.fouls_claimed}
                   for s, i, r, t, m in self.fouls],
            totals=list(self.totals),
            hanging=self.pot,
            target=self._target or None,
            winner=self.winner,
            result=self.result,
        )
        preview = self.preview()
        if preview is not None:  # the score the players are asked to confirm
            d["deal_score"] = list(preview.points)
            d["deal_notes"] = list(preview.notes)
        if self._bonus:
            d["open_hand"] = {"seat": self._proposer,
                              "cards": [c.code for c in cards_of(self.hands[self._proposer])]}
        return d

    def problems(self) -> list[str]:
        out: list[str] = []
        parts = {
            "hand 0": self.hands[0], "hand 1": self.hands[1], "tricks 0": self.won[0],
            "tricks 1": self.won[1], "table": (1 << self.lead) if self.lead >= 0 else 0,
            "turned card": (1 << self.turned) if self.turned >= 0 else 0,
            "second open card": (1 << self.second) if self.second >= 0 else 0,
        }
        acc = 0
        for name, mask in parts.items():
            if acc & mask:
                out.append(f"{name} shares cards with another place: {pretty(acc & mask)}")
            acc |= mask
        if acc != self.seen:
            out.append(f"cards out of the shoe {pretty(self.seen)} != cards in play {pretty(acc)}")
        if self.seen & ~DECK:
            out.append("a card outside the 32-card deck was dealt")
        if self.phase in (PLAY, SCORE) and not self.is_over:
            for s in (0, 1):
                if self.hands[s].bit_count() + self.nplayed[s] != 9:
                    out.append(f"seat {s} holds {self.hands[s].bit_count()} and played "
                               f"{self.nplayed[s]}: not 9 cards")
        if (self.won[0] | self.won[1]).bit_count() != 2 * self.ntricks:
            out.append("tricks taken do not hold two cards each")
        for s, mask, *_ in self.declared:
            if mask & ~(self.hands[s] | self.played[s]):
                out.append(f"seat {s} declared {pretty(mask)} but never held it")
        expected = [self._bonus if s == self._proposer else 0 for s in (0, 1)]
        for _n, pts, _i, _notes, _illegal in self.deals:
            expected[0] += pts[0]
            expected[1] += pts[1]
        if expected != self.totals:
            out.append(f"totals {self.totals} are not the sum of the deals {expected}")
        return out


_BID_WORDS = {"pass": "pass", "play": "play", "пас": "pass", "играю": "play",
              **{s.lower(): s for s in SUITS}}


def _bid_word(arg: str) -> str:
    """``pass``, ``play`` or a suit letter, whatever the case (and «пас»/«играю» from a panel)."""
    word = arg.strip()
    return _BID_WORDS.get(word.lower(), word)


_CARD_KINDS = frozenset({"shoe", "play", "swap", "declare", "foul"})
__all__ = ["Belot2"]
