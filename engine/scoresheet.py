"""Score sheets a person can check by hand: every number with the rule that produced it."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


@dataclass(slots=True)
class ScoreItem:
    side: int
    what: str
    points: int
    rule: str = ""


PENALISED = "penalised"  # the game's penalty applied (policy penalize)
CLAIMED = "claimed"  # policy on_claim: the victim claimed it, the penalty applied
LET_GO = "let go"  # policy on_claim: nobody claimed it in time; it stands unpunished


@dataclass(slots=True)
class IllegalPlay:
    """One illegal play that stood in the log (docs/rules.md §6: every sheet names each one).

    ``trick`` counts from 1 within the deal (Durak: the bout within the game); ``card`` is a
    card code, or "" for a play that is not a card (a wrong bid or declaration).
    """

    seat: int
    card: str
    trick: int
    rule: str
    message: str
    outcome: str  # PENALISED, CLAIMED or LET_GO

    def text(self, side_name: str = "") -> str:
        who = side_name or f"seat {self.seat}"
        card = f" {self.card}" if self.card else ""
        return (f"illegal play by {who}:{card} in trick {self.trick}, {self.message} "
                f"[{self.rule}] — {self.outcome}")


@dataclass(slots=True)
class DealScore:
    number: int
    points: list[int]
    items: list[ScoreItem] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    illegal: list[IllegalPlay] = field(default_factory=list)


@dataclass(slots=True)
class ScoreSheet:
    game: str
    sides: list[str]
    options: dict[str, Any]
    deals: list[DealScore] = field(default_factory=list)
    totals: list[int] = field(default_factory=list)
    finished: bool = False
    winner: int | None = None
    result: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    def render(self) -> str:
        """Plain-text sheet (the CLI renders it with rich when there is a terminal)."""
        out = [f"{self.game}  options: " + ", ".join(f"{k}={v}" for k, v in self.options.items())]
        header = "deal  " + "  ".join(f"{s:>10}" for s in self.sides)
        out.append(header)
        for d in self.deals:
            out.append(f"{d.number:>4}  " + "  ".join(f"{p:>10}" for p in d.points))
            for it in d.items:
                out.append(f"        {self.sides[it.side]}: {it.what} {it.points:+d}"
                           + (f"  [{it.rule}]" if it.rule else ""))
            out.extend(f"        {p.text()}" for p in d.illegal)
            out.extend(f"        note: {n}" for n in d.notes)
        out.append("total " + "  ".join(f"{t:>10}" for t in self.totals))
        if self.result:
            out.append(self.result)
        return "\n".join(out)
