"""Guided matching (stop 40): with a card-like fit as a prior, each frame corner is paired with the
pooled descriptor nearest in Hamming distance among those near its predicted place on the card."""

from __future__ import annotations

import cv2
import numpy as np

from device.hardware.vision.localiser import PooledLocaliser


def _deck(rng: np.random.Generator, n: int = 400) -> tuple[np.ndarray, np.ndarray]:
    """Pooled entries spread over a 252 x 352 card, with random 256-bit descriptors."""
    points = np.column_stack([rng.uniform(0, 252, n), rng.uniform(0, 352, n)]).astype(np.float32)
    return points, rng.integers(0, 256, (n, 32), dtype=np.uint8)


def _flip_bits(desc: np.ndarray, bits: int, rng: np.random.Generator) -> np.ndarray:
    out = desc.copy()
    for row in out:
        for b in rng.choice(256, bits, replace=False):
            row[b // 8] ^= np.uint8(1 << (b % 8))
    return out


def _to_frame() -> np.ndarray:
    """card -> frame: a card held a little rotated and foreshortened."""
    card = np.float32([[0, 0], [252, 0], [252, 352], [0, 352]])
    frame = np.float32([[200, 80], [420, 110], [400, 420], [170, 390]])
    return cv2.getPerspectiveTransform(card, frame)


def test_corners_find_their_entries_near_the_predicted_place() -> None:
    rng = np.random.default_rng(3)
    points, desc = _deck(rng)
    loc = PooledLocaliser(points, desc)
    take = rng.choice(len(loc.points), 60, replace=False)
    frame_pts = cv2.perspectiveTransform(loc.points[take].reshape(-1, 1, 2).astype(np.float64), _to_frame())
    frame_pts = frame_pts.reshape(-1, 2).astype(np.float32)
    frame_desc = _flip_bits(loc.descriptors[take], 20, rng)  # seen through a camera: 20 bits off
    # A prior fit a few card px off (the frame shifted by 3, 4 px): the pairs are still found within 12.
    prior = np.linalg.inv(_to_frame()) @ np.array([[1.0, 0.0, 3.0], [0.0, 1.0, 4.0], [0.0, 0.0, 1.0]])
    corr = loc.match_near(frame_pts, frame_desc, prior, 12.0)
    assert len(corr) == 60
    expected = {tuple(np.round(p, 2)) for p in loc.points[take]}
    assert {tuple(np.round(p, 2)) for p in corr.card} == expected


def test_nothing_far_from_the_predicted_place_or_too_different_is_paired() -> None:
    rng = np.random.default_rng(4)
    points, desc = _deck(rng)
    loc = PooledLocaliser(points, desc)
    take = rng.choice(len(loc.points), 30, replace=False)
    frame_pts = cv2.perspectiveTransform(loc.points[take].reshape(-1, 1, 2).astype(np.float64), _to_frame())
    frame_pts = frame_pts.reshape(-1, 2).astype(np.float32)
    # A prior 40 card px off: the true entries are outside the 12 px window; random neighbours
    # there differ by ~128 bits, beyond the 64-bit bar.
    far = np.array([[1.0, 0.0, 40.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]) @ np.linalg.inv(_to_frame())
    assert len(loc.match_near(frame_pts, loc.descriptors[take], far, 12.0)) == 0
    # The right place but descriptors 100 bits off: not paired either.
    right = np.linalg.inv(_to_frame())
    assert len(loc.match_near(frame_pts, _flip_bits(loc.descriptors[take], 100, rng), right, 12.0)) == 0
    assert len(loc.match_near(frame_pts, loc.descriptors[take], right, 12.0)) == 30
