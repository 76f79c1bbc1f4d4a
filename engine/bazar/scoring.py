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
from engine.scoresheet import Line, line_of

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
        notes.append(Line("Рамки 8: every construction is cancelled (Бэла still counts)",
                          "bazar-ramki8"))
    elif g.constr_winner >= 0:
        w = g.constr_winner
        constr[w] = sum(c.value for c in g.constructions if c.seat & 1 == w)
        lost = [c for c in g.constructions if c.seat & 1 != w]
        if lost:
            notes.append(Line(f"pair {PAIR[1 - w]}'s constructions lose to pair {PAIR[w]}'s best "
                              "one", "bazar-constructions-lost", side=1 - w, winner_side=w))
    for p in (0, 1):
        bela = 20 * g.belas[p]
        real[p] = g.points[p] + (LAST_TRICK if g.last_pair == p else 0) + constr[p] + bela
        if g.tricks[p] == 8:
            cards = s.capot_points_vk if vk else s.capot_points
            parts = _parts(g, p, constr[p], capot=cards)
        else:
            cards = g.points[p] + (LAST_TRICK if g.last_pair == p else 0)
            parts = _parts(g, p, constr[p])
        visty[p] = cards + constr[p] + bela
        notes.append(Line(f"висты of pair {PAIR[p]}: {' + '.join(parts)} = {visty[p]}"
                          f" ({g.tricks[p]} tricks)", "bazar-visty", side=p,
                          parts=[line_of(x) for x in parts], total=visty[p], tricks=g.tricks[p]))

    hand = bid.kind == HAND
    if bid.kind == NORMAL:
        n = bid.n
        made = visty[cp] >= 10 * n
        need = Line(f"needs {10 * n} висты", "need-visty", visty=10 * n)
    else:
        n = (s.kapo_n_vk if vk else s.kapo_n) + bid.plus
        need = Line("needs every trick", "need-every-trick")
        made = g.tricks[cp] == 8
        if bid.plus:
            target = DECK_VISTY[game] + 10 * bid.plus
            need = Line(f"needs every trick and {target} висты of real card points, "
                        "constructions and Бэла", "need-every-trick-visty", visty=target)
            made = made and real[cp] >= target
            parts = _parts(g, cp, constr[cp])  # the real card points, even for a capot
            cmp = "≥" if real[cp] >= target else "<"
            notes.append(Line(f"Капо + {bid.plus} test (docs/rules.md §6): pair {PAIR[cp]}'s real "
                              f"висты {real[cp]} ({' + '.join(parts)}) {cmp} {DECK_VISTY[game]} + "
                              f"10 × {bid.plus} = {target}", "bazar-kapo-plus-test", plus=bid.plus,
                              side=cp, real=real[cp], parts=[line_of(x) for x in parts], cmp=cmp,
                              deck=DECK_VISTY[game], target=target))
    m = multiplier(game, g.contra, hand)
    name = f"{bid.pretty()}{CONTRA_WORD[g.contra]}"

    counted = _counted_fouls(g.fouls, s.policy)
    foul = counted[0] if counted else None
    both = len({f[0] & 1 for f in counted}) == 2
    for seat, rule, message in counted:
        o = seat & 1
        what = ("the contract is made and the defenders score 0" if o == dp else
                "the contract is failed")
        notes.append(Line(f"illegal play by seat {seat} ({rule}: {message}): pair {PAIR[o]} loses "
                          f"the deal (docs/rules.md §6): {what}",
                          "bazar-foul-defenders" if o == dp else "bazar-foul-contract",
                          seat=seat, rule=rule, side=o))
    if foul is not None:
        made = not both and foul[0] & 1 == dp
        need = Line(f"illegal play by seat {foul[0]}", "need-foul", seat=foul[0])

    items: list[Item] = []
    points = [0, 0]
    mult = f"M {m} × N {n}"
    if made:
        points[cp] = m * n + tenths(visty[cp])
        points[dp] = tenths(visty[dp])
        items.append((cp, Line(f"contract {name} made ({need}): {mult}", "contract-made",
                               contract=name, need=line_of(need), m=m, n=n), m * n,
                      "contract-made"))
        items.append((cp, Line(f"висты {visty[cp]} / 10", "visty", visty=visty[cp]),
                      tenths(visty[cp]), "visty"))
        if foul is None:
            items.append((dp, Line(f"висты {visty[dp]} / 10", "visty", visty=visty[dp]),
                          tenths(visty[dp]), "visty"))
        else:
            points[dp] = 0
            items.append((dp, Line(f"illegal play by seat {foul[0]}: the defenders score 0 for the "
                                   f"deal (висты {visty[dp]} not counted)", "bazar-foul-zero",
                                   seat=foul[0], visty=visty[dp]), 0, "foul"))
    else:
        all_tricks = g.tricks[dp] == 8
        if vk:
            bonus = s.failed_capot_bonus_vk if all_tricks else s.failed_bonus_vk
        else:
            bonus = s.failed_capot_bonus if all_tricks else s.failed_bonus
        items.append((cp, Line(f"contract {name} failed ({need})", "contract-failed",
                               contract=name, need=line_of(need)), 0, "contract-failed"))
        if both:  # the defenders played illegally too: they score 0 for the deal
            items.append((dp, Line("illegal plays by both pairs: the defenders score 0 for the "
                                   "deal", "bazar-foul-both"), 0, "foul"))
            return (points[0], points[1]), tuple(items), tuple(notes)
        points[dp] = m * n + bonus + tenths(constr[dp])
        items.append((dp, Line(f"contract {name} failed: {mult}", "contract-failed-defenders",
                               contract=name, m=m, n=n), m * n, "contract-failed"))
        items.append((dp, Line("every trick to the defenders", "failed-capot-bonus") if all_tricks
                      else Line("failed contract bonus", "failed-bonus"),
                      bonus, "failed-capot-bonus" if all_tricks else "failed-bonus"))
        if constr[dp]:
            items.append((dp, Line(f"constructions {constr[dp]} / 10", "constructions",
                                   points=constr[dp]), tenths(constr[dp]), "constructions"))
    return (points[0], points[1]), tuple(items), tuple(notes)


def _parts(g: PlayedDeal, p: int, constr: int, capot: int | None = None) -> list[Line]:
    """What pair ``p``'s висты are made of, as sheet parts: its card points (and the last trick,
    if it took it) or the ``capot`` points instead, its constructions, its Бэла."""
    if capot is not None:
        parts = [Line(f"capot {capot}", "part-capot", points=capot)]
    elif g.last_pair == p:
        parts = [Line(f"cards {g.points[p]} + last trick 10", "part-cards-last",
                      points=g.points[p])]
    else:
        parts = [Line(f"cards {g.points[p]}", "part-cards", points=g.points[p])]
    if constr:
        parts.append(Line(f"constructions {constr}", "part-constructions", points=constr))
    if g.belas[p]:
        parts.append(Line(f"Бэла {20 * g.belas[p]}", "part-bela", points=20 * g.belas[p]))
    return parts


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
