"""The LSH index finds near neighbours that brute force finds, and nothing for an empty index."""

from __future__ import annotations

import numpy as np

from device.hardware.vision.hamming_index import HammingIndex


def _flip(desc: np.ndarray, bits: int, rng: np.random.Generator) -> np.ndarray:
    out = np.unpackbits(desc, axis=1)
    for row in out:
        row[rng.choice(256, bits, replace=False)] ^= 1
    return np.packbits(out, axis=1)


def test_finds_perturbed_neighbours_like_brute_force() -> None:
    rng = np.random.default_rng(1)
    refs = rng.integers(0, 256, (5000, 32), dtype=np.uint8)
    truth = rng.choice(5000, 300, replace=False)
    queries = _flip(refs[truth], 20, rng)  # ~ what blur and tilt do to an ORB descriptor
    cand = HammingIndex(refs).candidates(queries)
    found = 0
    for q in range(len(queries)):
        rows = cand.ref[cand.query == q]
        dists = cand.dist[cand.query == q]
        if truth[q] in rows:
            found += 1
            assert dists[rows == truth[q]][0] == 20
    assert found / len(queries) > 0.9


def test_starts_group_candidates_by_query() -> None:
    rng = np.random.default_rng(2)
    refs = rng.integers(0, 256, (500, 32), dtype=np.uint8)
    cand = HammingIndex(refs).candidates(refs[:50])
    assert np.all(np.diff(cand.query) >= 0)
    assert list(cand.query[cand.starts]) == list(cand.queries)
    best = np.minimum.reduceat(cand.dist, cand.starts)
    assert np.all(best == 0)  # every descriptor finds itself


def test_empty_index_and_empty_query() -> None:
    empty = HammingIndex(np.zeros((0, 32), np.uint8))
    assert len(empty.candidates(np.zeros((3, 32), np.uint8)).dist) == 0
    full = HammingIndex(np.ones((10, 32), np.uint8))
    assert len(full.candidates(np.zeros((0, 32), np.uint8)).dist) == 0


def test_correlation_ignores_colour_cast_and_trims_occluders() -> None:
    from device.hardware.vision.appearance import correlate

    rng = np.random.default_rng(3)
    ref = rng.uniform(0, 255, (400, 3)).astype(np.float32)
    other = rng.uniform(0, 255, (400, 3)).astype(np.float32)
    cast = ref * np.float32([0.5, 0.8, 1.2]) + 20  # dim, tinted lamp
    assert correlate(cast, np.stack([ref, other]))[0] > 0.99
    occluded = cast.copy()
    occluded[:80] = 200  # a finger over a fifth of the pixels
    plain, trimmed = correlate(occluded, ref[None])[0], correlate(occluded, ref[None], trim=0.25)[0]
    assert trimmed > plain and trimmed > 0.95
    assert correlate(occluded, other[None], trim=0.25)[0] < 0.3
