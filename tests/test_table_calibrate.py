"""Table calibration: ArUco markers on a rendered overhead frame, the operator's corners, seat
zones, the annotated picture, and calibration files that are broken or for another camera."""

from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from cardtable.cli import main
from synth.table import make_scripted_clip, marker_corners_mm, project
from vision.table.calibrate import (
    CalibrationError,
    annotate,
    calibrate_corners,
    calibrate_image,
    load_calibration,
    parse_corners,
    save_calibration,
    seat_of,
)


@pytest.fixture(scope="module")
def scene(tmp_path_factory):
    """A frame of a tilted overhead camera, and where the play area's corners really are."""
    folder = tmp_path_factory.mktemp("calib")
    path = folder / "scene.mp4"
    h = make_scripted_clip(path, "anglo", [(2, [("QS", -40.0, 100.0, 30.0)])], seed=8,
                           difficulty="hard")
    cap = cv2.VideoCapture(str(path))
    ok, frame = cap.read()
    assert ok
    png = folder / "frame.png"
    cv2.imwrite(str(png), frame)
    return frame, project(h, marker_corners_mm()), h, png


def test_markers_give_the_play_area(scene):
    frame, truth, _, _ = scene
    cal = calibrate_image(frame)
    assert cal.image_size == (1280, 720)
    assert np.abs(np.array(cal.corners) - truth).max() < 1.0
    # the homography puts the corners where the convention says: 0 bottom-left, 1 top-left...
    plane = cv2.perspectiveTransform(truth.reshape(-1, 1, 2), cal.to_plane(1.0, 0.0)).reshape(4, 2)
    assert np.abs(plane - [[0, 1], [0, 0], [1, 0], [1, 1]]).max() < 0.005


def test_seat_zones_follow_the_convention():
    assert [seat_of(0.5, 0.9, 4), seat_of(0.1, 0.5, 4), seat_of(0.5, 0.1, 4), seat_of(0.9, 0.5, 4)] \
        == [0, 1, 2, 3]
    assert [seat_of(0.3, 0.8, 2), seat_of(0.7, 0.2, 2)] == [0, 1]
    assert seat_of(1.2, 0.5, 2) is None and seat_of(0.5, -0.3, 4) is None


def test_a_card_maps_to_its_seat(scene):
    """The queen was put down at (-40, 100) mm, in front of seat 0 at the bottom."""
    frame, _, h, _ = scene
    cal = calibrate_image(frame)
    centre = project(h, np.array([[-40.0, 100.0]]))
    u, v = cv2.perspectiveTransform(centre.reshape(1, 1, 2), cal.to_plane(1.0, 0.0))[0, 0]
    assert abs(u - (-40 + 250) / 500) < 0.01 and abs(v - (100 + 250) / 500) < 0.01
    assert seat_of(u, v, 2) == 0 and seat_of(u, v, 4) == 0


def test_operator_corners_instead_of_markers(scene):
    frame, truth, _, _ = scene
    text = ";".join(f"{x:.1f},{y:.1f}" for x, y in truth)
    cal = calibrate_corners((1280, 720), parse_corners(text))
    ref = calibrate_image(frame)
    assert cal.source == "corners" and not cal.markers
    assert np.abs(cal.to_plane() - ref.to_plane()).max() < 0.05 * np.abs(ref.to_plane()).max()
    with pytest.raises(CalibrationError, match="four points"):
        parse_corners("1,2;3,4")
    with pytest.raises(CalibrationError, match="convex"):
        calibrate_corners((1280, 720), [(0, 0), (10, 0), (0, 10), (10, 10)])


def test_a_missing_marker_is_named(scene):
    frame, truth, _, _ = scene
    hidden = frame.copy()
    x, y = truth[2].astype(int)
    cv2.rectangle(hidden, (int(x) - 45, int(y) - 45), (int(x) + 45, int(y) + 45), (40, 90, 40), -1)
    with pytest.raises(CalibrationError, match=r"marker\(s\) 2 \(top-right\) not found"):
        calibrate_image(hidden)


def test_annotated_picture_and_file_round_trip(scene, tmp_path):
    frame, _, _, _ = scene
    cal = calibrate_image(frame)
    pic = annotate(frame, cal, 4)
    assert pic.shape == frame.shape and np.abs(pic.astype(int) - frame).sum() > 0
    path = save_calibration(cal, tmp_path / "cal.json")
    assert load_calibration(path) == cal


def test_bad_calibration_files(tmp_path):
    garbage = tmp_path / "bad.json"
    garbage.write_text("{not json")
    with pytest.raises(CalibrationError, match="not valid"):
        load_calibration(garbage)
    future = tmp_path / "future.json"
    future.write_text(json.dumps({"version": 9, "image_size": [1280, 720],
                                  "corners": [[0, 100], [0, 0], [100, 0], [100, 100]]}))
    with pytest.raises(CalibrationError, match="version 9 is not supported"):
        load_calibration(future)
    with pytest.raises(CalibrationError, match="no such calibration file"):
        load_calibration(tmp_path / "missing.json")


def test_cli_calibrate_writes_file_and_picture(scene, tmp_path, capsys):
    frame, truth, _, png = scene
    out = tmp_path / "table.json"
    assert main(["table", "calibrate", str(png), "--out", str(out), "--seats", "2"]) == 0
    cal = load_calibration(out)
    assert np.abs(np.array(cal.corners) - truth).max() < 1.0
    pic = cv2.imread(str(out.with_suffix(".png")))
    assert pic is not None and pic.shape == frame.shape
    assert "wrote" in capsys.readouterr().out


def test_cli_calibrate_bad_input(tmp_path, capsys):
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((720, 1280, 3), 80, np.uint8))
    assert main(["table", "calibrate", str(blank)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: marker(s) 0 (bottom-left)") and "Traceback" not in err
    text = tmp_path / "notes.txt"
    text.write_text("hello")
    assert main(["table", "calibrate", str(text)]) == 2
    assert "cannot read" in capsys.readouterr().err
