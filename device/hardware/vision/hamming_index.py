"""One index over every enrolled ORB descriptor: multi-table LSH on bit samples, in numpy.

Brute force compares each of ~600 frame descriptors with every enrolled descriptor (30k at 60
cards), which costs tens of milliseconds and grows with the deck. Here each of `tables` hash tables
keys a descriptor by `bits` sampled bits; a query only looks at the descriptors sharing a bucket in
some table, so the work per frame is the bucket sizes, not the deck size. Near neighbours (Hamming
distance ~20-50 of 256 under blur and tilt) collide in at least one table with high probability.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Candidates:
    """Candidate pairs grouped by query: query row, reference row, Hamming distance.

    `starts` holds the first pair of each query that has any candidate (`queries` are those rows),
    so per-query reductions are `np.minimum.reduceat(x, starts)`.
    """

    query: np.ndarray
    ref: np.ndarray
    dist: np.ndarray
    queries: np.ndarray
    starts: np.ndarray


class HammingIndex:
    """Multi-table bit-sampling LSH over 256-bit descriptors."""

    def __init__(
        self,
        descriptors: np.ndarray,
        tables: int = 24,
        bits: int = 18,
        max_bucket: int = 32,
        seed: int = 7,
    ):
        desc = np.ascontiguousarray(descriptors, np.uint8).reshape(-1, 32)
        self.size = len(desc)
        self.bits = bits
        self.max_bucket = max_bucket
        self._d64 = desc.view(np.uint64)
        self._positions = _choose_bits(desc, tables, bits, seed)
        self._weights = 1 << np.arange(bits, dtype=np.int64)
        keys = self._keys(desc)  # N x T
        nbuckets = 1 << bits
        # Per table: descriptor rows sorted by key, and CSR offsets of each key's bucket.
        self._order = np.empty(tables * self.size, np.int32)
        self._offsets = np.empty((tables, nbuckets + 1), np.int32)
        for t in range(tables):
            self._order[t * self.size : (t + 1) * self.size] = np.argsort(keys[:, t], kind="stable")
            self._offsets[t, 0] = t * self.size
            self._offsets[t, 1:] = t * self.size + np.cumsum(np.bincount(keys[:, t], minlength=nbuckets))

    def _keys(self, desc: np.ndarray) -> np.ndarray:
        bits = np.unpackbits(desc, axis=1)  # N x 256
        sampled = bits[:, self._positions]  # N x T x B
        return (sampled.astype(np.int64) @ self._weights).astype(np.int64)

    def candidates(self, query: np.ndarray) -> Candidates:
        """All (query, reference) pairs sharing a bucket in some table, with their distances."""
        q = np.ascontiguousarray(query, np.uint8).reshape(-1, 32)
        empty = np.zeros(0, np.int64)
        if self.size == 0 or len(q) == 0:
            return Candidates(empty, empty, empty, empty, empty)
        keys = self._keys(q)  # M x T
        tables = np.arange(keys.shape[1])
        lo = self._offsets[tables, keys].astype(np.int64)  # M x T
        hi = self._offsets[tables, keys + 1].astype(np.int64)
        counts = (hi - lo).ravel()
        # Crowded buckets hold undistinctive descriptors (plain borders, flat colour): skip them.
        counts[counts > self.max_bucket] = 0
        total = int(counts.sum())
        if total == 0:
            return Candidates(empty, empty, empty, empty, empty)
        # Expand each (query, table) bucket range into its member rows, query-major.
        ends = np.cumsum(counts)
        rep = np.repeat(np.arange(len(counts)), counts)
        within = np.arange(total) - np.repeat(ends - counts, counts)
        ref = self._order[lo.ravel()[rep] + within].astype(np.int64)
        qi = rep // keys.shape[1]
        dist = np.bitwise_count(self._d64[ref] ^ q.view(np.uint64)[qi]).sum(axis=1, dtype=np.int64)
        per_query = np.bincount(qi, minlength=len(q))
        queries = np.flatnonzero(per_query)
        starts = (np.cumsum(per_query) - per_query)[queries]
        return Candidates(qi, ref, dist, queries, starts)


def _choose_bits(desc: np.ndarray, tables: int, bits: int, seed: int) -> np.ndarray:
    """Bit positions per table: the most balanced bits (about half the descriptors set them),
    spread over the tables so that tables see different bits."""
    rng = np.random.default_rng(seed)
    if len(desc):
        balance = np.abs(np.unpackbits(desc, axis=1).mean(axis=0) - 0.5)
    else:
        balance = np.zeros(256)
    pool = np.argsort(balance, kind="stable")[: max(bits * 2, 192)]
    rows = []
    order = rng.permutation(pool)
    for t in range(tables):
        start = (t * bits) % len(order)
        pick = np.roll(order, -start)[:bits]
        if t * bits // len(order) != (t * bits + bits - 1) // len(order):
            order = rng.permutation(pool)
        rows.append(pick)
    return np.stack(rows)
