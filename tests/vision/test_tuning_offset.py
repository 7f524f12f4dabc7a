"""The tuning command's brightness offset (stop 54): a camera whose tone curve crushes its blacks
shifts every level by about the same amount, which the own capture model never does. The offset
must be one per frame, drawn from the frame's seed, inside its range, and leave frames without
it untouched, so a tuning run with it is repeatable and its negatives see the same camera."""

from __future__ import annotations

import numpy as np

from device.hardware.vision import captures
from device.hardware.vision.tuning import with_offset


def _frame() -> np.ndarray:
    return captures.single_frame(None, 30_001, "medium", "table")


def test_no_offset_leaves_the_frame_as_it_is() -> None:
    frame = _frame()
    assert with_offset(frame, 30_001, None) is frame


def test_one_offset_per_frame_inside_its_range_and_clipped() -> None:
    frame = _frame()
    out = with_offset(frame, 30_001, (-60.0, -20.0))  # (this frame's darkest pixel is 24)
    assert out.dtype == np.uint8 and out.shape == frame.shape
    unclipped = (frame >= 61) & (frame <= 255)
    shift = out.astype(int)[unclipped] - frame.astype(int)[unclipped]
    assert shift.min() == shift.max()  # one offset over the frame (rounded once)
    assert -60 <= shift[0] <= -20
    dark = frame.astype(int) + int(np.floor(shift[0])) < 0
    assert dark.any() and out[dark].max() == 0  # what it pushes below black is black


def test_the_offset_is_drawn_from_the_seed() -> None:
    frame = _frame()
    a = with_offset(frame, 30_001, (-60.0, 40.0))
    assert np.array_equal(a, with_offset(frame, 30_001, (-60.0, 40.0)))
    shifts = {int(with_offset(frame, s, (-60.0, 40.0)).astype(int)[200, 300, 0]) for s in range(30_001, 30_011)}
    assert len(shifts) > 3  # other seeds, other offsets


def test_a_gain_scales_every_level_before_the_offset() -> None:
    """A haze (stop 55): a contrast under 1 and lifted blacks, one of each per frame."""
    frame = _frame()
    out = with_offset(frame, 30_001, (10.0, 40.0), (0.7, 0.95)).astype(float)
    rng = np.random.default_rng((30_001, 54))
    b, a = rng.uniform(10.0, 40.0), rng.uniform(0.7, 0.95)
    assert np.abs(out - np.clip(frame * a + b, 0, 255)).max() <= 1.0  # rounded down once
    assert out.min() >= 10 and out.max() <= 0.95 * 255 + 40 + 1
    gained = with_offset(frame, 30_001, None, (0.7, 0.95)).astype(float)
    assert np.abs(gained - frame * np.random.default_rng((30_001, 54)).uniform(0.7, 0.95)).max() <= 1.0
