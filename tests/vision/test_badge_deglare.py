"""A badge under a lamp's reflection is judged again with the reflection's added light taken off
(stop 39): on the own world's tuning holds every failed hold was a badge under the capture
model's glare spot, which sits on the emblem, so the emblem's views no longer correlated with
the face and its ink no longer served as the colour's neutral reference."""

from __future__ import annotations

from dataclasses import replace

import cv2
import numpy as np

from device.hardware.vision import bench, decks
from device.hardware.vision.badge_finder import added_light
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier, Thresholds
from device.hardware.vision.references import ReferenceSet
from tests.support.badges import badge_face

_FIELD = (40, 30, 190)  # a red field, BGR


def _card(lift: float, centre: tuple[int, int] = (40, 50), spread: float = 14.0) -> tuple[np.ndarray, np.ndarray]:
    """A 80 x 100 half-size view of a red card with a dark emblem in its middle, a grey
    reflection of peak `lift` centred at `centre` and a camera's noise; and the field's pixels as
    the finder sees them (field colour only: the reflection's middle and the emblem are holes)."""
    small = np.zeros((100, 80, 3), np.float32)
    small[:] = _FIELD
    cv2.circle(small, (40, 50), 12, (20, 20, 20), -1)
    yy, xx = np.mgrid[0:100, 0:80].astype(np.float32)
    glow = lift * np.exp(-((xx - centre[0]) ** 2 + (yy - centre[1]) ** 2) / (2 * spread**2))
    noise = np.random.default_rng(7).normal(0, 3, small.shape).astype(np.float32)
    lit = np.clip(small + glow[..., None] + noise, 0, 255)
    field = np.abs(lit - _FIELD).max(axis=2) < 12
    return lit, field


def test_an_evenly_lit_card_has_no_added_light() -> None:
    lit, field = _card(0.0)
    assert added_light(lit, field, 30.0, 4.0) is None


def test_the_added_light_is_measured_round_the_emblem() -> None:
    lit, field = _card(120.0)
    light = added_light(lit, field, 30.0, 4.0)
    assert light is not None and light.shape == field.shape
    assert light[50, 54] > 40  # beside the emblem, where the reflection's middle left no field colour
    assert light[5, 5] < 5  # the corner is lit as the lamp lights the rest
    clean = np.clip(lit - light[..., None], 0, 255)
    radius = np.hypot(*np.mgrid[-50:50, -40:40])
    ring = (radius > 14) & (radius < 30)
    before = np.abs(lit[ring] - _FIELD).max(axis=1).mean()
    after = np.abs(clean[ring] - _FIELD).max(axis=1).mean()
    assert after < 0.5 * before  # round the emblem the field is nearer its own colour again


def test_a_small_lift_is_not_worth_a_second_search() -> None:
    lit, field = _card(25.0)  # its brightest tenth under the 30-level bar
    assert added_light(lit, field, 30.0, 4.0) is None


def _glare_hold_frames() -> list[tuple[str, np.ndarray]]:
    """First frames of own-world badge holds (tuning seeds) under the glare spot that the
    identifier without this step left unnamed for the whole hold (stop 39's table)."""
    world = bench.WORLDS["own"]
    out = []
    for i in (534, 295, 777):
        truth, frames = bench.presentation(world, lambda c: render_card(decks.SYNTHETIC_DECK, c), 0, "pos", i)
        assert truth is not None
        out.append((truth, next(frames)))
    return out


def test_badges_under_a_reflection_are_named_and_never_as_another(synthetic_refs: ReferenceSet) -> None:
    """The frames were chosen where the grey first look failed; stop 48's contrast-channel view
    names one of them (the yellow badge) on its first look, so the step is measured in grey, and
    the default identifier must name them too."""
    on = Identifier([synthetic_refs], Thresholds(badge_channel_gain=0.0))
    off = Identifier([synthetic_refs], Thresholds(badge_channel_gain=0.0))
    off.t = replace(on.t, badge_deglare=0.0)
    frames = _glare_hold_frames()
    before = [off.identify(f) for _, f in frames]
    after = [on.identify(f) for _, f in frames]
    assert not any(r.is_match for r in before), before
    named = [r.card for r in after if r.is_match]
    assert named and all(r.card == truth for (truth, _), r in zip(frames, after, strict=True) if r.is_match)
    assert len(named) >= 2, after
    default = [Identifier([synthetic_refs]).identify(f) for _, f in frames]
    assert sum(r.is_match for r in default) >= len(named), default
    assert all(r.card == truth for (truth, _), r in zip(frames, default, strict=True) if r.is_match)


def test_the_second_look_names_no_badge_of_a_nearby_colour(synthetic_refs: ReferenceSet) -> None:
    """The stop-31 probe's colours beside enrolled ones, medium and hard frames of tuning seeds:
    taking a reflection off never names one that the first look did not."""
    nearby = {"pink": (180, 130, 240), "lime": (40, 230, 160), "maroon": (40, 30, 130)}
    on = Identifier([synthetic_refs])
    off = Identifier([synthetic_refs])
    off.t = replace(on.t, badge_deglare=0.0)
    frames = [
        single_frame(badge_face(bgr), 39800 + 100 * i + 10 * j + s, difficulty, "ceiling")
        for i, bgr in enumerate(nearby.values())
        for j, difficulty in enumerate(("medium", "hard"))
        for s in range(6)
    ]
    named_on = [r.card for f in frames if (r := on.identify(f)).is_match]
    named_off = [r.card for f in frames if (r := off.identify(f)).is_match]
    assert named_on == named_off == [], (named_on, named_off)
