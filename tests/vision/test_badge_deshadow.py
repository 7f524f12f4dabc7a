"""A plain card with a shadow across its field is judged again with the shadow divided out (stop
35): the shadow's edge is an edge the card does not have, so the judge's band-pass saw it, ECC
followed it and the shadowed emblem no longer looked white; the plain card went unnamed."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from device.hardware.vision import decks
from device.hardware.vision.badge_finder import shadow_light
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier, Thresholds
from device.hardware.vision.references import ReferenceSet
from tests.support.text_frames import named_plain_cards

_TEXT = decks.TEXT_FRAME_DECK


def _field(shade: float) -> tuple[np.ndarray, np.ndarray]:
    """A 60x80 blue field at half size, its right half darkened to `shade` of its light."""
    small = np.zeros((60, 80, 3), np.float32)
    small[:] = (180, 90, 40)
    small[:, 40:] *= shade
    return small, np.ones((60, 80), bool)


def test_an_evenly_lit_field_has_no_shadow_map() -> None:
    small, field = _field(1.0)
    assert shadow_light(small, field, 0.8, 2.0) is None
    small, field = _field(0.9)  # 10% darker on one side: a lamp's falloff, not a shadow
    assert shadow_light(small, field, 0.8, 2.0) is None


def test_the_light_map_follows_a_shadow_across_the_field() -> None:
    small, field = _field(0.5)
    light = shadow_light(small, field, 0.8, 2.0)
    assert light is not None and light.shape == field.shape
    assert np.allclose(light[:, :30], 1.0, atol=0.02)
    assert np.allclose(light[:, 50:], 0.5, atol=0.02)
    lit = small / light[..., None]
    assert np.abs(lit[:, 50:] - (180, 90, 40)).max() < 5  # divided out, the field is one colour again


def test_too_few_field_pixels_say_nothing_about_the_light() -> None:
    small, field = _field(0.5)
    field[:] = False
    field[:5, :10] = True
    assert shadow_light(small, field, 0.8, 2.0) is None


def test_shadowed_plain_cards_are_named_and_never_as_another(text_refs: ReferenceSet) -> None:
    """Table frames cast a shadow across the card (captures.py); the plain cards' medium ones."""
    plain = [c for c in decks.text_frame_deck() if c.startswith("plain-")]
    off = Identifier([text_refs], Thresholds(badge_deshadow=0.0))
    on = Identifier([text_refs])
    named = named_plain_cards({"off": off, "on": on}, plain, 1900, per_card=3, stride=10)
    assert named["on"] > named["off"], named  # 5 -> 9 of 18 when written


class _CountingSearches(Identifier):
    """The identifier, counting its deshadowed badge searches (a search limited to some cards)."""

    searches = 0

    def _badge_orientations(self, frame, only=None):  # type: ignore[no-untyped-def]
        if only is not None:
            self.searches += 1
        return super()._badge_orientations(frame, only)


def test_fields_whose_first_look_saw_no_emblem_are_not_searched_again(text_refs: ReferenceSet) -> None:
    """Speed (stop 36): on empty tables and unenrolled cards a field of an enrolled colour is often
    found and counts as shadowed (a background's or an illustration's uneven brightness); where
    the first look's best view of the badge was anti-correlated with its face, the second search
    is skipped. Fewer searches, the same answers, here and on the shadowed plain cards."""
    gated = _CountingSearches([text_refs])
    every = _CountingSearches([text_refs], replace(gated.t, badge_deshadow_min_view=-1.0))
    plain = [c for c in decks.text_frame_deck() if c.startswith("plain-")]
    unenrolled = [render_card(_TEXT, c) for c in decks.text_frame_unenrolled()]
    frames = [single_frame(None, 2300 + i, "medium", "table") for i in range(12)]
    frames += [single_frame(unenrolled[i % len(unenrolled)], 2400 + i, "medium", "table") for i in range(12)]
    frames += [single_frame(render_card(_TEXT, c), 2500 + i, "medium", "table") for i, c in enumerate(plain)]
    for frame in frames:
        a, b = every.identify(frame), gated.identify(frame)
        assert (a.is_match, a.card) == (b.is_match, b.card)
    assert gated.searches < every.searches, (gated.searches, every.searches)
