"""A plain card enrolled from a photo whose lamp shades its field (10-20% darker towards one side)
keeps its plain evidence (stop 32): measured flat, the shaded field was not one colour, so the card
had no field, layout or white to be judged by, and unenrolled cards of nearby colours passed as it."""

from __future__ import annotations

import numpy as np
import pytest

from device.hardware.vision import card_art, decks
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier, Thresholds
from device.hardware.vision.references import ReferenceSet, build_reference_set

_TEXT = decks.TEXT_FRAME_DECK


def _shaded(face: np.ndarray, k: int) -> np.ndarray:
    """The face under a lamp to one side: ±15% across, ±7.5% down, some sensor noise."""
    h, w = face.shape[:2]
    across = np.linspace(0.85, 1.15, w)[:: 1 if k % 2 else -1]
    down = np.linspace(0.925, 1.075, h)[:: 1 if k % 3 else -1]
    noise = np.random.default_rng(k).normal(0, 4, face.shape)
    return np.clip(face * 0.9 * down[:, None, None] * across[None, :, None] + noise, 0, 255).astype(np.uint8)


@pytest.fixture(scope="module")
def shaded_refs() -> ReferenceSet:
    cards = decks.text_frame_deck()
    return build_reference_set(_TEXT, {c: [_shaded(render_card(_TEXT, c), k)] for k, c in enumerate(cards)})


def test_a_shaded_enrollment_photo_keeps_the_plain_evidence(shaded_refs: ReferenceSet) -> None:
    plain = {c for c in decks.text_frame_deck() if c.startswith("plain-")}
    unshaded = Identifier([shaded_refs])
    assert {unshaded.labels[k][1] for k in unshaded._plain_layouts} == plain
    assert Identifier([shaded_refs], Thresholds(plain_unshade=False))._plain_layouts == {}


def test_nearby_colours_are_refused_after_a_shaded_enrollment(shaded_refs: ReferenceSet, monkeypatch) -> None:
    near = {"crimson-square": (60, 40, 160), "scarlet-square": (40, 70, 220), "navy-triangle": (120, 60, 30),
            "sky-triangle": (210, 140, 70), "olive-square": (40, 140, 140), "gold-square": (30, 170, 220),
            "amber-bar": (30, 100, 220), "lime-bar": (60, 200, 110), "teal-square": (160, 150, 30),
            "pink-bar": (170, 120, 235)}
    frames = []
    for i, (name, bgr) in enumerate(near.items()):
        colour, shape = name.split("-")
        monkeypatch.setitem(card_art._PLAIN_BGR, colour, bgr)
        face = render_card(_TEXT, f"plain-{colour}-{shape}")
        frames += [single_frame(face, 1800 + 10 * i + s, d, "table") for d in ("easy", "medium") for s in range(3)]
    flat = Identifier([shaded_refs], Thresholds(plain_unshade=False))
    unshaded = Identifier([shaded_refs])
    before = sum(flat.identify(f).is_match for f in frames)
    after = sum(unshaded.identify(f).is_match for f in frames)
    assert before > 0 and after < before, (before, after)  # 13 -> 2 of 60 when written
