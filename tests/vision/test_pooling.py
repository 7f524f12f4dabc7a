"""The pooled localiser keeps one entry per feature seen at one place on many cards or views."""

from __future__ import annotations

import numpy as np

from device.hardware.vision.localiser import _CELL_PX, _SAME_DESC, _pool


def _pool_by_definition(points: np.ndarray, descriptors: np.ndarray) -> np.ndarray:
    """Row by row: dropped when an earlier row of the same cell is within _SAME_DESC bits."""
    cells = [tuple(c) for c in np.floor(points / _CELL_PX).astype(np.int64)]
    bits = np.unpackbits(descriptors, axis=1).astype(np.int64)
    keep = []
    for k in range(len(points)):
        earlier = [j for j in range(k) if cells[j] == cells[k]]
        if not any(int(np.abs(bits[j] - bits[k]).sum()) <= _SAME_DESC for j in earlier):
            keep.append(k)
    return np.array(keep, np.int64)


def test_pooling_drops_exactly_the_rows_an_earlier_row_of_their_cell_stands_for() -> None:
    rng = np.random.default_rng(11)
    base = rng.integers(0, 256, (40, 32), dtype=np.uint8)
    rows, pts = [], []
    for _ in range(700):  # variants of a few features at a few places: near, borderline and far copies
        f = int(rng.integers(len(base)))
        d = np.unpackbits(base[f])
        d[rng.choice(256, int(rng.choice([0, 8, 20, 24, 25, 30, 60])), replace=False)] ^= 1
        rows.append(np.packbits(d))
        pts.append(np.array([f % 5, f % 3]) * _CELL_PX + rng.uniform(0, _CELL_PX, 2))
    points, descriptors = np.array(pts, np.float32), np.array(rows, np.uint8)
    kept = _pool(points, descriptors)
    assert 0 < len(kept) < len(points)
    assert np.array_equal(kept, _pool_by_definition(points, descriptors))
