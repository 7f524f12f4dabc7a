"""Card-shaped quadrilaterals found by their straight edges (outline_finder.py, stop 59)."""

from __future__ import annotations

import cv2
import numpy as np

from device.hardware.vision import decks, outline_finder
from device.hardware.vision.card_art import CARD_CORNERS, render_card

_TRUE = np.float32([[250, 60], [470, 110], [420, 420], [190, 370]])  # a tilted card, clockwise from its top-left


def _scene(corners: np.ndarray, fingers: bool) -> np.ndarray:
    """A card warped onto a mottled background, with two fingers across two of its sides."""
    rng = np.random.default_rng(7)
    noise = cv2.resize(rng.normal(0, 1, (12, 16)).astype(np.float32), (640, 480), interpolation=cv2.INTER_CUBIC)
    frame = np.clip(110 + 25 * noise[..., None] + rng.normal(0, 3, (480, 640, 3)), 0, 255).astype(np.uint8)
    face = render_card(decks.TEXT_FRAME_DECK, "tale-lena")
    h = cv2.getPerspectiveTransform(CARD_CORNERS, corners)
    warped = cv2.warpPerspective(face, h, (640, 480))
    mask = cv2.warpPerspective(np.full(face.shape[:2], 255, np.uint8), h, (640, 480)) > 0
    frame[mask] = warped[mask]
    if fingers:
        cv2.ellipse(frame, (330, 85), (18, 45), 20, 0, 360, (60, 90, 150), -1)
        cv2.ellipse(frame, (445, 270), (45, 16), 10, 0, 360, (60, 90, 150), -1)
    return cv2.GaussianBlur(frame, (0, 0), 1.5)


def _quads(frame: np.ndarray) -> list[np.ndarray]:
    grey = cv2.cvtColor(cv2.pyrDown(frame), cv2.COLOR_BGR2GRAY)
    return outline_finder.card_quads(grey, cv2.createLineSegmentDetector())


def _error(quad: np.ndarray, corners: np.ndarray) -> float:
    return min(float(np.abs(o - corners).max()) for o in outline_finder.orientations(quad))


def test_a_fingered_card_is_outlined() -> None:
    """Fingers break two sides; the segments either side of each finger still make one line."""
    for fingers in (False, True):
        quads = _quads(_scene(_TRUE, fingers))
        assert quads, fingers
        assert _error(quads[0], _TRUE) <= 4.0, (fingers, quads[0])


def test_both_ways_round_start_at_a_short_side_clockwise() -> None:
    quad = _quads(_scene(_TRUE, True))[0]
    for corners in outline_finder.orientations(quad):
        sides = np.linalg.norm(np.roll(corners, -1, axis=0) - corners, axis=1)
        assert sides[0] + sides[2] < sides[1] + sides[3]  # the top and bottom are the short sides
        e = np.roll(corners, -1, axis=0) - corners
        z = e[:, 0] * np.roll(e, -1, axis=0)[:, 1] - e[:, 1] * np.roll(e, -1, axis=0)[:, 0]
        assert (z > 0).all()  # clockwise in the image (y down), as CARD_CORNERS
    a, b = outline_finder.orientations(quad)
    assert np.allclose(a, np.roll(b, 2, axis=0))


def test_no_outline_in_a_scene_without_straight_edges() -> None:
    rng = np.random.default_rng(3)
    noise = cv2.resize(rng.normal(0, 1, (12, 16)).astype(np.float32), (640, 480), interpolation=cv2.INTER_CUBIC)
    frame = np.clip(120 + 40 * noise[..., None] + rng.normal(0, 4, (480, 640, 3)), 0, 255).astype(np.uint8)
    cv2.circle(frame, (320, 240), 90, (200, 180, 40), -1)  # a round mug seen from above
    assert _quads(frame) == []


def test_a_square_is_not_card_shaped() -> None:
    """A square sheet (a coaster, a sticky note) has four clean sides but not a card's proportions."""
    rng = np.random.default_rng(5)
    frame = np.clip(100 + rng.normal(0, 3, (480, 640, 3)), 0, 255).astype(np.uint8)
    cv2.fillPoly(frame, [np.int32([[220, 120], [420, 140], [400, 340], [200, 320]])], (230, 225, 215))
    assert _quads(frame) == []


def test_collinear_segments_are_one_line_with_their_gaps_kept() -> None:
    """Pieces of one side (overlapping, or broken by a finger) join into one line covering what
    they cover; a parallel edge a few px off (a card's inner frame) stays a line of its own."""
    seg = np.float32(
        [
            [100, 100, 200, 101],  # one side ...
            [180, 100.8, 260, 102],  # ... overlapping the first
            [300, 102.5, 360, 103.5],  # ... after a gap (a finger)
            [100, 110, 260, 111],  # a parallel edge 10 px away
        ]
    )
    lines = outline_finder.join_lines(seg)
    assert len(lines) == 2
    side = max(lines, key=lambda ln: len(ln.spans))
    assert len(side.spans) == 2  # [100..260] and [300..360] along the line
    assert abs(side.length - (160 + 60)) < 1.0
    inner = min(lines, key=lambda ln: len(ln.spans))
    assert abs(inner.length - 160) < 1.0
