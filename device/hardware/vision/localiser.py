"""Where is the card? One homography from features pooled over the whole deck.

Most decks print every card on one frame template (border, title box, text box, corner gems).
Features on that template cannot tell cards apart, but they do say where the card is. The
per-card index cannot use them: the same descriptor at the same canonical position appears once
per card (and per described view), so its LSH buckets overflow and are skipped, and a ratio test
between cards throws the rest away. Here the deck's descriptors are pooled by canonical position:
descriptors that are near-identical (Hamming <= 24) at the same place (one 6 px cell) are kept
once, so a template feature shared by 44 cards is one entry. A frame descriptor's match is kept
when it is clearly better than the best match *at another place* (ratio 0.8), whatever card it
came from. RANSAC on those correspondences gives the frame -> canonical card homography; which
card it is is then decided densely on the warped face (identifier.py).

Nothing here knows the deck: the template is whatever the enrolled faces share.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from device.hardware.vision.hamming_index import HammingIndex
from device.hardware.vision.popcount import bit_count

_CELL_PX = 6.0  # canonical card pixels per pooling cell
_SAME_DESC = 24  # Hamming distance under which two descriptors in one cell are one feature
_OTHER_PLACE_PX = 10.0  # the ratio test's rival must be at least this far away on the card
_ROW = 1 << 20  # guided matching's cell key: row * _ROW + column
_FAR_PX = 1e5  # predicted places further than this from the card are not looked up


@dataclass(frozen=True)
class Correspondences:
    """Frame points and their canonical card points (N x 2 each, float32)."""

    frame: np.ndarray
    card: np.ndarray

    def __len__(self) -> int:
        return len(self.frame)


class PooledLocaliser:
    """The deck's descriptors pooled by canonical position, in one LSH index."""

    def __init__(self, points: np.ndarray, descriptors: np.ndarray, max_dist: int = 64, ratio: float = 0.8):
        keep = _pool(points, descriptors)
        self.points = np.ascontiguousarray(points[keep], np.float32)
        self.descriptors = np.ascontiguousarray(descriptors[keep], np.uint8)
        self._xs = np.ascontiguousarray(self.points[:, 0])
        self._ys = np.ascontiguousarray(self.points[:, 1])
        self.index = HammingIndex(self.descriptors)
        self.max_dist = max_dist
        self.ratio = ratio
        self._grids: dict[float, _Cells] = {}  # guided matching's grids, by cell side

    @property
    def size(self) -> int:
        return len(self.points)

    def match(self, frame_points: np.ndarray, frame_descriptors: np.ndarray) -> Correspondences:
        """Frame -> card correspondences that are unambiguous about the *place* on the card."""
        empty = Correspondences(np.zeros((0, 2), np.float32), np.zeros((0, 2), np.float32))
        if self.size == 0 or len(frame_descriptors) == 0:
            return empty
        cand = self.index.candidates(frame_descriptors)
        if len(cand.queries) == 0:
            return empty
        packed = (cand.dist << 32) | cand.ref
        best = np.minimum.reduceat(packed, cand.starts)
        d1 = best >> 32
        best_ref = best & 0xFFFFFFFF
        counts = np.diff(np.append(cand.starts, len(cand.dist)))
        # max(|dx|, |dy|) > limit, per coordinate with `take` (a 2-column gather and a row-wise
        # max are numpy's slow paths: ~4 of the ~6 ms of a 1,500-corner match before)
        far = np.zeros(len(cand.ref), bool)
        for xy in (self._xs, self._ys):
            near = np.repeat(np.take(xy, best_ref), counts)
            far |= np.abs(np.take(xy, cand.ref) - near) > _OTHER_PLACE_PX
        d2 = np.minimum.reduceat(np.where(far, cand.dist, 1 << 20), cand.starts)
        ok = (d1 <= self.max_dist) & (d1 < self.ratio * np.minimum(d2, 256))
        # Most distinctive first (lowest ratio), for a sampler that tries good pairs first.
        order = np.argsort(d1[ok] / np.maximum(np.minimum(d2[ok], 256), 1), kind="stable")
        return Correspondences(frame_points[cand.queries[ok]][order], self.points[best_ref[ok]][order])

    def match_near(
        self, frame_points: np.ndarray, frame_descriptors: np.ndarray, h: np.ndarray, radius: float
    ) -> Correspondences:
        """Guided matching: each frame point paired with the pooled descriptor nearest in Hamming
        distance (at most `max_dist`; on a tie, the first in grid order) among those within
        `radius` card pixels of where the frame -> card homography `h` puts it; most distinctive
        (lowest distance) first. No ratio test: the place is the evidence, so a template feature
        that is everywhere on the deck counts.

        The frame points are taken a grid cell at a time: the pooled entries of the 3 x 3 cells
        round it are three runs of the sorted grid, and OpenCV compares every point of the cell
        with all of them at once, the ones out of reach masked out. A dense card region puts
        ~1,300 entries within reach of each point: pair by pair in numpy that cost 24-275 ms a
        call (stop 46), which was the slowest frames' time."""
        empty = Correspondences(np.zeros((0, 2), np.float32), np.zeros((0, 2), np.float32))
        if self.size == 0 or len(frame_points) == 0:
            return empty
        cells = self._cells(radius)
        at = cv2.perspectiveTransform(frame_points.reshape(-1, 1, 2).astype(np.float64), h).reshape(-1, 2)
        ok = np.isfinite(at).all(axis=1) & (np.abs(at) < _FAR_PX).all(axis=1)
        queries = np.flatnonzero(ok)
        if len(queries) == 0:
            return empty
        at = at[queries]
        cell = np.floor(at / radius).astype(np.int64)
        keys, first_of, by_cell = np.unique(cell[:, 1] * _ROW + cell[:, 0], return_index=True, return_inverse=True)
        rows, cols = cell[first_of, 1], cell[first_of, 0]
        # a row's three cells (col - 1 .. col + 1) are one run of the grid's sorted keys
        runs = [
            (
                np.searchsorted(cells.keys, (rows + dy) * _ROW + cols - 1, "left"),
                np.searchsorted(cells.keys, (rows + dy) * _ROW + cols + 1, "right"),
            )
            for dy in (-1, 0, 1)
        ]
        desc = np.ascontiguousarray(frame_descriptors, np.uint8)[queries]
        best = np.full(len(queries), -1, np.int64)
        dist = np.full(len(queries), np.iinfo(np.int32).max, np.int64)
        members = np.argsort(by_cell, kind="stable")
        bounds = np.searchsorted(by_cell[members], np.arange(len(keys) + 1))
        for u in range(len(keys)):
            entries = np.concatenate([np.arange(lo[u], hi[u]) for lo, hi in runs])  # grid order
            if len(entries) == 0:
                continue
            q = members[bounds[u] : bounds[u + 1]]
            reach = np.abs(cells.xs[entries][None, :] - at[q, 0:1]) <= radius
            reach &= np.abs(cells.ys[entries][None, :] - at[q, 1:2]) <= radius
            d, j = cv2.batchDistance(
                desc[q],
                cells.descriptors[entries],
                cv2.CV_32S,
                normType=cv2.NORM_HAMMING,
                K=1,
                mask=reach.view(np.uint8),
            )
            found = j[:, 0] >= 0
            best[q[found]] = entries[j[found, 0]]
            dist[q[found]] = d[found, 0]
        good = np.flatnonzero((best >= 0) & (dist <= self.max_dist))
        if len(good) == 0:
            return empty
        order = good[np.argsort(dist[good], kind="stable")]
        return Correspondences(frame_points[queries[order]].astype(np.float32), cells.points[best[order]])

    def _cells(self, radius: float) -> _Cells:
        """The pooled points and descriptors sorted by grid cell of side `radius` (made once per radius)."""
        cells = self._grids.get(radius)
        if cells is None:
            cell = np.floor(self.points / radius).astype(np.int64)
            keys = cell[:, 1] * _ROW + cell[:, 0]
            order = np.argsort(keys, kind="stable")
            points = self.points[order]
            cells = _Cells(
                keys[order], points, points[:, 0].copy(), points[:, 1].copy(), self.descriptors[order].copy()
            )
            if len(self._grids) >= 8:  # a bound: the identifier asks for one radius
                self._grids.clear()
            self._grids[radius] = cells
        return cells


