"""channels.py gives numpy's own per-pixel min, max and sum over the channels, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from device.hardware.vision.channels import channel_max, channel_min, channel_sum

_PAIRS = [
    (channel_min, lambda a: a.min(axis=-1)),
    (channel_max, lambda a: a.max(axis=-1)),
    (channel_sum, lambda a: a.sum(axis=-1)),
]


def _images(dtype: type) -> list[np.ndarray]:
    rng = np.random.default_rng(62)
    out = []
    for shape in [(240, 320, 3), (61, 79, 3), (9, 4), (3,), (5, 6, 4), (7, 2)]:
        if np.issubdtype(dtype, np.floating):
            a = rng.normal(0.0, 500.0, shape).astype(dtype)
        else:
            a = rng.integers(0, 256, shape).astype(dtype)
        out += [a, a[::2], a[..., ::-1]]  # contiguous, strided rows, reversed channels
    return out


@pytest.mark.parametrize("dtype", [np.uint8, np.int32, np.float32, np.float64])
@pytest.mark.parametrize(("ours", "numpys"), _PAIRS)
def test_same_values_and_dtype_as_numpy(dtype: type, ours, numpys) -> None:
    for img in _images(dtype):
        got, want = np.asarray(ours(img)), np.asarray(numpys(img))
        assert got.dtype == want.dtype
        assert got.shape == want.shape
        assert got.tobytes() == want.tobytes()  # the same bits: float sums added in numpy's order


def test_a_uint8_image_sums_without_wrapping() -> None:
    img = np.full((2, 2, 3), 255, np.uint8)
    assert channel_sum(img).dtype == img.sum(axis=-1).dtype
    assert int(channel_sum(img)[0, 0]) == 765


def test_signed_zeros_and_nan_as_numpy() -> None:
    img = np.array([[[-0.0, -0.0, -0.0], [0.0, -0.0, 0.0], [np.nan, 1.0, 2.0], [1.0, np.nan, -1.0]]], np.float32)
    for ours, numpys in _PAIRS:
        assert ours(img).tobytes() == numpys(img).tobytes()


def test_the_image_is_not_changed() -> None:
    img = np.arange(24, dtype=np.float32).reshape(2, 4, 3)
    before = img.copy()
    for ours, _ in _PAIRS:
        ours(img)
    assert np.array_equal(img, before)
