"""The table reader on real MPEG-4 overhead clips: tricks, Durak overlaps, four seats, candidates,
and the bad input of the issue (outside the seat zones, two cards at once, a knocked camera, black
and blown-out frames, a marker under a hand, early removal)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest
from _table_kit import table_clip, taught

from controller.inputs import CameraNote, parse_input
from controller.inputs import Placed as PlacedInput
from controller.inputs import Removed as RemovedInput
from controller.table import table_input
from synth.table import FACE_DOWN, make_scripted_clip
from synth.table_evaluate import LATE_FRAMES, run_clip, score
from vision.cards import UNKNOWN, composition
from vision.table.calibrate import CalibrationError, calibrate_image
from vision.table.reader import Flag, Placed, Removed, TableReader
from vision.video import frames

TRICK_CARDS = ["7C", "QS", "TH", "AD", "9S", "8H"]
pytestmark = pytest.mark.timeout(1200)  # the first test makes the shared clips


@pytest.fixture(scope="module")
def anglo(tmp_path_factory):
    return taught(tmp_path_factory.getbasetemp(), "anglo", "36")


@pytest.fixture(scope="module")
def atlas(tmp_path_factory):
    return taught(tmp_path_factory.getbasetemp(), "Атласные", "36j")


@pytest.fixture(scope="module")
def tricks(tmp_path_factory):
    return table_clip(tmp_path_factory.getbasetemp(), "anglo", 2, TRICK_CARDS, "tricks", 31,
                      face_down=1, objects=1)


@pytest.fixture(scope="module")
def durak(tmp_path_factory):
    cards = ["7D", "9D", "TC", "QC", "8S", "KS"]
    return table_clip(tmp_path_factory.getbasetemp(), "Атласные", 2, cards, "durak", 32)


@pytest.fixture(scope="module")
def four(tmp_path_factory):
    cards = ["KH", "9C", "JD", "6S", "AC", "TD", "QH", "8S"]
    return table_clip(tmp_path_factory.getbasetemp(), "anglo", 4, cards, "tricks", 33)


def _check(result, truth_cards: int) -> None:
    assert result.cards == truth_cards
    assert result.wrong == 0, result.problems
    assert result.lost == 0 and result.extra == 0, result.problems
    assert result.read == result.cards, result.problems
    assert result.wrong_seat == 0, result.problems
    assert result.late == 0 and max(result.latencies) <= LATE_FRAMES, result.problems
    assert result.removals_seen == result.removals, result.problems


@pytest.mark.parametrize("candidates", [False, True], ids=["deck", "candidates"])
def test_tricks_on_a_hard_clip(anglo, tricks, candidates):
    profile, faces = anglo
    path, truth = tricks
    events, truth = run_clip(path, TableReader(profile, None, 2, faces), candidates)
    result = score(events, truth)
    print(result.line())
    _check(result, len(TRICK_CARDS))
    # the face-down card and the object were slipped in and never named
    assert {p.card for p in truth.placed} >= {FACE_DOWN, "object"}
    assert result.others_named == 0


@pytest.mark.parametrize("candidates", [False, True], ids=["deck", "candidates"])
def test_durak_pairs_overlap(atlas, durak, candidates):
    profile, faces = atlas
    path, truth = durak
    events, truth = run_clip(path, TableReader(profile, None, 2, faces), candidates)
    result = score(events, truth)
    _check(result, 6)
    placed = {e.card: e for e in events if isinstance(e, Placed)}
    covers = [p for p in truth.placed if p.covers]
    assert covers, "the clip has defending cards"
    for p in truth.placed:
        assert placed[p.card].covers == p.covers, (p, placed[p.card])
    # several pairs lay on the table at once and went in one removal
    assert max(len(r.cards) for r in truth.removed) >= 4, truth.removed


def test_four_seats(anglo, four):
    profile, faces = anglo
    path, truth = four
    events, truth = run_clip(path, TableReader(profile, None, 4, faces), False)
    result = score(events, truth)
    _check(result, 8)
    assert {p.seat for p in truth.placed} == {0, 1, 2, 3}


def test_events_are_controller_inputs(anglo, tricks):
    profile, faces = anglo
    path, _ = tricks
    events, _ = run_clip(path, TableReader(profile, None, 2, faces), False)
    kinds = set()
    for e in events:
        parsed = table_input(e, e.frame / 30.0)
        if isinstance(e, Flag):
            assert isinstance(parsed, CameraNote) and parsed.flag == str(e.flag)
            continue
        # what the controller takes from the reader survives a trip through the log's JSON
        assert parse_input(parsed.model_dump(mode="json")) == parsed
        kinds.add(type(parsed))
        assert parsed.frame == e.frame and parsed.t == pytest.approx(e.frame / 30.0, abs=1e-4)
        if isinstance(e, Placed):
            assert (parsed.seat, parsed.card, parsed.covers) == (e.seat, e.card, e.covers)
    assert kinds == {PlacedInput, RemovedInput}


def test_cards_outside_the_candidates_are_never_named(anglo, tricks):
    """The engine's candidates are wrong (the cards played are in no hand): "??", not a guess."""
    profile, faces = anglo
    path, truth = tricks
    played = {p.card for p in truth.placed}
    others = [c for c in composition("36") if c not in played]
    reader = TableReader(profile, None, 2, faces)
    reader.set_candidates({0: others[:15], 1: others[15:]})
    events = [e for f in frames(path) for e in reader.feed(f)]
    placed = [e for e in events if isinstance(e, Placed)]
    assert len(placed) == len(TRICK_CARDS)
    assert all(e.card == UNKNOWN for e in placed), [e.to_json() for e in placed]
    assert all(e.candidates for e in placed)


