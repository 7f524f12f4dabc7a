"""Plain cards placed by their emblem, and the two checks that keep a plain field's fit honest:
it may not stretch the card past any tilt a held card shows, and the card's field may not run on
past its outline (stop 44)."""

from __future__ import annotations

import cv2
import numpy as np

from device.hardware.vision import decks
from device.hardware.vision.badge_finder import Emblem, field_colours
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import _PLAIN_BGR, CARD_H, CARD_W, render_card
from device.hardware.vision.identifier import _CANONICAL, Identifier, Thresholds, _stretch
from device.hardware.vision.references import ReferenceSet

_TEXT = decks.TEXT_FRAME_DECK


def _emblems(refs: ReferenceSet) -> dict[str, Emblem | None]:
    ident = Identifier([refs])
    return {ident.labels[b.card][1]: b.emblem for b in field_colours(ident.thumbs, 0.15)}


def test_a_plain_cards_emblem_is_measured_on_its_own_face(text_refs: ReferenceSet) -> None:
    emblems = _emblems(text_refs)
    bar, square = emblems["plain-orange-bar"], emblems["plain-red-square"]
    assert bar is not None and square is not None
    for e in (bar, square):  # both drawn in the middle of the card
        assert np.allclose(e.mean, (CARD_W / 2, CARD_H / 2), atol=4)
    assert bar.cov[0, 0] > 5 * bar.cov[1, 1]  # a bar across the card: wide, not tall
    assert 0.8 < square.cov[0, 0] / square.cov[1, 1] < 1.25


def _held_off_the_frame(face: np.ndarray, angle_deg: float) -> tuple[np.ndarray, np.ndarray]:
    """The face held close: larger than the frame, every corner outside it, its emblem in view
    (a frame and the frame -> card homography)."""
    scale = 1.9
    a = np.radians(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]]) * scale
    centre = np.array([330.0, 230.0])
    corners = (_CANONICAL - np.array([CARD_W / 2, CARD_H / 2])) @ rot.T + centre
    to_frame = cv2.getPerspectiveTransform(_CANONICAL, corners.astype(np.float32))
    rng = np.random.default_rng(7)
    frame = np.clip(rng.normal(70, 6, (480, 640, 3)), 0, 255).astype(np.uint8)
    cv2.warpPerspective(face, to_frame, (640, 480), frame, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_TRANSPARENT)
    frame = cv2.GaussianBlur(frame, (0, 0), 1.2)
    return frame, np.linalg.inv(to_frame)


def _placed(ident: Identifier, frame: np.ndarray, card: int, truth: np.ndarray) -> float:
    """The smallest error (frame px, at the emblem's corners and the card's centre) of the
    finder's candidates for that card."""
    probe = np.float32([[86, 136], [166, 136], [166, 216], [86, 216], [126, 176]]).reshape(-1, 1, 2)
    want = cv2.perspectiveTransform(probe, np.linalg.inv(truth)).reshape(-1, 2)
    errors = [
        float(np.abs(cv2.perspectiveTransform(probe, np.linalg.inv(h)).reshape(-1, 2) - want).max())
        for _, h in ident._badge_finder.candidates(frame, only={card})
    ]
    return min(errors, default=np.inf)


def test_a_plain_card_running_off_every_edge_is_placed_by_its_emblem(text_refs: ReferenceSet) -> None:
    """Its field fills the frame, so the patch's outline is the frame's; the emblem is whole."""
    face = render_card(_TEXT, "plain-red-square")
    frame, truth = _held_off_the_frame(face, 25.0)
    with_emblem = Identifier([text_refs])
    card = with_emblem._index_of[(_TEXT, "plain-red-square")]
    without = Identifier([text_refs], Thresholds(badge_emblem_fits=0))
    assert _placed(without, frame, card, truth) > 40
    assert not without.identify(frame).is_match
    assert _placed(with_emblem, frame, card, truth) < 25  # (the judge's alignment refines it)
    r = with_emblem.identify(frame)
    assert r.is_match and r.card == "plain-red-square", r


def test_a_fit_stretched_past_any_held_tilt_is_no_card() -> None:
    def tilted(deg: float, spin: float) -> np.ndarray:
        c, s = np.cos(np.radians(spin)), np.sin(np.radians(spin))
        m = np.array([[c, -s], [s, c]]) @ np.diag([1.0, np.cos(np.radians(deg))]) * 1.3
        to_frame = np.eye(3)
        to_frame[:2, :2], to_frame[:2, 2] = m, (320, 240)
        return np.linalg.inv(to_frame)  # frame -> card, as the identifier's fits are

    assert abs(_stretch(tilted(0, 40)) - 1.0) < 1e-6
    assert abs(_stretch(tilted(45, 70)) - 1 / np.cos(np.radians(45))) < 1e-6
    assert _stretch(tilted(45, 10)) < Thresholds().max_plain_stretch < _stretch(tilted(55, 10))


def _same_colour_turned_bar(colour: str) -> np.ndarray:
    """A card that is not enrolled: an enrolled bar card's field, its bar stood upright."""
    img = np.full((CARD_H, CARD_W, 3), 240, np.uint8)
    cv2.rectangle(img, (6, 6), (CARD_W - 7, CARD_H - 7), _PLAIN_BGR[colour], -1)
    c = (CARD_W // 2, CARD_H // 2)
    cv2.rectangle(img, (c[0] - 14, c[1] - 70), (c[0] + 14, c[1] + 70), (245, 245, 245), -1)
    return img


def test_a_same_colour_card_with_its_bar_turned_is_not_named(text_refs: ReferenceSet) -> None:
    """A flat field fits a squeezed, turned fit as well as the right one (tuning seeds): without
    the stretch and spill checks the upright bar is named as the enrolled card; with them not."""
    frames = [
        single_frame(_same_colour_turned_bar(colour), 940_100 + 40 * i + k, diff, style)
        for i, colour in enumerate(("green", "orange"))
        for k, (diff, style) in enumerate((("easy", "table"), ("medium", "table"), ("medium", "ceiling")))
    ]
    loose = Identifier([text_refs], Thresholds(max_plain_spill=1.0, max_plain_stretch=0.0))
    fooled = [r.card for f in frames if (r := loose.identify(f)).is_match]
    assert fooled  # hard negatives: without the checks some are named
    ident = Identifier([text_refs])
    named = [r.card for f in frames if (r := ident.identify(f)).is_match]
    assert named == []
