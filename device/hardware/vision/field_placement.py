"""Where a plain-field card lies when its field runs off the frame's edge.

A plain card's field patch is cut by the frame's edge on most medium and hard captures (a card
held at 11 cm overflows a 640x480 view), and the patch's convex hull then gives a quad that is
nothing like the card: the frame's edge takes the place of the card's, and ECC, started from
there, settles on the wrong scale (stop 38: 22 of 36 text-frame plain cards in medium table
frames found as a patch and lost this way). The field itself still says where the card is:

- its outline, away from the frame's edge, is made of the card's straight edges, which give the
  card's rotation (mod 90 degrees);
- the enrolled field mask (measured on the card's own face: its field, its emblem and border as
  holes), rotated that way and moved over the frame at a range of scales, fits the observed field
  best where it explains the most field pixels and puts the least field where the frame shows
  none. Pixels outside the frame are unknown and count for nothing.

The score: the card's field on a field pixel earns 1, on a non-field pixel costs 1, and the card's
other parts (emblem, border) on a field pixel cost 1; outside the frame nothing counts. (Letting
the emblem on a non-field pixel earn too made cards lying over the bare table win.) The card's
other parts beyond the frame cost 1 too: else a larger card with its emblem out of view explains
a field with blurred holes as well as the true one. One matchTemplate
per (scale, quarter turn) on a grid where the smallest card tried is 14 cells high.

A field of colour that is no card (a cloth, a wall) is explained best by a huge card whose
emblem and border lie beyond the frame. So a placement is kept only when at least half of the
card's non-field parts fall inside the frame and at least half of those are seen as not field
there; otherwise the caller keeps the patch's own outline (on 60 empty tuning table frames every
background patch placed was refused this way, seen share <= 0.25).
"""

from __future__ import annotations

import cv2
import numpy as np

from device.hardware.vision.references import CARD_H, CARD_W, THUMB_SCALE

_BORDER_PX = 2  # a contour point this close to the frame's edge lies on it (search resolution: half size)
_GRID_HEIGHT = 14.0  # the smallest card height tried, in search-grid cells
_PAD_SHARE = 0.6  # how far (share of the template's size) the card may run off the frame
_SCALE_STEP = 1.08  # card heights tried, geometric
_MAX_SCALE_SPAN = 2.2  # the largest card height tried over the smallest the visible field allows
_MIN_DIRECTION = 0.25  # the outline's straight edges must agree this much on one direction
_MIN_REST_SEEN = 0.5  # share of the card's non-field parts (emblem, border) the fit must put inside the frame
_MIN_REST_AGREE = 0.5  # ... and share of those the frame shows as not field


def touches_edge(part: np.ndarray) -> bool:
    """Whether a patch (uint8/bool mask, half size) reaches the frame's edge."""
    b = _BORDER_PX
    return bool(part[:b].any() or part[-b:].any() or part[:, :b].any() or part[:, -b:].any())