def test_trick_hook_flags_an_early_removal(anglo, tricks):
    profile, faces = anglo
    path, _ = tricks
    reader = TableReader(profile, None, 2, faces)
    seen: list[list[str]] = []

    def complete(cards: list[str]) -> bool:
        seen.append(cards)
        return len(seen) % 2 == 0  # the controller says every other trick was not complete

    reader.set_trick_hook(complete)
    removed = [e for f in frames(path) for e in reader.feed(f) if isinstance(e, Removed)]
    assert len(removed) == 3 and all(len(c) == 2 for c in seen)
    flags = [e.flag for e in removed]
    assert flags == ["removed before the trick was complete", None,
                     "removed before the trick was complete"]


def test_faces_that_differ_only_in_a_pip(tmp_path_factory, tmp_path):
    """Simplistic's black courts are one picture with a club or a spade pip (faces 0.99 alike at
    table resolution): told apart where they differ, at any angle, with no candidates."""
    twins = ["KC", "KS", "QC", "QS", "JC", "JS"]
    profile, faces = taught(tmp_path_factory.getbasetemp(), "simplistic", "36",
                            [*twins, "AH", "7D"])
    first = [("KC", -90.0, 110.0, 25.0), ("QS", 0.0, -100.0, 150.0), ("JC", 95.0, 95.0, 260.0)]
    second = [("KS", -90.0, -100.0, 205.0), ("QC", 0.0, 110.0, 330.0), ("JS", 95.0, -95.0, 80.0)]
    path = _scripted(tmp_path, "simplistic", [(8, []), (10, first), (8, []), (10, second)],
                     difficulty="hard", seed=4)
    placed = [e for e in _feed(TableReader(profile, None, 2, faces), path)
              if isinstance(e, Placed)]
    assert sorted(e.card for e in placed) == sorted(twins), [e.to_json() for e in placed]
    assert all(e.confidence >= 0.9 for e in placed)


# -- bad input, from scripted scenes ------------------------------------------------------------
def _scripted(tmp_path, deck, steps, **kw):
    path = tmp_path / "scene.mp4"
    make_scripted_clip(path, deck, steps, **kw)
    return path


def _feed(reader, path, edit=None):
    events = []
    for i, f in enumerate(frames(path)):
        events += reader.feed(edit(i, f) if edit else f)
    return events


def test_card_outside_the_seat_zones_is_flagged(anglo, tmp_path):
    profile, faces = anglo
    path = _scripted(tmp_path, "anglo", [(10, []), (12, [("KH", 300.0, 60.0, 20.0)])])
    events = _feed(TableReader(profile, None, 2, faces), path)
    assert [e.to_json() for e in events] == [
        {"frame": events[0].frame, "event": "flag", "flag": "card outside any seat zone",
         "card": "KH"}]


def test_two_cards_at_once_from_one_seat(anglo, tmp_path):
    profile, faces = anglo
    cards = [("KH", -70.0, 110.0, 10.0), ("8C", 70.0, 120.0, -15.0)]
    path = _scripted(tmp_path, "anglo", [(10, []), (12, cards)])
    placed = [e for e in _feed(TableReader(profile, None, 2, faces), path)]
    assert sorted(e.card for e in placed) == ["8C", "KH"]
    assert all(e.seat == 0 and e.flag == "two cards at once from one seat" for e in placed)


