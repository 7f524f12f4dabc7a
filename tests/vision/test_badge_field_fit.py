"""The badge finder under a colour cast and with the card running off the frame's edge (stop 27).

Frames here are made by hand, so the truth is known exactly: a badge face warped by a known
homography onto a dim, textured table. The finder's candidates are compared with that truth.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from device.hardware.vision import decks
from device.hardware.vision.badge_finder import BadgeFinder, field_colours
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import CARD_H, CARD_W, render_card
from device.hardware.vision.identifier import Identifier, Thresholds
from device.hardware.vision.references import ReferenceSet
from tests.support.badges import badge_face

FRAME_W, FRAME_H = 640, 480
CARD_CORNERS = np.float32([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]])
Gains = tuple[float, float, float]


def _scene(face: np.ndarray, corners: np.ndarray, seed: int, cast: Gains = (1.0, 1.0, 1.0)) -> np.ndarray:
    """The face warped onto a grey, noisy table at `corners` (frame pixels), then a colour cast
    (B, G, R gains) and sensor noise over everything."""
    rng = np.random.default_rng(seed)
    table = np.full((FRAME_H, FRAME_W, 3), 90, np.float32) + rng.normal(0, 6, (FRAME_H, FRAME_W, 1))
    h = cv2.getPerspectiveTransform(CARD_CORNERS, corners.astype(np.float32))
    card = cv2.warpPerspective(face, h, (FRAME_W, FRAME_H), flags=cv2.INTER_LINEAR).astype(np.float32)
    inside = cv2.warpPerspective(np.ones(face.shape[:2], np.float32), h, (FRAME_W, FRAME_H))[..., None]
    frame = table * (1 - inside) + card * inside
    frame = frame * np.float32(cast) + rng.normal(0, 3, frame.shape)
    return np.clip(frame, 0, 255).astype(np.uint8)


def _corner_error(h_frame_to_card: np.ndarray, corners: np.ndarray) -> float:
    """Largest distance (frame px) between the card corners a candidate implies and the truth, over
    the four orientations the candidate could mean (the finder proposes all four)."""
    found = cv2.perspectiveTransform(CARD_CORNERS.reshape(-1, 1, 2), np.linalg.inv(h_frame_to_card)).reshape(4, 2)
    return min(float(np.abs(np.roll(found, k, axis=0) - corners).max()) for k in range(4))


@pytest.fixture(scope="module")
def badges(synthetic_refs: ReferenceSet) -> tuple[Identifier, list]:
    ident = Identifier([synthetic_refs])
    return ident, field_colours(ident.thumbs, 0.15)


def _badge(ident: Identifier, found: list, name: str):
    return next(b for b in found if ident.labels[b.card][1] == name)


def test_a_colour_cast_past_the_tolerance_is_followed(badges: tuple[Identifier, list]) -> None:
    """A warm lamp moves the blue badge's chromaticity by 0.19 (L1), past the tolerance (0.15): the
    fixed colour finds nothing, seeking the colour from the enrolled one finds the patch."""
    ident, found = badges
    blue = _badge(ident, found, "badge-blue")
    corners = np.float32([[200, 90], [430, 110], [420, 420], [190, 400]])
    frame = _scene(render_card(decks.SYNTHETIC_DECK, "badge-blue"), corners, 1, cast=(0.7, 0.95, 1.3))
    fixed = BadgeFinder([blue], fit_scale=0.0)
    seeking = BadgeFinder([blue], seek_radius=0.2, fit_scale=0.0)
    assert fixed.candidates(frame) == []
    got = seeking.candidates(frame)
    assert got and min(_corner_error(h, corners) for _, h in got) < 12


def test_seeking_does_not_drift_to_another_colour(badges: tuple[Identifier, list]) -> None:
    """The drift is bounded: a green card is not taken for the blue badge's field under a cast."""
    ident, found = badges
    blue = _badge(ident, found, "badge-blue")
    corners = np.float32([[200, 90], [430, 110], [420, 420], [190, 400]])
    frame = _scene(render_card(decks.SYNTHETIC_DECK, "badge-green"), corners, 2)
    assert BadgeFinder([blue], seek_radius=0.2, max_drift=0.3).candidates(frame) == []


