"""Plain cards under a room lamp's colour (stop 43): a warm lamp moves a coloured field's
chromaticity past the badge finder's seek radius, so the field was never looked for and the card
went unnamed, though the appearance checks (colour over the card's own white) judge it right.
The finder now also seeks each field at its colour under the frame's lamp (lamp.py)."""

from __future__ import annotations

import functools

import numpy as np
import pytest

from device.hardware.vision import captures, decks, identifier
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier
from device.hardware.vision.lamp import frame_lamp, lamp_gains
from device.hardware.vision.references import build_reference_set
from tests.support.text_frames import unenrolled_and_empty

# Easy table frames (tuning seeds) of the text-frame deck's plain cards under a warm lamp, which
# only the lamp's search finds, and that lamp's colour temperature.
_WARM_FRAMES = {
    "plain-red-square": (936000, 2878),
    "plain-blue-triangle": (936100, 2813),
    "plain-green-bar": (936207, 2700),
    "plain-yellow-square": (936303, 2760),
    "plain-orange-bar": (936402, 2866),
}


def _lit(frame: np.ndarray, kelvin: float) -> np.ndarray:
    """The frame under a lamp at `kelvin` (its brightest channel at full gain, as a camera exposes)."""
    g = lamp_gains(kelvin)
    return np.clip(frame.astype(np.float32) * (g / g.max()), 0, 255).astype(np.uint8)


def _kelvin_of(gains: np.ndarray) -> float:
    """The lamp on the locus whose gains these are."""
    temps = np.arange(2000.0, 14001.0, 50.0)
    return float(temps[int(np.argmin([np.abs(lamp_gains(t) - gains).sum() for t in temps]))])


def test_daylight_is_no_lamp_and_a_warm_lamp_is_red() -> None:
    assert np.allclose(lamp_gains(6500), 1.0, atol=1e-3)
    b, g, r = lamp_gains(3000)
    assert b < g < r


def test_the_lamp_is_read_from_a_frames_whites() -> None:
    face = render_card(decks.TEXT_FRAME_DECK, "plain-blue-triangle")
    frame = captures.single_frame(face, 936100, "easy", "table")
    assert frame_lamp(frame) is None  # the own capture model's light is near daylight
    for kelvin in (2800.0, 3300.0, 10000.0):
        est = frame_lamp(_lit(frame, kelvin))
        assert est is not None
        # within 35 mired (1e6 / K: how far apart two lights look; 100 mired is a strong filter)
        assert abs(1e6 / _kelvin_of(est) - 1e6 / kelvin) <= 35, (kelvin, _kelvin_of(est))
    # A frame of one saturated colour is no lamp's light.
    green = np.zeros((60, 80, 3), np.uint8)
    green[:] = (40, 200, 40)
    assert frame_lamp(green) is None


@pytest.fixture(scope="module")
def pair() -> tuple[Identifier, Identifier]:
    faces = {c: [render_card(decks.TEXT_FRAME_DECK, c)] for c in decks.text_frame_deck()}
    refs = build_reference_set("lamp-probe", faces)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(identifier, "Thresholds", functools.partial(identifier.Thresholds, badge_lamp=False))
        without = Identifier([refs])
    return Identifier([refs]), without


@pytest.mark.parametrize("card", sorted(_WARM_FRAMES))
def test_a_plain_card_under_a_warm_lamp_is_named(pair: tuple[Identifier, Identifier], card: str) -> None:
    with_lamp, without = pair
    seed, kelvin = _WARM_FRAMES[card]
    frame = _lit(captures.single_frame(render_card(decks.TEXT_FRAME_DECK, card), seed, "easy", "table"), kelvin)
    assert not without.identify(frame).is_match  # its field was never looked for
    named = with_lamp.identify(frame)
    assert named.is_match and named.card == card


def test_no_false_accepts_under_warm_and_cool_lamps(pair: tuple[Identifier, Identifier]) -> None:
    """Every colour under a lamp is searched again: unenrolled cards and empty tables are still
    never named (tuning seeds)."""
    frames = unenrolled_and_empty(937000, 8, 937500, 8)
    for kelvin in (2700.0, 3300.0, 11000.0):
        answers = [pair[0].identify(_lit(f, kelvin)) for f in frames]
        assert not any(r.is_match for r in answers), (kelvin, [r.card for r in answers if r.is_match])
