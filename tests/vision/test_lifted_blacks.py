"""Plain cards in a frame whose blacks are lifted (stop 55).

A haze, or a camera's brightness setting, adds about one level to every pixel and lowers the
contrast: every plain field's colour over its white turns greyer, and the badge finder and the
colour check both lose it. Nothing is clipped, so a frame that named nothing and whose darkest
1 % sits high has its coloured badges searched again with that black level (less a scene's own
darkest level) taken off, under the stricter colour bar of every second look. The frames are the
text-frame tuning deck's, with one gain of 0.7-0.95 and one offset of +10 to +40 levels
(`tuning.with_offset`).
"""

from __future__ import annotations

import numpy as np
import pytest

from device.hardware.vision import captures, decks
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier, Thresholds, _black_level
from device.hardware.vision.references import ReferenceSet
from device.hardware.vision.tuning import with_offset

DECK = decks.TEXT_FRAME_DECK
HAZE = (10.0, 40.0)
GAIN = (0.7, 0.95)


@pytest.fixture(scope="module")
def lowering(text_refs: ReferenceSet) -> Identifier:
    return Identifier([text_refs], Thresholds())


@pytest.fixture(scope="module")
def not_lowering(text_refs: ReferenceSet) -> Identifier:
    return Identifier([text_refs], Thresholds(haze_black=0))


def _frame(card: str | None, seed: int, hazy: bool = True) -> np.ndarray:
    face = render_card(DECK, card) if card else None
    frame = captures.single_frame(face, seed, "medium", "table")
    return with_offset(frame, seed, HAZE, GAIN) if hazy else frame


@pytest.mark.parametrize(("card", "seed"), [("plain-green-bar", 43_002), ("plain-red-square", 43_010)])
def test_a_plain_card_under_lifted_blacks_is_named_on_the_lowered_frame(
    lowering: Identifier, not_lowering: Identifier, card: str, seed: int
) -> None:
    frame = _frame(card, seed)
    assert _black_level(frame) >= Thresholds().haze_black
    assert not_lowering.identify(frame).status == "none"
    r = lowering.identify(frame)
    assert r.is_match and r.card == card
    assert r.plain_colour <= Thresholds().badge_deshadow_colour * Thresholds().max_plain_colour


def test_unenrolled_plain_cards_and_empty_tables_under_lifted_blacks_are_never_named(lowering: Identifier) -> None:
    unenrolled = [c for c in decks.text_frame_unenrolled() if c.startswith("plain-")]
    assert unenrolled
    for i in range(24):
        card = unenrolled[i % len(unenrolled)] if i % 3 else None
        r = lowering.identify(_frame(card, 44_000 + i))
        assert not r.is_match, (card, i, r.card)


def test_a_frame_with_dark_blacks_is_not_lowered(lowering: Identifier, not_lowering: Identifier) -> None:
    checked = 0
    for i in range(12):
        frame = _frame("plain-red-square" if i % 2 else None, 45_000 + i, hazy=False)
        if _black_level(frame) >= Thresholds().haze_black:
            continue
        checked += 1
        a, b = lowering.identify(frame), not_lowering.identify(frame)
        assert (a.status, a.card, a.score) == (b.status, b.card, b.score)
    assert checked >= 4


def test_the_black_level_is_the_darkest_percent_of_each_pixels_darkest_channel() -> None:
    frame = np.full((200, 200, 3), 120, np.uint8)
    frame[..., 2] = 200
    assert _black_level(frame) == 120  # a pixel's darkest channel
    frame[:8, :, 1] = 30  # 4 % of the rows: dark green
    assert _black_level(frame) == 30
    frame[:8, :, 1] = 120
    frame[0, :, 1] = 10  # one sampled row of 50: 2 %, still the darkest 1 %
    assert _black_level(frame) == 10
    assert _black_level(frame[..., 2]) == 200  # a grey frame: its one channel