@pytest.mark.parametrize("name", ["badge-red", "badge-purple"])
def test_a_badge_running_off_the_frame_edge_is_fitted_by_its_field(badges: tuple[Identifier, list], name: str) -> None:
    """A third of the card lies beyond the left edge: the visible patch's outline puts the card in
    the wrong place, the field's fit to the frame's field pixels puts it where it is."""
    ident, found = badges
    badge = _badge(ident, found, name)
    corners = np.float32([[-90, 70], [170, 85], [160, 440], [-100, 425]])
    frame = _scene(render_card(decks.SYNTHETIC_DECK, name), corners, 3)
    rough = BadgeFinder([badge], fit_scale=0.0).candidates(frame)
    fitted = BadgeFinder([badge], fit_scale=0.5).candidates(frame)
    assert rough and fitted
    rough_err = min(_corner_error(h, corners) for _, h in rough)
    fit_err = min(_corner_error(h, corners) for _, h in fitted)
    assert rough_err > 40  # the patch ends at the frame's edge
    assert fit_err < 15, (rough_err, fit_err)


def test_badges_off_the_edge_are_named(synthetic_refs: ReferenceSet) -> None:
    """End to end: the five badges each cut by 90, 120 and 150 px at the left edge. Without the fit
    (and with ECC comparing the whole warped card) 2 of the 15 were named when this was written,
    with it 5; never a wrong card. (The rest fail the face bars: a plain face correlates little.)"""
    off = Identifier([synthetic_refs], Thresholds(badge_fit_scale=0.0, align_inside_only=False))
    on = Identifier([synthetic_refs])
    named_off = named_on = 0
    for name in ("badge-red", "badge-blue", "badge-green", "badge-yellow", "badge-purple"):
        for dx in (90, 120, 150):
            corners = np.float32([[-dx, 70], [260 - dx, 85], [250 - dx, 440], [-10 - dx, 425]])
            frame = _scene(render_card(decks.SYNTHETIC_DECK, name), corners, 4)
            for ident, was in ((off, "off"), (on, "on")):
                r = ident.identify(frame)
                assert not r.is_match or r.card == name, (was, name, dx, r)
                if r.is_match:
                    named_off += was == "off"
                    named_on += was == "on"
    assert named_on >= named_off + 3, (named_off, named_on)


def test_seeking_a_colour_adds_no_false_accepts_of_nearby_colours(synthetic_refs: ReferenceSet) -> None:
    """Following a cast must not name an unenrolled badge of a nearby colour (navy beside blue, maroon
    beside red, olive beside yellow) more often than the fixed colour did. A stop-27 trial that also
    lowered the face bars for plain winners named 58 of 168 such frames instead of 17: it was
    dropped (docs/vision.md). The reference is the identifier before stop 27 (and before stop 30's
    early ranking of orientations, which alone would move it from 10 to 8 here: 'on' stays 10)."""
    before = Thresholds(badge_seek=0.0, badge_fit_scale=0.0, align_inside_only=False, badge_rank_iters=0)
    off = Identifier([synthetic_refs], before)
    on = Identifier([synthetic_refs])
    accepted = {"off": 0, "on": 0}
    for i, bgr in enumerate(((120, 60, 30), (50, 30, 140), (40, 140, 140))):
        face = badge_face(bgr)
        for j, difficulty in enumerate(("easy", "medium")):
            for s in range(4):
                frame = single_frame(face, 37000 + 100 * i + 10 * j + s, difficulty, "ceiling")
                for key, ident in (("off", off), ("on", on)):
                    accepted[key] += ident.identify(frame).is_match
    assert accepted["on"] <= accepted["off"], accepted


@pytest.mark.parametrize("name", ["badge-red", "badge-green", "badge-purple"])
def test_ranking_orientations_early_still_aligns_the_right_one(synthetic_refs: ReferenceSet, name: str) -> None:
    """The four orientations of a patch are ranked after a few ECC iterations and only the chosen
    ones aligned on (stop 30): the first one judged is still the card's true orientation, aligned
    to within a few pixels at its corners, as with every orientation aligned in full."""
    corners = np.float32([[330, 60], [560, 150], [470, 430], [230, 330]])  # turned ~25 degrees
    frame = _scene(render_card(decks.SYNTHETIC_DECK, name), corners, 5)
    for rank_iters in (0, 15):
        ident = Identifier([synthetic_refs], Thresholds(badge_rank_iters=rank_iters))
        ident._in_identify, ident._views_of = True, None  # the views _badge_orientations reads
        chosen = ident._badge_orientations(frame)
        assert chosen, rank_iters
        card, aligned, _ = chosen[0]
        assert ident.labels[card][1] == name
        assert aligned is not None
        found = cv2.perspectiveTransform(CARD_CORNERS.reshape(-1, 1, 2), np.linalg.inv(aligned)).reshape(4, 2)
        err = float(np.abs(found - corners).max())  # this orientation exactly, not any of the four
        assert err < 4.0, (rank_iters, err)
        assert ident.identify(frame).card == name
