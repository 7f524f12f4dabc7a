"""Team badges found by their colour field, for frames where local features found nothing.

A badge is a plain coloured field around one emblem: ORB finds few corners on it (and
equalising a frame turns a flat field into noise that out-scores them), and a finger or a lamp
reflection over the star removes what is left. Its field, though, is a large patch of one known
colour. For each enrolled badge this finds the largest convex patch of that colour's
chromaticity (light level does not change it), fits a quadrilateral to it and returns the four
ways the card's field could sit in it. The identifier's usual appearance checks then decide:
a wrong orientation or a coloured poster does not look like the badge once warped back.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from device.hardware.vision.card_art import CARD_H, CARD_W

BADGE_PREFIX = "badge-"
FIELD_INSET = 12  # card pixels between the card edge and the badge's coloured field
_FIELD = np.float32(
    [
        [FIELD_INSET, FIELD_INSET],
        [CARD_W - 1 - FIELD_INSET, FIELD_INSET],
        [CARD_W - 1 - FIELD_INSET, CARD_H - 1 - FIELD_INSET],
        [FIELD_INSET, CARD_H - 1 - FIELD_INSET],
    ]
)


@dataclass(frozen=True)
class BadgeColour:
    """One enrolled badge: its card index and the chromaticity of its field."""

    card: int
    chroma: np.ndarray  # 3 floats summing to 1 (B, G, R shares)


def field_colours(labels: list[tuple[str, str]], thumbs: np.ndarray, min_chroma: float) -> list[BadgeColour]:
    """The enrolled badges whose field is coloured enough to be told from grey scenery."""
    out = []
    for i, (_, card) in enumerate(labels):
        if not card.startswith(BADGE_PREFIX):
            continue
        face = thumbs[i].reshape(-1, 3).astype(np.float64)
        field = np.median(face, axis=0)  # the field covers most of the face
        chroma = field / max(field.sum(), 1.0)
        if np.abs(chroma - 1 / 3).sum() >= min_chroma:
            out.append(BadgeColour(i, chroma))
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
    ):
        self.badges = badges
        self.tolerance = tolerance  # L1 distance in chromaticity (casts move it by up to ~0.1)
        self.min_area = min_area  # share of the frame the field must cover
        self.min_solidity = min_solidity  # field pixels / hull area (emblem, fingers, glare are holes)
        self.join_px = join_px  # closing kernel at half resolution

    def candidates(self, frame: np.ndarray) -> list[tuple[int, np.ndarray]]:
        """(badge card index, frame -> card homography) for each plausible badge orientation."""
        if not self.badges or frame.ndim != 3:
            return []
        small = cv2.pyrDown(frame).astype(np.float32)
        total = small.sum(axis=2)
        chroma = small / (total[..., None] + 1e-3)
        lit = total >= 60  # chromaticity of near-black pixels is noise
        out = []
        for badge in self.badges:
            dist = np.abs(chroma - badge.chroma.astype(np.float32)).sum(axis=2)
            # Sensor noise speckles a dim field: a median keeps the patch whole.
            dist = cv2.medianBlur(np.where(lit, dist, 9.0).astype(np.float32), 5)
            quad = self._quad((dist <= self.tolerance).astype(np.uint8))
            if quad is None:
                continue
            quad = quad * 2.0 + 0.5  # back to full-frame pixels
            for shift in range(4):
                h = cv2.getPerspectiveTransform(np.roll(quad, shift, axis=0).astype(np.float32), _FIELD)
                out.append((badge.card, h))
        return out

    def _quad(self, mask: np.ndarray) -> np.ndarray | None:
        """Four corners (clockwise) of the largest solid patch of the mask, or None."""
        mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        # A finger across the field or a glare spot splits it: close small gaps before choosing.
        joined = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((self.join_px, self.join_px), np.uint8))
        n, labels, stats, _ = cv2.connectedComponentsWithStats(joined)
        if n < 2:
            return None
        k = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        part = labels == k
        area = int(np.count_nonzero(mask[part]))
        if area < self.min_area * mask.size:
            return None
        contours, _ = cv2.findContours(part.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        hull = cv2.convexHull(max(contours, key=cv2.contourArea))
        hull_area = cv2.contourArea(hull)
        if hull_area <= 0 or area / hull_area < self.min_solidity:
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


def _signed_area(quad: np.ndarray) -> float:
    x, y = quad[:, 0], quad[:, 1]
    return float(np.dot(x, np.roll(y, -1)) - np.dot(y, np.roll(x, -1))) / 2