def test_camera_knocked_pauses_reading_until_back(anglo, tmp_path):
    profile, faces = anglo
    card = [("QD", 20.0, -100.0, 170.0)]
    shift = {i: (25.0, 8.0) for i in range(20, 70)}  # knocked at 20, put back at 70
    path = _scripted(tmp_path, "anglo", [(45, []), (55, card)], shift=shift)
    events = _feed(TableReader(profile, None, 2, faces), path)
    flags = [e for e in events if isinstance(e, Flag)]
    assert [f.flag.split(":")[0] for f in flags] == ["camera moved", "camera back in place"]
    assert 20 <= flags[0].frame <= 40 and 70 <= flags[1].frame <= 85
    assert not [e for e in events if isinstance(e, Placed) and e.frame < flags[1].frame]
    # nothing was read while the picture was off; the card is read once it is back
    placed = [e for e in events if isinstance(e, Placed)]
    assert [(e.card, e.seat) for e in placed] == [("QD", 1)]
    assert placed[0].frame > flags[1].frame


def test_marker_under_a_hand_is_not_a_moved_camera(anglo, tmp_path):
    profile, faces = anglo
    card = [("9S", -40.0, 90.0, 35.0)]
    path = _scripted(tmp_path, "anglo", [(10, []), (70, card)])
    first = next(iter(frames(path)))
    cal = calibrate_image(first)
    x, y = np.array(cal.corners[0]).astype(int)

    def cover(i, f):
        if 5 <= i < 60:  # a hand over marker 0 for nearly two seconds
            f = f.copy()
            cv2.ellipse(f, (int(x) + 10, int(y) + 5), (60, 40), 30, 0, 360, (120, 150, 200), -1)
        return f

    events = _feed(TableReader(profile, cal, 2, faces), path, cover)
    assert not [e for e in events if isinstance(e, Flag)]
    assert [(e.card, e.seat) for e in events if isinstance(e, Placed)] == [("9S", 0)]


def test_black_and_blown_out_frames_are_flagged(anglo, tmp_path):
    profile, faces = anglo
    card = [("AS", 30.0, 100.0, 200.0)]
    path = _scripted(tmp_path, "anglo", [(14, []), (30, card)])  # put down during the black

    def spoil(i, f):
        if 12 <= i < 16:
            return np.zeros_like(f)
        if 16 <= i < 20:
            return np.full_like(f, 255)
        return f

    events = _feed(TableReader(profile, None, 2, faces), path, spoil)
    flags = [e.flag for e in events if isinstance(e, Flag)]
    assert flags == ["black frame: the camera sees nothing", "glare: the frame is blown out"]
    placed = [e for e in events if isinstance(e, Placed)]
    assert [(e.card, e.seat) for e in placed] == [("AS", 0)]
    assert placed[0].frame >= 20  # read once the picture is back


def test_some_cards_taken_before_the_trick_is_complete(anglo, tmp_path):
    """Without a trick hook the reader cannot know the trick, but a removal that leaves played
    cards behind is flagged; the rest going later is a second, plain removal."""
    profile, faces = anglo
    kh, c8 = ("KH", -40.0, 100.0, 10.0), ("8C", 30.0, -110.0, -25.0)
    path = _scripted(tmp_path, "anglo", [(10, []), (15, [kh]), (15, [kh, c8]), (15, [c8]),
                                         (15, [])])
    events = _feed(TableReader(profile, None, 2, faces), path)
    assert [(type(e).__name__, getattr(e, "card", None) or getattr(e, "cards", None), e.flag)
            for e in events] == [("Placed", "KH", None), ("Placed", "8C", None),
                                 ("Removed", ["KH"], "only some of the cards were taken"),
                                 ("Removed", ["8C"], None)]


def test_calibration_of_another_camera_is_a_clear_error(anglo, tricks, tmp_path):
    """Same resolution, other camera (or this one moved since): the markers are elsewhere."""
    profile, faces = anglo
    path, _ = tricks
    cal = calibrate_image(next(iter(frames(path))))
    other = _scripted(tmp_path, "anglo", [(3, [])], seed=5)
    reader = TableReader(profile, cal, 2, faces)
    with pytest.raises(CalibrationError, match=r"does not fit this camera: marker \d is"):
        reader.feed(next(iter(frames(other))))
    # the calibration of its own first frame fits
    own = TableReader(profile, calibrate_image(next(iter(frames(other)))), 2, faces)
    assert own.feed(next(iter(frames(other)))) == []


def test_calibration_for_another_camera_is_refused(anglo, tricks):
    profile, faces = anglo
    path, _ = tricks
    cal = calibrate_image(next(iter(frames(path))))
    reader = TableReader(profile, cal, 2, faces)
    small = cv2.resize(next(iter(frames(path))), (960, 540))
    with pytest.raises(CalibrationError, match="1280x720 camera but the frames are 960x540"):
        reader.feed(small)


def test_no_markers_and_no_calibration_is_a_clear_error(anglo):
    profile, faces = anglo
    with pytest.raises(CalibrationError, match="no calibration given"):
        TableReader(profile, None, 2, faces).feed(np.full((720, 1280, 3), 60, np.uint8))
