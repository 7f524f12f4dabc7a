"""ORB keypoints for frames and for enrolled card faces, with the same preprocessing on both.

Frames are equalised before ORB so that a dim capture still yields corners above FAST's threshold;
card faces are described at 1.5x their canonical size so that the query pyramid covers both a
small card far away and a card overflowing the frame, once sharp and once blurred, because a
held card is rarely sharp and blur moves ORB descriptors far from the sharp face's (tuning
seeds: 97.2% -> 98.3% of medium hold sequences). `frame_dense` gives more, weaker corners for
the identifier's retry on frames where nothing verified.
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

FRAME_FEATURES = 600
CARD_FEATURES = 500
DENSE_FRAME_FEATURES = 1500
REF_SCALES: tuple[float, ...] = (1.5,)
REF_BLURS: tuple[float, ...] = (0.0, 2.0)  # Gaussian sigma (px at the reference scale) per described view


@dataclass(frozen=True)
class Features:
    """Keypoint positions (N x 2, float32) and their 32-byte ORB descriptors (N x 32, uint8)."""

    points: np.ndarray
    descriptors: np.ndarray

    def __len__(self) -> int:
        return len(self.points)

    @staticmethod
    def empty() -> Features:
        return Features(np.zeros((0, 2), np.float32), np.zeros((0, 32), np.uint8))


def to_grey(img: np.ndarray) -> np.ndarray:
    """Greyscale view of a BGR or already-grey image."""
    return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY) if img.ndim == 3 else img


class FeatureExtractor:
    """Owns the ORB detectors (creating them per call costs more than using them)."""

    def __init__(self, frame_features: int = FRAME_FEATURES, card_features: int = CARD_FEATURES):
        self._frame_orb = cv2.ORB_create(frame_features, scaleFactor=1.25, nlevels=7, fastThreshold=12)
        self._dense_orb = cv2.ORB_create(DENSE_FRAME_FEATURES, scaleFactor=1.2, nlevels=8, fastThreshold=7)
        self._clahe: cv2.CLAHE | None = None
        per_scale = card_features // len(REF_SCALES)
        self._card_orb = cv2.ORB_create(per_scale, scaleFactor=1.25, nlevels=8, fastThreshold=10)

    def frame(self, img: np.ndarray) -> Features:
        """Features of a camera frame (BGR or grey)."""
        return _run(self._frame_orb, cv2.equalizeHist(to_grey(img)), 1.0)

    def frame_dense(self, img: np.ndarray) -> Features:
        """More, weaker corners of a frame (the identifier's retry when nothing verified)."""
        return _run(self._dense_orb, cv2.equalizeHist(to_grey(img)), 1.0)

    def frame_local(self, img: np.ndarray) -> Features:
        """Dense corners after local contrast equalisation (CLAHE): a table's shadows, a bright
        cloth or a dark wood make one global histogram flatten the card's own contrast (soft
        art, thin ruled lines) below FAST's threshold; tiles equalise the card on its own."""
        if self._clahe is None:
            self._clahe = cv2.createCLAHE(clipLimit=3.0, tileGridSize=(8, 8))
        return _run(self._dense_orb, self._clahe.apply(to_grey(img)), 1.0)

    def card(self, card_img: np.ndarray) -> Features:
        """Features of a canonical card face; points are in canonical card coordinates."""
        grey = to_grey(card_img)
        parts = []
        for scale in REF_SCALES:
            interp = cv2.INTER_LINEAR if scale >= 1 else cv2.INTER_AREA
            img = cv2.resize(grey, None, fx=scale, fy=scale, interpolation=interp)
            for sigma in REF_BLURS:  # a sharp view and a blurred one: frames are rarely sharp
                view = cv2.GaussianBlur(img, (0, 0), sigma) if sigma > 0 else img
                parts.append(_run(self._card_orb, cv2.equalizeHist(view), 1.0 / scale))
        return Features(np.concatenate([f.points for f in parts]), np.concatenate([f.descriptors for f in parts]))


def _run(orb: cv2.ORB, grey: np.ndarray, scale: float) -> Features:
    kps, desc = orb.detectAndCompute(grey, None)
    if desc is None or not kps:
        return Features.empty()
    # KeyPoint_convert: the same float32 positions without a Python loop (~0.4 ms per 1,500)
    pts = cv2.KeyPoint_convert(kps).reshape(-1, 2).astype(np.float32) * np.float32(scale)
    return Features(pts, np.ascontiguousarray(desc, np.uint8))
