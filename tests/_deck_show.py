"""Checking the geometry picture `cardtable deck show` draws on a frame of the teaching pass."""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np

from vision.video import frames

SAID = re.compile(r"^geometry: (?P<picture>.+) \(frame (?P<frame>\d+) of (?P<clip>.+), where the "
                  r"reader named (?P<card>\w\w);", re.M)


def check_drawn_on_the_pass(output: str) -> str:
    """The picture `deck show` names in ``output`` is the camera frame it names, drawn on, and
    its index box lies on the card in that frame; returns the card the reader named there."""
    said = SAID.search(output)
    assert said, output
    picture = cv2.imread(said["picture"])
    frame = next(f for n, f in enumerate(frames(Path(said["clip"]))) if n == int(said["frame"]))
    assert picture is not None and picture.shape == frame.shape  # the camera's frame size
    assert float(frame.std()) > 20  # a real frame: a card against the dark shoe
    same = (picture == frame).all(axis=2)
    assert same.mean() > 0.85, same.mean()  # every pixel but the lines drawn is the frame's
    green = ~same & (picture[:, :, 1] > 200) & (picture[:, :, 0] < 60) & (picture[:, :, 2] < 60)
    ys, xs = np.nonzero(green)
    assert len(ys) > 40
    inside = frame[ys.min() + 4: ys.max() - 3, xs.min() + 4: xs.max() - 3]
    assert inside.size and float(inside.mean()) > 110  # the index box is on the card's face...
    assert (inside.min(axis=2) < 90).any()  # ...where there is ink: the index
    return said["card"]
