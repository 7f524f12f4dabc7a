"""Fixtures for the vision tests: the synthetic deck enrolled once per session, captures on demand.

Captures here use seeds below EVAL_SEED_BASE (tuning/test seeds); the benchmark's evaluation seeds
are never used by tests.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from device.hardware.vision import captures, decks
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier, Thresholds
from device.hardware.vision.references import ReferenceSet, build_reference_set

cv2.setNumThreads(1)


def faces(deck: str, cards: list[str]) -> dict[str, list[np.ndarray]]:
    return {c: [render_card(deck, c)] for c in cards}


@pytest.fixture(scope="session")
def synthetic_refs() -> ReferenceSet:
    return build_reference_set(decks.SYNTHETIC_DECK, faces(decks.SYNTHETIC_DECK, decks.synthetic_deck()))


@pytest.fixture(scope="session")
def foreign_refs() -> ReferenceSet:
    return build_reference_set(decks.FOREIGN_DECK, faces(decks.FOREIGN_DECK, decks.synthetic_foreign_deck()))


@pytest.fixture(scope="session")
def text_refs() -> ReferenceSet:
    """The text-frame tuning deck (one shared frame, near-twins, plain cards), enrolled from its renders."""
    return build_reference_set(decks.TEXT_FRAME_DECK, faces(decks.TEXT_FRAME_DECK, decks.text_frame_deck()))


@pytest.fixture(scope="session")
def probe_refs() -> ReferenceSet:
    """The plain-probe tuning deck (plain designs drawn at random), enrolled from its renders."""
    deck = decks.PLAIN_PROBE_DECK
    return build_reference_set(deck, faces(deck, decks.plain_probe_deck()))


@pytest.fixture(scope="session")
def probe_identifier(probe_refs: ReferenceSet) -> Identifier:
    """The plain-probe deck's identifier with today's settings (uncalibrated)."""
    return Identifier([probe_refs], Thresholds())


@pytest.fixture(scope="session")
def probe_frame():
    """A medium frame of a plain-probe card: odd seeds on a ceiling, even ones on a table."""

    def frame(card: str, seed: int) -> np.ndarray:
        style = "ceiling" if seed % 2 else "table"
        return captures.single_frame(render_card(decks.PLAIN_PROBE_DECK, card), seed, "medium", style)

    return frame


@pytest.fixture(scope="session")
def identifier(synthetic_refs: ReferenceSet, foreign_refs: ReferenceSet) -> Identifier:
    return Identifier([synthetic_refs, foreign_refs])


def write_faces(folder: Path, deck: str, cards: list[str], suffix: str = ".png") -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for c in cards:
        cv2.imwrite(str(folder / f"{c}{suffix}"), render_card(deck, c))


@pytest.fixture
def make_refs():
    """Reference set of rendered faces: make_refs(deck, cards)."""
    return lambda deck, cards: build_reference_set(deck, faces(deck, cards))


@pytest.fixture
def card_folder():
    """Write rendered faces as image files: card_folder(folder, deck, cards, suffix=".png")."""
    return write_faces
