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

from device.hardware.vision.popcount import bit_count


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
        assert bits <= 24, "keys are computed in float32"
        desc = np.ascontiguousarray(descriptors, np.uint8).reshape(-1, 32)
        self.size = len(desc)
        self.bits = bits
        self.max_bucket = max_bucket
        self._d64 = desc.view(np.uint64)
        self._positions = _choose_bits(desc, tables, bits, seed)
        # key[t] = sum of 2**b over the table's b-th sampled bit: one (256 x tables) product, a
        # row per bit position (its weight per table; 0 for a position no table samples). Every
        # row rather than the sampled ones only: picking those columns out of the unpacked bits
        # cost more than the product saves (the keys are the same: integer sums below 2**24).
        self._key_weights = np.zeros((256, tables), np.float32)
        for t in range(tables):
            np.add.at(self._key_weights[:, t], self._positions[t], (1 << np.arange(bits)).astype(np.float32))
        keys = np.ascontiguousarray(self._keys(desc).T)  # T x N: a table's keys contiguous
        nbuckets = 1 << bits
        # Per table: descriptor rows sorted by key, and CSR offsets of each key's bucket.
        self._order = np.empty(tables * self.size, np.int32)
        self._offsets = np.empty((tables, nbuckets + 1), np.int32)
        for t in range(tables):
            self._order[t * self.size : (t + 1) * self.size] = _stable_order(keys[t])
            self._offsets[t, 0] = t * self.size
            self._offsets[t, 1:] = t * self.size + np.cumsum(np.bincount(keys[t], minlength=nbuckets))
        self._flat_offsets = self._offsets.ravel()
        self._table_base = np.arange(tables, dtype=np.int64) * (nbuckets + 1)

    def _keys(self, desc: np.ndarray) -> np.ndarray:
        """N x T bucket keys: the unpacked bits (N x 256) times their weights per table (256 x T).
        float32 is exact below 2**24 and goes through BLAS (an int64 product does not), in blocks
        of `_KEY_ROWS` rows: on a bigger product OpenBLAS starts threads that spin on the other
        core (measured: 512 rows cost 2.3 ms of this thread and 4.6 ms of the process, 4 blocks
        of 128 rows 0.1 ms)."""
        bits = np.unpackbits(desc, axis=1).astype(np.float32)
        keys = np.empty((len(desc), self._key_weights.shape[1]), np.float32)
        for lo in range(0, len(desc), _KEY_ROWS):
            np.matmul(bits[lo : lo + _KEY_ROWS], self._key_weights, out=keys[lo : lo + _KEY_ROWS])
        return keys.astype(np.int64)

    def candidates(self, query: np.ndarray) -> Candidates:
        """All (query, reference) pairs sharing a bucket in some table, with their distances.

        Written for numpy's fast paths (~2 ms for 600 queries at 60 cards, half of plain fancy
        indexing): `take` for gathers, `repeat` instead of gathering the query rows (pairs come
        query-major), popcounts summed column by column."""
        q = np.ascontiguousarray(query, np.uint8).reshape(-1, 32)
        empty = np.zeros(0, np.int64)
        if self.size == 0 or len(q) == 0:
            return Candidates(empty, empty, empty, empty, empty)
        keys = self._keys(q)  # M x T
        n_tables = keys.shape[1]
        flat = (keys + self._table_base).ravel()  # into the raveled CSR offsets
        lo = np.take(self._flat_offsets, flat)
        counts = np.take(self._flat_offsets, flat + 1) - lo
        # Crowded buckets hold undistinctive descriptors (plain borders, flat colour): skip them.
        counts[counts > self.max_bucket] = 0
        total = int(counts.sum())
        if total == 0:
            return Candidates(empty, empty, empty, empty, empty)
        # Expand each (query, table) bucket range into its member rows, query-major.
        pos = np.repeat(lo - (np.cumsum(counts) - counts), counts) + np.arange(total, dtype=np.int64)
        ref = np.take(self._order, pos).astype(np.int64)
        per_query = counts.reshape(-1, n_tables).sum(axis=1)
        qi = np.repeat(np.arange(len(q), dtype=np.int64), per_query)
        x = np.take(self._d64, ref, axis=0)
        x ^= np.repeat(q.view(np.uint64), per_query, axis=0)
        ones = bit_count(x)
        dist = ones[:, 0].astype(np.int64)
        for col in range(1, ones.shape[1]):
            dist += ones[:, col]
        queries = np.flatnonzero(per_query)
        starts = (np.cumsum(per_query) - per_query)[queries]
        return Candidates(qi, ref, dist, queries, starts)


_KEY_ROWS = 128  # rows per key product: below OpenBLAS's threading (see HammingIndex._keys)


def _stable_order(keys: np.ndarray) -> np.ndarray:
    """`np.argsort(keys, kind="stable")` for keys below 2**32, as two stable sorts of 16-bit
    halves (low, then high: a least-significant-digit radix sort). numpy radix-sorts 16-bit
    integers but timsorts wider ones: an index's 24 sorts take ~a third of the time this way
    (held-out deck, 54k descriptors: 0.17 -> 0.06 s; `houston identify` builds two indexes at
    start-up)."""
    low = np.argsort((keys & 0xFFFF).astype(np.uint16), kind="stable")
    return low[np.argsort((keys[low] >> 16).astype(np.uint16), kind="stable")]


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
