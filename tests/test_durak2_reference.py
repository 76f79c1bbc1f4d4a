"""A second, plain reading of RULES.md §2 plays alongside the engine on random partie.

``Reference`` below is written from the rules text alone (strings and sets, no bit masks, nothing
imported from engine/durak2.py). At every step of a random legal playout it must list exactly the
actions the engine lists, and after every event both must agree on the hands, the attacker, the
bout cap, the talon and the points. The readings where RULES.md is silent are the ones
docs/games/durak2.md states (dealer rotation, lowest trump again after a drawn game, transfer).
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.durak2 import Durak2

RANKS = "6789TJQKA"


def rank(code: str) -> int:
    return RANKS.index(code[0])


class Reference:
    def __init__(self, game_type: str, transfer: bool) -> None:
        self.super_short = game_type == "super_short"
        self.target = {"long3": 3, "long5": 5, "long7": 7}.get(game_type, 0)
        self.transfer = transfer
        self.points = [0, 0]
        self.dealer = 1  # the first game is dealt by seat 1
        self.by_lowest_trump = True
        self.prev_winner = -1
        self.over = False
        self.new_deal()

    def new_deal(self) -> None:
        self.phase = "deal"
        self.hands: list[set[str]] = [set(), set()]
        self.dealt = 0
        self.trump = ""
        self.turned = ""
        self.turned_in_talon = False
        self.shoe_left = 36
        self.table: list[list[str]] = []  # [attacking card, covering card or ""]
        self.taking = False
        self.queue: list[int] = []
        self.att = self.dfn = -1
        self.cap = 0

    def talon(self) -> int:
        return 0 if self.super_short else self.shoe_left + self.turned_in_talon

    def beats(self, d: str, a: str) -> bool:
        # A higher card of the suit, or a trump on a plain card (a trump only by a higher trump).
        return rank(d) > rank(a) if d[1] == a[1] else d[1] == self.trump

    def legal(self) -> set[str]:
        if self.phase != "play":
            return set()
        a, d = self.att, self.dfn
        ranks = {rank(c) for pair in self.table for c in pair if c}
        out: set[str] = set()
        if not self.table:
            out |= {f"{a} play {c}" for c in self.hands[a]}
        else:
            if len(self.table) < self.cap:
                out |= {f"{a} play {c}" for c in self.hands[a] if rank(c) in ranks}
            if self.taking or all(cover for _, cover in self.table):
                out.add(f"{a} done")
        unbeaten = [att for att, cover in self.table if not cover]
        if unbeaten and not self.taking:
            out.add(f"{d} take")
            for y in unbeaten:
                out |= {f"{d} beat {x} {y}" for x in self.hands[d] if self.beats(x, y)}
            if (self.transfer and len(unbeaten) == len(self.table) and len(ranks) == 1
                    and len(self.table) + 1 <= min(6, len(self.hands[a]))):
                out |= {f"{d} transfer {c}" for c in self.hands[d] if rank(c) in ranks}
        return out

    def shoe(self, code: str) -> None:
        self.shoe_left -= 1
        if self.phase == "draw":
            self.hands[self.queue[0]].add(code)
            self.draw()
            return
        i = self.dealt
        self.dealt += 1
        if i < 12:  # 3 + 3 each, the non-dealer first
            self.hands[(1 - self.dealer) if (i // 3) % 2 == 0 else self.dealer].add(code)
            return
        self.turned, self.trump = code, code[1]
        self.turned_in_talon = not self.super_short
        first = self.prev_winner
        if self.by_lowest_trump:
            lows = sorted((rank(c), s) for s in (0, 1) for c in self.hands[s] if c[1] == self.trump)
            if not lows:
                self.new_deal()  # neither holds a trump: redeal
                return
            first = lows[0][1]
        self.att, self.dfn = first, 1 - first
        self.start_bout()

    def act(self, text: str) -> None:
        seat_text, kind, *cs = text.split()
        seat = int(seat_text)
        if kind in ("play", "transfer"):
            self.hands[seat].remove(cs[0])
            self.table.append([cs[0], ""])
            if kind == "transfer":
                self.att, self.dfn = seat, 1 - seat
                self.cap = min(6, len(self.hands[self.dfn]))
        elif kind == "beat":
            self.hands[seat].remove(cs[0])
            next(p for p in self.table if p[0] == cs[1])[1] = cs[0]
        elif kind == "take":
            self.taking = True
        elif kind == "done":
            a, d = self.att, self.dfn
            on_table = {c for pair in self.table for c in pair if c}
            if self.taking:
                self.hands[d] |= on_table  # the same attacker attacks again
            else:
                self.att, self.dfn = d, a  # бито: the defender attacks next
            self.table = []
            self.queue = [] if self.super_short else [a, d]  # the attacker draws first
            self.draw()

    def draw(self) -> None:
        while self.queue:
            s = self.queue[0]
            if len(self.hands[s]) >= 6:
                self.queue.pop(0)
            elif self.shoe_left and not self.super_short:
                self.phase = "draw"
                return
            elif self.turned_in_talon:  # the turned card is drawn last
                self.hands[s].add(self.turned)
                self.turned_in_talon = False
            else:
                self.queue = []
        h0, h1 = self.hands
        if self.talon() == 0 and (not h0 or not h1):
            self.end_game(-1 if not h0 and not h1 else (0 if not h0 else 1))
        else:
            self.start_bout()

    def start_bout(self) -> None:
        self.phase = "play"
        self.table = []
        self.taking = False
        self.cap = min(6, len(self.hands[self.dfn]))

    def end_game(self, winner: int) -> None:
        if winner >= 0:
            self.points[winner] += 1
        if not self.target or max(self.points) >= self.target:
            self.over = True
            self.phase = "over"
            return
        self.dealer = 1 - self.dealer if winner < 0 else 1 - winner
        self.by_lowest_trump = winner < 0
        self.prev_winner = winner
        self.new_deal()


def play_both(seed: int, game_type: str, transfer: bool) -> None:
    rng = random.Random(seed)
    game = Durak2(game_type=game_type, transfer=transfer)
    ref = Reference(game_type, transfer)
    while not game.is_over:
        actions = game.legal_actions()
        if not game.expects_shoe:
            assert {str(e) for e in actions} == ref.legal(), (ref.table, ref.cap)
        event = actions[rng.randrange(len(actions))]
        game.apply(event)
        text = str(event)
        if event.kind == "shoe":
            ref.shoe(text.split()[1])
        else:
            ref.act(text)
        assert [{c.code for c in game.hand(s)} for s in (0, 1)] == ref.hands, text
        assert game.is_over == ref.over and game.expects_shoe == (ref.phase in ("deal", "draw"))
        d = game.describe()
        if ref.phase == "play":
            assert (d["attacker"], d["cap"], d["talon"]) == (ref.att, ref.cap, ref.talon()), text
    assert game.score_sheet().totals == ref.points


@given(seed=st.integers(0, 2**32 - 1),
       game_type=st.sampled_from(["short", "super_short", "long3", "long5"]),
       transfer=st.booleans())
@settings(max_examples=60, deadline=None)
def test_engine_agrees_with_a_plain_reading_of_the_rules(seed: int, game_type: str,
                                                         transfer: bool) -> None:
    play_both(seed, game_type, transfer)