@dataclass(frozen=True)
class _Cells:
    """Pooled entries sorted by grid cell, for guided matching."""

    keys: np.ndarray
    points: np.ndarray
    xs: np.ndarray  # the points' columns, contiguous
    ys: np.ndarray
    descriptors: np.ndarray  # N x 32 uint8


def _pool(points: np.ndarray, descriptors: np.ndarray) -> np.ndarray:
    """Row indices to keep: in each cell, a descriptor is dropped when an earlier one in the same
    cell is within `_SAME_DESC` bits of it (the same feature seen on another card or view; the
    earlier one may itself be dropped for a still earlier one: a chain keeps its first row)."""
    n = len(points)
    if n == 0:
        return np.zeros(0, np.int64)
    cell = np.floor(points / _CELL_PX).astype(np.int64)
    key = cell[:, 1] * 100_000 + cell[:, 0]
    order = np.argsort(key, kind="stable")
    sorted_key = key[order]
    bounds = np.flatnonzero(np.diff(sorted_key)) + 1
    starts = np.concatenate([[0], bounds])
    ends = np.concatenate([bounds, [n]])
    # one row per 64-bit word of the descriptors (in cell order): a word's gather is contiguous
    words = np.ascontiguousarray(np.ascontiguousarray(descriptors, np.uint8).view(np.uint64)[order].T)
    # Every pair (k, j) of one cell with j earlier than k (order is stable, so earlier rows come
    # first within a cell), all cells at once, in chunks to bound memory.
    cell_start = np.repeat(starts, ends - starts)
    earlier = np.arange(n) - cell_start  # how many rows of its cell precede each sorted row
    drop = np.zeros(n, bool)
    chunk = 1 << 20
    offsets = np.concatenate([[0], np.cumsum(earlier)])
    lo = 0
    while lo < n:
        hi = int(np.searchsorted(offsets, offsets[lo] + chunk, side="right")) - 1
        hi = min(max(hi, lo + 1), n)
        k = np.repeat(np.arange(lo, hi), earlier[lo:hi])
        j = cell_start[k] + (np.arange(len(k)) - (offsets[k] - offsets[lo]))
        # The distance a 64-bit word at a time: a pair is dropped as soon as its partial sum
        # is past the bar (the first word alone rules most pairs out).
        dist = np.zeros(len(k), np.int64)
        for word in words:
            dist += bit_count(np.take(word, k) ^ np.take(word, j))
            near = dist <= _SAME_DESC
            k, j, dist = k[near], j[near], dist[near]
        drop[k] = True  # an earlier row stands for it
        lo = hi
    keep = np.ones(n, bool)
    keep[order[drop]] = False
    return np.flatnonzero(keep)
