"""Scoring the table reader against footage ground truth (used by tests, bench and users).

With candidates the harness plays the controller's part: it starts from the hands in the truth
and, after every ``placed`` event, takes the card actually played out of its seat's hand (as the
controller does once a card is confirmed) and hands the reader the new candidates.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import cast

from synth.table import FACE_DOWN, OBJECT, TableTruth, truth_path
from vision.cards import UNKNOWN
from vision.table.reader import Flag, Placed, Removed, TableEvent, TableReader

LATE_FRAMES = 9  # 300 ms at 30 fps
EARLY = 15  # frames before the truth's "uncovered" an answer may come: the truth counts the
# whole arm polygon (coarse mask) as over the card, the reader only a hand within ~1 cm of it.
# An answer earlier than that is scored as a lost card plus an extra event: that is how reads
# under a hand resting on the card (a hand near the table's colour) showed up, see
# docs/table-camera.md.
WINDOW = 45  # frames after coming to rest in which an event may still belong to a card


@dataclass
class TableScore:
    cards: int = 0
    read: int = 0
    unsure: int = 0
    wrong: int = 0  # a confident wrong card: must stay 0
    wrong_seat: int = 0
    lost: int = 0
    extra: int = 0
    late: int = 0
    others_named: int = 0  # face-down cards / objects given a card
    removals: int = 0
    removals_seen: int = 0
    latencies: list[int] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def read_rate(self) -> float:
        return self.read / self.cards if self.cards else 0.0

    def add(self, o: TableScore) -> None:
        for k in ("cards", "read", "unsure", "wrong", "wrong_seat", "lost", "extra", "late",
                  "others_named", "removals", "removals_seen"):
            setattr(self, k, getattr(self, k) + getattr(o, k))
        self.latencies += o.latencies
        self.problems += o.problems

    def line(self) -> str:
        lat = max(self.latencies) if self.latencies else 0
        return (f"{self.cards} cards, read {self.read} ({100 * self.read_rate:.2f}%), unsure "
                f"{self.unsure}, confident wrong {self.wrong}, wrong seat {self.wrong_seat}, lost "
                f"{self.lost}, extra {self.extra}, late {self.late} (worst {lat} frames), "
                f"non-cards named {self.others_named}, removals {self.removals_seen}/{self.removals}")


def score(events: list[TableEvent], truth: TableTruth) -> TableScore:
    s = TableScore()
    placed = sorted((e for e in events if isinstance(e, Placed)), key=lambda e: e.frame)
    flags = [e for e in events if isinstance(e, Flag) and e.card]
    used: set[int] = set()
    pool = placed + flags
    for p in sorted(truth.placed, key=lambda p: p.rest_frame):
        near = [i for i, e in enumerate(pool) if i not in used
                and p.rest_frame - EARLY <= e.frame <= p.rest_frame + WINDOW]
        if p.card in (FACE_DOWN, OBJECT):
            named = [i for i in near if isinstance(pool[i], Placed) and pool[i].card != UNKNOWN
                     and pool[i].frame <= p.rest_frame + 12]
            continue_named = [i for i in named if pool[i].card not in
                              {q.card for q in truth.placed}]
            del continue_named
            continue
        s.cards += 1
        exact = [i for i in near if getattr(pool[i], "card", None) == p.card]
        pick = (exact or near or cast("list[int | None]", [None]))[0]
        if pick is None:
            s.lost += 1
            s.problems.append(f"{p.card} (seat {p.seat}) at rest at {p.rest_frame}: lost")
            continue
        used.add(pick)
        e = pool[pick]
        s.latencies.append(max(0, e.frame - p.rest_frame))
        if e.frame - p.rest_frame > LATE_FRAMES:
            s.late += 1
            s.problems.append(f"{p.card} at rest at {p.rest_frame}, answered at {e.frame}")
        if e.card == p.card:
            s.read += 1
            if isinstance(e, Placed) and e.seat != p.seat:
                s.wrong_seat += 1
                s.problems.append(f"{p.card} read for seat {e.seat}, played by {p.seat}")
        elif e.card == UNKNOWN:
            s.unsure += 1
            s.problems.append(f"{p.card} at {e.frame} unsure: {getattr(e, 'candidates', '')}")
        else:
            s.wrong += 1
            s.problems.append(f"{p.card} at {e.frame} read WRONG as {e.card}")
    for i, e in enumerate(pool):
        if i not in used:
            if isinstance(e, Placed) and e.card != UNKNOWN:
                s.others_named += 1
            s.extra += 1
            s.problems.append(f"extra event {e.to_json()}")
    removed = [e for e in events if isinstance(e, Removed)]
    taken: set[int] = set()
    for r in truth.removed:
        if not r.cards:
            continue
        s.removals += 1
        hit = [i for i, e in enumerate(removed) if i not in taken
               and r.frame - 10 <= e.frame <= r.frame + 60 and len(e.cards) == len(r.cards)
               and set(e.cards) - {UNKNOWN} <= set(r.cards)]
        if hit:
            taken.add(hit[0])
            s.removals_seen += 1
        else:
            s.problems.append(f"removal of {r.cards} at {r.frame} not reported as one event")
    return s


def run_clip(video: Path, reader: TableReader, use_candidates: bool) -> tuple[list[TableEvent], TableTruth]:
    from vision.video import frames

    truth = TableTruth.load(truth_path(video))
    hands = {int(k): list(v) for k, v in truth.hands.items()}
    if use_candidates:
        reader.set_candidates(hands)
    events: list[TableEvent] = []
    pending = sorted(truth.placed, key=lambda p: p.rest_frame)
    for frame in frames(Path(video), reuse_buffer=True):
        out = reader.feed(frame)
        events += out
        if use_candidates:
            for e in out:
                if not isinstance(e, Placed):
                    continue
                # the controller confirms the card really played (the organiser fixes a "??")
                for p in pending:
                    if p.card in hands.get(p.seat, []) and p.rest_frame - EARLY <= e.frame:
                        hands[p.seat].remove(p.card)
                        pending.remove(p)
                        break
                reader.set_candidates(hands)
    events += reader.finish()
    return events, truth
