"""Plain cards in a frame whose blacks are crushed (stop 54).

A camera whose tone curve shifts every level down (a contrast curve, a brightness setting) clips
the dark part of the frame to 0 and moves every plain field's colour away from its own, so the
badge finder never looks where the card is. A frame that named nothing and shows such clipping
has its coloured badges searched again on the frame lifted by a guessed offset, under the
stricter colour bar of every second look. The frames are the text-frame tuning deck's, with one
brightness offset of -60 to -20 levels (`tuning.with_offset`).
"""

from __future__ import annotations

import numpy as np
import pytest

from device.hardware.vision import captures, decks
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier, Thresholds, _crushed_share
from device.hardware.vision.references import ReferenceSet
from device.hardware.vision.tuning import with_offset

DECK = decks.TEXT_FRAME_DECK
CRUSHED = (-60.0, -20.0)


@pytest.fixture(scope="module")
def lifting(text_refs: ReferenceSet) -> Identifier:
    return Identifier([text_refs], Thresholds())


@pytest.fixture(scope="module")
def not_lifting(text_refs: ReferenceSet) -> Identifier:
    return Identifier([text_refs], Thresholds(crushed_share=0))


def _frame(card: str | None, seed: int, offset: tuple[float, float] | None = CRUSHED) -> np.ndarray:
    face = render_card(DECK, card) if card else None
    return with_offset(captures.single_frame(face, seed, "medium", "table"), seed, offset)


@pytest.mark.parametrize(("card", "seed"), [("plain-blue-triangle", 40_007), ("plain-yellow-square", 40_015)])
def test_a_plain_card_under_crushed_blacks_is_named_on_the_lifted_frame(
    lifting: Identifier, not_lifting: Identifier, card: str, seed: int
) -> None:
    frame = _frame(card, seed)
    assert _crushed_share(frame) >= Thresholds().crushed_share
    assert not_lifting.identify(frame).status == "none"
    r = lifting.identify(frame)
    assert r.is_match and r.card == card
    assert r.plain_colour <= Thresholds().badge_deshadow_colour * Thresholds().max_plain_colour


def test_unenrolled_plain_cards_and_empty_tables_under_crushed_blacks_are_never_named(lifting: Identifier) -> None:
    unenrolled = [c for c in decks.text_frame_unenrolled() if c.startswith("plain-")]
    assert unenrolled
    for i in range(24):
        card = unenrolled[i % len(unenrolled)] if i % 3 else None
        r = lifting.identify(_frame(card, 41_000 + i))
        assert not r.is_match, (card, i, r.card)


def test_a_clean_frame_is_not_lifted(lifting: Identifier, not_lifting: Identifier) -> None:
    for i in range(6):
        frame = _frame("plain-red-square" if i % 2 else None, 42_000 + i, None)
        assert _crushed_share(frame) < Thresholds().crushed_share
        a, b = lifting.identify(frame), not_lifting.identify(frame)
        assert (a.status, a.card, a.score) == (b.status, b.card, b.score)


def test_white_and_grey_cards_are_not_searched_on_a_lifted_frame(lifting: Identifier) -> None:
    """A guessed lift moves a grey's level over its white to another grey's."""
    grey = lifting._index_of[(DECK, "plain-grey-triangle")]
    red = lifting._index_of[(DECK, "plain-red-square")]
    assert grey not in lifting._coloured_badges and red in lifting._coloured_badges


def test_the_crushed_share_counts_pixels_with_a_channel_at_zero() -> None:
    frame = np.full((64, 64, 3), 90, np.uint8)
    assert _crushed_share(frame) == 0.0
    frame[:32, :, 1] = 0  # half the rows: green clipped
    assert _crushed_share(frame) == pytest.approx(0.5)
    assert _crushed_share(frame[..., 0]) == 0.0  # a grey frame: its one channel
