"""The LSH index finds near neighbours that brute force finds, and nothing for an empty index."""

from __future__ import annotations

import numpy as np

from device.hardware.vision.hamming_index import HammingIndex, _stable_order


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


def test_keys_are_the_sampled_bits_in_blocks_of_any_size() -> None:
    """The keys come from one blocked matrix product; they must equal the definition (bit b of a
    table's sample weighs 2**b) for any number of queries, a block's edge included."""
    rng = np.random.default_rng(4)
    refs = rng.integers(0, 256, (300, 32), dtype=np.uint8)
    index = HammingIndex(refs)
    for n in (1, 127, 128, 129, 700):
        q = rng.integers(0, 256, (n, 32), dtype=np.uint8)
        bits = np.unpackbits(q, axis=1)[:, index._positions]  # n x tables x bits
        expected = (bits.astype(np.int64) << np.arange(index.bits)).sum(axis=2)
        assert np.array_equal(index._keys(q), expected)


def test_pooled_match_keeps_pairs_unambiguous_about_the_place() -> None:
    """Each kept pair's best neighbour beats, by the ratio, every candidate more than 10 px away
    (per coordinate) on the card; a query whose rivals are all near its best place is kept."""
    from device.hardware.vision.localiser import PooledLocaliser

    rng = np.random.default_rng(5)
    base = rng.integers(0, 256, (500, 32), dtype=np.uint8)
    refs = _flip(np.repeat(base, 4, axis=0), 6, rng)  # each feature at four places, some near
    points = rng.uniform(0, 40, (2000, 2)).astype(np.float32)
    loc = PooledLocaliser(points, refs)
    queries = _flip(base, 12, rng)
    qpts = rng.uniform(0, 600, (len(queries), 2)).astype(np.float32)
    got = loc.match(qpts, queries)
    cand = loc.index.candidates(queries)
    expected = set()
    for q in np.unique(cand.query):
        sel = cand.query == q
        ref, dist = cand.ref[sel], cand.dist[sel]
        b = int(np.argmin((dist << 32) | ref))
        far = np.abs(loc.points[ref] - loc.points[ref[b]]).max(axis=1) > 10.0
        d2 = min(int(dist[far].min()) if far.any() else 1 << 20, 256)
        if dist[b] <= 64 and dist[b] < 0.8 * d2:
            expected.add((tuple(qpts[q]), tuple(loc.points[ref[b]])))
    pairs = {(tuple(f), tuple(c)) for f, c in zip(got.frame, got.card, strict=True)}
    assert pairs == expected and 20 < len(expected) < len(queries) - 50


def test_buckets_keep_rows_in_order_whatever_the_key_width() -> None:
    """The index's per-table row order is a stable sort by key, done as two 16-bit radix sorts:
    the same order as numpy's stable sort, for keys under and over 2**16 and many ties."""
    rng = np.random.default_rng(5)
    for high in (1 << 10, 1 << 16, 1 << 18, 1 << 24):
        keys = rng.integers(0, high, 20_000).astype(np.int64)
        keys[::7] = keys[0]  # a crowded bucket
        assert np.array_equal(_stable_order(keys), np.argsort(keys, kind="stable"))
