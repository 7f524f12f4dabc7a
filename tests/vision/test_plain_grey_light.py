"""Light and shade across a plain card (stop 50). A lamp's reflection adds about the same light to
every channel, which lifts the field towards white, and the layout check counted those pixels as
the card's white where its field should be; a cast shadow over the emblem made its white look
half field. The layout is now also measured with each colour's grey part taken away (white has
none, with or without light added or taken away; the field keeps its hue), and the smaller
error counts."""

from __future__ import annotations

import numpy as np
import pytest

from device.hardware.vision import captures, decks
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier, Thresholds, _layout_without_grey
from device.hardware.vision.references import ReferenceSet

_FIELD = np.array([40, 40, 210], np.float32)  # BGR: a red field
_WHITE = np.array([235, 235, 235], np.float32)


def _card(emblem: slice, glare: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A 40 x 30 view: a red field with a white bar (`emblem` columns), a grey blob added."""
    o = np.empty((40, 30, 3), np.float32)
    o[:] = _FIELD
    o[:, emblem] = _WHITE
    yy, xx = np.mgrid[0:40, 0:30]
    blob = glare * np.exp(-((yy - 12.0) ** 2 + (xx - 6.0) ** 2) / (2 * 6.0**2))
    o = np.minimum(o + blob[..., None].astype(np.float32), 255)
    field = np.ones((40, 30), bool)
    field[:, 12:18] = False  # the enrolled card's bar
    return o, field, ~field


def test_light_added_to_the_field_is_not_counted_as_white() -> None:
    o, fm, nm = _card(slice(12, 18), glare=120.0)
    error = _layout_without_grey(o, _FIELD, _WHITE, nm, fm, fallback=9.0)
    assert error < 0.05, error
    # The same pixels in plain colour: the lifted field looks like the white (what the old error saw).
    d = _WHITE - _FIELD
    t = ((o - _FIELD) @ d) / float(d @ d)
    assert int(((t > 0.5) & fm).sum()) > 20


def test_another_emblem_still_shows() -> None:
    """A bar elsewhere (another card's layout): the bar's place shows the field, with or without light."""
    for glare in (0.0, 120.0):
        o, fm, nm = _card(slice(22, 28), glare)
        assert _layout_without_grey(o, _FIELD, _WHITE, nm, fm, fallback=9.0) > 1.0


def test_a_field_without_hue_keeps_the_plain_error() -> None:
    grey = np.array([128, 128, 128], np.float32)
    o, fm, nm = _card(slice(12, 18), glare=0.0)
    o[fm] = grey
    assert _layout_without_grey(o, grey, _WHITE, nm, fm, fallback=0.7) == 0.7


@pytest.mark.parametrize(("seed", "style"), [(62060, "table"), (62108, "table"), (67026, "ceiling")])
def test_plain_cards_under_a_reflection_or_a_shadow_are_named(text_refs: ReferenceSet, seed: int, style: str) -> None:
    """Tuning frames (medium): the table ones have a cast shadow, the ceiling one the capture
    model's specular spot on the card."""
    plain = [c for c in decks.text_frame_deck() if c.startswith("plain")]
    card = plain[(seed - (62000 if style == "table" else 67000)) % len(plain)]
    rng = np.random.default_rng(seed)
    captures.table_background(rng) if style == "table" else captures.background(rng, ())
    pose = captures.random_pose(rng, "medium")
    if style == "table":
        assert captures._table_scene_effects(rng, "medium").shadow is not None
    else:
        assert pose.glare is not None
    frame = captures.single_frame(render_card(decks.TEXT_FRAME_DECK, card), seed, "medium", style)
    before = Identifier([text_refs], Thresholds(plain_layout_grey_light=False)).identify(frame)
    after = Identifier([text_refs]).identify(frame)
    assert before.status == "none", before
    assert after.is_match and after.card == card, after
