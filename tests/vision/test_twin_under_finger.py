"""A near-twin whose only difference in view is the place of a mark, under a finger (docs/vision.md,
stops 37 and 45). The flat finger looks like the blank twin's face there: before stop 45 the
marked card was named as its blank twin. The finger's colour is neither twin's there, so that
part of the duel now says nothing and neither twin is named."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np
import pytest

from device.hardware.vision import decks
from device.hardware.vision.card_art import CARD_H, CARD_W, render_card
from device.hardware.vision.identifier import Identifier, Thresholds
from device.hardware.vision.references import ReferenceSet

_DOT = (222, 328)  # the marked twin's dot, canonical face pixels (the "II" is in the title)


def _lower_card_frame(card: str, finger: bool) -> np.ndarray:
    """The card's lower two thirds fill the frame (its title is above the top edge)."""
    face = render_card(decks.TEXT_FRAME_DECK, card)
    src = np.float32([[0, 0], [CARD_W, 0], [CARD_W, CARD_H], [0, CARD_H]])
    h = cv2.getPerspectiveTransform(src, np.float32([[150, -210], [460, -200], [450, 440], [140, 430]]))
    out = np.full((480, 640, 3), (90, 70, 60), np.uint8)
    cv2.warpPerspective(face, h, (640, 480), out, borderMode=cv2.BORDER_TRANSPARENT)
    if finger:
        x, y = cv2.perspectiveTransform(np.float32([[_DOT]]), h)[0, 0]
        cv2.ellipse(out, (int(x), int(y) + 25), (22, 45), 0, 0, 360, (95, 125, 160), -1)
    return cv2.GaussianBlur(out, (0, 0), 1.0)


@pytest.fixture(scope="module")
def ident(text_refs: ReferenceSet) -> Identifier:
    return Identifier([text_refs])


def test_the_mark_in_view_names_each_twin(ident: Identifier) -> None:
    for card in ("tale-max-ii", "tale-max"):
        result = ident.identify(_lower_card_frame(card, finger=False))
        assert result.is_match and result.card == card


def test_a_finger_over_the_place_of_the_mark_names_neither_twin(ident: Identifier) -> None:
    for card in ("tale-max-ii", "tale-max"):
        result = ident.identify(_lower_card_frame(card, finger=True))
        assert not result.is_match, f"{card} under a finger named {result.card}"


def test_without_the_occluder_check_the_finger_reads_as_the_blank_twin(text_refs: ReferenceSet) -> None:
    never = Identifier([text_refs], thresholds=replace(Thresholds(), twin_occluder_chroma=9.0))
    result = never.identify(_lower_card_frame("tale-max-ii", finger=True))
    assert result.is_match and result.card == "tale-max"  # stop 37's failure: the check is what fixed it
