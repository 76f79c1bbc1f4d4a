"""The reader's template banks make a card's template only when it is first asked for (round
XII): what they give must not depend on which cards were asked for first, and a template's
vector must stay zero-mean per channel and of unit length."""

from __future__ import annotations

import math

import cv2
import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision.reader import _Bank, _unit


def _templates(seed: int, count: int = 12) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    # Smooth, index-like images (blobs on white), all of one size as taught corners are.
    out = []
    for _ in range(count):
        img = np.full((60, 28, 3), 235, np.uint8)
        for _ in range(4):
            centre = (int(rng.integers(4, 24)), int(rng.integers(4, 56)))
            colour = tuple(int(c) for c in rng.integers(0, 200, 3))
            cv2.circle(img, centre, int(rng.integers(2, 7)), colour, -1)
        out.append(img)
    return out


def _turn(t: np.ndarray) -> np.ndarray:
    m = cv2.getRotationMatrix2D((0.0, 0.0), 1.0, 1.03)
    return cv2.warpAffine(t, m, (29, 62), borderMode=cv2.BORDER_REPLICATE)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), order=st.permutations(range(12)),
       gray=st.booleans(), posed=st.booleans())
def test_rows_do_not_depend_on_the_order_cards_are_asked_for(seed, order, gray, posed):
    templates = _templates(seed)
    transform = _turn if posed else None
    lazy = _Bank(templates, 0.7, 4, gray=gray, transform=transform)
    whole = _Bank(templates, 0.7, 4, gray=gray, transform=transform).rows()
    for k in range(0, 12, 3):  # asked for three at a time, in a random order
        subset = np.array(order[k:k + 3])
        assert np.array_equal(lazy.rows(subset), whole[subset])
    assert np.array_equal(lazy.rows(), whole)
    # A card's template as the residual and the pair test see it is its row, unscaled.
    card = order[0]
    assert np.allclose(lazy.unit(card).reshape(-1) / math.sqrt(whole.shape[1]), whole[card])


def test_a_row_is_the_template_scaled_blurred_and_normalised():
    """An independent reference in double precision: the template turned (as a pose's bank
    does), shrunk by area, grey or not, blurred along the card's travel, then zero-mean per
    channel and of unit length."""
    templates = _templates(3)
    for gray in (False, True):
        bank = _Bank(templates, 0.7, 4, gray=gray, transform=_turn)
        for card in (5, 0, 11):
            t = _turn(templates[card])
            t = cv2.resize(t, (round(t.shape[1] * 0.7), round(t.shape[0] * 0.7)),
                           interpolation=cv2.INTER_AREA)
            if gray:
                t = cv2.cvtColor(t, cv2.COLOR_BGR2GRAY)[:, :, None]
            t = cv2.blur(t.astype(np.float32), (1, 4)).reshape(t.shape).astype(np.float64)
            t -= t.reshape(-1, t.shape[2]).mean(axis=0)
            expected = t.reshape(-1) / np.linalg.norm(t)
            assert np.allclose(bank.rows(np.array([card]))[0], expected, atol=1e-6)


def test_the_differing_part_of_two_templates_is_the_same_each_time_it_is_asked_for():
    templates = _templates(7)
    bank = _Bank(templates, 0.7, 4)
    first = bank.pair_part(2, 5)
    again = bank.pair_part(2, 5)
    assert first is not None and again is first
    y0, x0, ti, tj, apart = first
    # The cut lies inside the template and holds the two cards' templates there.
    assert 0 <= y0 < bank.th and 0 <= x0 < bank.tw
    assert np.array_equal(ti, bank.unit(2)[y0:y0 + ti.shape[0], x0:x0 + ti.shape[1]])
    assert np.array_equal(tj, bank.unit(5)[y0:y0 + tj.shape[0], x0:x0 + tj.shape[1]])
    assert 0.0 < apart <= 2.0
    # The same card twice differs nowhere: no part to compare.
    assert bank.pair_part(3, 3) is None


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 10_000), channels=st.sampled_from([1, 3]))
def test_a_template_vector_is_zero_mean_per_channel_and_of_unit_length(seed, channels):
    rng = np.random.default_rng(seed)
    image = rng.uniform(0, 255, (37, 19, channels)).astype(np.float32)
    v = _unit(image).astype(np.float64)
    assert math.isclose(float(np.linalg.norm(v)), 1.0, rel_tol=1e-5)
    means = v.reshape(-1, channels).mean(axis=0)
    assert np.all(np.abs(means) < 1e-6)
