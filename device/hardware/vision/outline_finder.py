"""Card-shaped quadrilaterals found by their straight edges, for frames where features found nothing.

A blurred card under a lamp's glare and two fingers gives ORB almost no corners of its own (stop
59, text-frame tuning frames ending "none": 0-12 of a frame's matches agreed with the card's true
pose, which passed every appearance check), yet its outline is plain to see: four straight sides,
each broken where a finger crosses it. Contours merge the card with the fingers (stop 24); straight
segments do not. So: line segments (LSD) on the half-size grey frame, collinear ones joined into
lines, and every two pairs of nearly parallel lines that cross at a card's angles and enclose a
card's proportions taken as a quadrilateral, scored by how much of each side the segments cover.
The identifier judges each quadrilateral as it judges any fit; nothing here knows a deck.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from device.hardware.vision.card_art import CARD_H, CARD_W

_MIN_SEGMENT = 12.0  # half-size px: shorter segments are texture, not a card's side
_JOIN_DEG = 4.0  # segments this close in direction ...
_JOIN_PX = 2.5  # ... and this close to each other's line are one line
_SEGMENTS = 120  # the longest segments joined (a card's sides, even broken by fingers, are among them)
_LINES = 16  # the longest lines kept (by the length their segments cover)
_PARALLEL_DEG = 25.0  # opposite sides of a tilted card stay this close to parallel
_CORNER_MIN_DEG = 55.0  # adjacent sides meet at least at this angle
_ASPECT = (1.05, 1.9)  # long over short side of a card seen at up to ~35 degrees of tilt (card: 1.40)
_MIN_SIDE = 30.0  # half-size px: a shorter side is no card held up to be read
_MIN_COVER = 0.3  # each side at least this much covered by its segments ...
_MIN_MEAN_COVER = 0.5  # ... and the four on average this much
_OUTSIDE = 0.1  # corners may lie this share of the frame's size outside it
_QUADS = 3  # quadrilaterals returned, best first
_APART_PX = 8.0  # full-size px: a quadrilateral whose corners all lie this close to a better one is the same


@dataclass(frozen=True)
class Line:
    """Joined collinear segments: a unit direction, a point on the line, and the covered
    intervals along it (parameter t of point + t * direction)."""

    direction: np.ndarray
    point: np.ndarray
    spans: np.ndarray  # (n, 2) sorted, non-overlapping

    @property
    def length(self) -> float:
        return float((self.spans[:, 1] - self.spans[:, 0]).sum())


def segments(grey_half: np.ndarray, detector: cv2.LineSegmentDetector) -> np.ndarray:
    """LSD segments (n x 4: x1, y1, x2, y2) at least `_MIN_SEGMENT` long."""
    found = detector.detect(grey_half)[0]
    if found is None:
        return np.zeros((0, 4), np.float32)
    seg = found.reshape(-1, 4)
    length = np.hypot(seg[:, 2] - seg[:, 0], seg[:, 3] - seg[:, 1])
    return seg[length >= _MIN_SEGMENT]


def join_lines(seg: np.ndarray) -> list[Line]:
    """Collinear segments joined greedily, longest first (of the `_SEGMENTS` longest); the
    `_LINES` longest lines."""
    if len(seg) == 0:
        return []
    d = seg[:, 2:] - seg[:, :2]
    length = np.hypot(d[:, 0], d[:, 1])
    top = np.argsort(-length)[:_SEGMENTS]
    seg, d, length = seg[top], d[top], length[top]
    unit = d / length[:, None]
    mid = (seg[:, :2] + seg[:, 2:]) / 2
    normal = np.stack([-unit[:, 1], unit[:, 0]], axis=1)
    # same[i, j]: segment j lies along segment i's line (direction, and both its ends near it)
    same = np.abs(unit @ unit.T) >= np.cos(np.deg2rad(_JOIN_DEG))
    for end in (seg[:, :2], seg[:, 2:]):
        off = normal @ end.T - (normal * mid).sum(axis=1)[:, None]
        same &= np.abs(off) <= _JOIN_PX
    # t[i, j]: where segment j's ends fall along segment i's line (parameter from its midpoint)
    at = (unit * mid).sum(axis=1)[:, None]
    t_start, t_end = unit @ seg[:, :2].T - at, unit @ seg[:, 2:].T - at
    lo_t, hi_t = np.minimum(t_start, t_end), np.maximum(t_start, t_end)
    rows, cols = np.nonzero(same)
    first = np.searchsorted(rows, np.arange(len(seg) + 1)).tolist()
    along = cols.tolist()
    used = [False] * len(seg)
    lines: list[Line] = []
    for i in range(len(seg)):  # (longest first)
        if used[i]:
            continue
        members = [j for j in along[first[i] : first[i + 1]] if not used[j]]
        for j in members:
            used[j] = True
        used[i] = True
        if len(members) <= 1:  # (only itself)
            spans = np.array([[lo_t[i, i], hi_t[i, i]]])
        else:
            spans = _merged(lo_t[i, members], hi_t[i, members])
        lines.append(Line(unit[i], mid[i], spans))
    lines.sort(key=lambda ln: -ln.length)
    return lines[:_LINES]


def _merged(lo: np.ndarray, hi: np.ndarray) -> np.ndarray:
    """Overlapping intervals [lo, hi] merged (n x 2, sorted by start)."""
    order = np.argsort(lo, kind="stable")
    merged = [[float(lo[order[0]]), float(hi[order[0]])]]
    for a, b in zip(lo[order[1:]].tolist(), hi[order[1:]].tolist(), strict=True):
        if a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return np.array(merged)


def card_quads(grey_half: np.ndarray, detector: cv2.LineSegmentDetector) -> list[np.ndarray]:
    """Up to `_QUADS` card-shaped quadrilaterals (4 x 2 full-frame corners, clockwise in the
    image from a short side's start), the most covered by segments first."""
    lines = join_lines(segments(grey_half, detector))
    n = len(lines)
    if n < 4:
        return []
    h, w = grey_half.shape[:2]
    dirs = np.array([ln.direction for ln in lines])
    pts = np.array([ln.point for ln in lines])
    dots = np.abs(dirs @ dirs.T)
    ii, jj = np.nonzero(np.triu(dots >= np.cos(np.deg2rad(_PARALLEL_DEG)), 1))
    if len(ii) < 2:
        return []
    a, b = np.triu_indices(len(ii), 1)
    i, j, k, m = ii[a], jj[a], ii[b], jj[b]
    cos_corner = np.cos(np.deg2rad(_CORNER_MIN_DEG))
    ok = (i != k) & (i != m) & (j != k) & (j != m)
    ok &= np.maximum.reduce([dots[i, k], dots[i, m], dots[j, k], dots[j, m]]) <= cos_corner
    i, j, k, m = i[ok], j[ok], k[ok], m[ok]
    if len(i) == 0:
        return []
    cross = _crossings(dirs, pts)  # n x n x 2 (nan where parallel)
    quad = np.stack([cross[i, k], cross[k, j], cross[j, m], cross[m, i]], axis=1)  # q x 4 x 2
    lo, hi = -_OUTSIDE * np.array([w, h]), (1 + _OUTSIDE) * np.array([w, h])
    keep = np.isfinite(quad).all(axis=(1, 2)) & (quad >= lo).all(axis=(1, 2)) & (quad <= hi).all(axis=(1, 2))
    edges = np.roll(quad, -1, axis=1) - quad
    sides = np.linalg.norm(edges, axis=2)
    z = edges[:, :, 0] * np.roll(edges, -1, axis=1)[:, :, 1] - edges[:, :, 1] * np.roll(edges, -1, axis=1)[:, :, 0]
    keep &= (sides.min(axis=1) >= _MIN_SIDE) & ((z > 0).all(axis=1) | (z < 0).all(axis=1))
    aspect = (sides[:, 0] + sides[:, 2]) / np.maximum(sides[:, 1] + sides[:, 3], 1e-6)
    aspect = np.maximum(aspect, 1 / np.maximum(aspect, 1e-6))
    keep &= (aspect >= _ASPECT[0]) & (aspect <= _ASPECT[1])
    if not keep.any():
        return []
    quad, sides = quad[keep], sides[keep]
    on = np.stack([k[keep], j[keep], m[keep], i[keep]], axis=1)  # the line each side lies on
    covered = _covered(lines, dirs, pts, quad, on)  # q x 4 px
    cover = covered / np.maximum(sides, 1e-6)
    good = (cover.min(axis=1) >= _MIN_COVER) & (cover.mean(axis=1) >= _MIN_MEAN_COVER)
    order = np.flatnonzero(good)[np.argsort(-covered[good].sum(axis=1))]
    kept: list[np.ndarray] = []
    for q in order:
        card = _short_first(_clockwise(quad[q] * 2.0))
        if all(_apart(card, k2) for k2 in kept):
            kept.append(card)
        if len(kept) == _QUADS:
            break
    return [k2.astype(np.float32) for k2 in kept]


def _crossings(dirs: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Where every two lines meet (n x n x 2; nan for nearly parallel lines)."""
    det = dirs[:, None, 0] * (-dirs[None, :, 1]) - dirs[:, None, 1] * (-dirs[None, :, 0])
    diff = pts[None, :, :] - pts[:, None, :]  # b.point - a.point
    det = np.where(np.abs(det) < 1e-6, np.nan, det)
    t = (diff[..., 0] * (-dirs[None, :, 1]) - diff[..., 1] * (-dirs[None, :, 0])) / det
    return pts[:, None, :] + t[..., None] * dirs[:, None, :]


def _covered(lines: list[Line], dirs: np.ndarray, pts: np.ndarray, quad: np.ndarray, on: np.ndarray) -> np.ndarray:
    """How many px of each side (q x 4) the segments of its line cover."""
    most = max(len(ln.spans) for ln in lines)
    spans = np.full((len(lines), most, 2), np.nan)
    for n, ln in enumerate(lines):
        spans[n, : len(ln.spans)] = ln.spans
    start, end = quad, np.roll(quad, -1, axis=1)
    ta = ((start - pts[on]) * dirs[on]).sum(axis=2)
    tb = ((end - pts[on]) * dirs[on]).sum(axis=2)
    lo_t, hi_t = np.minimum(ta, tb)[..., None], np.maximum(ta, tb)[..., None]
    s = spans[on]  # q x 4 x most x 2
    inside = np.clip(s[..., 1], lo_t, hi_t) - np.clip(s[..., 0], lo_t, hi_t)
    return np.nansum(inside, axis=2)


def _clockwise(quad: np.ndarray) -> np.ndarray:
    """The same corners, clockwise in image coordinates (y down), keeping the first."""
    e = np.roll(quad, -1, axis=0) - quad
    z = float((e[:, 0] * np.roll(e, -1, axis=0)[:, 1] - e[:, 1] * np.roll(e, -1, axis=0)[:, 0]).sum())
    return quad if z > 0 else np.concatenate([quad[:1], quad[1:][::-1]])


def _short_first(quad: np.ndarray) -> np.ndarray:
    """The same clockwise corners, starting where a short side starts (a card's top is short)."""
    sides = np.linalg.norm(np.roll(quad, -1, axis=0) - quad, axis=1)
    return quad if sides[0] + sides[2] <= sides[1] + sides[3] else np.roll(quad, -1, axis=0)


def _apart(a: np.ndarray, b: np.ndarray) -> bool:
    """Whether two quadrilaterals differ (in either of a card's two ways round)."""
    return min(np.abs(a - b).max(), np.abs(a - np.roll(b, -2, axis=0)).max()) > _APART_PX


def orientations(quad: np.ndarray) -> list[np.ndarray]:
    """The card's corners (clockwise from its top-left, as CARD_CORNERS) for both ways a card can
    lie in a quadrilateral that starts at a short side: upright or turned half round."""
    assert CARD_H > CARD_W
    return [quad, np.roll(quad, -2, axis=0)]
