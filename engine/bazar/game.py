"""Bazar-Belot (Базар-Белот): four players in pairs 0 & 2 v 1 & 3, docs/rules.md §4.

Event vocabulary (full reference with examples: ``docs/games/bazar.md``)::

    2 dealer           seat 2 won the lot and deals first (only when the option first_dealer
                       is empty, before the first card)
    shoe TH            the next card out of the shoe; packets of 4 + 4 (or 3 + 2 + 3) clockwise
                       from the dealer's left
    1 bid pass         «пас»
    1 bid 8:H          «8 червей» (N ≥ 8); 9:BK «9 БК» (N ≥ 8); 20:VK «20 ВК» (N ≥ 20)
    1 bid kapo:H       «Капо червей»; kapo:VK+2 «Капо ВК плюс 2»
    1 bid hand:S       «Капо с руки» in spades (hand:S+1 with K); also out of turn
    2 bid contra       «Контра» (also out of turn); 1 bid recontra «Реконтра»
    1 declare 7H 8H 9H a construction (run or four of a kind), before one's first card
    1 play KH bela     a card; ``bela`` says «Бэла» / «Ре-Бэла» with it
    0 claim            (policy on_claim) the opponents' illegal play is claimed
    0 confirm          (policy on_claim) the deal's score is accepted; the next deal starts

The state is plain ints and lists (hands as bit masks) so that ``snapshot()`` compares games; a
finished deal is a :class:`BazarDeal`, an illegal play a :class:`BazarFoul` (named tuples).
"""

from __future__ import annotations

from bisect import bisect_right
from enum import StrEnum
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from engine.bazar.constructions import Construction, classify, label, winner
from engine.bazar.options import BazarSettings
from engine.bazar.scoring import PlayedDeal, score_deal
from engine.bazar.tables import (
    BELA_EVENTS,
    BK,
    CLAIM_EVENTS,
    CONFIRM_EVENTS,
    DEALER_EVENTS,
    DECK_MASK,
    GAME_NAMES,
    HAND,
    HIGHER,
    IS_KQ,
    KQ_ALL,
    KQ_MASK,
    MIN_N,
    PLAY_CARDS,
    RANK_MASK,
    SUB_RUNS,
    SUIT_MASKS,
    SUIT_OF,
    VALUE,
    VK,
    Bid,
    bid_tables,
    deal_seats,
    declare_event,
    parse_bid,
)
from engine.cards import BY_INDEX, cards_in
from engine.errors import (
    ActionNotAllowedError,
    BadEventError,
    BidNotAllowedError,
    CardNotInHandError,
    DuplicateCardError,
    OutOfTurnError,
)
from engine.events import SHOE, Event
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
)
from engine.settings import Settings
from engine.verdict import Verdict, legal_verdict

if TYPE_CHECKING:
    from engine.view import DeclarationView, TrickCard


class BazarPhase(StrEnum):
    LOT = "lot"          # the first dealer is not drawn yet (option first_dealer empty)
    DEAL = "deal"
    AUCTION = "auction"
    CONTRA = "contra"    # the contracting pair answers a Контра
    PLAY = "play"
    CONFIRM = "confirm"  # on_claim: the deal's score waits for a confirm (claims still open)
    OVER = "over"


LOT, DEAL, AUCTION, CONTRA, PLAY, CONFIRM, OVER = BazarPhase
SEAT_NAMES = ("0 & 2", "1 & 3")


class BazarFoul(NamedTuple):
    """An illegal play of the deal being played (docs/rules.md §6)."""

    seat: int
    rule: str
    message: str
    claimed: bool
    card: str    # its code
    trick: int   # from 1


class DealRaw(NamedTuple):
    """What a played deal was, for checks: its game, Капо с руки, each pair's card points
    (the last trick included)."""

    game: int
    hand: bool
    visty: tuple[int, int]


class BazarDeal(NamedTuple):
    """A finished deal, the score sheet's row; ``raw`` is None for a void deal."""

    number: int
    points: tuple[int, int]
    items: tuple[tuple[int, str, int, str], ...]
    notes: tuple[str, ...]
    raw: DealRaw | None


class DealFouls(NamedTuple):
    """The illegal plays of a finished deal as the sheet's IllegalPlay fields
    (seat, card, trick, rule, message, outcome)."""

    number: int
    plays: tuple[tuple[int, str, int, str, str, str], ...]


