"""Edge tracking invariants: one track per physical card, whatever the speeds and gaps."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from vision.track import EdgeTracker

FRAME_H = 480
CARD_H = 600  # cards are taller than the window, as in the shoe


@settings(max_examples=200, deadline=None)
@given(
    speeds=st.lists(st.integers(40, 250), min_size=1, max_size=12),
    gaps=st.lists(st.integers(0, 300), min_size=12, max_size=12),
)
def test_one_track_per_card_that_shows_its_edge(speeds, gaps):
    # Lay cards on a belt; card i's leading edge is at belt y = bottoms[i] (upwards negative).
    bottoms, y = [], 0
    for i in range(len(speeds)):
        bottoms.append(y)
        y -= CARD_H + gaps[i]
    tracker = EdgeTracker(FRAME_H)
    offset, frame, seen, tracks = 0, 0, set(), set()
    while bottoms[-1] + offset < FRAME_H + CARD_H:
        edges = []
        for i, b in enumerate(bottoms):
            e = b + offset
            if 14 <= e <= FRAME_H - 3:
                edges.append(e)
                seen.add(i)
        _, track = tracker.update(frame, tuple(sorted(edges)))
        if track is not None:
            tracks.add(track.number)
        # The lowest card in the window sets the speed, as in the footage model.
        lowest = next((i for i, b in enumerate(bottoms) if b + offset < FRAME_H + CARD_H), 0)
        offset += speeds[lowest]
        frame += 1
    assert len(tracks) == len(seen)
