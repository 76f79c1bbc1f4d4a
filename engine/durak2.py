"""Two-player Durak (подкидной дурак), docs/rules.md §2; docs/games/durak2.md is the user's
page.

Event vocabulary (seats 0 and 1)::

    shoe XX          a card out of the shoe: the deal (3+3 each, non-dealer first, then the
                     turned trump card), then every card drawn from the talon
    A play XX        the attacker leads a card or throws one in (also after «беру»)
    D beat XX YY     the defender covers the attacking card YY with XX
    D take           «беру»: the defender will take the table (the attacker may still throw in)
    A done           the attacker ends the bout: «бито» if all is beaten, or "take them" after «беру»
    D transfer XX    «перевод» (option transfer): a card of the attack's rank, roles swap
    A foul           policy on_claim: the attacker claims the defender's illegal defence of
                     this bout (before «бито»); the defender then takes the table

Illegal plays (docs/rules.md §6): an illegal attack, throw-in or transfer can never stand and must
be taken back (``undo``) whatever the policy. An illegal defence stands until the bout ends; under
``penalize`` (and under ``on_claim`` if claimed before the bout ends) the defender then takes
every card on the table instead of «бито». There is no point penalty. The default policy is
``retract``: every illegal play is taken back.

The talon stays in the shoe and comes out card by card as players draw. The turned trump card
lies face up under the talon; it is already known, so when it is the card due it goes to the
drawing player automatically, with no ``shoe`` event.

Speed: hands and the table are int bit masks, every action event is interned at import time with
its legal Verdict, and the lists of legal events for a hand are looked up per suit (9-bit slices).
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from pydantic import Field

from engine.cards import BY_INDEX, SUIT_MASK, SUIT_NAMES, SUITS, Card, Composition, cards_in
from engine.errors import (
    ActionNotAllowedError,
    BadEventError,
    CardNotInHandError,
    OutOfTurnError,
    UnknownCardError,
)
from engine.events import SHOE, CardEvents, Event
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
from engine.settings import Policy, Settings
from engine.verdict import SHARED_VERDICTS, Verdict, share_legal_verdict

if TYPE_CHECKING:
    from engine.view import TrickCard

GameType = Literal["short", "super_short", "long3", "long5", "long7"]
TARGETS = {"long3": 3, "long5": 5, "long7": 7}
HAND_SIZE = 6
MAX_BOUT = 6


class Durak2Settings(Settings):
    policy: Policy = Field(
        "retract",
        description=(
            "what follows an illegal defence (docs/rules.md §6): retract (it is taken back), "
            "penalize (the defender takes the table when the bout ends), on_claim (the same, only "
            "if the attacker claims before the bout ends). An illegal attack or throw-in is always "
            "taken back"
        ),
    )
    game_type: GameType = Field(
        "short",
        description=(
            "short: one game to the end of the talon; super_short: one deal of 6 each, the talon is "
            "never used, the first to empty their hand wins; long3/long5/long7: games until a "
            "player has 3/5/7 points (one per game won)"
        ),
    )
    transfer: bool = Field(
        False,
        description=(
            "«переводной» durak: before beating anything the defender may add a card of the "
            "attack's rank and the roles swap (not in the seed text; off by default)"
        ),
    )


# ---------------------------------------------------------------------------- precomputed tables
DECK = 0
for _c in BY_INDEX[:36]:
    DECK |= _c.bit
CARDS: tuple[Card, ...] = BY_INDEX[:36]
RANK_BIT = tuple(1 << (i % 9) for i in range(36))  # a card's rank as a bit of a 9-bit rank set
RANK_CARDS = tuple(sum(1 << (s * 9 + r) for s in range(4)) for r in range(9))
RANKSET_CARDS = tuple(
    sum(RANK_CARDS[r] for r in range(9) if rs >> r & 1) for rs in range(512)
)
SUIT_MASKS = tuple(SUIT_MASK[s] for s in SUITS)


def _beaters(trump: int, a: int) -> int:
    suit, rank = divmod(a, 9)
    higher = sum(1 << (suit * 9 + r) for r in range(rank + 1, 9))
    return higher if suit == trump else higher | SUIT_MASKS[trump]


BEATERS = tuple(tuple(_beaters(t, a) for a in range(36)) for t in range(4))

SEATS = (0, 1)
BEAT_EV = tuple(
    tuple(tuple(Event("beat", s, (d, a)) for a in CARDS) for d in CARDS) for s in SEATS
)
TAKE_EV = tuple(Event("take", s) for s in SEATS)
DONE_EV = tuple(Event("done", s) for s in SEATS)
FOUL_EV = tuple(Event("foul", s) for s in SEATS)


# Every listed event is interned with its shared legal verdict (engine.verdict): judging a legal
# play allocates nothing. The card events (CardEvents below) are card_event's, which shares theirs.
def _share(events: Any) -> None:
    if isinstance(events, Event):
        share_legal_verdict(events)
    else:
        for e in events:
            _share(e)


_share((BEAT_EV, TAKE_EV, DONE_EV, FOUL_EV))

PLAY_CARDS = tuple(CardEvents("play", s) for s in SEATS)
TRANSFER_CARDS = tuple(CardEvents("transfer", s) for s in SEATS)


def _low_index(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


def _pretty(i: int) -> str:
    return CARDS[i].pretty()


def _code(i: int) -> str:
    return CARDS[i].code


RANK_WORDS = ("six", "seven", "eight", "nine", "ten", "jack", "queen", "king", "ace")

# deal: cards 1-3 to the non-dealer, 4-6 to the dealer, 7-9 non-dealer, 10-12 dealer, 13 turned
DEAL_TO_DEALER = (0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1)
DEAL_CARDS = 12

class DurakPhase(StrEnum):
    DEAL = "deal"  # cards out of the shoe to the hands and the turned trump
    PLAY = "play"  # a bout is on
    DRAW = "draw"  # the shoe owes cards to the players after a bout
    OVER = "over"  # the partie is over


DEAL, PLAY, DRAW, OVER = DurakPhase.DEAL, DurakPhase.PLAY, DurakPhase.DRAW, DurakPhase.OVER


class OpenFoul(NamedTuple):
    """An illegal defence standing in the bout on the table."""

    seat: int
    card: str
    bout: int
    rule: str
    message: str


class Foul(NamedTuple):
    """An illegal defence whose bout has ended, with what came of it (engine.scoresheet)."""

    seat: int
    card: str
    bout: int
    rule: str
    message: str
    outcome: str


class GameRecord(NamedTuple):
    """One finished game of the partie: a line of the score sheet."""

    number: int
    dealer: int
    first_attacker: int
    first_trump: int  # card index of the lowest trump that chose the first attacker, or -1
    trump_card: int
    redeals: int
    winner: int  # -1: a draw
    fouls: tuple[Foul, ...]
    gained: tuple[int, int]


class Durak2(Game):
    name = "durak2"
    title = "Durak for two (подкидной дурак)"
    num_seats = 2
    settings_model = Durak2Settings
    Phase = DurakPhase
    # docs/rules.md §6: an illegal attack, throw-in (or transfer, which lays an attacking card) is
    # never a play that can stand
    always_retracted = frozenset({"throw-in-rank", "bout-cap", "transfer", "transfer-cap"})

    # ------------------------------------------------------------------ state
    def _new_state(self) -> None:
        s: Any = self.settings
        self.game_type: str = s.game_type
        self.super_short: bool = s.game_type == "super_short"
        self.target: int = TARGETS.get(s.game_type, 0)
        self.transfer_on: bool = s.transfer
        self.points = [0, 0]
        self.games: list[GameRecord] = []
        self.game_no = 1
        self.dealer = 1  # seat 0 gets the first cards of the first game
        self.by_lowest_trump = True  # first game (and after a draw): lowest trump attacks first
        self.prev_winner = -1
        self.redeals = 0
        self.fouls: list[Foul] = []  # illegal defences of this game whose bout has ended
        self.winner = -1  # result of the game that just ended (-1 draw)
        self._start_deal()

    def _start_deal(self) -> None:
        self._enter(DEAL)
        self.hands = [0, 0]
        self.seen = 0
        self.shoe_left = 36
        self.dealt = 0
        self.trump = -1
        self.trump_card = -1
        self.trump_in_talon = False
        self.discard = 0
        self.attacker = -1
        self.defender = -1
        self.first_attacker = -1
        self.first_trump = -1
        self.draw_queue: list[int] = []
        self.bout = 0  # bouts of this game so far (the "trick" of a score sheet's illegal play)
        self._clear_table()
        self.cap = 0

    def _clear_table(self) -> None:
        self.attack: list[int] = []  # attacking cards in the order played
        self.cover: list[int] = []  # the card covering each (-1: not beaten)
        self.unbeaten = 0
        self.table = 0
        self.ranks = 0  # 9-bit set of ranks on the table
        self.taking = False
        self.bout_fouls = 0  # illegal plays on the table in this bout (retracted ones included)
        self.open_fouls: list[OpenFoul] = []  # illegal defences standing in this bout
        self.claimed = False  # on_claim: the attacker has claimed them

    @property
    def deck(self) -> Composition:
        return "36"

    # expects_shoe and is_over are plain attributes kept in step with the phase by _enter: the
    # playout loop reads both after every event, and property calls there add up.
    expects_shoe: bool = True
    is_over: bool = False

    def _enter(self, phase: DurakPhase) -> None:
        self.phase = phase
        self.expects_shoe = phase in (DEAL, DRAW)
        self.is_over = phase == OVER

    def to_act(self) -> int | None:
        phase = self.phase
        if phase == PLAY:
            return self.defender if self.unbeaten and not self.taking else self.attacker
        return None

    def _unseen_mask(self) -> int:
        return DECK & ~self.seen

    @property
    def talon_size(self) -> int:
        """Cards still to be drawn (the shoe plus the turned card under it)."""
        if self.super_short and self.trump_card >= 0:
            return 0
        return self.shoe_left + self.trump_in_talon

    # ------------------------------------------------------------------ legal actions
    def _legal(self, seat: int | None) -> list[Event]:
        # The base class has answered for a finished game, a pending retraction and the shoe.
        phase = self.phase
        if phase != PLAY:
            return []
        out: list[Event] = []
        a = self.attacker
        d = self.defender
        unbeaten = self.unbeaten
        taking = self.taking
        if seat is None or seat == a:
            n = len(self.attack)
            m = self.hands[a]
            if n:
                m = m & RANKSET_CARDS[self.ranks] if n < self.cap else 0
            if m:
                sl = PLAY_CARDS[a].suits
                out = [*sl[0][m & 511], *sl[1][m >> 9 & 511], *sl[2][m >> 18 & 511],
                       *sl[3][m >> 27 & 511]]
            if n and (taking or not unbeaten):
                out.append(DONE_EV[a])
        if unbeaten and not taking and (seat is None or seat == d):
            hand = self.hands[d]
            beats = BEAT_EV[d]
            beaters = BEATERS[self.trump]
            m = unbeaten
            while m:
                low = m & -m
                ai = low.bit_length() - 1
                m ^= low
                h = beaters[ai] & hand
                while h:
                    dl = h & -h
                    out.append(beats[dl.bit_length() - 1][ai])
                    h ^= dl
            out.append(TAKE_EV[d])
            if self.transfer_on and self._transfer_room():
                out += TRANSFER_CARDS[d].of(hand & RANKSET_CARDS[self.ranks])
        if self.open_fouls and self._claimable(a) and (seat is None or seat == a):
            out.append(FOUL_EV[a])
        return out

    def _transfer_room(self) -> bool:
        """A transfer is possible by rank now: nothing beaten, one rank, the new defender can face it."""
        ranks = self.ranks
        return (len(self.attack) == self.unbeaten.bit_count()
                and ranks & (ranks - 1) == 0
                and len(self.attack) + 1 <= min(MAX_BOUT, self.hands[self.attacker].bit_count()))

    def _claimable(self, victim: int) -> bool:
        """on_claim: ``victim`` may claim an illegal defence standing in this bout."""
        return (self.policy == "on_claim" and not self.claimed
                and any(f[0] != victim for f in self.open_fouls))

    # ------------------------------------------------------------------ judging
    def _judge(self, event: Event) -> Verdict:
        # Fast path: an interned event (as legal_actions hands out) whose legality is plain from
        # the state gets its cached Verdict. Anything else goes to the careful judge below.
        v = SHARED_VERDICTS.get(id(event))
        if v is not None and v.event is event:
            kind = event.kind
            seat = event.seat
            phase = self.phase
            if kind == SHOE:
                if self.expects_shoe and not event.cards[0].bit & self.seen:
                    return v
            elif phase == PLAY:
                if kind == "play":
                    if seat == self.attacker:
                        c = event.cards[0]
                        if c.bit & self.hands[seat]:
                            n = len(self.attack)
                            if not n or (n < self.cap and RANK_BIT[c.index] & self.ranks):
                                return v
                elif kind == "beat":
                    if seat == self.defender and not self.taking:
                        d, a = event.cards
                        if (d.bit & self.hands[seat] and a.bit & self.unbeaten
                                and d.bit & BEATERS[self.trump][a.index]):
                            return v
                elif kind == "done":
                    if seat == self.attacker and self.attack and (self.taking or not self.unbeaten):
                        return v
                elif kind == "take" and seat == self.defender and not self.taking and self.unbeaten:
                    return v
        return super()._judge(event)

    @staticmethod
    def _ok(event: Event) -> Verdict:
        v = SHARED_VERDICTS.get(id(event))
        if v is not None and v.event is event:
            return v
        return Verdict(event)

    def _seat_of(self, event: Event, ncards: int) -> int:
        seat = event.seat
        if seat is None or seat > 1 or seat < 0:
            raise BadEventError(f"«{event}» needs the seat that acts: 0 or 1 (e.g. '0 {event.kind}')")
        cs = event.cards
        if len(cs) != ncards or event.arg:
            if event.arg and len(cs) < ncards:
                raise UnknownCardError(
                    f"unknown card code {event.arg.split()[0]!r} in «{event}»: expected rank "
                    "6 7 8 9 T J Q K A plus suit C D H S")
            want = {0: "no card", 1: "one card", 2: "two cards"}[ncards]
            raise BadEventError(f"«{event}»: {event.kind} takes {want}", "bad-event")
        for c in cs:
            if not c.bit & DECK:
                raise UnknownCardError(f"{c.code} is not a card of the 36-card Durak deck")
        if self.phase != PLAY:
            raise ActionNotAllowedError(self._phase_message(event), "not-allowed-now")
        return seat

    def _phase_message(self, event: Event) -> str:
        if self.phase == OVER:
            return f"«{event}»: the partie is over"
        if self.phase == DEAL:
            return f"«{event}»: the cards are still being dealt ({self.dealt} of 13 out of the shoe)"
        return f"«{event}»: the players are drawing from the talon; the shoe must deliver first"

    def _need_play_phase(self, event: Event) -> None:
        if self.phase != PLAY:  # pragma: no cover - _seat_of has refused every other phase
            raise ActionNotAllowedError(self._phase_message(event), "not-allowed-now")

    def _in_hand(self, seat: int, c: Card) -> None:
        if not c.bit & self.hands[seat]:
            raise CardNotInHandError(f"seat {seat} does not hold {c.code}: it is {self._where(c)}")

    def _where(self, c: Card) -> str:
        bit = c.bit
        for s in SEATS:
            if self.hands[s] & bit:
                return f"in seat {s}'s hand"
        if self.table & bit:
            return "on the table"
        if self.discard & bit:
            return "in the discard (бито)"
        if c.index == self.trump_card:
            return "the turned trump card under the talon"
        return "not out of the shoe yet"

    @judge("shoe")
    def _judge_shoe(self, event: Event) -> Verdict:
        if event.seat is not None or event.arg or len(event.cards) != 1:
            if event.arg and not event.cards:
                raise UnknownCardError(
                    f"unknown card code {event.arg.split()[0]!r} from the shoe: expected rank "
                    "6 7 8 9 T J Q K A plus suit C D H S")
            raise BadEventError(f"«{event}»: a shoe event is 'shoe CARD'")
        if self.phase != DEAL and self.phase != DRAW:
            who = "" if self.phase == OVER else " (no one is drawing)"
            raise ActionNotAllowedError(
                f"no card is due from the shoe now{who}: {event.card.code} is not expected",
                "shoe-not-expected")
        self._shoe_card(event, self.seen)
        return self._ok(event)

    @judge("play")
    def _judge_play(self, event: Event) -> Verdict:
        seat = self._seat_of(event, 1)
        self._need_play_phase(event)
        if seat != self.attacker:
            raise OutOfTurnError(
                f"seat {seat} is defending: only the attacker (seat {self.attacker}) plays cards in; "
                "the defender beats ('beat CARD TARGET'), takes or transfers")
        c = event.cards[0]
        self._in_hand(seat, c)
        n = len(self.attack)
        if not n:
            return self._ok(event)
        if not RANK_BIT[c.index] & self.ranks:
            on_table = ", ".join(RANK_WORDS[r] for r in range(9) if self.ranks >> r & 1)
            return Verdict(event, False, "throw-in-rank",
                           f"{c.pretty()} thrown in, but no {RANK_WORDS[c.index % 9]} is on the table "
                           f"(ranks on the table: {on_table})")
        if n >= self.cap:
            return Verdict(event, False, "bout-cap", self._cap_message(c))
        return self._ok(event)

    def _cap_message(self, c: Card) -> str:
        n = len(self.attack)
        if self.cap >= MAX_BOUT:
            return f"{c.pretty()} would be card {n + 1} of the bout: at most {MAX_BOUT} cards in a bout"
        return (f"{c.pretty()} would be card {n + 1} of the bout: seat {self.defender} held "
                f"{self.cap} card(s) when the bout began, so at most {self.cap}")

    @judge("beat")
    def _judge_beat(self, event: Event) -> Verdict:
        seat = self._seat_of(event, 2)
        self._need_play_phase(event)
        if seat != self.defender:
            raise OutOfTurnError(f"seat {seat} is attacking: only the defender (seat {self.defender}) beats")
        d, a = event.cards
        self._in_hand(seat, d)
        if self.taking:
            raise ActionNotAllowedError(
                f"seat {seat} said «беру»: the cards on the table are taken, not beaten", "taking")
        if not a.bit & self.unbeaten:
            what = "already beaten" if a.bit & self.table else "not on the table"
            raise ActionNotAllowedError(
                f"{a.code} is {what}: 'beat {d.code} TARGET' names an unbeaten attacking card", "no-target")
        if d.bit & BEATERS[self.trump][a.index]:
            return self._ok(event)
        trump = SUITS[self.trump]
        if a.suit == trump:
            msg = f"{d.pretty()} does not beat {a.pretty()}: a trump is beaten only by a higher trump"
        elif d.suit == a.suit:
            msg = f"{d.pretty()} is lower than {a.pretty()}: a higher card of the suit or a trump is needed"
        else:
            msg = (f"{d.pretty()} does not beat {a.pretty()}: neither a higher "
                   f"{SUIT_NAMES[a.suit][:-1]} nor a trump")
        return Verdict(event, False, "beat", msg)

    @judge("take")
    def _judge_take(self, event: Event) -> Verdict:
        seat = self._seat_of(event, 0)
        self._need_play_phase(event)
        if seat != self.defender:
            raise OutOfTurnError(f"seat {seat} is attacking: only the defender (seat {self.defender}) takes")
        if self.taking:
            raise ActionNotAllowedError(f"seat {seat} has already said «беру»", "taking")
        if not self.unbeaten:
            raise ActionNotAllowedError(
                "nothing to take: " + ("no card has been played yet" if not self.attack
                                       else "every card is beaten; the attacker says «бито» or throws in"),
                "nothing-to-take")
        return self._ok(event)

    @judge("done")
    def _judge_done(self, event: Event) -> Verdict:
        seat = self._seat_of(event, 0)
        self._need_play_phase(event)
        if seat != self.attacker:
            raise OutOfTurnError(
                f"seat {seat} is defending: the attacker (seat {self.attacker}) ends the bout")
        if not self.attack:
            raise ActionNotAllowedError("the bout has not begun: lead a card first", "no-bout")
        if self.unbeaten and not self.taking:
            raise ActionNotAllowedError(
                f"not everything is beaten yet: seat {self.defender} beats or takes first", "not-beaten")
        return self._ok(event)

    @judge("transfer")
    def _judge_transfer(self, event: Event) -> Verdict:
        seat = self._seat_of(event, 1)
        if not self.transfer_on:
            raise ActionNotAllowedError(
                "transfer («переводной») is off in this game (option transfer=false)", "transfer-off")
        self._need_play_phase(event)
        if seat != self.defender:
            raise OutOfTurnError(f"seat {seat} is attacking: only the defender (seat {self.defender}) transfers")
        c = event.cards[0]
        self._in_hand(seat, c)
        if self.taking:
            raise ActionNotAllowedError(f"seat {seat} has already said «беру»", "taking")
        if not self.attack:
            raise ActionNotAllowedError("nothing to transfer: no card has been played", "no-bout")
        if len(self.attack) != self.unbeaten.bit_count():
            return Verdict(event, False, "transfer", "a transfer is only possible before any card is beaten")
        if self.ranks != RANK_BIT[c.index]:
            return Verdict(event, False, "transfer",
                           f"{c.pretty()} has a different rank: a transfer adds a card of the attack's rank")
        room = min(MAX_BOUT, self.hands[self.attacker].bit_count())
        if len(self.attack) + 1 > room:
            return Verdict(event, False, "transfer-cap",
                           f"seat {self.attacker} would face {len(self.attack) + 1} cards but can face at most {room}")
        return self._ok(event)

    @judge("foul")
    def _judge_foul(self, event: Event) -> Verdict:
        seat = self._seat_of(event, 0)
        if self.policy != "on_claim":
            raise ActionNotAllowedError(
                f"claims are for policy on_claim; this table plays policy {self.policy}", "no-claims")
        if self.claimed and seat == self.attacker:
            raise ActionNotAllowedError(
                f"seat {seat} has already claimed this bout's illegal defence", "nothing-to-claim")
        if not self._claimable(seat):
            raise ActionNotAllowedError(
                f"seat {seat} has nothing to claim: no illegal defence by seat {1 - seat} stands in "
                f"this bout (a claim is made before «бито»; after it the play stands)",
                "nothing-to-claim")
        return self._ok(event)

    # ------------------------------------------------------------------ folding
    def _shoe_due(self) -> ShoeDue | None:
        if self.phase == DRAW:
            seat = self.draw_queue[0]
            need = HAND_SIZE - self.hands[seat].bit_count()
            return ShoeDue(seat, max(1, min(need, self.shoe_left)), dealer=self.dealer, draw=True)
        if self.phase != DEAL:
            return None
        n = self.dealt
        if n >= DEAL_CARDS:
            return ShoeDue(None, 1, "trump", self.dealer)
        return ShoeDue((1 - self.dealer) ^ DEAL_TO_DEALER[n], run_length(DEAL_TO_DEALER, n),
                       dealer=self.dealer)

    @fold("shoe")
    def _do_shoe(self, event: Event, verdict: Verdict) -> None:
        bit = event.cards[0].bit
        self.seen |= bit
        self.shoe_left -= 1
        if self.phase == DRAW:
            hands = self.hands
            seat = self.draw_queue[0]
            hands[seat] |= bit
            if self.shoe_left and hands[seat].bit_count() < HAND_SIZE:
                return  # the same player goes on drawing
            self._advance_draw()
            return
        n = self.dealt
        self.dealt = n + 1
        if n < DEAL_CARDS:
            self.hands[(1 - self.dealer) ^ DEAL_TO_DEALER[n]] |= bit
            return
        i = event.cards[0].index
        self.trump_card = i
        self.trump = i // 9
        self.trump_in_talon = not self.super_short
        self._after_deal()

    def _after_deal(self) -> None:
        if self.by_lowest_trump:
            tm = SUIT_MASKS[self.trump]
            t0 = self.hands[0] & tm
            t1 = self.hands[1] & tm
            if not t0 and not t1:
                self.redeals += 1
                self._start_deal()
                return
            low0 = t0 & -t0
            low1 = t1 & -t1
            first = 0 if t0 and (not t1 or low0 < low1) else 1
            self.first_trump = _low_index(low0 if first == 0 else low1)
        else:
            first = self.prev_winner
        self.first_attacker = first
        self.attacker = first
        self.defender = 1 - first
        self._enter(PLAY)
        self._start_bout()

    def _start_bout(self) -> None:
        self._clear_table()
        self.bout += 1
        self.cap = min(MAX_BOUT, self.hands[self.defender].bit_count())

    def _foul(self, seat: int, verdict: Verdict) -> None:
        self.bout_fouls += 1
        if verdict.rule not in self.always_retracted:  # the others are taken back at once
            self.open_fouls.append(OpenFoul(seat, verdict.event.cards[0].code, self.bout,
                                            verdict.rule, verdict.message))

    @fold("play")
    def _do_play(self, event: Event, verdict: Verdict) -> None:
        c = event.cards[0]
        bit = c.bit
        self.hands[event.seat] ^= bit  # type: ignore[index]
        self.attack.append(c.index)
        self.cover.append(-1)
        self.unbeaten |= bit
        self.table |= bit
        self.ranks |= RANK_BIT[c.index]
        if not verdict.legal:
            self._foul(event.seat, verdict)  # type: ignore[arg-type]

    @fold("beat")
    def _do_beat(self, event: Event, verdict: Verdict) -> None:
        d, a = event.cards
        self.hands[event.seat] ^= d.bit  # type: ignore[index]
        self.cover[self.attack.index(a.index)] = d.index
        self.unbeaten ^= a.bit
        self.table |= d.bit
        self.ranks |= RANK_BIT[d.index]
        if not verdict.legal:
            self._foul(event.seat, verdict)  # type: ignore[arg-type]

    @fold("take")
    def _do_take(self, event: Event, verdict: Verdict) -> None:
        self.taking = True

    @fold("transfer")
    def _do_transfer(self, event: Event, verdict: Verdict) -> None:
        c = event.cards[0]
        seat: int = event.seat  # type: ignore[assignment]
        self.hands[seat] ^= c.bit
        self.attack.append(c.index)
        self.cover.append(-1)
        self.unbeaten |= c.bit
        self.table |= c.bit
        self.ranks |= RANK_BIT[c.index]
        self.attacker, self.defender = seat, 1 - seat
        self.cap = min(MAX_BOUT, self.hands[self.defender].bit_count())
        if not verdict.legal:
            self._foul(seat, verdict)

    @fold("done")
    def _do_done(self, event: Event, verdict: Verdict) -> None:
        a, d = self.attacker, self.defender
        if self.open_fouls:  # the bout ends: its illegal defences are settled (docs/rules.md §6)
            punished = self.policy == "penalize" or self.claimed
            outcome = (CLAIMED if self.claimed else PENALISED) if punished else LET_GO
            self.fouls.extend(Foul(*f, outcome) for f in self.open_fouls)
            if punished:
                self.taking = True  # the defender takes the table instead of «бито»
        if self.taking:
            self.hands[d] |= self.table  # the same attacker attacks again
        else:
            self.discard |= self.table  # бито: the defender attacks next
            self.attacker, self.defender = d, a
        self._clear_table()
        if self.super_short:
            self._after_draw()
            return
        self.draw_queue = [a, d]  # the attacker of the bout draws first
        self._advance_draw()

    def _advance_draw(self) -> None:
        queue = self.draw_queue
        hands = self.hands
        while queue:
            seat = queue[0]
            if hands[seat].bit_count() >= HAND_SIZE:
                queue.pop(0)
            elif self.shoe_left:
                self._enter(DRAW)
                return
            elif self.trump_in_talon:
                # The turned card is known: it goes to the drawing player with no shoe event.
                hands[seat] |= 1 << self.trump_card
                self.trump_in_talon = False
            else:
                queue.clear()
        self._after_draw()

    def _after_draw(self) -> None:
        self._enter(PLAY)
        hands = self.hands
        talon_empty = self.super_short or (not self.shoe_left and not self.trump_in_talon)
        if talon_empty and (not hands[0] or not hands[1]):
            self._end_game()
        else:
            self._start_bout()

    def _end_game(self) -> None:
        h0, h1 = self.hands
        self.winner = -1 if not h0 and not h1 else (0 if not h0 else 1)
        self._close_game()

    @fold("foul")
    def _do_foul(self, event: Event, verdict: Verdict) -> None:
        self.claimed = True

    def _close_game(self) -> None:
        winner = self.winner
        gained = [0, 0]  # no point penalty for illegal plays (docs/rules.md §6)
        if winner >= 0:
            gained[winner] += 1
        counted = tuple(self.fouls)
        self.points[0] += gained[0]
        self.points[1] += gained[1]
        self.games.append(GameRecord(self.game_no, self.dealer, self.first_attacker,
                                     self.first_trump, self.trump_card, self.redeals, winner,
                                     counted, (gained[0], gained[1])))
        if not self.target or max(self.points) >= self.target:
            self._enter(OVER)
            return
        self.game_no += 1
        self.redeals = 0
        self.fouls = []
        self.prev_winner = winner
        if winner < 0:
            self.dealer = 1 - self.dealer
            self.by_lowest_trump = True
        else:
            self.dealer = 1 - winner  # the durak deals
            self.by_lowest_trump = False
        self._start_deal()

    # ------------------------------------------------------------------ reports
    def score_sheet(self) -> ScoreSheet:
        sheet = ScoreSheet(game=self.name, sides=["seat 0", "seat 1"], options=self.settings.as_dict())
        for number, dealer, first, first_trump, trump_card, redeals, winner, fouls, gained in self.games:
            items: list[ScoreItem] = []
            notes: list[str] = [Line(f"dealer seat {dealer}; trump {_pretty(trump_card)}",
                                     "durak-dealer", seat=dealer, card=_code(trump_card))]
            if redeals:
                notes.append(Line(f"redealt {redeals}× : neither player held a trump",
                                  "durak-redealt", times=redeals))
            if first_trump >= 0:
                notes.append(Line(f"first attack: seat {first}, lowest trump "
                                  f"{_pretty(first_trump)}", "durak-first-lowest-trump",
                                  seat=first, card=_code(first_trump)))
            else:
                notes.append(Line(f"first attack: seat {first}, winner of the previous game",
                                  "durak-first-winner", seat=first))
            if winner >= 0:
                items.append(ScoreItem(winner, Line("out of cards first: wins the game",
                                                    "durak-win"), 1, "durak-win"))
                notes.append(Line(f"seat {1 - winner} is the durak", "durak-loser",
                                  seat=1 - winner))
            else:
                notes.append(Line("both players out of cards: a draw, no point [durak-draw]",
                                  "durak-draw"))
            illegal = [IllegalPlay(*f) for f in fouls]
            for f in illegal:
                if f.outcome != LET_GO:
                    notes.append(Line(f"bout {f.trick}: seat {f.seat}'s illegal defence "
                                      f"({f.outcome}): seat {f.seat} took the table instead of "
                                      "«бито» [illegal-defence]", "durak-illegal-defence",
                                      seat=f.seat, bout=f.trick, outcome=f.outcome))
            sheet.deals.append(DealScore(number, list(gained), items, notes, illegal))
        sheet.totals = list(self.points)
        sheet.finished = self.phase == OVER
        p0, p1 = self.points
        if sheet.finished:
            if p0 == p1:
                sheet.result = Line(f"draw {p0}–{p1}", "match-draw", points=p0)
            else:
                sheet.winner = 0 if p0 > p1 else 1
                sheet.result = Line(f"seat {sheet.winner} wins {max(p0, p1)}–{min(p0, p1)}; "
                                    f"seat {1 - sheet.winner} is the durak", "durak-match-won",
                                    seat=sheet.winner, won=max(p0, p1), lost=min(p0, p1),
                                    loser_seat=1 - sheet.winner)
        else:
            sheet.result = Line(f"game {self.game_no} in progress, {p0}–{p1}",
                                "durak-in-progress", game=self.game_no, score=f"{p0}–{p1}")
        return sheet

    def view_trick(self, d: dict[str, Any]) -> list[TrickCard]:
        from engine.view import TrickCard

        att = d.get("attacker")
        return [TrickCard(seat=att if att is not None else 0, card=a, covered_by=c)
                for a, c in d.get("table") or []]

    def describe(self) -> dict[str, Any]:
        out = super().describe()
        out.update({
            "phase": self.phase,
            "game_type": self.game_type,
            "deal": self.game_no,  # a Durak partie is counted in games: its game is the deal
            "dealer": self.dealer,
            "trump": SUITS[self.trump] if self.trump >= 0 else None,
            "trump_card": CARDS[self.trump_card].code if self.trump_card >= 0 else None,
            "talon": self.talon_size,
            "trump_card_in_talon": self.trump_in_talon,
            "attacker": self.attacker,
            "defender": self.defender,
            "table": [[CARDS[a].code, CARDS[d].code if d >= 0 else None]
                      for a, d in zip(self.attack, self.cover, strict=True)],
            "taking": self.taking,
            "cap": self.cap,
            "hand_sizes": [h.bit_count() for h in self.hands],
            "discard": self.discard.bit_count(),
            "totals": list(self.points),
            "redeals": self.redeals,
            "bout": self.bout,
            "fouls": [f._asdict() for f in self.fouls]
            + [{**f._asdict(), "outcome": CLAIMED if self.claimed else "pending"}
               for f in self.open_fouls],
        })
        return out

    def problems(self) -> list[str]:
        out: list[str] = []
        parts = [("seat 0", self.hands[0]), ("seat 1", self.hands[1]), ("table", self.table),
                 ("discard", self.discard), ("shoe", DECK & ~self.seen)]
        if self.trump_in_talon or (self.super_short and self.trump_card >= 0):
            parts.append(("turned card", 1 << self.trump_card))
        total = 0
        union = 0
        for name, m in parts:
            if m & union:
                out.append(f"{name} shares cards with another place: {[c.code for c in cards_in(m & union)]}")
            union |= m
            total += m.bit_count()
        if total != 36 or union != DECK:
            out.append(f"cards not conserved: {total} cards in their places, {(DECK & ~union).bit_count()} "
                       "missing")
        if self.phase == PLAY:
            if self.table != mask_of_indices(self.attack) | mask_of_indices(c for c in self.cover if c >= 0):
                out.append("table mask out of step with the table")
            if not self.bout_fouls:
                if len(self.attack) > self.cap:
                    out.append(f"bout cap exceeded: {len(self.attack)} attacking cards, cap {self.cap}")
                if self.cap > MAX_BOUT:
                    out.append(f"cap {self.cap} above {MAX_BOUT}")
                if not self.taking and self.unbeaten.bit_count() > self.hands[self.defender].bit_count():
                    out.append("the defender faces more unbeaten cards than they hold")
        return out


def mask_of_indices(indices: Any) -> int:
    m = 0
    for i in indices:
        m |= 1 << i
    return m