class BazarBelot(Game):
    name: ClassVar[str] = "bazar"
    title: ClassVar[str] = "Bazar-Belot (Базар-Белот), 4 players in pairs"
    num_seats: ClassVar[int] = 4
    settings_model: ClassVar[type[Settings]] = BazarSettings
    settings: BazarSettings
    Phase = BazarPhase

    # ------------------------------------------------------------------ state
    def _new_state(self) -> None:
        s = self.settings
        self.deal_order = deal_seats(s.deal_pattern)
        self.bids = bid_tables(s.max_bid, s.max_kapo_plus)
        self._enter(LOT if s.first_dealer is None else DEAL)
        self.dealer = -1 if s.first_dealer is None else s.first_dealer
        self.deal_no = 0
        self.totals = [0, 0]
        self.deals: list[BazarDeal] = []
        # the deals in self.deals whose illegal plays stood (docs/rules.md §6: the sheet names
        # each one)
        self.deal_fouls: list[DealFouls] = []
        self.last_contract_pair = -1
        self.winner = -1
        self.hands = [0, 0, 0, 0]
        self._start_deal()

    def _start_deal(self) -> None:
        self.deal_no += 1
        self.seen = 0
        self.dealt = 0
        self.hands = [0, 0, 0, 0]
        # auction
        self.turn = (self.dealer + 1) % 4
        self.bid = -1  # index into self.bids.bids
        self.bid_key = 0
        self.bidder = -1
        self.passes = 0
        self.muted = 0  # bit p: pair p may only pass or say Контра
        self.locked = -1  # game to which raises are limited after the last bidder raised in it
        self.spoke = [False, False, False, False]
        self.contra = 0  # 1 Контра, 2 Реконтра
        self.contra_by = -1
        self.contra_pending: list[int] = []
        self.auction: list[tuple[int, str]] = []
        # contract and play
        self.game = -1
        self.out = -1  # partner of a «Капо с руки» bidder: cards out of play
        self.trick: list[int] = []
        self.trick_seats: list[int] = []
        self.led = -1
        self.win_card = -1
        self.win_seat = -1
        self.trick_no = 0
        self.tricks = [0, 0]
        self.points = [0, 0]
        self.taken = [0, 0]
        self.last_pair = -1
        self.constructions: list[Construction] = []
        self.seq_used = [0, 0, 0, 0]
        self.ramki_used = [0, 0, 0, 0]
        self.cancel_all = False
        self.constr_winner = -1
        self.bela_said = [0] * 16  # [seat * 4 + suit]: cards of that K+Q played with «Бэла»
        self.belas = [0, 0]
        self.fouls: list[BazarFoul] = []

    # ------------------------------------------------------------------ queries
    def to_act(self) -> int | None:
        phase = self.phase
        if phase in (AUCTION, PLAY):
            return self.turn
        if phase is CONTRA:
            return self.contra_pending[0]
        return None

    # expects_shoe and is_over are plain attributes kept in step with the phase by _enter: the
    # playout loop reads both after every event.
    expects_shoe: bool = True
    is_over: bool = False

    def _enter(self, phase: BazarPhase) -> None:
        self.phase = phase
        self.expects_shoe = phase is DEAL
        self.is_over = phase is OVER

    def _unseen_mask(self) -> int:
        return DECK_MASK & ~self.seen if self.phase is DEAL else 0

    @property
    def contract(self) -> Bid | None:
        return self.bids.bids[self.bid] if self.bid >= 0 else None

    def _legal(self, seat: int | None) -> list[Event]:
        # The base class has answered for a finished game, a pending retraction and the shoe.
        phase = self.phase
        if phase is PLAY:
            out = self._play_options(self.turn) if seat is None or seat == self.turn else []
            if self.policy == "on_claim" and self.fouls:
                out += self._claims(seat)
            return out
        if phase in (AUCTION, CONTRA):
            if seat is not None:
                return self._auction_options(seat)
            t = self.contra_pending[0] if phase is CONTRA else self.turn
            out = self._auction_options(t)
            for s in range(4):
                if s != t:
                    out += self._auction_options(s)
            return out
        if phase is LOT:
            return list(DEALER_EVENTS) if seat is None else [DEALER_EVENTS[seat]]
        if phase is CONFIRM:
            out = self._claims(seat)
            out += CONFIRM_EVENTS if seat is None else [CONFIRM_EVENTS[seat]]
            return out
        return []

    # ------------------------------------------------------------------ auction
    def _auction_options(self, seat: int) -> list[Event]:
        t = self.bids
        if self.phase is CONTRA:
            pending = self.contra_pending
            if seat not in pending:
                return []
            if seat == pending[0]:
                return [t.passes[seat], t.recontras[seat]]
            return [t.recontras[seat]]
        out: list[Event] = []
        pair = seat & 1
        muted = self.muted >> pair & 1
        if seat == self.turn:
            out.append(t.passes[seat])
            if not muted:
                if self.locked >= 0:
                    if pair == self.bidder & 1:
                        keys = t.game_keys[self.locked]
                        out += t.game_events[seat][self.locked][bisect_right(keys, self.bid_key):]
                else:
                    start = bisect_right(t.keys, self.bid_key)
                    out += t.events[seat][start:t.hand_start]
        if not muted and self.locked < 0 and not self.spoke[seat ^ 2]:
            out += t.events[seat][max(bisect_right(t.keys, self.bid_key), t.hand_start):]
        if self.bidder >= 0 and (self.bidder ^ seat) & 1:
            out.append(t.contras[seat])
        return out

    @judge("bid")
    def _judge_bid(self, event: Event) -> Verdict:
        seat = event.seat
        assert seat is not None  # _judge has checked it
        if event.cards:
            raise BadEventError(f"{event}: a bid names no cards (write 8:H, not 8H)", "bad-bid")
        what = parse_bid(event.arg)
        if what is None:
            raise BadEventError(
                f"{event}: unknown bid {event.arg!r}; bids are pass, 8:H (N ≥ 8 and a suit C D H S), "
                "8:BK, 20:VK (N ≥ 20), kapo:H, kapo:H+2, hand:H, contra, recontra", "bad-bid")
        if isinstance(what, Bid):
            self._check_bid_range(what)
        phase = self.phase
        if phase is not AUCTION and phase is not CONTRA:
            raise ActionNotAllowedError(f"{event}: there is no auction now ({self._phase_text()})",
                                        "not-auction")
        if phase is CONTRA:
            pending = self.contra_pending
            if what == "recontra":
                if seat not in pending:
                    raise BidNotAllowedError(
                        f"{event}: only a player of the pair under Контра who has not passed may "
                        "say Реконтра", "recontra")
                return legal_verdict(event)
            if what == "pass":
                if seat != pending[0]:
                    raise OutOfTurnError(f"{event}: seat {pending[0]} answers the Контра now")
                return legal_verdict(event)
            raise BidNotAllowedError(
                f"{event}: after Контра no bid may follow; the contracting pair passes or says "
                "Реконтра", "after-contra")
        if what == "pass":
            if seat != self.turn:
                raise OutOfTurnError(f"{event}: seat {self.turn} is to speak, not seat {seat}")
            return legal_verdict(event)
        if what == "recontra":
            raise BidNotAllowedError(f"{event}: Реконтра answers a Контра, and there is none",
                                     "recontra")
        if what == "contra":
            if self.bidder < 0:
                raise BidNotAllowedError(f"{event}: there is no bid to say Контра to", "contra")
            if not (self.bidder ^ seat) & 1:
                raise BidNotAllowedError(
                    f"{event}: Контра is said by an opponent of the last bidder (seat "
                    f"{self.bidder}); seat {seat} is on his side", "contra-wrong-pair")
            return legal_verdict(event)
        assert isinstance(what, Bid)  # parse_bid's words are pass, contra and recontra
        bid = what
        if bid.kind == HAND:
            if self.spoke[seat ^ 2]:
                raise BidNotAllowedError(
                    f"{event}: Капо с руки must come before any word of the partner (seat "
                    f"{seat ^ 2} has spoken)", "kapo-hand")
        elif seat != self.turn:
            raise OutOfTurnError(f"{event}: seat {self.turn} is to speak, not seat {seat}")
        if self.muted >> (seat & 1) & 1:
            raise BidNotAllowedError(
                f"{event}: your pair made two of three passes in a row; it may only pass or say "
                "Контра", "three-passes")
        if self.locked >= 0 and (bid.game != self.locked or (seat ^ self.bidder) & 1):
            raise BidNotAllowedError(
                f"{event}: the last bidder raised in {GAME_NAMES[self.locked]}; only a raise in "
                "that game by his pair, a pass or Контра is possible", "raise-same-game")
        if bid.key <= self.bid_key:
            raise BidNotAllowedError(
                f"{event}: {bid.pretty()} is not senior to {self._bid_text()}", "bid-not-senior")
        return legal_verdict(event)

    def _bid_text(self) -> str:
        bid = self.contract
        return bid.pretty() if bid is not None else "no bid"

    def _check_bid_range(self, bid: Bid) -> None:
        s = self.settings
        if bid.kind == 0 and bid.n < MIN_N[bid.game]:
            raise BidNotAllowedError(
                f"{bid.pretty()} is below the minimum: N ≥ {MIN_N[bid.game]} in "
                f"{'ВК' if bid.game == VK else 'a suit or БК game'}", "bid-below-minimum")
        if (bid.kind == 0 and bid.n > s.max_bid) or (bid.kind and bid.plus > s.max_kapo_plus):
            raise BidNotAllowedError(
                f"{bid.pretty()} is above what this table offers (options max_bid={s.max_bid}, "
                f"max_kapo_plus={s.max_kapo_plus})", "bid-above-cap")

    @fold("bid")
    def _do_bid(self, event: Event, verdict: Verdict) -> None:
        seat = event.seat
        what = parse_bid(event.arg)
        assert seat is not None and what is not None
        self.spoke[seat] = True
        if isinstance(what, Bid):
            self.auction.append((seat, what.code))
            index = self.bids.by_code[what.code]
            if self.passes == 3 and seat == self.bidder:
                last = self.contract
                if last is not None and what.game == last.game:
                    self.locked = what.game  # the last bidder raised in the same game
            self.bid = index
            self.bid_key = what.key
            self.bidder = seat
            self.passes = 0
            self.turn = (seat + 1) % 4
            return
        self.auction.append((seat, what))
        if what == "contra":
            self.contra = 1
            self.contra_by = seat
            self._enter(CONTRA)
            first = (seat + 1) % 4
            self.contra_pending = [first, (first + 2) % 4]
        elif what == "recontra":
            self.contra = 2
            self._end_auction()
        elif self.phase is CONTRA:
            self.contra_pending.pop(0)
            if not self.contra_pending:
                self._end_auction()
        else:
            self.passes += 1
            if self.locked >= 0 and not (seat ^ self.bidder) & 1:
                self._end_auction()  # the partner's pass makes the raise final
            elif self.passes == 4:
                self._end_auction()
            else:
                if self.passes == 3:
                    self.muted |= 1 << (seat & 1)  # the 1st and 3rd of three passes are partners
                self.turn = (seat + 1) % 4

    def _end_auction(self) -> None:
        if self.bid < 0:  # four passes: the deal is void
            self._void_deal(Line("all four passed: redeal", "bazar-all-passed"),
                            same_dealer=self.settings.four_passes == "same_dealer")
            return
        bid = self.contract
        assert bid is not None
        self.game = bid.game
        self._enter(PLAY)
        if bid.kind == HAND:
            self.out = self.bidder ^ 2
            self.turn = self.bidder
        else:
            self.turn = (self.dealer + 1) % 4

    # ------------------------------------------------------------------ play
    def _legal_mask(self, seat: int) -> int:
        h = self.hands[seat]
        if not self.trick:
            return h
        g = self.game
        led = self.led
        follow = h & SUIT_MASKS[led]
        if g == BK:
            return follow or h
        if g == VK or led == g:  # the suit led is trump: beat if able, even over the partner
            if follow:
                return follow & HIGHER[g][self.win_card] or follow
            return h
        if follow:
            return follow
        if (self.win_seat ^ seat) == 2:
            return h  # the partner is winning: any card
        trumps = h & SUIT_MASKS[g]
        if not trumps:
            return h
        if SUIT_OF[self.win_card] == g:
            return trumps & HIGHER[g][self.win_card] or h
        return trumps

    def _bela_ok(self, seat: int, i: int) -> bool:
        suit = SUIT_OF[i]
        g = self.game
        if g == BK or (g < BK and g != suit):
            return False
        if g == VK and self.trick and self.led != suit:
            return False
        said = self.bela_said[seat * 4 + suit]
        other = KQ_MASK[suit] & ~(1 << i)
        if said == 0:
            return bool(self.hands[seat] & other)
        return said == 1 and not self.hands[seat] & other

    def _play_options(self, seat: int) -> list[Event]:
        out: list[Event] = []
        if self.trick_no == 0:
            out += self._declarations(seat)
        m = self._legal_mask(seat)
        out += PLAY_CARDS[seat].of(m)
        kq = m & KQ_ALL
        if kq and self.game != BK:
            bela = BELA_EVENTS[seat]
            while kq:
                low = kq & -kq
                i = low.bit_length() - 1
                e = bela[i]
                if e is not None and self._bela_ok(seat, i):
                    out.append(e)
                kq ^= low
        return out

    def _declarations(self, seat: int) -> list[Event]:
        h = self.hands[seat]
        out = []
        used = self.seq_used[seat]
        for s in range(4):
            shift = s * 9
            for run in SUB_RUNS[(h >> shift) & 0x1FF]:
                m = run << shift
                if not m & used:
                    out.append(declare_event(seat, m))
        for r in range(1, 9):
            rm = RANK_MASK[r]
            if h & rm == rm and not self.ramki_used[seat] & rm and not isinstance(
                    classify(rm, self.game), str):
                out.append(declare_event(seat, rm))
        return out

    def _claims(self, seat: int | None) -> list[Event]:
        seats = range(4) if seat is None else (seat,)
        return [CLAIM_EVENTS[s] for s in seats if self._claimable(s) >= 0]

    def _claimable(self, seat: int) -> int:
        """Index of the first unclaimed foul of the other pair, or -1."""
        for k, (offender, _rule, _msg, claimed, *_where) in enumerate(self.fouls):
            if not claimed and (offender ^ seat) & 1:
                return k
        return -1

    @judge("play")
    def _judge_play(self, event: Event) -> Verdict:
        if len(event.cards) != 1:
            event.card  # noqa: B018 - raises the precise error
        return self._play_verdict(event, self._seat(event))

    def _play_verdict(self, event: Event, seat: int) -> Verdict:
        if self.phase is not PLAY:
            raise ActionNotAllowedError(f"{event}: no card is played now ({self._phase_text()})",
                                        "not-play")
        if seat != self.turn:
            if seat == self.out:
                raise OutOfTurnError(f"{event}: seat {seat}'s cards are out of play (Капо с руки)")
            raise OutOfTurnError(f"{event}: seat {self.turn} is to play, not seat {seat}")
        c = event.card
        i = c.index
        if not self.hands[seat] >> i & 1:
            raise CardNotInHandError(f"{event}: seat {seat} does not hold {c.code}")
        if event.arg and (event.arg != "bela" or not IS_KQ[i] or not self._bela_ok(seat, i)):
            if event.arg != "bela":
                raise BadEventError(f"{event}: the only word with a card is 'bela' (Бэла)", "bad-event")
            raise ActionNotAllowedError(
                f"{event}: {c.pretty()} cannot be announced as Бэла here (trump K + Q of one hand; "
                "the second card only after the first was announced; in ВК only in the suit led)",
                "bela")
        if self._legal_mask(seat) >> i & 1:
            return legal_verdict(event)
        return self._why_illegal(event, seat, i)

    def _why_illegal(self, event: Event, seat: int, i: int) -> Verdict:
        h = self.hands[seat]
        g = self.game
        led = self.led
        sym = "♣♦♥♠"[led]
        if h & SUIT_MASKS[led] and SUIT_OF[i] != led:
            return Verdict(event, False, "follow-suit", f"held {sym}, did not follow suit")
        if SUIT_OF[i] == led:
            return Verdict(event, False, "overtrump",
                           f"could beat {BY_INDEX[self.win_card].pretty()} with a higher {sym}, "
                           "did not")
        if SUIT_OF[self.win_card] == g:
            return Verdict(event, False, "overtrump",
                           f"void in {sym}, could overtrump {BY_INDEX[self.win_card].pretty()}, "
                           "did not")
        return Verdict(event, False, "must-trump",
                       f"void in {sym}, held trump {'♣♦♥♠'[g]} and the opponents were winning")

    @fold("play")
    def _do_play(self, event: Event, verdict: Verdict) -> None:
        seat = event.seat
        assert seat is not None
        i = event.cards[0].index
        bit = 1 << i
        self.hands[seat] ^= bit
        if not verdict.legal:
            self.fouls.append(BazarFoul(seat, verdict.rule, verdict.message, False,
                                        BY_INDEX[i].code, self.trick_no + 1))
        if event.arg:
            k = seat * 4 + SUIT_OF[i]
            self.bela_said[k] += 1
            if self.bela_said[k] == 2:
                self.belas[seat & 1] += 1
        trick = self.trick
        if not trick:
            self.led = SUIT_OF[i]
            self.win_card = i
            self.win_seat = seat
        else:
            w = self.win_card
            g = self.game
            if SUIT_OF[i] == SUIT_OF[w]:
                if HIGHER[g][w] & bit:
                    self.win_card = i
                    self.win_seat = seat
            elif g < BK and SUIT_OF[i] == g:
                self.win_card = i
                self.win_seat = seat
        trick.append(i)
        self.trick_seats.append(seat)
        if len(trick) < (3 if self.out >= 0 else 4):
            nxt = (seat + 1) % 4
            self.turn = (nxt + 1) % 4 if nxt == self.out else nxt
            return
        pair = self.win_seat & 1
        values = VALUE[self.game]
        self.points[pair] += sum(values[c] for c in trick)
        for c in trick:
            self.taken[pair] |= 1 << c
        self.tricks[pair] += 1
        self.trick_no += 1
        self.turn = self.win_seat
        self.trick = []
        self.trick_seats = []
        self.led = -1
        if self.trick_no == 1:
            self.constr_winner = -1 if self.cancel_all else winner(self.constructions)
        if self.trick_no == 8:
            self.last_pair = pair
            if self.policy == "on_claim":
                self._enter(CONFIRM)
            else:
                self._finish_deal()

    # ------------------------------------------------------------------ declarations
    @judge("declare")
    def _judge_declare(self, event: Event) -> Verdict:
        seat = self._seat(event)
        if not event.cards:
            raise BadEventError(f"{event}: name the cards of the construction", "bad-event")
        if self.phase is not PLAY or self.trick_no:
            raise ActionNotAllowedError(
                f"{event}: constructions are announced during the first trick only", "declare-when")
        if seat != self.turn:
            raise OutOfTurnError(
                f"{event}: a construction is announced by the player about to play his first card "
                f"(seat {self.turn})")
        mask = 0
        for c in event.cards:
            if mask & c.bit:
                raise BadEventError(f"{event}: {c.code} is named twice", "bad-event")
            mask |= c.bit
        missing = mask & ~self.hands[seat]
        if missing:
            codes = " ".join(c.code for c in cards_in(missing))
            raise CardNotInHandError(f"{event}: seat {seat} does not hold {codes}")
        found = classify(mask, self.game)
        if isinstance(found, str):
            raise ActionNotAllowedError(f"{event}: not a construction: {found}", "not-a-construction")
        if found[0].startswith("рамки"):
            if self.ramki_used[seat] & mask:
                raise ActionNotAllowedError(f"{event}: these Рамки are already announced",
                                            "declared-twice")
        elif self.seq_used[seat] & mask:
            raise ActionNotAllowedError(
                f"{event}: a card may be in one sequence only (it may also be in Рамки)",
                "declared-twice")
        return legal_verdict(event)

    @fold("declare")
    def _do_declare(self, event: Event, verdict: Verdict) -> None:
        seat = self._seat(event)
        mask = 0
        for c in event.cards:
            mask |= c.bit
        found = classify(mask, self.game)
        assert not isinstance(found, str)  # the judge has classified it
        kind, value, key = found
        if kind.startswith("рамки"):
            self.ramki_used[seat] |= mask
        else:
            self.seq_used[seat] |= mask
        self.constructions.append(Construction(seat, kind, value, key, mask))
        if kind == "рамки7":
            self._void_deal(Line(f"seat {seat} announced Рамки 7: the deal ends with no result",
                                 "bazar-ramki7", seat=seat))
        elif kind == "рамки8":
            self.cancel_all = True

    # ------------------------------------------------------------------ claims and confirm
    @judge("claim")
    def _judge_claim(self, event: Event) -> Verdict:
        seat = self._seat(event)
        self._no_words(event)
        if self.policy != "on_claim":
            raise ActionNotAllowedError(
                f"{event}: claims exist only under policy on_claim (this table: {self.policy})",
                "claim")
        if self.phase is not PLAY and self.phase is not CONFIRM:
            raise ActionNotAllowedError(f"{event}: nothing to claim now ({self._phase_text()})",
                                        "claim")
        if self._claimable(seat) < 0:
            raise ActionNotAllowedError(
                f"{event}: the opponents of seat {seat} made no unclaimed illegal play this deal",
                "claim")
        return legal_verdict(event)

    @fold("claim")
    def _do_claim(self, event: Event, verdict: Verdict) -> None:
        k = self._claimable(self._seat(event))
        self.fouls[k] = self.fouls[k]._replace(claimed=True)

    # ------------------------------------------------------------------ judging and folding
    def _judge(self, event: Event) -> Verdict:
        # The seat every event but a shoe card needs is checked here once, and the hot kinds
        # (a shoe card, a play) are judged without the dispatch.
        kind = event.kind
        if kind == SHOE:
            cs = event.cards
            if self.expects_shoe and event.seat is None and len(cs) == 1:
                bit = cs[0].bit
                if bit & DECK_MASK and not bit & self.seen:
                    return legal_verdict(event)
            return self._judge_shoe(event)
        seat = event.seat
        if seat is None or not 0 <= seat < 4:
            raise BadEventError(f"{event}: {kind} needs a seat 0–3", "bad-seat")
        if kind == "play" and len(event.cards) == 1:
            return self._play_verdict(event, seat)
        if kind == "bid":
            return self._judge_bid(event)
        return super()._judge(event)  # an unknown kind raises there, naming the known ones

    @staticmethod
    def _seat(event: Event) -> int:
        """The seat of an event that ``_judge`` has let through (0–3)."""
        seat = event.seat
        assert seat is not None
        return seat

    @staticmethod
    def _no_words(event: Event) -> None:
        if event.cards or event.arg:
            raise BadEventError(f"{event}: {event.kind} takes no cards or words", "bad-event")

    @judge(SHOE)
    def _judge_shoe(self, event: Event) -> Verdict:
        if event.seat is not None:
            raise BadEventError(f"{event}: a card out of the shoe belongs to no seat yet; write "
                                f"'shoe {event.arg or 'CARD'}'" if not event.cards else
                                f"{event}: write 'shoe {event.cards[0].code}' without a seat",
                                "bad-event")
        if self.phase is not DEAL:
            raise ActionNotAllowedError(
                f"{event}: no card is due from the shoe ({self._phase_text()})", "shoe-not-expected")
        if len(event.cards) != 1:
            event.card  # noqa: B018 - raises the precise error
        c = event.cards[0]
        if not c.bit & DECK_MASK:
            raise DuplicateCardError(f"{c.code} is not in the 32-card deck of this game",
                                     "card-not-in-deck")
        if c.bit & self.seen:
            raise DuplicateCardError(
                f"{c.code} already came out of the shoe in this deal (two decks mixed, or a "
                "misread)")
        return legal_verdict(event)

    def _shoe_due(self) -> ShoeDue | None:
        if self.phase is not DEAL:
            return None
        order, k = self.deal_order, self.dealt
        return ShoeDue((self.dealer + order[k]) % 4, run_length(order, k), dealer=self.dealer)

    @fold(SHOE)
    def _do_shoe(self, event: Event, verdict: Verdict) -> None:
        i = event.cards[0].index
        self.seen |= 1 << i
        self.hands[(self.dealer + self.deal_order[self.dealt]) % 4] |= 1 << i
        self.dealt += 1
        if self.dealt == 32:
            self._enter(AUCTION)

    @judge("dealer")
    def _judge_dealer(self, event: Event) -> Verdict:
        self._no_words(event)
        if self.phase is not LOT:
            raise ActionNotAllowedError(
                f"{event}: the first dealer is chosen once, before the first card"
                + (" (option first_dealer is set)" if self.settings.first_dealer is not None
                   else ""), "dealer")
        return legal_verdict(event)

    @fold("dealer")
    def _do_dealer(self, event: Event, verdict: Verdict) -> None:
        seat = self._seat(event)
        self.dealer = seat
        self.turn = (seat + 1) % 4
        self._enter(DEAL)

    @judge("confirm")
    def _judge_confirm(self, event: Event) -> Verdict:
        self._no_words(event)
        if self.phase is not CONFIRM:
            raise ActionNotAllowedError(f"{event}: no deal score waits for confirmation",
                                        "confirm")
        return legal_verdict(event)

    @fold("confirm")
    def _do_confirm(self, event: Event, verdict: Verdict) -> None:
        self._finish_deal()

    # ------------------------------------------------------------------ deal ends
    def _keep_fouls(self, void: bool) -> None:
        """Name the deal's illegal plays for the sheet (docs/rules.md §6); retracted ones never
        stand.

        A void deal (Рамки 7) has no result, so an illegal play in it was let go.
        """
        if not self.fouls or self.policy == "retract":
            return
        out = []
        for f in self.fouls:
            if void:
                outcome = LET_GO
            elif self.policy == "penalize":
                outcome = PENALISED
            else:
                outcome = CLAIMED if f.claimed else LET_GO
            out.append((f.seat, f.card, f.trick, f.rule, f.message, outcome))
        self.deal_fouls.append(DealFouls(self.deal_no, tuple(out)))

    def _void_deal(self, note: str, same_dealer: bool = False) -> None:
        self._keep_fouls(True)
        self.deals.append(BazarDeal(self.deal_no, (0, 0), (), (note,), None))
        if not same_dealer:
            self.dealer = (self.dealer + 1) % 4
        self._enter(DEAL)
        self._start_deal()

    def played_deal(self) -> PlayedDeal:
        """The played-out deal as its score reads it."""
        bid = self.contract
        assert bid is not None
        return PlayedDeal(bid, self.bidder, self.contra, self.cancel_all, self.constr_winner,
                          tuple(self.constructions), (self.belas[0], self.belas[1]),
                          (self.points[0], self.points[1]), self.last_pair,
                          (self.tricks[0], self.tricks[1]), tuple(self.fouls))

    def _finish_deal(self) -> None:
        points, items, notes = score_deal(self.played_deal(), self.settings)
        self._keep_fouls(False)
        last = self.last_pair
        visty = (self.points[0] + (10 if last == 0 else 0), self.points[1] + (10 if last == 1 else 0))
        self.deals.append(BazarDeal(self.deal_no, points, items, notes,
                                    DealRaw(self.game, self.out >= 0, visty)))
        self.totals = [self.totals[0] + points[0], self.totals[1] + points[1]]
        self.last_contract_pair = self.bidder & 1
        target = self.settings.target
        t0, t1 = self.totals
        if t0 >= target or t1 >= target:
            self.winner = 0 if t0 > t1 else 1 if t1 > t0 else self.last_contract_pair
            self._enter(OVER)
            return
        self.dealer = (self.dealer + 1) % 4
        self._enter(DEAL)
        self._start_deal()

    # ------------------------------------------------------------------ reports
    def _phase_text(self) -> str:
        return {LOT: "the first dealer is not chosen yet", DEAL: "cards are being dealt",
                AUCTION: "the auction is on", CONTRA: "the auction is on (Контра)",
                PLAY: "cards are being played", CONFIRM: "the deal's score awaits confirmation",
                OVER: "the partie is over"}[self.phase]

    def contract_text(self) -> str:
        bid = self.contract
        if bid is None:
            return ""
        extra = " Реконтра" if self.contra == 2 else " Контра" if self.contra else ""
        return f"{bid.pretty()}{extra} (seat {self.bidder})"

    def view_trump(self, d: dict[str, Any]) -> str | None:
        # describe() names the contract's game «♦», «БК», «ВК»; displays read a suit letter,
        # "none" for no trump (БК), "all" for every suit trump (ВК)
        if self.game < 0:
            return None
        return "CDHS"[self.game] if self.game < BK else "none" if self.game == BK else "all"

    def view_declarations(self, d: dict[str, Any]) -> list[DeclarationView]:
        from engine.view import DeclarationView

        kinds = {"рамки7": "Рамки 7", "рамки8": "Рамки 8", "рамки": "Рамки"}
        out = [DeclarationView(seat=c.seat, kind="construction", name=kinds.get(c.kind, c.kind),
                               cards=[BY_INDEX[i].code for i in range(36) if c.mask >> i & 1],
                               value=c.value) for c in self.constructions]
        out += [DeclarationView(side=pair, kind="bella") for pair in (0, 1)
                for _ in range(self.belas[pair])]
        return out

    def view_trick(self, d: dict[str, Any]) -> list[TrickCard]:
        from engine.view import TrickCard

        return [TrickCard(seat=s, card=c) for s, c in d.get("table") or []]

    def describe(self) -> dict[str, Any]:
        d = super().describe()
        trump = None
        if self.game >= 0:
            trump = GAME_NAMES[self.game] if self.game < BK else None
        d.update(
            phase=self.phase,
            deal=self.deal_no,
            dealer=self.dealer,
            auction=[f"{s}: {a}" for s, a in self.auction],
            bid=self.contract.code if self.contract else None,
            bidder=self.bidder,
            contra=self.contra,
            contract=self.contract_text() if self.phase in (PLAY, CONFIRM) else None,
            game_type=GAME_NAMES[self.game] if self.game >= 0 else None,
            trump=trump,
            out_of_play=self.out if self.out >= 0 else None,
            hand_sizes=[h.bit_count() for h in self.hands],
            table=[(s, BY_INDEX[c].code) for s, c in zip(self.trick_seats, self.trick, strict=True)],
            tricks=list(self.tricks),
            constructions=[(c[0], label(c)) for c in self.constructions],
            constructions_winner=self.constr_winner if self.trick_no else None,
            cancelled_by_ramki8=self.cancel_all,
            bella=[pair for pair in (0, 1) for _ in range(self.belas[pair])],  # sides, as Belot
            totals=list(self.totals),
            winner=self.winner if self.phase is OVER else None,
        )
        return d

    def score_sheet(self) -> ScoreSheet:
        fouls_of = dict(self.deal_fouls)
        deals = [DealScore(d.number, list(d.points), [ScoreItem(*it) for it in d.items],
                           list(d.notes), [IllegalPlay(*f) for f in fouls_of.get(d.number, ())])
                 for d in self.deals]
        over = self.phase is OVER
        result = ""
        if over:
            t = self.totals
            how = "higher total" if t[0] != t[1] else "equal totals: the pair of the last contract"
            result = Line(f"pair {SEAT_NAMES[self.winner]} wins {t[self.winner]}–"
                          f"{t[1 - self.winner]} ({how})",
                          "bazar-won" if t[0] != t[1] else "bazar-won-equal", side=self.winner,
                          won=t[self.winner], lost=t[1 - self.winner])
        return ScoreSheet(
            game=self.name,
            sides=[f"pair {n}" for n in SEAT_NAMES],
            options=self.settings.as_dict(),
            deals=deals,
            totals=list(self.totals),
            finished=over,
            winner=self.winner if over else None,
            result=result,
        )

    def problems(self) -> list[str]:
        out = []
        table = 0
        for c in self.trick:
            table |= 1 << c
        union = 0
        for m in [*self.hands, *self.taken, table]:
            if union & m:
                out.append("a card is in two places")
            union |= m
        if self.phase is not OVER and union != self.seen:
            out.append(f"cards not conserved: {union:x} held/taken/on the table, {self.seen:x} dealt")
        if self.seen & ~DECK_MASK:
            out.append("a card outside the 32-card deck")
        if self.phase in (PLAY, CONFIRM):
            if self.seen != DECK_MASK:
                out.append("play started before the deal was complete")
            done = self.trick_no
            for s in range(4):
                if s == self.out:
                    if self.hands[s].bit_count() != 8:
                        out.append(f"seat {s} is out of play but lost cards")
                    continue
                expect = 8 - done - (1 if s in self.trick_seats else 0)
                if self.hands[s].bit_count() != expect:
                    out.append(f"seat {s} holds {self.hands[s].bit_count()} cards, expected {expect}")
            if sum(self.tricks) != done:
                out.append("tricks won do not add up")
        if self.phase is DEAL and self.dealt != self.seen.bit_count():
            out.append("dealt count and shoe mask disagree")
        sums = [sum(d[1][0] for d in self.deals), sum(d[1][1] for d in self.deals)]
        if sums != self.totals:
            out.append(f"totals {self.totals} are not the sum of the deals {sums}")
        return out

