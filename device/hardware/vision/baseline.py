"""The textbook recogniser the benchmark compares against: every enrolled card in turn.

ORB on the frame, then for each card: brute-force Hamming k-NN against that card's descriptors,
Lowe's ratio test, RANSAC homography; the card with the most inliers wins. Correct and simple, and
its cost grows with every card enrolled - which is what the one-index identifier avoids.
"""

from __future__ import annotations

import cv2
import numpy as np

from device.hardware.vision.features import FeatureExtractor
from device.hardware.vision.references import ReferenceSet


class BaselineIdentifier:
    """Per-card brute-force ORB matching + RANSAC (for timing and sanity, not for the box)."""

    def __init__(self, refs: ReferenceSet, min_inliers: int = 12, ratio: float = 0.8):
        self.refs = refs
        self.extractor = FeatureExtractor()
        self.matcher = cv2.BFMatcher(cv2.NORM_HAMMING)
        self.min_inliers = min_inliers
        self.ratio = ratio
        self.per_card = [
            (refs.descriptors[refs.owner == i], refs.points[refs.owner == i]) for i in range(len(refs.cards))
        ]

    def identify(self, frame: np.ndarray) -> tuple[str | None, int]:
        """(best card or None, its inlier count)."""
        feats = self.extractor.frame(frame)
        best: tuple[str | None, int] = (None, 0)
        if len(feats) < 8:
            return best
        for card, (desc, pts) in zip(self.refs.cards, self.per_card, strict=True):
            if len(desc) < 2:
                continue
            pairs = self.matcher.knnMatch(feats.descriptors, desc, k=2)
            good = [m[0] for m in pairs if len(m) == 2 and m[0].distance < self.ratio * m[1].distance]
            if len(good) < 8:
                continue
            src = feats.points[[m.queryIdx for m in good]]
            dst = pts[[m.trainIdx for m in good]]
            h, inl = cv2.findHomography(src, dst, cv2.RANSAC, 6.0)
            n = int(inl.sum()) if h is not None else 0
            if n > best[1]:
                best = (card, n)
        return best if best[1] >= self.min_inliers else (None, best[1])
