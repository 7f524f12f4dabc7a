"""Badge faces in colours a deck does not enroll: the vision tests' unenrolled look-alikes."""

from __future__ import annotations

import numpy as np

from device.hardware.vision.card_art import CARD_H, CARD_W, draw_badge


def badge_face(bgr: tuple[int, int, int]) -> np.ndarray:
    """An own-art badge with its field in colour `bgr`."""
    face = np.zeros((CARD_H, CARD_W, 3), np.uint8)
    draw_badge(face, bgr)
    return face
