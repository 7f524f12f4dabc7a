"""Plain-field cards (badges) found by their colour field, for frames where features found nothing.

A badge is a plain coloured field around one emblem: ORB finds few corners on it (and
equalising a frame turns a flat field into noise that out-scores them), and a finger or a lamp
reflection over the star removes what is left. Its field, though, is a large patch of one known
colour. For each enrolled badge this finds the largest convex patch of that colour's
chromaticity (light level does not change it), fits a quadrilateral to it and returns the four
ways the card's field could sit in it. The identifier's usual appearance checks then decide:
a wrong orientation or a coloured poster does not look like the badge once warped back.
A white or grey field shares its chromaticity with the room, so for such a card (the identifier
chooses which: few corners of its own) the patch must also be flat, and the two largest such
patches with a hole for the emblem are returned (stop 33).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from device.hardware.vision.card_art import CARD_CORNERS
from device.hardware.vision.channels import channel_max, channel_min, channel_sum
from device.hardware.vision.references import THUMB_SCALE

MIN_FIELD_SHARE = 0.5  # a card is a plain-field card when one colour covers this much of its face
_FIELD_TOLERANCE = 0.06  # chromaticity (L1) within which a thumbnail pixel belongs to the field
_LIFTED_MIN_SHARE = 0.075  # added_light: a reflection lifts at least this share of the field's hull ...
_LIFTED_INSIDE = 0.8  # ... this much of it clear of the hull's outline (stop 39, own tuning frames)
_K9 = np.ones((9, 9), np.uint8)
_NEUTRAL_JOIN_PX = 3  # a flat grey patch is closed only across gaps this wide: the card's outline is one
_EMBLEM_MIN_PX = 12  # thumbnail pixels: a smaller hole in a field is no emblem to place the card by
_EMBLEM_STEP_DEG = 10  # the emblem fit tries every rotation in these steps
_EMBLEM_MIN_HOLE = 0.002  # a hole in a frame's field smaller than this share of the (half-size) frame is no emblem
_EMBLEM_APART_DEG = 30  # ... and the rotations returned at least this far apart
_EMBLEM_PLACEMENTS = 2  # placements (rotations) returned per hole
_EMBLEM_HOLES = 6  # the largest holes of a field that are tried as its emblem
_EMBLEM_MIN_IN_VIEW = 0.3  # an emblem fit must put this share of the face's points in the frame
_EMBLEM_MIN_KIND = 8  # points of a kind (field, mark, outside) in view for that kind to count
_EMBLEM_MIN_SCORE = 0.65  # an emblem fit scoring less is not returned (tuning: most empty patches' holes)
_NEUTRAL_EMBLEM_MIN_SCORE = 0.85  # ... for a white or grey field (stop 53, probe tuning frames, measured with the
# since reverted first-fit band on: placements within 15 px of the card scored 0.71-0.99, median 0.92; those on
# empty frames median 0.73, 90th percentile 0.80)
_EMBLEM_GRID = 3  # thumbnail px between the scored points
_EMBLEM_PAD = 10  # thumbnail px: the band outside the card whose points are scored too
_FIELD, _MARK, _OUTSIDE = 0, 1, 2


@dataclass(frozen=True)
class BadgeColour:
    """One enrolled plain-field card: its index, its field's chromaticity and where the field
    lies on the card (4 x 2 canonical card coordinates, clockwise from top-left)."""

    card: int
    chroma: np.ndarray  # 3 floats summing to 1 (B, G, R shares)
    field: np.ndarray
    bgr: np.ndarray  # the field's colour on the enrolled face (median B, G, R)
    mask: np.ndarray  # thumbnail-size float32: 1 where the enrolled face is field colour
    emblem: Emblem | None = None  # the largest hole in the field, where the card has one


@dataclass(frozen=True)
class Emblem:
    """The largest mark inside a plain card's field (its emblem: a hole in the field's colour),
    as the second moments of its pixels in canonical card coordinates, and points over the whole
    face and just outside it, labelled field, mark or outside: enough to place the card from the
    emblem alone (`emblem_fits`)."""

    mean: np.ndarray  # (2,) centroid
    cov: np.ndarray  # (2, 2) covariance
    points: np.ndarray  # (N, 2) canonical points over the face and a band around it
    kind: np.ndarray  # (N,) int8: _FIELD, _MARK (the emblem, a border: not field) or _OUTSIDE the card


def _emblem_of(mask: np.ndarray, box: tuple[int, int, int, int]) -> Emblem | None:
    """The emblem of a field mask (thumbnail size, 1 = field): the largest non-field component
    inside the field's bounding box that does not touch it, or None (a field with no hole)."""
    x, y, w, h = box
    inner = np.zeros_like(mask)
    inner[y : y + h, x : x + w] = 1 - mask[y : y + h, x : x + w]
    n, labels, stats, _ = cv2.connectedComponentsWithStats(inner)
    best, best_area = 0, _EMBLEM_MIN_PX - 1
    for k in range(1, n):
        kx, ky, kw, kh, area = (int(v) for v in stats[k])
        if kx <= x or ky <= y or kx + kw >= x + w or ky + kh >= y + h or area <= best_area:
            continue
        best, best_area = k, area
    if best == 0:
        return None
    ys, xs = np.nonzero(labels == best)
    pts = (np.column_stack([xs, ys]).astype(np.float64) + 0.5) / THUMB_SCALE
    th, tw = mask.shape
    pad = _EMBLEM_PAD
    gy, gx = np.mgrid[-pad : th + pad : _EMBLEM_GRID, -pad : tw + pad : _EMBLEM_GRID]
    gy, gx = gy.ravel(), gx.ravel()
    on_card = (gx >= 0) & (gx < tw) & (gy >= 0) & (gy < th)
    off_card = (gx < -2) | (gx >= tw + 2) | (gy < -2) | (gy >= th + 2)  # (clear of the card's edge)
    keep = on_card | off_card
    gx, gy, on_card = gx[keep], gy[keep], on_card[keep]
    kind = np.full(len(gx), _OUTSIDE, np.int8)
    field = mask[np.clip(gy, 0, th - 1), np.clip(gx, 0, tw - 1)] > 0
    kind[on_card & field] = _FIELD
    kind[on_card & ~field] = _MARK
    grid = (np.column_stack([gx, gy]).astype(np.float64) + 0.5) / THUMB_SCALE
    return Emblem(pts.mean(axis=0), np.cov(pts.T), grid, kind)


