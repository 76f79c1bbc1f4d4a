"""Follows one card's leading edge down the window so each physical card is counted once."""

from __future__ import annotations

from dataclasses import dataclass, field

MAX_STEP = 320  # fastest card movement between frames we accept as the same card, px
BACKSLIP = 30  # a card may judder back this far without becoming a new card, px
MAX_MISSES = 1  # frames an edge may vanish (glare, noise) before the card is given up


@dataclass
class Track:
    number: int
    first_frame: int
    edge: int
    last_frame: int
    misses: int = 0
    done: bool = False  # the reader has answered for this card
    first_look: int = -1  # frame of the reader's first look at the card's index
    observations: list = field(default_factory=list)
    residuals: list = field(default_factory=list)  # per look: {card: local residual map}
    pairs: list = field(default_factory=list)  # per look: {(card, rival): lead on their difference}


class EdgeTracker:
    """Turns per-frame edge lists into card tracks. ``update`` says which track ended/started."""

    def __init__(self, height: int) -> None:
        self.height = height
        self.active: Track | None = None
        self.count = 0

    def update(self, frame: int, edges: tuple[int, ...]) -> tuple[Track | None, Track | None]:
        """Return (ended, current) for this frame; ``current`` is None when no card edge is in view."""
        ended: Track | None = None
        cur = self.active
        if cur is not None:
            same = [e for e in edges if cur.edge - BACKSLIP <= e <= cur.edge + MAX_STEP]
            newer = [e for e in edges if e < cur.edge - BACKSLIP]
            if same and not (newer and min(same) > self.height - 4):
                cur.edge = min(same, key=lambda e: abs(e - cur.edge))
                cur.last_frame = frame
                cur.misses = 0
                return None, cur
            cur.misses += 1
            if newer or cur.misses > MAX_MISSES:
                ended, self.active = cur, None
            else:
                return None, None
        candidates = edges if ended is None else [e for e in edges if e < ended.edge - BACKSLIP]
        if candidates:
            self.count += 1
            self.active = Track(self.count, frame, max(candidates), frame)
        return ended, self.active

    def close(self) -> Track | None:
        ended, self.active = self.active, None
        return ended
