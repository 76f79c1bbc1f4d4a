"""Scoring one deal of two-player Belot: combinations compared, bella, last trick, неправильный
бой, байд and висячий байд (docs/rules.md §1). Pure functions of a :class:`DealFacts` value (the
game builds it; scoring reads nothing of the game itself), so a display can preview the score
before it is confirmed and a test can score a deal written down by hand."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from engine.belot2.tables import combination_name, combination_value, run_cards, run_text
from engine.cards import BY_INDEX
from engine.scoresheet import CLAIMED, LET_GO, PENALISED, Line

Item = tuple[int, str, int, str]  # side, what (a sheet Line), points, rule


class Declared(NamedTuple):
    """A combination declared in the deal."""

    seat: int
    mask: int  # its cards
    length: int
    top: int  # the rank offset of its top card in the sequence order
    suit: int


class Foul(NamedTuple):
    """An illegal play of the deal, as the game folded it."""

    seat: int
    card: int  # card index
    rule: str
    trick: int  # 1-9
    message: str


class IllegalPlayFields(NamedTuple):
    seat: int
    card: str
    trick: int
    rule: str
    message: str
    outcome: str


@dataclass(frozen=True, slots=True)
class DealFacts:
    """Everything scoring one deal reads, as plain values."""

    card_points: tuple[int, int]  # in the tricks each side took
    tricks_won: tuple[int, int]
    declared: tuple[Declared, ...]
    trump: int  # suit index
    bella: tuple[bool, bool]
    claimant: int  # «Партия!» by this seat, or -1
    last_trick: int  # the seat that took it, or -1
    fouls: tuple[Foul, ...]
    fouls_claimed: tuple[Foul, ...]
    policy: str
    declarer: int
    pot: int  # висячий байд from earlier deals
    totals: tuple[int, int]  # before this deal
    target: int
    short: bool
    seq_order: str


@dataclass
class DealResult:
    points: list[int]                       # what each side scores in this deal
    items: list[Item] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    pot: int = 0                            # hanging points after this deal
    winner: int | None = None               # who scored more (takes an old pot)
    claim_won: bool | None = None           # «Партия!»: did the claimant's claim stand
    short_stakes: int = 0                   # short partie: stakes the declarer wins (+) or pays (-)


def combination_winner(facts: DealFacts) -> int | None:
    """The seat whose best declared combination wins, or None when nobody declared.

    Longer wins; same length, higher top card; same top, trump wins; both plain, first declared.
    """
    best: list[tuple[int, int, int, int] | None] = [None, None]  # (length, top, trump, -order)
    for order, (seat, _mask, length, top, suit) in enumerate(facts.declared):
        key = (length, top, int(suit == facts.trump), -order)
        if best[seat] is None or key > best[seat]:  # type: ignore[operator]
            best[seat] = key
    if best[0] is None and best[1] is None:
        return None
    if best[1] is None:
        return 0
    if best[0] is None:
        return 1
    return 0 if best[0] > best[1] else 1


def caught_offenders(facts: DealFacts) -> list[int]:
    """Seats whose illegal play counts: every one under penalize, the claimed ones under on_claim."""
    if facts.policy == "on_claim":
        return sorted({f[0] for f in facts.fouls_claimed})
    return sorted({f[0] for f in facts.fouls})


def illegal_plays(facts: DealFacts) -> tuple[IllegalPlayFields, ...]:
    """Every illegal play of the deal with its outcome, as :class:`IllegalPlay` fields."""
    out = []
    for f in facts.fouls:
        seat, idx, rule, trick, message = f
        if facts.policy == "on_claim":
            outcome = CLAIMED if f in facts.fouls_claimed else LET_GO
        else:
            outcome = PENALISED
        out.append(IllegalPlayFields(seat, BY_INDEX[idx].code, trick, rule, message, outcome))
    return tuple(out)


def score_deal(facts: DealFacts) -> DealResult:
    """The deal's score as docs/rules.md §1 has it; arithmetic in the item texts."""
    items: list[Item] = []
    notes: list[str] = []
    card_pts = list(facts.card_points)
    for side in (0, 1):
        n = facts.tricks_won[side]
        items.append((side, Line(f"card points in {n} trick{'' if n == 1 else 's'}",
                                 "card-points", tricks=n), card_pts[side], "card-points"))
    combo = [0, 0]
    w = combination_winner(facts)
    if w is not None:
        for seat, mask, length, _top, _suit in facts.declared:
            value = combination_value(length)
            if seat == w:
                combo[w] += value
                items.append((w, Line(f"{combination_name(length)} "
                                      f"{run_text(mask, facts.seq_order)}", "combination",
                                      run=length, cards=run_cards(mask, facts.seq_order)),
                              value, "combinations"))
            else:
                notes.append(Line(f"seat {seat}'s {combination_name(length)} "
                                  f"{run_text(mask, facts.seq_order)} is beaten "
                                  f"by seat {w}'s best combination and scores nothing",
                                  "combination-beaten", seat=seat, run=length,
                                  cards=run_cards(mask, facts.seq_order), winner_seat=w))
    bella = [20 if facts.bella[s] else 0 for s in (0, 1)]
    for side in (0, 1):
        if bella[side]:
            items.append((side, Line("bella (trump K + Q)", "bella"), 20, "bella"))
    last = [0, 0]
    if facts.claimant < 0 and facts.last_trick >= 0:
        last[facts.last_trick] = 10
        items.append((facts.last_trick, Line("last trick", "last-trick"), 10, "last-trick"))
    pts = [card_pts[s] + combo[s] + bella[s] + last[s] for s in (0, 1)]

    # Неправильный бой (docs/rules.md §6): the opponent scores every point of the deal — both
    # sides' card points, the last trick, the combinations that scored, either side's bella — and
    # the offender 0. Should both seats be caught, each scores 0 (neither is an innocent opponent).
    offenders = caught_offenders(facts)
    if len(offenders) == 1:
        s = offenders[0]
        o = 1 - s
        parts = (f"card points {card_pts[s]}, combinations {combo[s]}, bella {bella[s]}, "
                 f"last trick {last[s]}")
        items.append((s, Line(f"неправильный бой: all {pts[s]} points of seat {s} ({parts}) go "
                              f"to seat {o}", "wrong-play-offender", points=pts[s],
                              card_points=card_pts[s], combinations=combo[s], bella=bella[s],
                              last_trick=last[s], other_seat=o), -pts[s], "wrong-play"))
        items.append((o, Line(f"неправильный бой of seat {s}: every point of the deal, "
                              f"{pts[o]} + {pts[s]} = {pts[o] + pts[s]}", "wrong-play-opponent",
                              offender_seat=s, own=pts[o], moved=pts[s], total=pts[o] + pts[s]),
                      pts[s], "wrong-play"))
        pts[o] += pts[s]
        pts[s] = 0
    elif offenders:
        for s in (0, 1):
            items.append((s, Line(f"неправильный бой by both seats: seat {s} scores 0 of its "
                                  f"{pts[s]}", "wrong-play-both", points=pts[s]),
                          -pts[s], "wrong-play"))
        pts = [0, 0]

    result = DealResult(points=pts, items=items, notes=notes, pot=facts.pot)
    decl, dfd = facts.declarer, 1 - facts.declarer
    if facts.claimant >= 0:
        c = facts.claimant
        failed = c in offenders
        total = facts.totals[c] + pts[c]
        result.claim_won = not failed and total >= facts.target
        why = ("a caught illegal play by the claimant makes the claim fail" if failed else
               f"{facts.totals[c]} + {pts[c]} = {total} {'≥' if total >= facts.target else '<'} "
               f"{facts.target}")
        notes.append(Line(f"«Партия!» by seat {c}: points so far, no last trick, no байд test; "
                          f"{why}: seat {c} {'wins' if result.claim_won else 'loses'} the partie",
                          ("claim-failed-foul" if failed else
                           "claim-won" if result.claim_won else "claim-lost"),
                          seat=c, before=facts.totals[c], deal=pts[c], total=total,
                          target=facts.target))
        if facts.pot:
            notes.append(Line(f"the hanging {facts.pot} points are dropped: the partie ends",
                              "pot-dropped", pot=facts.pot))
        result.pot = 0
        result.winner = c if result.claim_won else 1 - c
        return result
    if facts.short:
        if pts[decl] < pts[dfd]:
            result.short_stakes = -2
            why = f"declarer {pts[decl]} < defender {pts[dfd]}: the declarer pays 2 stakes"
        elif pts[decl] == pts[dfd]:
            result.short_stakes = -1
            why = f"declarer {pts[decl]} = defender {pts[dfd]}: the declarer pays 1 stake"
        else:
            result.short_stakes = 1
            why = f"declarer {pts[decl]} > defender {pts[dfd]}: the declarer wins"
        notes.append(Line(why, {-2: "short-less", -1: "short-equal", 1: "short-more"}[
            result.short_stakes], declarer=pts[decl], defender=pts[dfd]))
        result.winner = decl if result.short_stakes > 0 else dfd
        return result
    if pts[decl] < pts[dfd]:
        if decl in offenders:  # it has scored 0 already: the байд has nothing to move
            notes.append(Line(f"байд: the declarer's неправильный бой left it 0 < {pts[dfd]}",
                              "bayd-after-wrong-play", defender=pts[dfd]))
        else:
            items.append((decl, Line(f"байд: declarer {pts[decl]} < defender {pts[dfd]}, points go "
                                     "to the defender", "bayd-declarer", declarer=pts[decl],
                                     defender=pts[dfd]), -pts[decl], "bayd"))
            items.append((dfd, Line(f"байд: the declarer's {pts[decl]}", "bayd-defender",
                                    declarer=pts[decl]), pts[decl], "bayd"))
            pts[dfd] += pts[decl]
            pts[decl] = 0
    elif pts[decl] == pts[dfd]:
        items.append((decl, Line(f"висячий байд: declarer {pts[decl]} = defender {pts[dfd]}, the "
                                 "declarer's points hang", "hanging-bayd", points=pts[decl]),
                      -pts[decl], "hanging-bayd"))
        result.pot = facts.pot + pts[decl]
        pts[decl] = 0
        if facts.pot:
            notes.append(Line(f"the hanging pot grows {facts.pot} + {result.pot - facts.pot} = "
                              f"{result.pot}", "pot-grows", pot=facts.pot,
                              added=result.pot - facts.pot, total=result.pot))
        else:
            notes.append(Line(f"{result.pot} points hang until a deal has a higher scorer",
                              "pot-hangs", pot=result.pot))
        result.winner = None
        return result
    result.winner = 0 if pts[0] > pts[1] else 1
    if facts.pot:
        items.append((result.winner, Line(f"висячий байд from earlier deals: seat "
                                          f"{result.winner} scores more in this deal",
                                          "hanging-bayd-won", pot=facts.pot),
                      facts.pot, "hanging-bayd-won"))
        pts[result.winner] += facts.pot
        result.pot = 0
    return result