def emblem_of_field(mask: np.ndarray) -> Emblem | None:
    """The emblem of a plain face's field mask (thumbnail size, 1 = field; see `_emblem_of`):
    the largest hole in its largest patch. A white or grey field's chromaticity mask has no
    hole where a white emblem is (white shares a grey's chromaticity); the caller measures such
    a field by its level instead (stop 53)."""
    mask = mask.astype(np.uint8)
    box = _largest_patch(mask)
    return None if box is None else _emblem_of(mask, box)


def _largest_patch(mask: np.ndarray) -> tuple[int, int, int, int] | None:
    """The bounding box (x, y, w, h) of a uint8 mask's largest connected patch, or None."""
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask)
    if n < 2:
        return None
    k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    x, y, w, h = (int(v) for v in stats[k, :4])
    return x, y, w, h


def chromaticity(bgr: np.ndarray) -> np.ndarray:
    """Each colour's share of its B + G + R (last axis): brightness taken out."""
    return bgr / (channel_sum(bgr)[..., None] + 1e-3)


def field_colours(thumbs: np.ndarray, min_chroma: float, min_share: float = MIN_FIELD_SHARE) -> list[BadgeColour]:
    """The enrolled cards that are mostly one coloured field (measured on their own faces, not
    taken from any catalogue): low-texture cards whose field can be found by its colour."""
    out = []
    for i, thumb in enumerate(thumbs):
        face = thumb.astype(np.float32)
        pix = face.reshape(-1, 3).astype(np.float64)
        field = np.median(pix, axis=0)
        chroma = field / max(field.sum(), 1.0)
        if np.abs(chroma - 1 / 3).sum() < min_chroma:
            continue
        own = chromaticity(face)
        mask = (channel_sum(np.abs(own - chroma.astype(np.float32))) <= _FIELD_TOLERANCE).astype(np.uint8)
        if mask.mean() < min_share:
            continue
        box = _largest_patch(mask)
        if box is None:
            continue
        x, y, w, h = box
        s = 1.0 / THUMB_SCALE
        quad = np.float32([[x, y], [x + w, y], [x + w, y + h], [x, y + h]]) * np.float32(s)
        emblem = _emblem_of(mask, box)
        out.append(BadgeColour(i, chroma, quad, field, mask.astype(np.float32), emblem))
    return out


