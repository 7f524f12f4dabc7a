"""A plain card's quarter-turns ruled out by its shape (stop 42): the finder gives each colour patch
four orientations and only the two best-fitting were judged; a near-symmetric emblem lets a
quarter turn (the card's long sides on the quad's short ones) rank first. The frame quad's side
ratio against the deck's printed aspect, measured at enrollment, says which pair of turns fits, and
those are judged too. Enrollment measures that aspect from the deck's own images."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from device.hardware.vision import decks
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import CARD_H, CARD_W, render_card
from device.hardware.vision.enrollment import enroll_from_folder
from device.hardware.vision.identifier import Identifier
from device.hardware.vision.references import (
    ReferenceSet,
    ReferenceStoreError,
    load,
    printed_aspect,
    quad_aspect,
    store_path,
)
from tests.support.text_frames import unenrolled_and_empty

_CARD = np.array([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]], np.float32)
# Text-frame table frames (tuning seeds, hard): plain cards named only when the shape's turns are judged too.
_SHAPED = ((904045, "plain-yellow-square"), (904072, "plain-red-square"), (904108, "plain-red-square"))


def _rolls(quad: np.ndarray) -> list[np.ndarray]:
    """The finder's four orientations of one patch: its quad rolled onto the card's corners."""
    return [cv2.getPerspectiveTransform(np.roll(quad, k, axis=0).astype(np.float32), _CARD) for k in range(4)]


def _portrait_quad(aspect: float) -> np.ndarray:
    """A card of that aspect held a little turned and tilted (TL, TR, BR, BL)."""
    w = 200.0
    quad = np.array([[0, 0], [w, 0], [w * 1.05, w * aspect], [-w * 0.05, w * aspect * 0.97]], np.float32)
    turn = cv2.getRotationMatrix2D((0, 0), 20, 1.0)[:, :2]
    return (quad @ turn.T + np.array([250, 40], np.float32)).astype(np.float32)


def _with_aspect(refs: ReferenceSet, aspect: float) -> ReferenceSet:
    return replace(refs, calibration={"strictness": 0.5, "aspect": aspect})


def test_the_shape_rules_out_the_quarter_turns(text_refs: ReferenceSet) -> None:
    ident = Identifier([_with_aspect(text_refs, CARD_H / CARD_W)])
    card = ident._index_of[(decks.TEXT_FRAME_DECK, "plain-red-square")]
    quad = _portrait_quad(CARD_H / CARD_W)
    assert ident._shaped_rolls(card, _rolls(quad)) == {0, 2}
    assert ident._shaped_rolls(card, _rolls(np.roll(quad, 1, axis=0))) == {1, 3}
    # A square patch (or one the frame's edge cut square) rules nothing out.
    assert ident._shaped_rolls(card, _rolls(_portrait_quad(1.0))) == {0, 1, 2, 3}
    off = Identifier([_with_aspect(text_refs, CARD_H / CARD_W)], replace(ident.t, badge_aspect_margin=0.0))
    assert off._shaped_rolls(card, _rolls(quad)) == set()


def test_the_decks_own_aspect_is_what_counts(text_refs: ReferenceSet) -> None:
    """The same portrait quad: for a square deck's card any turn fits; for a deck printed at 1.4,
    only the upright pair does."""
    quad = _portrait_quad(1.4)
    square = Identifier([_with_aspect(text_refs, 1.0)])
    card = square._index_of[(decks.TEXT_FRAME_DECK, "plain-red-square")]
    assert square._shaped_rolls(card, _rolls(quad)) == {0, 1, 2, 3}
    tall = Identifier([_with_aspect(text_refs, 1.4)])
    assert tall._shaped_rolls(card, _rolls(quad)) == {0, 2}


@pytest.fixture(scope="module")
def shaped_pair(text_refs: ReferenceSet) -> tuple[Identifier, Identifier]:
    with_shape = Identifier([text_refs])
    without = Identifier([text_refs], replace(with_shape.t, badge_aspect_margin=0.0), look_alikes=with_shape.alike)
    return with_shape, without


@pytest.mark.parametrize(("seed", "card"), _SHAPED)
def test_plain_cards_named_once_their_shape_is_judged(
    shaped_pair: tuple[Identifier, Identifier], seed: int, card: str
) -> None:
    with_shape, without = shaped_pair
    frame = single_frame(render_card(decks.TEXT_FRAME_DECK, card), seed, "hard", "table")
    assert not without.identify(frame).is_match
    named = with_shape.identify(frame)
    assert named.is_match and named.card == card


def test_no_false_accepts_with_the_shapes_turns(shaped_pair: tuple[Identifier, Identifier]) -> None:
    with_shape, _ = shaped_pair
    for frame in unenrolled_and_empty(926000, 12, 927000, 12):
        assert not with_shape.identify(frame).is_match


def test_enrollment_measures_the_printed_aspect(tmp_path: Path) -> None:
    face = render_card(decks.TEXT_FRAME_DECK, "plain-red-square")
    scan = cv2.resize(face, (500, 700), interpolation=cv2.INTER_AREA)
    assert printed_aspect(scan) == pytest.approx(1.4, abs=0.03)  # (its printed border may be taken as the outline)
    assert printed_aspect(cv2.rotate(scan, cv2.ROTATE_90_CLOCKWISE)) == pytest.approx(1.4, abs=0.03)  # landscape
    square = cv2.resize(face, (400, 400), interpolation=cv2.INTER_AREA)
    photo = np.full((600, 800, 3), 40, np.uint8)
    dst = np.array([[300, 100], [560, 110], [570, 470], [290, 460]], np.float32)  # a square card drawn 1.33 tall
    m = cv2.getPerspectiveTransform(np.array([[0, 0], [400, 0], [400, 400], [0, 400]], np.float32), dst)
    cv2.warpPerspective(square, m, (800, 600), photo, borderMode=cv2.BORDER_TRANSPARENT)
    assert printed_aspect(photo) == pytest.approx(quad_aspect(dst), abs=0.03)
    folder = tmp_path / "scans"
    folder.mkdir()
    for card in ("plain-red-square", "plain-blue-triangle", "plain-green-bar"):
        cv2.imwrite(str(folder / f"{card}.png"), cv2.resize(render_card(decks.TEXT_FRAME_DECK, card), (400, 400)))
    enroll_from_folder("square-deck", folder, tmp_path / "data", {"empty_scenes": 2, "other_cards": 2})
    assert load(tmp_path / "data", "square-deck").aspect == pytest.approx(1.0)


def test_a_stored_aspect_out_of_range_says_re_enroll(tmp_path: Path) -> None:
    folder = tmp_path / "scans"
    folder.mkdir()
    cv2.imwrite(str(folder / "plain-red-square.png"), render_card(decks.TEXT_FRAME_DECK, "plain-red-square"))
    enroll_from_folder("one", folder, tmp_path / "data", {"empty_scenes": 2, "other_cards": 2})
    path = store_path(tmp_path / "data", "one")
    with np.load(path, allow_pickle=False) as z:
        arrays = {k: z[k] for k in z.files}
    arrays["calibration"] = np.array('{"strictness": 0.5, "aspect": -3}')
    np.savez(path, **arrays)
    with pytest.raises(ReferenceStoreError, match="enroll"):
        load(tmp_path / "data", "one")
