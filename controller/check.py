"""A replay checked against its recording's truth: what today's readers and controller made of a
recorded session, compared with the game the recording holds (``game.json``'s events).

Differences, in the order the game went:

* ``read-differently`` — a shoe card (or a played card) read as another card: a confident wrong
  card, the worst kind;
* ``unread`` — a card the truth has and the replay never got (a ``??`` left unconfirmed, a card
  missed): the game stops there;
* ``wrong-seat`` — a play given to another seat;
* ``missing`` / ``extra`` — any other event the replay lacks or adds;
* ``score`` — the score sheet's totals or result differ.

``check_game`` compares; ``CheckReport.ok`` is true when nothing differs. `cardtable replay DIR
--check` prints the report (``--json`` too) for one recording or a folder of them, exit 1 when
anything differs.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from engine.game import Game
from engine.registry import game_class

SHOWN = 20  # differences listed in a report at most (all are counted)


class CheckError(ValueError):
    """The recording's truth itself cannot be replayed: the bundle disagrees with itself."""


@dataclass(frozen=True)
class Difference:
    kind: str
    index: int  # position among the shoe's cards, or among the other events
    truth: str | None
    got: str | None


@dataclass
class CheckReport:
    name: str
    shoe_cards: int = 0  # cards the truth deals from the shoe
    shoe_read: int = 0  # ... that the replay read as the truth has them
    differences: list[Difference] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    truth_totals: list[int] = field(default_factory=list)
    got_totals: list[int] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.counts

    def add(self, d: Difference) -> None:
        self.counts[d.kind] = self.counts.get(d.kind, 0) + 1
        if len(self.differences) < SHOWN:
            self.differences.append(d)

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "ok": self.ok, "shoe_cards": self.shoe_cards,
                "shoe_read": self.shoe_read, "counts": dict(self.counts),
                "truth_totals": self.truth_totals, "got_totals": self.got_totals,
                "differences": [asdict(d) for d in self.differences]}

    def lines(self) -> list[str]:
        head = (f"{self.name}: {'same as recorded' if self.ok else 'DIFFERS'} — shoe "
                f"{self.shoe_read}/{self.shoe_cards} read, score "
                f"{':'.join(map(str, self.got_totals)) or '-'} "
                f"(recorded {':'.join(map(str, self.truth_totals)) or '-'})")
        out = [head]
        if self.counts:
            out.append("  " + ", ".join(f"{k} {v}" for k, v in sorted(self.counts.items())))
        out += [f"  {d.kind} #{d.index + 1}: recorded {d.truth or '—'}, replay {d.got or '—'}"
                for d in self.differences]
        return out


def _split(events: list[str]) -> tuple[list[str], list[str]]:
    shoe = [e for e in events if e.startswith("shoe ")]
    return shoe, [e for e in events if not e.startswith("shoe ")]


def check_game(name: str, game_name: str, options: dict[str, Any], truth: list[str],
               got: Game) -> CheckReport:
    """Compare the replay's game ``got`` with the recorded events ``truth``."""
    report = CheckReport(name)
    got_events = [str(e) for e in got.raw_log]
    t_shoe, t_rest = _split(truth)
    g_shoe, g_rest = _split(got_events)
    report.shoe_cards = len(t_shoe)
    for i, want in enumerate(t_shoe):
        read = g_shoe[i] if i < len(g_shoe) else None
        if read == want:
            report.shoe_read += 1
        elif read is None:
            report.add(Difference("unread", i, want, None))
        else:
            report.add(Difference("read-differently", i, want, read))
    for i in range(len(t_shoe), len(g_shoe)):
        report.add(Difference("extra", i, None, g_shoe[i]))
    for i in range(max(len(t_rest), len(g_rest))):
        recorded = t_rest[i] if i < len(t_rest) else None
        have = g_rest[i] if i < len(g_rest) else None
        if recorded == have:
            continue
        if recorded is None:
            report.add(Difference("extra", i, None, have))
        elif have is None:
            report.add(Difference("missing", i, recorded, None))
        else:
            w, h = recorded.split(" ", 1), have.split(" ", 1)
            same_rest = len(w) == len(h) == 2 and w[1] == h[1]
            report.add(Difference("wrong-seat" if same_rest and w[0] != h[0]
                                  else "read-differently", i, recorded, have))
    from engine.errors import EngineError

    try:
        truth_sheet = game_class(game_name).replay(truth, options).score_sheet()
    except (EngineError, ValueError) as exc:
        raise CheckError(f"{name}: the recorded game (game.json's events) cannot be replayed: "
                         f"{exc}") from None
    got_sheet = got.score_sheet()
    report.truth_totals, report.got_totals = list(truth_sheet.totals), list(got_sheet.totals)
    if (report.truth_totals, truth_sheet.result) != (report.got_totals, got_sheet.result):
        report.add(Difference("score", 0, f"{report.truth_totals} {truth_sheet.result}",
                              f"{report.got_totals} {got_sheet.result}"))
    return report
