"""Stop 52's three plain-card steps, each shown on plain-probe cards (designs drawn at random, not
tuned on): frames the identifier without the step gets wrong or misses, and gets right with it.

The identifier is built from the deck's faces (uncalibrated) and every seed is a tuning seed.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from device.hardware.vision import captures, decks
from device.hardware.vision.identifier import Identifier, Thresholds, _colour_error, _PlainLayout, _unshaded

DECK = decks.PLAIN_PROBE_DECK


@pytest.fixture(scope="module")
def new(probe_identifier: Identifier) -> Identifier:
    return probe_identifier


@pytest.fixture(scope="module")
def without(probe_refs) -> dict[str, Identifier]:
    """The identifier without each step (its setting as before stop 52)."""
    settings = {"unshade": {"plain_unshade_refits": 0}, "slack": {"neutral_level_slack": -1.0},
                "rivals": {"plain_rival_fits": False}}  # fmt: skip
    return {step: Identifier([probe_refs], Thresholds(**kw)) for step, kw in settings.items()}  # type: ignore[arg-type]


def _grey_card_with_white_disc(shade: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    face = np.full((88, 63, 3), 80.0, np.float32)
    face *= (1.0 - shade * np.linspace(0, 1, 63, dtype=np.float32))[None, :, None]  # darker to the right
    cv2.circle(face, (31, 44), 14, (245, 245, 245), -1)
    return face, np.ones((88, 63), bool)  # (a white emblem has a grey field's chromaticity)


def test_a_white_emblem_no_longer_bends_the_shading_fit() -> None:
    face, field = _grey_card_with_white_disc()
    flat = np.abs(face - 80.0).sum(axis=2) < 25
    once = _unshaded(face, field)
    refit = _unshaded(face, field, refits=2)
    assert (np.abs(once - 80.0).sum(axis=2) < 25)[flat].mean() < 0.5  # the field no longer looked flat
    assert np.allclose(refit, face)  # a flat scan is unchanged
    shaded, _ = _grey_card_with_white_disc(shade=0.2)
    fixed = _unshaded(shaded, field, refits=2)
    assert np.ptp(fixed[flat].mean(axis=1)) < 3.0  # the shading is taken out of the field ...
    assert fixed[44, 31].min() > 200  # ... and the emblem stays white


def test_grey_cards_with_a_white_emblem_get_their_plain_layout(new, without) -> None:
    before, after = without["unshade"], new
    for card in ("field-05", "field-09", "field-15"):
        k = after._index_of[(DECK, card)]
        assert k not in before._plain_layouts
        assert after._plain_layouts[k].white is not None and after._plain_layouts[k].neutral


@pytest.mark.parametrize(("card", "seeds"), [("field-05", (63001, 63013, 63014)), ("field-15", (63001, 63011, 63014))])
def test_grey_cards_with_a_white_emblem_are_named(probe_frame, new, without, card: str, seeds: tuple[int, ...]) -> None:
    before = without["unshade"]
    for seed in seeds:
        frame = probe_frame(card, seed)
        assert not before.identify(frame).is_match
        r = new.identify(frame)
        assert r.is_match and r.card == card, (seed, r)


def test_a_grey_fields_level_is_not_scaled_by_a_gamma_fitted_to_noise() -> None:
    lay = _PlainLayout(np.ones((2, 2), bool), np.ones((2, 2), bool), None, np.array([0.004, -0.002, -0.002]),
                       -0.54, np.full(3, 1 / 3), neutral=True)  # fmt: skip  (grey 143 over a white of 250)
    t, old = Thresholds(), Thresholds(neutral_level_slack=-1.0)
    darker = -0.89  # a grey of 100 over a white of 250
    noise = np.array([0.01, -0.004, -0.006])  # the frame's hue: noise along the enrolled one's
    assert _colour_error(noise, darker, lay, old)[1] <= t.max_plain_colour  # passed, at the gamma's clip
    assert _colour_error(noise, darker, lay, t)[1] > t.max_plain_colour
    assert _colour_error(-noise, darker, lay, t)[1] == _colour_error(noise, darker, lay, t)[1] > t.max_plain_colour
    assert _colour_error(noise, -0.54 * 1.15, lay, t)[1] <= t.max_plain_colour  # within the bar


@pytest.mark.parametrize("seed", [61006, 61011, 61016, 61017, 61030])
def test_an_unenrolled_grey_card_of_another_level_is_not_named(probe_frame, new, without, seed: int) -> None:
    frame = probe_frame("field-17", seed)  # grey 87 with a ring; the enrolled field-13 is grey 143 with one
    old = without["slack"]
    named = old.identify(frame)
    assert named.is_match and named.card == "field-13"
    assert not new.identify(frame).is_match


@pytest.mark.parametrize(("card", "seed"), [("field-10", 62015), ("field-10", 62039)])
def test_plain_rivals_are_judged_on_their_own_fits(probe_frame, new, without, card: str, seed: int) -> None:
    frame = probe_frame(card, seed)
    old = without["rivals"]
    first = old.identify(frame)
    assert first.is_match and first.card != card  # named the other grey card with a white cross
    r = new.identify(frame)
    assert r.is_match and r.card == card


@pytest.mark.parametrize(("card", "seed"), [("field-10", 62032), ("field-10", 62035), ("field-09", 62004)])
def test_rivals_that_cannot_be_told_apart_leave_the_card_unnamed(
    probe_frame, new, without, card: str, seed: int
) -> None:
    frame = probe_frame(card, seed)
    old = without["rivals"]
    named = old.identify(frame)
    assert named.is_match and named.card != card  # (field-09 and field-10: greys with a white cross)
    assert not new.identify(frame).is_match


def test_empty_scenes_and_unenrolled_art_are_never_named(probe_frame, new) -> None:
    for i in range(6):
        assert not new.identify(captures.single_frame(None, 64000 + i, "medium", ("table", "ceiling")[i % 2])).is_match
    for i, card in enumerate(decks.plain_probe_unenrolled()[:4]):
        assert not new.identify(probe_frame(card, 64100 + i)).is_match
