"""Per-deck calibration at enrollment: measured, stored with the references, used when loaded."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pytest

from device.hardware.vision import decks, heldout_world
from device.hardware.vision.calibration import MIN_STRICTNESS, thresholds_at
from device.hardware.vision.enrollment import enroll_from_folder
from device.hardware.vision.identifier import Identifier, Thresholds
from device.hardware.vision.references import load

_LIGHT = {"folds": 2, "empty_scenes": 6, "other_cards": 4}


def test_the_path_goes_through_the_old_thresholds_and_tightens_monotonically() -> None:
    mid = thresholds_at(Thresholds(), 0.5)
    assert (mid.min_similarity, mid.min_margin, mid.min_whole, mid.min_outsider_margin) == pytest.approx(
        (0.8, 0.1, 0.7, 0.03)
    )
    steps = [thresholds_at(Thresholds(), t) for t in np.linspace(0, 1, 11)]
    for a, b in itertools.pairwise(steps):
        assert b.min_similarity >= a.min_similarity and b.min_margin >= a.min_margin
        assert b.min_whole >= a.min_whole and b.min_outsider_margin >= a.min_outsider_margin


def test_enrollment_calibrates_and_the_store_keeps_it(tmp_path: Path, card_folder) -> None:
    cards = [*decks.synthetic_deck()[:8], "badge-red", "badge-blue"]
    card_folder(tmp_path / "cards", decks.SYNTHETIC_DECK, cards)
    report = enroll_from_folder("table", tmp_path / "cards", tmp_path / "data", _LIGHT)
    assert any(line.startswith("calibrated: strictness") for line in report.lines())
    refs = load(tmp_path / "data", "table")
    assert refs.calibration == report.calibration
    assert MIN_STRICTNESS <= refs.strictness <= 1.0
    assert refs.retry_min_votes > 0  # measured on empty scenes
    assert refs.look_alikes is not None and refs.details is not None
    ident = Identifier([refs])
    expected = thresholds_at(Thresholds(), refs.strictness)
    assert ident.t.min_similarity == pytest.approx(expected.min_similarity)
    assert ident.t.retry_min_votes == refs.retry_min_votes


def test_the_held_out_deck_is_one_frame_with_twins_and_badges() -> None:
    deck = heldout_world.deck()
    assert len(deck) == 60 and len(set(deck)) == 60
    assert sum(c.endswith("-twin") for c in deck) == 8
    assert sum(c.startswith("emblem-") for c in deck) == 8
    assert not set(deck) & set(heldout_world.unenrolled())
    a, b = heldout_world.render("art-ember"), heldout_world.render("art-frost")
    border = np.ones(a.shape[:2], bool)
    border[20:-20, 20:-20] = False
    assert np.array_equal(a[border], b[border])  # the shared frame template
    assert not np.array_equal(a, b)
    twin = heldout_world.render("art-ember-twin")
    assert 0 < np.mean(np.abs(twin.astype(int) - a).max(axis=2) > 40) < 0.03  # a near-twin


def test_the_held_out_camera_is_repeatable_per_seed() -> None:
    face = heldout_world.render("art-gale")
    one = list(zip(range(2), heldout_world.iter_hold(face, 5, "medium"), strict=False))
    two = list(zip(range(2), heldout_world.iter_hold(face, 5, "medium"), strict=False))
    assert all(np.array_equal(x[1], y[1]) for x, y in zip(one, two, strict=True))
    assert not np.array_equal(one[0][1], one[1][1])  # blur, noise, JPEG redrawn per frame
    assert one[0][1].shape == (480, 640, 3)
