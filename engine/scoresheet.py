"""Score sheets a person can check by hand: every number with the rule that produced it.

Every sentence on a sheet (an item's ``what``, a note, the result) is a :class:`Line`: the
English sentence the command line prints, carrying a stable ``key`` and the ``params`` it was
made from (seats, sides, card codes, numbers), so a display words it in its own language
(``table_ui/i18n.py`` ``SHEET_LINES``) instead of translating English. ``to_dict`` puts each
line's key and params beside its text: ``line`` in an item, ``note_lines`` beside ``notes``,
``result_line`` beside ``result``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any


class Line(str):
    """A sheet's sentence (the English text is the string itself) with its key and params.

    Params name seats ``seat``/``…_seat``, sides ``side``/``…_side``, card codes ``card`` or
    ``cards``; everything else is a number or a word the wording shows as it is.
    """

    key: str
    params: dict[str, Any]

    def __new__(cls, text: str, key: str = "", **params: Any) -> Line:
        line = super().__new__(cls, text)
        line.key = key
        line.params = params
        return line

    def __reduce__(self) -> tuple[Any, ...]:  # copies and pickles keep the key and params
        return (_line, (str(self), self.key, self.params))

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "params": dict(self.params), "text": str(self)}


def _line(text: str, key: str, params: dict[str, Any]) -> Line:
    return Line(text, key, **params)


def line_of(text: str) -> dict[str, Any]:
    """The key and params of a sheet sentence (a plain string has neither)."""
    if isinstance(text, Line):
        return text.as_dict()
    return {"key": "", "params": {}, "text": str(text)}


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
        out = asdict(self)
        out["result"] = str(self.result)
        out["result_line"] = line_of(self.result)
        for deal, d in zip(self.deals, out["deals"], strict=True):
            d["notes"] = [str(n) for n in deal.notes]
            d["note_lines"] = [line_of(n) for n in deal.notes]
            for item, i in zip(deal.items, d["items"], strict=True):
                i["what"] = str(item.what)
                i["line"] = line_of(item.what)
        return out

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
