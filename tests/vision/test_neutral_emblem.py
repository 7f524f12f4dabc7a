"""Stop 53: white and grey plain cards placed by their emblem, shown on plain-probe cards (designs
drawn at random, not tuned on). By chromaticity a white emblem on a grey field is field too, so
such a card had no emblem to be placed by; its emblem is now measured by level.

The identifier is built from the deck's faces (uncalibrated) and every seed is a tuning seed.
"""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from device.hardware.vision import decks
from device.hardware.vision.badge_finder import _level_split
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier, Thresholds

DECK = decks.PLAIN_PROBE_DECK
NEUTRAL_WITH_WHITE_EMBLEM = ("field-05", "field-09", "field-13", "field-15")


@pytest.fixture(scope="module")
def new(probe_identifier: Identifier) -> Identifier:
    return probe_identifier


@pytest.fixture(scope="module")
def before(probe_refs) -> Identifier:
    return Identifier([probe_refs], Thresholds(badge_neutral_emblem=0.0))


def _badge(ident: Identifier, card: str):
    k = ident._index_of[(DECK, card)]
    return next(b for b in ident._badge_finder.badges if b.card == k)


@pytest.mark.parametrize("card", NEUTRAL_WITH_WHITE_EMBLEM)
def test_a_grey_card_with_a_white_emblem_has_an_emblem_to_be_placed_by(new, before, card: str) -> None:
    assert _badge(before, card).emblem is None  # (its white emblem has the field's chromaticity)
    emblem = _badge(new, card).emblem
    assert emblem is not None
    face = render_card(DECK, card).astype(np.float32)
    white = face.min(axis=2) >= 200  # the emblem's own pixels, in card coordinates
    ys, xs = np.nonzero(white[12:-12, 12:-12])  # (clear of a light border)
    assert np.abs(emblem.mean - (np.array([xs.mean(), ys.mean()]) + 12)).max() < 6.0


def test_a_white_emblem_is_a_hole_among_the_field_level_pixels() -> None:
    small = np.full((120, 160, 3), 80.0, np.float32)
    cv2.circle(small, (80, 60), 20, (245, 245, 245), -1)
    near = np.ones((120, 160), np.uint8)  # flat and grey: the field and the emblem alike
    split = _level_split(near, near, small, 0.25)
    assert split[60, 80] == 0 and split[10, 10] == 1
    assert 0.9 < (split == 0).sum() / (np.pi * 20**2) < 1.15
    assert np.array_equal(_level_split(near, np.zeros_like(near), small, 0.25), near)  # no field: unchanged


@pytest.mark.parametrize(
    ("card", "seeds"), [("field-09", (63014, 63039)), ("field-13", (63025, 63037)), ("field-15", (63013, 63023))]
)
def test_grey_cards_are_named_when_placed_by_their_emblem(
    probe_frame, new, before, card: str, seeds: tuple[int, ...]
) -> None:
    for seed in seeds:
        frame = probe_frame(card, seed)
        assert not before.identify(frame).is_match
        r = new.identify(frame)
        assert r.is_match and r.card == card, (seed, r)


@pytest.mark.xfail(strict=True, reason="known: two greys with a white cross, levels 0.16 apart in log (stop 53)")
def test_a_grey_card_is_not_named_as_its_rival_of_another_level(probe_frame, new) -> None:
    """field-10 (darker grey, a light border) on a table frame whose tone makes its level pass as
    field-09's: field-09's emblem placement passes every check and field-10's fit aligned from it
    does not, so the rival contest names field-09. Without the emblem placements nothing is named."""
    r = new.identify(probe_frame("field-10", 63036))
    assert not (r.is_match and r.card == "field-09")
