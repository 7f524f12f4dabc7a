"""White and grey plain cards with little texture (stop 33): their field's chromaticity is the
ceiling's and the table's too, so the colour-field finder never proposed them and features find
too few corners. They are found as a patch that is both their colour and flat; with no hue to
tell them from a lighter or darker grey, their field's level against their white is held closer."""

from __future__ import annotations

import numpy as np

from device.hardware.vision import card_art, decks
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier, Thresholds
from device.hardware.vision.references import ReferenceSet

_TEXT = decks.TEXT_FRAME_DECK
_GREY = "plain-grey-triangle"


def _named(ident: Identifier, frames: list[np.ndarray]) -> list[str | None]:
    return [r.card if (r := ident.identify(f)).is_match else None for f in frames]


def test_only_low_texture_neutral_plain_cards_are_searched_by_flat_field(
    text_refs: ReferenceSet, synthetic_refs: ReferenceSet
) -> None:
    """Measured on the deck's own faces: the text deck's grey card has ~90 corners (its deck's
    median card ~930); the own white badge has ~870 (a ring and a star) and is found by them."""
    text = Identifier([text_refs])
    assert [text.labels[k][1] for k in text._badge_finder.neutral] == [_GREY]
    assert not Identifier([synthetic_refs])._badge_finder.neutral
    assert not Identifier([text_refs], Thresholds(badge_neutral_patches=0))._badge_finder.neutral


def test_a_grey_plain_card_is_named_by_its_flat_field(text_refs: ReferenceSet) -> None:
    face = render_card(_TEXT, _GREY)
    frames = [single_frame(face, 1800 + s, d, "table") for d in ("easy", "medium") for s in range(12)]
    off = _named(Identifier([text_refs], Thresholds(badge_neutral_patches=0)), frames)
    on = _named(Identifier([text_refs]), frames)
    assert off == [None] * len(frames)  # never proposed before
    assert set(on) <= {None, _GREY}  # nothing wrong
    assert on.count(_GREY) >= 5, on  # 7 of 24 when this test was written


def test_a_darker_or_lighter_grey_is_refused_by_its_level(text_refs: ReferenceSet, monkeypatch) -> None:
    """Charcoal (90) and pale (160) triangles beside the enrolled grey (130): held like a coloured
    field's level (weight 0.5), ten of these frames pass as the grey card; held closer, none."""
    monkeypatch.setitem(card_art._PLAIN_BGR, "charcoal", (90, 90, 90))
    monkeypatch.setitem(card_art._PLAIN_BGR, "pale", (160, 160, 160))
    frames = [
        single_frame(render_card(_TEXT, f"plain-{col}-triangle"), 1900 + s, d, "table")
        for col in ("charcoal", "pale")
        for d in ("easy", "medium")
        for s in range(12)
    ]
    loose = _named(Identifier([text_refs], Thresholds(neutral_level_weight=0.5)), frames)
    assert loose.count(_GREY) >= 3, loose
    assert _named(Identifier([text_refs]), frames) == [None] * len(frames)