class BadgeFinder:
    """Candidate frame -> card homographies for coloured badges (cheap; judged elsewhere)."""

    def __init__(
        self,
        badges: list[BadgeColour],
        tolerance: float = 0.15,
        min_area: float = 0.03,
        min_solidity: float = 0.45,
        join_px: int = 9,
        seek_radius: float = 0.0,
        max_drift: float = 0.2,
        fit_scale: float = 0.0,
        neutral: dict[int, float] | None = None,
        neutral_patches: int = 2,
        flat_gradient: float = 0.03,
        neutral_fit: bool = True,
        emblem_fits: int = 0,
        neutral_level_band: float = 0.0,
    ):
        self.badges = badges
        self.tolerance = tolerance  # L1 distance in chromaticity (casts move it by up to ~0.1)
        self.min_area = min_area  # share of the frame the field must cover
        self.min_solidity = min_solidity  # field pixels / hull area (emblem, fingers, glare are holes)
        self.join_px = join_px  # closing kernel at half resolution
        self.seek_radius = seek_radius  # > 0: follow the field's colour under a cast (see _seek)
        self.max_drift = max_drift  # ... at most this far (L1 chromaticity) from the enrolled one
        self.fit_scale = fit_scale  # > 0: fit the field's outline by ECC at this share of thumbnail size
        # Badges whose field is white or grey: their chromaticity is the ceiling's and the table's
        # too, so their patches are also *flat* (no edges); the largest `neutral_patches` are tried.
        # Each maps to the most solid its patch may be: its emblem is a hole in the flat field.
        self.neutral = dict(neutral or {})
        self.neutral_patches = neutral_patches
        self.flat_gradient = flat_gradient  # gradient / brightness below which a pixel is flat
        self.neutral_fit = neutral_fit  # whether neutral patches get the outline fit too (~5 ms each)
        self.emblem_fits = emblem_fits  # > 0: holes per coloured patch that also place the card as its emblem
        # > 0: a white or grey patch's holes are looked for among its pixels within this share of the
        # patch's median brightness (its white emblem is flat and grey too: no hole in `near`)
        self.neutral_level_band = neutral_level_band
        # each badge's field mask at that size, padded, and its card -> template transform (made once)
        self._templates = {b.card: _fit_template(b, fit_scale) for b in badges} if fit_scale > 0 else {}
        self.fields: dict[int, np.ndarray] = {}  # the last call's field pixels per searched badge (one per badge)

    def candidates(
        self, frame: np.ndarray, small: np.ndarray | None = None, only: set[int] | None = None
    ) -> list[tuple[int, np.ndarray]]:
        """(badge card index, frame -> card homography) for each plausible badge orientation.
        `small` is the frame's `pyrDown` when the caller has it already (the identifier does);
        `only` limits the search to those cards. The field pixels of each badge's patches (half
        size) are kept in `fields` until the next call."""
        self.fields = {}
        if not self.badges or frame.ndim != 3:
            return []
        small_f = (cv2.pyrDown(frame) if small is None else small).astype(np.float32)
        # A cheap look first, at an eighth of the size: which fields' colours cover enough of the
        # frame at all? (An empty table usually has none, and then costs ~1 ms here.)
        tiny = cv2.resize(small_f, (small_f.shape[1] // 4, small_f.shape[0] // 4), interpolation=cv2.INTER_AREA)
        tiny_planes, tiny_lit = _chroma_planes(tiny)
        need = 0.6 * self.min_area * tiny_lit.size
        present: list[tuple[BadgeColour, np.ndarray]] = []
        for b in self.badges:
            if only is not None and b.card not in only:
                continue
            chroma = self._seek(tiny_planes, tiny_lit, b.chroma.astype(np.float32), need)
            if chroma is not None:
                present.append((b, chroma))
        if not present:
            return []
        planes, lit = _chroma_planes(small_f)
        flat: np.ndarray | None = None
        out = []
        for badge, chroma in present:
            # Sensor noise speckles a dim field: a median keeps the patch whole. (The median of
            # the thresholded distance is the threshold of the median distance: both monotone.)
            near = cv2.medianBlur(_near(planes, lit, chroma, self.tolerance).view(np.uint8), 5)
            if badge.card in self.neutral:
                flat = _flat(small_f, self.flat_gradient) if flat is None else flat
                near = near & flat
                quads = self._quads(near, self.neutral_patches, _NEUTRAL_JOIN_PX, self.neutral[badge.card])
            else:
                quads = self._quads(near, 1, self.join_px)
            inside = np.zeros_like(near)
            for quad in quads:
                cv2.fillConvexPoly(inside, np.round(quad).astype(np.int32), 1)
            if quads:  # the field's pixels on the patches found (not a background of its colour)
                self.fields[badge.card] = near & inside
            emblem_quads: list[list[np.ndarray]] = []
            if self.emblem_fits and quads and badge.emblem:
                by_level = badge.card in self.neutral and self.neutral_level_band > 0
                if by_level:  # (a flat grey room has many holes: only a placement that fits well)
                    holed = _level_split(near, inside, small_f, self.neutral_level_band)
                    emblem_quads = self._emblem_quads(holed, badge, _NEUTRAL_EMBLEM_MIN_SCORE)
                else:
                    emblem_quads = self._emblem_quads(near, badge)
            fit = self.fit_scale > 0 and (self.neutral_fit or badge.card not in self.neutral)
            for quad in quads:
                quad = quad * 2.0 + 0.5  # back to full-frame pixels
                if fit:
                    quad = self._fit_outline(near, badge, quad)
                for shift in range(4):
                    h = cv2.getPerspectiveTransform(np.roll(quad, shift, axis=0).astype(np.float32), badge.field)
                    out.append((badge.card, h))
            for group in emblem_quads:  # placements per hole, ranked and judged like a patch's orientations
                for corners in group:
                    to_frame = cv2.getPerspectiveTransform(CARD_CORNERS, (corners * 2.0 + 0.5).astype(np.float32))
                    field = cv2.perspectiveTransform(badge.field.reshape(-1, 1, 2), to_frame).reshape(4, 2)
                    if self.fit_scale > 0:
                        field = self._fit_outline(near, badge, field)
                    out.append((badge.card, cv2.getPerspectiveTransform(field.astype(np.float32), badge.field)))
        return out

    def _emblem_quads(
        self, near: np.ndarray, badge: BadgeColour, min_score: float = _EMBLEM_MIN_SCORE
    ) -> list[list[np.ndarray]]:
        """Where the card's corners would be (half-size frame) if a hole in the field's patch were
        its emblem: `_EMBLEM_PLACEMENTS` placements (the best-fitting rotations) for each of the
        `emblem_fits` best-fitting of its largest holes.
        A field running off the frame or cut by fingers has an outline that is not the card's;
        its emblem, in the middle, is usually whole. The emblem's second moments fix its centre
        and its affine shape up to a rotation (whitening both), and each rotation is scored by
        `_placement_score`: the face's points on the field's colour where the face is field, off
        it on the emblem and outside the card (points outside the frame not counted)."""
        emblem = badge.emblem
        assert emblem is not None
        joined = cv2.morphologyEx(near, cv2.MORPH_CLOSE, np.ones((self.join_px, self.join_px), np.uint8))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(joined)
        if n < 2:
            return []
        k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        contours, _ = cv2.findContours((labels == k).astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        filled = np.zeros_like(near)
        cv2.drawContours(filled, contours, -1, 1, -1)
        holes = cv2.morphologyEx(filled & (near == 0), cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        _, hlabels, hstats, _ = cv2.connectedComponentsWithStats(holes)
        order = 1 + np.argsort(-hstats[1:, cv2.CC_STAT_AREA])[:_EMBLEM_HOLES]
        e_inv = _sqrtm(emblem.cov, -0.5)
        angles = np.deg2rad(np.arange(0, 360, _EMBLEM_STEP_DEG))
        cos, sin = np.cos(angles), np.sin(angles)
        rot = np.stack([np.stack([cos, -sin], -1), np.stack([sin, cos], -1)], -2)  # (A, 2, 2)
        rel = (emblem.points - emblem.mean).astype(np.float32)
        box = CARD_CORNERS.astype(np.float64) - emblem.mean
        hgt, wid = near.shape
        fits: list[tuple[float, list[np.ndarray]]] = []
        for j in order:
            if hstats[j, cv2.CC_STAT_AREA] < _EMBLEM_MIN_HOLE * near.size:
                break
            ys, xs = np.nonzero(hlabels == j)
            pts = np.column_stack([xs, ys]).astype(np.float64)
            mean = pts.mean(axis=0)
            maps = _sqrtm(np.cov(pts.T), 0.5) @ rot @ e_inv  # (A, 2, 2): canonical offsets -> frame offsets
            px = np.rint(rel @ maps.transpose(0, 2, 1).astype(np.float32) + mean.astype(np.float32)).astype(np.int32)
            inside = (px[..., 0] >= 0) & (px[..., 0] < wid) & (px[..., 1] >= 0) & (px[..., 1] < hgt)
            seen = near[np.clip(px[..., 1], 0, hgt - 1), np.clip(px[..., 0], 0, wid - 1)] > 0
            score = _placement_score(seen, inside, emblem.kind)
            best = _distinct_peaks(score, _EMBLEM_PLACEMENTS, _EMBLEM_APART_DEG // _EMBLEM_STEP_DEG)
            if score[best[0]] >= min_score:
                fits.append((float(score[best[0]]), [(mean + box @ maps[a].T).astype(np.float32) for a in best]))
        fits.sort(key=lambda f: -f[0])  # a background speckle can be a larger hole than the emblem
        return [quads for _, quads in fits[: self.emblem_fits]]

    def _seek(self, planes: tuple[np.ndarray, ...], lit: np.ndarray, c0: np.ndarray, need: float) -> np.ndarray | None:
        """The field's chromaticity in this frame, or None when too little of the frame is near it.
        A lamp's colour temperature or the camera's white balance moves a field's chromaticity by
        up to ~0.2 (L1), past the tolerance; with `seek_radius` the colour is followed: the median
        chromaticity of the pixels within the radius of the enrolled colour, then within the
        tolerance of that (a mean-shift step each), kept when it drifted at most `max_drift`."""
        c = c0
        if self.seek_radius > 0:
            for radius in (self.seek_radius, self.tolerance):
                sel = _near(planes, lit, c, radius)
                if np.count_nonzero(sel) < need:
                    return None
                c = np.float32([np.median(p[sel]) for p in planes])
                c /= c.sum()
            if float(np.abs(c - c0).sum()) > self.max_drift:
                return None
        return c if np.count_nonzero(_near(planes, lit, c, self.tolerance)) >= need else None

    def _fit_outline(self, near: np.ndarray, badge: BadgeColour, quad: np.ndarray) -> np.ndarray:
        """The quad refined so the badge's field (its enrolled field mask) lies on the frame's
        field-coloured pixels (ECC on the two masks; pixels outside the frame are not compared).
        The patch's own outline is wrong when the card runs off the frame's edge or a finger
        cuts a corner; the field's shape still fixes where the card lies. One fit per patch, in
        the finder's first orientation (the outline dominates the emblem's hole); the quad of
        the fit gives all four orientations. The patch's quad where ECC fails."""
        template, to_t = self._templates[badge.card]
        size = (template.shape[1], template.shape[0])
        rough = cv2.getPerspectiveTransform(quad.astype(np.float32), badge.field).astype(np.float64)
        m = to_t @ rough @ np.diag([2.0, 2.0, 1.0])  # half-size frame -> padded template
        obs = cv2.warpPerspective(near.astype(np.float32), m, size, flags=cv2.INTER_LINEAR)
        inside = cv2.warpPerspective(np.full(near.shape, 255, np.uint8), m, size, flags=cv2.INTER_NEAREST)
        criteria = (cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 30, 1e-4)
        try:
            _, w = cv2.findTransformECC(
                template, obs, np.eye(3, dtype=np.float32), cv2.MOTION_HOMOGRAPHY, criteria, inside, 5
            )
            fit = np.linalg.inv(to_t) @ np.linalg.inv(w.astype(np.float64)) @ m @ np.diag([0.5, 0.5, 1.0])
            refined = cv2.perspectiveTransform(badge.field.reshape(-1, 1, 2).astype(np.float64), np.linalg.inv(fit))
        except (cv2.error, np.linalg.LinAlgError):
            return quad
        refined = refined.reshape(4, 2).astype(np.float32)
        return refined if np.all(np.isfinite(refined)) and _signed_area(refined) > 0 else quad

    def _quads(self, mask: np.ndarray, count: int, join_px: int, max_solidity: float = 1.0) -> list[np.ndarray]:
        """Four corners (clockwise) of each of the `count` largest solid patches of the mask
        (solid: field pixels over hull area between `min_solidity` and `max_solidity`)."""
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        # A finger across the field or a glare spot splits it: close small gaps before choosing.
        joined = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((join_px, join_px), np.uint8))
        _, labels, stats, _ = cv2.connectedComponentsWithStats(joined)
        out = []
        for k in 1 + np.argsort(-stats[1:, cv2.CC_STAT_AREA])[:count]:
            if stats[k, cv2.CC_STAT_AREA] < self.min_area * mask.size:
                break  # (the rest are smaller)
            quad = self._quad(mask, labels == k, max_solidity)
            if quad is not None:
                out.append(quad)
        return out

    def _quad(self, mask: np.ndarray, part: np.ndarray, max_solidity: float = 1.0) -> np.ndarray | None:
        """Four corners (clockwise) of one patch of the mask, or None when it is too small or not solid."""
        area = int(np.count_nonzero(mask[part]))
        if area < self.min_area * mask.size:
            return None
        contours, _ = cv2.findContours(part.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        hull = cv2.convexHull(max(contours, key=cv2.contourArea))
        hull_area = cv2.contourArea(hull)
        if hull_area <= 0 or not self.min_solidity <= area / hull_area <= max_solidity:
            return None
        perimeter = cv2.arcLength(hull, True)
        for eps in (0.02, 0.04, 0.06, 0.08):
            poly = cv2.approxPolyDP(hull, eps * perimeter, True)
            if len(poly) == 4:
                quad = poly.reshape(4, 2).astype(np.float32)
                break
        else:
            quad = cv2.boxPoints(cv2.minAreaRect(hull)).astype(np.float32)
        if _signed_area(quad) < 0:  # make the order clockwise (y down)
            quad = quad[::-1]
        return quad


_LIGHT_FLOOR = 0.3  # the light map's floor: a pixel is brightened at most 1/0.3 (darker is not field in shadow)


def shadow_light(small: np.ndarray, field: np.ndarray, min_ratio: float, sigma: float) -> np.ndarray | None:
    """The light falling on a plain field, as a share of its brightest part (half-size float32
    map), or None when the field is evenly lit. A shadow across a flat field is an edge the
    card does not have: the judge's band-pass sees it, ECC follows it, and a shadowed emblem no
    longer looks white. A shadow darkens the field but keeps its chromaticity, so `field` (the
    pixels of the field's chromaticity) still finds the whole field; their brightness over the
    lit field's is the light there, smoothed, and carried into the emblem and the border from
    the field around them (normalised convolution). Only the field's pixels say what the light
    is, never the face a card is judged against, so an impostor's own marks stay in view."""
    on = field.astype(bool)
    if np.count_nonzero(on) < 100:
        return None
    bright = channel_sum(small)
    p10, p90 = np.percentile(bright[on], [10, 90])
    if p90 <= 0 or p10 >= min_ratio * p90:
        return None
    weight = on.astype(np.float32)
    ratio = np.where(on, bright / np.float32(p90), 0).astype(np.float32)
    far_num = cv2.GaussianBlur(ratio, (0, 0), 4 * sigma)
    far_den = cv2.GaussianBlur(weight, (0, 0), 4 * sigma)
    near_num = cv2.GaussianBlur(ratio, (0, 0), sigma)
    near_den = cv2.GaussianBlur(weight, (0, 0), sigma)
    light = np.where(
        near_den > 0.3,
        near_num / np.maximum(near_den, 1e-6),
        np.where(far_den > 0.02, far_num / np.maximum(far_den, 1e-6), 1.0),
    )
    return np.clip(light, _LIGHT_FLOOR, 1.0).astype(np.float32)


def added_light(small: np.ndarray, field: np.ndarray, min_excess: float, sigma: float) -> np.ndarray | None:
    """The light a lamp's reflection adds to a plain card (half-size float32 map of grey levels,
    the same in every channel), or None when there is none to speak of.

    A reflection adds light: over the field it lifts every channel by about the same amount, so
    its pixels are the field's colour plus grey (their chromaticity moves towards grey, and the
    finder's `field` loses them). Inside the hull of the field's pixels, each pixel that is the
    field's median colour plus a grey excess says how much light was added there; that is
    spread smoothly (normalised convolution, `sigma`) over the field and into the white and the
    ink's edge beside it, where the reflection lifted the emblem the badge is aligned and judged
    by. Like `shadow_light`, only the field says what the light is, never the face a card is
    judged against (stop 39)."""
    on = field.astype(bool)
    if np.count_nonzero(on) < 100:
        return None
    pts = cv2.findNonZero(on.astype(np.uint8))
    hull = np.zeros(on.shape, np.uint8)
    cv2.fillConvexPoly(hull, cv2.convexHull(pts), 1)
    inside = hull > 0
    excess = np.asarray(small, np.float32) - np.median(small[on], axis=0).astype(np.float32)
    low = channel_min(excess)
    grey = inside & (low > 0) & (channel_max(excess) - low < 0.3 * low + 8.0)
    lifted = np.count_nonzero(grey)
    if lifted < 30 or float(np.percentile(low[grey], 90)) < min_excess:
        return None
    # A reflection on a held card is a blob inside it, not a bright thing beside a patch of the
    # field's colour (a lamp by a wall): enough of the hull, and away from its outline.
    if lifted < _LIFTED_MIN_SHARE * np.count_nonzero(inside):
        return None
    if np.count_nonzero(grey & (cv2.erode(hull, _K9) > 0)) < _LIFTED_INSIDE * lifted:
        return None
    value = np.where(grey, low, 0.0).astype(np.float32)
    num = cv2.GaussianBlur(value, (0, 0), sigma)
    den = cv2.GaussianBlur((grey | on).astype(np.float32), (0, 0), sigma)
    light = np.where(den > 0.05, num / np.maximum(den, 1e-6), 0.0)
    return np.where(inside, light, 0.0).astype(np.float32)


def _level_split(near: np.ndarray, inside: np.ndarray, small: np.ndarray, band: float) -> np.ndarray:
    """A white or grey patch's pixels (`near`) within `band` of the median brightness of those
    inside its quads (the field's, which is most of them): a white emblem or a white ceiling
    beside a grey card leaves it, so the emblem is a hole again."""
    grey = channel_sum(small)
    on = (near & inside).astype(bool)
    if np.count_nonzero(on) < 50:
        return near
    mid = float(np.median(grey[on]))
    return near & (np.abs(grey - np.float32(mid)) <= np.float32(band * mid)).astype(np.uint8)


def _fit_template(badge: BadgeColour, scale: float) -> tuple[np.ndarray, np.ndarray]:
    """The badge's field mask at `scale` of thumbnail size with a margin of 10% (where a frame's
    field pixels beyond the fitted outline still count against the fit), and the transform from
    canonical card coordinates to that template."""
    tmask = cv2.resize(badge.mask, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    th, tw = tmask.shape
    pad = max(2, round(0.1 * min(th, tw)))
    template = np.zeros((th + 2 * pad, tw + 2 * pad), np.float32)
    template[pad : pad + th, pad : pad + tw] = tmask
    to_t = np.array([[1.0, 0, pad], [0, 1.0, pad], [0, 0, 1.0]]) @ np.diag(
        [tw * THUMB_SCALE / badge.mask.shape[1], th * THUMB_SCALE / badge.mask.shape[0], 1.0]
    )
    return template, to_t


def _near(planes: tuple[np.ndarray, ...], lit: np.ndarray, c: np.ndarray, tolerance: float) -> np.ndarray:
    """Lit pixels within `tolerance` (L1) of chromaticity c, one channel plane at a time (the
    planes are kept apart already: summing along the last axis is numpy's slow path, channels.py)."""
    dist = np.abs(planes[0] - c[0])
    dist += np.abs(planes[1] - c[1])
    dist += np.abs(planes[2] - c[2])
    return (dist <= tolerance) & lit


def _chroma_planes(img: np.ndarray) -> tuple[tuple[np.ndarray, ...], np.ndarray]:
    """Per-channel chromaticity planes of a float32 BGR image, and where it is lit enough for
    chromaticity to mean anything (near-black pixels' chromaticity is noise)."""
    b, g, r = img[..., 0], img[..., 1], img[..., 2]  # (the divisions below read them once; no copies)
    total = channel_sum(img)
    denom = total + np.float32(1e-3)
    return (b / denom, g / denom, r / denom), total >= 60


def _flat(img: np.ndarray, max_gradient: float) -> np.ndarray:
    """Pixels of a float32 BGR image with no edge nearby (uint8 0/1): the gradient of the lightly
    smoothed grey image below `max_gradient` of its brightness (a lamp's shading is slow; an
    outline, an emblem or a pattern is not)."""
    grey = cv2.GaussianBlur(img @ np.float32([0.114, 0.587, 0.299]), (0, 0), 1.0)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    mag = cv2.magnitude(gx, gy) * np.float32(1 / 8)  # per pixel
    return (mag <= max_gradient * (grey + np.float32(10))).astype(np.uint8)


def _placement_score(seen: np.ndarray, inside: np.ndarray, kind: np.ndarray) -> np.ndarray:
    """Per placement (rows): the mean, over the kinds of point with enough of them in the frame,
    of the share that look as they should (field on the field's colour, the emblem and the world
    outside the card off it): a patch of a background of the field's colour agrees everywhere
    except outside the card, so each kind counts alike however many points it has. 0 when too
    little of the face is in view."""
    total = np.zeros(seen.shape[0])
    kinds = np.zeros(seen.shape[0])
    for k, want in ((_FIELD, True), (_MARK, False), (_OUTSIDE, False)):
        sel = kind == k
        count = (inside & sel).sum(axis=1)
        agree = ((seen == want) & inside & sel).sum(axis=1)
        enough = count >= _EMBLEM_MIN_KIND
        total += np.where(enough, agree / np.maximum(count, 1), 0.0)
        kinds += enough
    on_face = (inside & (kind != _OUTSIDE)).sum(axis=1)
    ok = on_face >= _EMBLEM_MIN_IN_VIEW * np.count_nonzero(kind != _OUTSIDE)
    return np.where(ok & (kinds > 0), total / np.maximum(kinds, 1), 0.0)


def _distinct_peaks(score: np.ndarray, count: int, apart: int) -> list[int]:
    """The `count` best indices of a circular score, each at least `apart` steps from those kept
    before it (padded with the best remaining ones when too few are that far apart)."""
    kept: list[int] = []
    n = len(score)
    ranked = [int(i) for i in np.argsort(-score)]
    for i in ranked:
        if all(min(abs(i - j), n - abs(i - j)) >= apart for j in kept):
            kept.append(i)
            if len(kept) == count:
                return kept
    rest = [i for i in ranked if i not in kept]
    return kept + rest[: count - len(kept)]


def _sqrtm(cov: np.ndarray, power: float) -> np.ndarray:
    """A symmetric positive matrix to a power (its eigenvalues floored so a thin mark stays finite)."""
    vals, vecs = np.linalg.eigh(cov)
    return (vecs * np.maximum(vals, 1e-2) ** power) @ vecs.T


def _signed_area(quad: np.ndarray) -> float:
    x, y = quad[:, 0], quad[:, 1]
    return float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2
