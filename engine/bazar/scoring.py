"""The score of one Bazar-Belot deal (RULES.md §4 «Scoring»), as items a person can check.

висты of a pair = card points of its tricks + last trick 10 (a pair that took every trick counts
252, ВК 348, instead) + its constructions if its best one won the comparison (none after Рамки 8)
+ 20 per Бэла. Points = висты / 10, each pair rounded on its own, half down.

A caught illegal play (policy ``penalize``: the first of the deal; ``on_claim``: the first claimed)
loses the deal for the offending pair, like Belot's «байд с картами»: its висты and constructions
go to the other pair and the contract counts as failed (offender in the contracting pair) or made
(offender among the defenders).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from engine.bazar.tables import BK, DECK_VISTY, HAND, LAST_TRICK, NORMAL, VK

if TYPE_CHECKING:
    from engine.bazar.game import BazarBelot

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


def score_deal(g: BazarBelot) -> tuple[tuple[int, int], tuple[Any, ...], tuple[str, ...]]:
    s = g.settings
    bid = g.contract
    assert bid is not None
    game = g.game
    vk = game == VK
    cp = g.bidder & 1
    dp = 1 - cp
    notes: list[str] = []

    visty = [0, 0]
    constr = [0, 0]
    if g.cancel_all:
        notes.append("Рамки 8: every construction is cancelled (Бэла still counts)")
    elif g.constr_winner >= 0:
        w = g.constr_winner
        constr[w] = sum(c[2] for c in g.constructions if c[0] & 1 == w)
        lost = [c for c in g.constructions if c[0] & 1 != w]
        if lost:
            notes.append(f"pair {PAIR[1 - w]}'s constructions lose to pair {PAIR[w]}'s best one")
    for p in (0, 1):
        parts = []
        if g.tricks[p] == 8:
            cards = s.capot_points_vk if vk else s.capot_points  # type: ignore[attr-defined]
            parts.append(f"capot {cards}")
        else:
            cards = g.points[p] + (LAST_TRICK if g.last_pair == p else 0)
            parts.append(f"cards {g.points[p]}" + (" + last trick 10" if g.last_pair == p else ""))
        bela = 20 * g.belas[p]
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
        n = (s.kapo_n_vk if vk else s.kapo_n) + bid.plus  # type: ignore[attr-defined]
        need = "needs every trick"
        made = g.tricks[cp] == 8
        if bid.plus:
            target = DECK_VISTY[game] + 10 * bid.plus
            need += f" and {target} висты"
            made = made and visty[cp] >= target
    m = multiplier(game, g.contra, hand)
    name = f"{bid.pretty()}{CONTRA_WORD[g.contra]}"

    foul = _counted_foul(g)
    if foul is not None:
        seat, rule, message = foul
        o = seat & 1
        notes.append(f"illegal play by seat {seat} ({rule}: {message}): pair {PAIR[o]} loses the "
                     f"deal; its висты {visty[o]} go to pair {PAIR[1 - o]}")
        visty[1 - o] += visty[o]
        constr[1 - o] += constr[o]
        visty[o] = constr[o] = 0
        made = o == dp

    items: list[tuple[int, str, int, str]] = []
    points = [0, 0]
    mult = f"M {m} × N {n}"
    if made:
        points[cp] = m * n + tenths(visty[cp])
        points[dp] = tenths(visty[dp])
        items.append((cp, f"contract {name} made ({need}): {mult}", m * n, "contract-made"))
        items.append((cp, f"висты {visty[cp]} / 10", tenths(visty[cp]), "visty"))
        items.append((dp, f"висты {visty[dp]} / 10", tenths(visty[dp]), "visty"))
    else:
        all_tricks = g.tricks[dp] == 8
        if vk:
            bonus = s.failed_capot_bonus_vk if all_tricks else s.failed_bonus_vk  # type: ignore[attr-defined]
        else:
            bonus = s.failed_capot_bonus if all_tricks else s.failed_bonus  # type: ignore[attr-defined]
        points[dp] = m * n + bonus + tenths(constr[dp])
        items.append((cp, f"contract {name} failed ({need})", 0, "contract-failed"))
        items.append((dp, f"contract {name} failed: {mult}", m * n, "contract-failed"))
        items.append((dp, "every trick to the defenders" if all_tricks else "failed contract bonus",
                      bonus, "failed-capot-bonus" if all_tricks else "failed-bonus"))
        if constr[dp]:
            items.append((dp, f"constructions {constr[dp]} / 10", tenths(constr[dp]),
                          "constructions"))
    return (points[0], points[1]), tuple(items), tuple(notes)


def _counted_foul(g: BazarBelot) -> tuple[int, str, str] | None:
    if g.policy == "penalize":
        for seat, rule, message, _claimed in g.fouls:
            return seat, rule, message
    elif g.policy == "on_claim":
        for seat, rule, message, claimed in g.fouls:
            if claimed:
                return seat, rule, message
    return None