def outline_angle(part: np.ndarray) -> float | None:
    """The direction (radians, mod pi/2) of the patch's straight outline away from the frame's
    edge, or None when its segments agree on none (a blob, a finger's curve)."""
    contours, _ = cv2.findContours(part.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not contours:
        return None
    poly = cv2.approxPolyDP(max(contours, key=cv2.contourArea), 1.5, True).reshape(-1, 2).astype(np.float64)
    if len(poly) < 3:
        return None
    h, w = part.shape
    b = _BORDER_PX + 1

    def side(p: np.ndarray) -> np.ndarray:  # 0: inside; 1-4: on the left, top, right, bottom edge
        s = np.zeros(len(p), np.int8)
        s[p[:, 0] <= b] = 1
        s[p[:, 1] <= b] = 2
        s[p[:, 0] >= w - 1 - b] = 3
        s[p[:, 1] >= h - 1 - b] = 4
        return s

    a, z = poly, np.roll(poly, -1, axis=0)
    sa, sz = side(a), side(z)
    real = ~((sa > 0) & (sa == sz))  # a segment along one edge of the frame is the frame's, not the card's
    d = (z - a)[real]
    length = np.hypot(d[:, 0], d[:, 1])
    if length.sum() <= 0:
        return None
    vec = (length * np.exp(4j * np.arctan2(d[:, 1], d[:, 0]))).sum()
    if abs(vec) < _MIN_DIRECTION * length.sum():
        return None
    return float(np.angle(vec) / 4)


def place_field(field: np.ndarray, mask: np.ndarray, field_quad: np.ndarray) -> np.ndarray | None:
    """The card's field quad (4 x 2, half-size frame pixels, clockwise) that best explains the
    field pixels of one patch (`field`, half size, 0/1) given the card's enrolled field `mask`
    (thumbnail size, 1 on field) and `field_quad` (canonical card coordinates), or None."""
    angle = outline_angle(field)
    if angle is None:
        return None
    hh, ww = field.shape
    share = float(mask.mean())
    visible = float(np.count_nonzero(field))
    aspect = CARD_W / CARD_H
    if share <= 0 or visible < 64:
        return None
    # The card is at least as big as the field in view: its smallest height (half-size px) sets
    # the search grid, so that this height is ~_GRID_HEIGHT cells whatever the card's size.
    lo_half = float(np.sqrt(visible / (share * aspect)))
    factor = max(2.0, lo_half / _GRID_HEIGHT)
    gw, gh = max(1, round(ww / factor)), max(1, round(hh / factor))
    obs = cv2.resize(field.astype(np.float32), (gw, gh), interpolation=cv2.INTER_AREA)
    lo = lo_half * gh / hh
    heights = lo * _SCALE_STEP ** np.arange(int(np.log(_MAX_SCALE_SPAN) / np.log(_SCALE_STEP)) + 1)
    pad = int(np.ceil(heights[-1] * (1 + aspect) * _PAD_SHARE)) + 1
    g = np.zeros((gh + 2 * pad, gw + 2 * pad), np.float32)
    g[pad : pad + gh, pad : pad + gw] = 2 * obs - 1
    inside_grid = np.zeros_like(g)
    inside_grid[pad : pad + gh, pad : pad + gw] = 1
    obs_grid = np.zeros_like(g)
    obs_grid[pad : pad + gh, pad : pad + gw] = obs
    g2 = cv2.merge([g, obs_grid, 1 - inside_grid])  # the score's terms, summed by matchTemplate over channels
    mh, mw = mask.shape
    best: tuple[float, np.ndarray, tuple[float, float]] | None = None
    for height in heights:
        s = height / mh  # thumbnail pixels -> search pixels
        small = cv2.resize(mask, (max(1, round(mw * s)), max(1, round(mh * s))), interpolation=cv2.INTER_AREA)
        sh, sw = small.shape
        for quarter in range(4):
            theta = angle + quarter * np.pi / 2
            rot = np.array([[np.cos(theta), -np.sin(theta)], [np.sin(theta), np.cos(theta)]])
            corners = np.array([[0, 0], [sw, 0], [sw, sh], [0, sh]], np.float64) @ rot.T
            origin = corners.min(axis=0)
            size = np.ceil(corners.max(axis=0) - origin).astype(int) + 1
            m = np.hstack([rot, -origin[:, None]])  # scaled mask -> template canvas
            tpl = cv2.warpAffine(small, m, (int(size[0]), int(size[1])), flags=cv2.INTER_LINEAR)
            card = cv2.warpAffine(np.ones_like(small), m, (int(size[0]), int(size[1])), flags=cv2.INTER_LINEAR)
            if tpl.shape[0] > g.shape[0] or tpl.shape[1] > g.shape[1] or min(tpl.shape) < 3:
                continue
            rest = np.clip(card - tpl, 0, 1)  # the card's non-field parts: emblem, border, text
            res = cv2.matchTemplate(g2, cv2.merge([tpl, -rest, -rest]), cv2.TM_CCORR)
            _, score, _, loc = cv2.minMaxLoc(res)
            if best is None or score > best[0]:
                win = (slice(loc[1], loc[1] + tpl.shape[0]), slice(loc[0], loc[0] + tpl.shape[1]))
                seen = float((inside_grid[win] * rest).sum())
                agree = float((inside_grid[win] * rest * (1 - obs_grid[win])).sum())
                covered = (seen / max(float(rest.sum()), 1e-6), agree / max(seen, 1e-6))
                # canonical card -> scaled mask -> template canvas -> padded grid -> half-size frame
                to_scaled = np.diag([THUMB_SCALE * sw / mw, THUMB_SCALE * sh / mh, 1.0])
                to_grid = np.vstack([m + np.array([[0, 0, loc[0] - pad], [0, 0, loc[1] - pad]]), [0, 0, 1]])
                to_half = np.diag([ww / gw, hh / gh, 1.0])
                best = (score, to_half @ to_grid @ to_scaled, covered)
    if best is None or best[0] <= 0:
        return None
    seen, agree = best[2]
    if seen < _MIN_REST_SEEN or agree < _MIN_REST_AGREE:
        return None  # the fit hides the card's emblem and border beyond the frame: a field of colour, no card
    card_to_half = best[1]
    pts = np.hstack([field_quad.astype(np.float64), np.ones((4, 1))]) @ card_to_half.T
    quad = (pts[:, :2] / pts[:, 2:]).astype(np.float32)
    return quad if np.all(np.isfinite(quad)) else None
