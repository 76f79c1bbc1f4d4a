"""The score of one Bazar-Belot deal (docs/rules.md §4 «Scoring»), as items a person can check.

висты of a pair = card points of its tricks + last trick 10 (a pair that took every trick counts
252, ВК 348, instead) + its constructions if its best one won the comparison (none after Рамки 8)
+ 20 per Бэла. Points = висты / 10, each pair rounded on its own, half down.

«Капо <game> + K» (docs/rules.md §6): the висты tested against «10 × K more than the whole deck»
are the pair's real card points (162, ВК 258, when it took every trick) + constructions + Бэла, so
the bid is made only with at least 10 × K of constructions and Бэла; 252 / 348 is used only in the
score after the test.

A caught illegal play (policy ``penalize``: the first of the deal; ``on_claim``: the first claimed)
loses the deal for the offending pair (docs/rules.md §6): offender in the contracting pair, the
contract is failed; offender among the defenders, the contract is made and the defenders score 0.
Nobody's висты change hands. Both pairs caught: the contract is failed and the defenders, offenders
too, score 0 as well.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from engine.bazar.constructions import Construction
from engine.bazar.options import BazarSettings
from engine.bazar.tables import BK, DECK_VISTY, HAND, LAST_TRICK, NORMAL, VK, Bid

if TYPE_CHECKING:
    from engine.bazar.game import BazarFoul

PAIR = ("0 & 2", "1 & 3")
# Multiplier M by [contra level][БК?]: suit / ВК ×1, БК ×2; Контра ×2 / ×3; Реконтра ×4 / ×5.
MULTIPLIER = ((1, 2), (2, 3), (4, 5))
CONTRA_WORD = ("", " Контра", " Реконтра")


def tenths(visty: int) -> int:
    """висты / 10 rounded half down: 165 → 16, 166 → 17."""
    return (visty + 4) // 10


def multiplier(game: int, contra: int, hand: bool) -> int:
    m = MULTIPLIER[contra][1 if game == BK else 0]
    return m * 2 if hand else m


class PlayedDeal(NamedTuple):
    """A played-out deal as its score reads it (built by ``BazarBelot.played_deal``)."""

    bid: Bid                 # the contract
    bidder: int
    contra: int              # 0, 1 Контра, 2 Реконтра
    cancel_all: bool         # Рамки 8 cancelled every construction
    constr_winner: int       # the pair whose best construction won, or -1
    constructions: tuple[Construction, ...]
    belas: tuple[int, int]   # Бэла said per pair
    points: tuple[int, int]  # card points per pair, without the last trick
    last_pair: int           # the pair that took the last trick
    tricks: tuple[int, int]
    fouls: tuple[BazarFoul, ...]

    @property
    def game(self) -> int:
        return self.bid.game


Item = tuple[int, str, int, str]


def score_deal(g: PlayedDeal, s: BazarSettings,
               ) -> tuple[tuple[int, int], tuple[Item, ...], tuple[str, ...]]:
    bid = g.bid
    game = g.game
    vk = game == VK
    cp = g.bidder & 1
    dp = 1 - cp
    notes: list[str] = []

    visty = [0, 0]
    real = [0, 0]  # висты with the real card points, for the «Капо + K» test
    constr = [0, 0]
    if g.cancel_all:
        notes.append("Рамки 8: every construction is cancelled (Бэла still counts)")
    elif g.constr_winner >= 0:
        w = g.constr_winner
        constr[w] = sum(c.value for c in g.constructions if c.seat & 1 == w)
        lost = [c for c in g.constructions if c.seat & 1 != w]
        if lost:
            notes.append(f"pair {PAIR[1 - w]}'s constructions lose to pair {PAIR[w]}'s best one")
    for p in (0, 1):
        parts = []
        bela = 20 * g.belas[p]
        real[p] = g.points[p] + (LAST_TRICK if g.last_pair == p else 0) + constr[p] + bela
        if g.tricks[p] == 8:
            cards = s.capot_points_vk if vk else s.capot_points
            parts.append(f"capot {cards}")
        else:
            cards = g.points[p] + (LAST_TRICK if g.last_pair == p else 0)
            parts.append(f"cards {g.points[p]}" + (" + last trick 10" if g.last_pair == p else ""))
        if constr[p]:
            parts.append(f"constructions {constr[p]}")
        if bela:
            parts.append(f"Бэла {bela}")
        visty[p] = cards + constr[p] + bela
        notes.append(f"висты of pair {PAIR[p]}: {' + '.join(parts)} = {visty[p]}"
                     f" ({g.tricks[p]} tricks)")

    hand = bid.kind == HAND
    if bid.kind == NORMAL:
        n = bid.n
        made = visty[cp] >= 10 * n
        need = f"needs {10 * n} висты"
    else:
        n = (s.kapo_n_vk if vk else s.kapo_n) + bid.plus
        need = "needs every trick"
        made = g.tricks[cp] == 8
        if bid.plus:
            target = DECK_VISTY[game] + 10 * bid.plus
            need += f" and {target} висты of real card points, constructions and Бэла"
            made = made and real[cp] >= target
            notes.append(f"Капо + {bid.plus} test (docs/rules.md §6): pair {PAIR[cp]}'s real "
                         f"висты {real[cp]} (cards {g.points[cp]}"
                         + (" + last trick 10" if g.last_pair == cp else "")
                         + (f" + constructions {constr[cp]}" if constr[cp] else "")
                         + (f" + Бэла {20 * g.belas[cp]}" if g.belas[cp] else "")
                         + f") {'≥' if real[cp] >= target else '<'} {DECK_VISTY[game]} + "
                         f"10 × {bid.plus} = {target}")
    m = multiplier(game, g.contra, hand)
    name = f"{bid.pretty()}{CONTRA_WORD[g.contra]}"

    counted = _counted_fouls(g.fouls, s.policy)
    foul = counted[0] if counted else None
    both = len({f[0] & 1 for f in counted}) == 2
    for seat, rule, message in counted:
        o = seat & 1
        what = ("the contract is made and the defenders score 0" if o == dp else
                "the contract is failed")
        notes.append(f"illegal play by seat {seat} ({rule}: {message}): pair {PAIR[o]} loses the "
                     f"deal (docs/rules.md §6): {what}")
    if foul is not None:
        made = not both and foul[0] & 1 == dp
        need = f"illegal play by seat {foul[0]}"

    items: list[Item] = []
    points = [0, 0]
    mult = f"M {m} × N {n}"
    if made:
        points[cp] = m * n + tenths(visty[cp])
        points[dp] = tenths(visty[dp])
        items.append((cp, f"contract {name} made ({need}): {mult}", m * n, "contract-made"))
        items.append((cp, f"висты {visty[cp]} / 10", tenths(visty[cp]), "visty"))
        if foul is None:
            items.append((dp, f"висты {visty[dp]} / 10", tenths(visty[dp]), "visty"))
        else:
            points[dp] = 0
            items.append((dp, f"illegal play by seat {foul[0]}: the defenders score 0 for the deal "
                              f"(висты {visty[dp]} not counted)", 0, "foul"))
    else:
        all_tricks = g.tricks[dp] == 8
        if vk:
            bonus = s.failed_capot_bonus_vk if all_tricks else s.failed_bonus_vk
        else:
            bonus = s.failed_capot_bonus if all_tricks else s.failed_bonus
        items.append((cp, f"contract {name} failed ({need})", 0, "contract-failed"))
        if both:  # the defenders played illegally too: they score 0 for the deal
            items.append((dp, "illegal plays by both pairs: the defenders score 0 for the deal",
                          0, "foul"))
            return (points[0], points[1]), tuple(items), tuple(notes)
        points[dp] = m * n + bonus + tenths(constr[dp])
        items.append((dp, f"contract {name} failed: {mult}", m * n, "contract-failed"))
        items.append((dp, "every trick to the defenders" if all_tricks else "failed contract bonus",
                      bonus, "failed-capot-bonus" if all_tricks else "failed-bonus"))
        if constr[dp]:
            items.append((dp, f"constructions {constr[dp]} / 10", tenths(constr[dp]),
                          "constructions"))
    return (points[0], points[1]), tuple(items), tuple(notes)


def _counted_fouls(fouls: tuple[BazarFoul, ...], policy: str) -> list[tuple[int, str, str]]:
    """The first counted illegal play of each pair, in play order (penalize: every one stood;
    on_claim: the claimed ones; retract: none stands)."""
    if policy == "retract":
        return []
    out: list[tuple[int, str, str]] = []
    pairs = set()
    for f in fouls:
        if (f.claimed or policy == "penalize") and f.seat & 1 not in pairs:
            pairs.add(f.seat & 1)
            out.append((f.seat, f.rule, f.message))
    return out
