"""Scoring reader output against footage ground truth (used by tests, bench and users)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from synth.shoe import FACE_DOWN, OBJECT, Truth
from vision.cards import UNKNOWN, ReaderFlag
from vision.reader import CardEvent

LATE_FRAMES = 3  # 100 ms at 30 fps


@dataclass
class Score:
    cards: int = 0
    read: int = 0  # named correctly
    unsure: int = 0  # answered "??"
    wrong: int = 0  # named confidently but wrongly: must stay 0
    lost: int = 0  # physical card with no event
    extra: int = 0  # events matching no physical card (duplicates, phantoms)
    late: int = 0  # answered more than 100 ms after the index was fully in view
    others_named: int = 0  # face-down cards / objects given a confident card code
    foreign: int = 0  # physical cards the profile was never taught (not counted in ``cards``)
    rejected: int = 0  # ... answered "??" flagged "not a known card face", as they should be
    foreign_unsure: int = 0  # ... answered "??" without that flag (safe, but not explained)
    problems: list[str] = field(default_factory=list)

    @property
    def read_rate(self) -> float:
        return self.read / self.cards if self.cards else 0.0

    def add(self, other: Score) -> None:
        for name in ("cards", "read", "unsure", "wrong", "lost", "extra", "late", "others_named",
                     "foreign", "rejected", "foreign_unsure"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.problems += other.problems

    def line(self) -> str:
        text = (f"{self.cards} cards, read {self.read} ({100 * self.read_rate:.2f}%), "
                f"unsure {self.unsure}, confident wrong {self.wrong}, lost {self.lost}, "
                f"extra {self.extra}, late {self.late}")
        if self.foreign:
            text += (f"; {self.foreign} untaught cards: rejected {self.rejected} "
                     f"({100 * self.rejected / self.foreign:.1f}%), other ?? "
                     f"{self.foreign_unsure}")
        return text


def score(events: list[CardEvent], truth: Truth, taught: set[str] | None = None) -> Score:
    """Match events to the physical items in order; each item may claim one event near it.

    With ``taught`` (the profile's cards), a card outside it is ``foreign``: it should come out
    as "??" flagged "not a known card face"; naming it is a confident wrong card."""
    s = Score()
    pending = sorted(events, key=lambda e: e.frame)
    used = [False] * len(pending)

    def near(item) -> list[int]:
        lo = item.visible_frame - 2
        hi = max(item.exit_frame, item.visible_frame) + LATE_FRAMES + 1
        return [i for i, e in enumerate(pending) if not used[i] and lo <= e.frame <= hi]

    def claim(item, only_exact: bool = False) -> int | None:
        options = near(item)
        exact = [i for i in options if pending[i].card == item.card]
        choices = exact if only_exact else exact or options
        if not choices:
            return None
        used[choices[0]] = True
        return choices[0]

    # Each card first takes an event naming it; only then do the rest take what is left near
    # them. Claiming in one pass let a card with no event of its own take the next card's, and
    # each later card the one after (one lost card counted as a run of wrong ones).
    cards = [item for item in truth.items if item.card not in (FACE_DOWN, OBJECT)]
    exact = {id(item): claim(item, only_exact=True) for item in cards}
    # Cards before face-down cards and objects, so those never take a card's event.
    for item in cards:
        foreign = taught is not None and item.card not in taught
        if foreign:
            s.foreign += 1
        else:
            s.cards += 1
        match = exact[id(item)]
        if match is None:
            match = claim(item)
        if match is None:
            s.lost += 1
            s.problems.append(f"{item.card} at frame {item.visible_frame} lost")
            continue
        e = pending[match]
        if foreign:
            if e.card == UNKNOWN and e.flag == ReaderFlag.UNKNOWN_FACE:
                s.rejected += 1
            elif e.card == UNKNOWN:
                s.foreign_unsure += 1
                s.problems.append(f"untaught {item.card} at {e.frame}: ?? without the flag")
            else:
                s.wrong += 1
                s.problems.append(f"untaught {item.card} at {e.frame} read WRONG as {e.card}")
            continue
        if e.frame - item.visible_frame > LATE_FRAMES:
            s.late += 1
            s.problems.append(f"{item.card} answered at {e.frame}, index in view at "
                              f"{item.visible_frame}")
        if e.card == item.card:
            s.read += 1
        elif e.card == UNKNOWN:
            s.unsure += 1
            s.problems.append(f"{item.card} at {e.frame} unsure: {e.candidates}")
        else:
            s.wrong += 1
            s.problems.append(f"{item.card} at {e.frame} read WRONG as {e.card}")
    for item in truth.items:
        if item.card not in (FACE_DOWN, OBJECT):
            continue
        match = claim(item)
        if match is not None and pending[match].card != UNKNOWN:
            s.others_named += 1
            s.problems.append(f"{item.card} at {item.visible_frame} read as {pending[match].card}")
    for i, e in enumerate(pending):
        if not used[i]:
            s.extra += 1
            s.problems.append(f"extra event {e.to_json()}")
    return s


def accuracy_run(deck: str, comp: str, deals: int, folder, seed: int = 0,
                 difficulty: str = "hard", teach_comp: str | None = None,
                 teach_deck: str | None = None, shoe: str | None = None,
                 rotated: float = 0.0) -> Score:
    """Teach ``deck`` from one slow pass, then read ``deals`` shuffled hard deals of it.

    Open set: ``teach_comp`` teaches another composition (32 cards, then deal 36: the sixes were
    never taught) and ``teach_deck`` another design; untaught cards are scored as ``foreign``.
    With ``shoe`` the pass and the deals go through that shoe geometry: teaching on its session
    1, each deal on a session of its own (the shoe set up again), ``rotated`` of the cards
    turned 180 degrees."""
    import random
    from pathlib import Path

    from synth.shoe import make_clip
    from vision.cards import composition
    from vision.reader import read_video
    from vision.teach import teach_from_video

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    cards = composition(comp)
    taught = composition(teach_comp or comp)
    design = teach_deck or deck
    teach = folder / f"{design}-pass.mp4"
    extra: dict[str, Any] = {} if shoe is None else {"shoe": shoe, "session": 1}
    make_clip(teach, design, taught, "easy", seed=seed, **extra)
    profile = teach_from_video(design, teach, taught)
    known = set(taught) if design == deck else set()
    total = Score()
    for k in range(deals):
        deal = cards[:]
        random.Random(seed * 1000 + k).shuffle(deal)
        clip = folder / f"{deck}-deal{k}.mp4"
        more: dict[str, Any] = {} if shoe is None else {"shoe": shoe, "session": 2 + k}
        if rotated:
            more["rotated"] = rotated
        truth = make_clip(clip, deck, deal, difficulty, seed=seed * 1000 + k, **more)
        total.add(score(list(read_video(clip, profile)), truth, known))
        clip.unlink()
    return total
