"""The plain-probe tuning deck (stop 52): plain cards of random designs beside the text-frame art.

The deck exists to measure how the plain-card path carries over to designs nobody tuned on, so
what matters is that its plain cards really are plain, really vary, and stay the same run to run.
"""

from __future__ import annotations

import cv2
import numpy as np

from device.hardware.vision import decks, tuning
from device.hardware.vision.badge_finder import MIN_FIELD_SHARE
from device.hardware.vision.card_art import CARD_H, CARD_W, render_card
from device.hardware.vision.identifier import Identifier
from device.hardware.vision.references import build_reference_set

DECK = decks.PLAIN_PROBE_DECK


def _fields() -> list[str]:
    return [c for c in decks.plain_probe_deck() + decks.plain_probe_unenrolled() if c.startswith("field-")]


def test_the_deck_is_known_and_its_negatives_are_never_enrolled() -> None:
    enrolled, unenrolled = decks.plain_probe_deck(), decks.plain_probe_unenrolled()
    assert decks.card_ids_for(DECK) == enrolled
    assert len(set(enrolled)) == len(enrolled) == 62
    assert not set(enrolled) & set(unenrolled)
    assert sum(c.startswith("field-") for c in enrolled) == 16
    assert sum(c.startswith("field-") for c in unenrolled) == 10


def test_faces_are_stable_and_each_plain_design_is_its_own() -> None:
    faces = {c: render_card(DECK, c) for c in _fields()}
    for c, face in faces.items():
        assert face.shape == (CARD_H, CARD_W, 3)
        assert np.array_equal(face, render_card(DECK, c))
    names = list(faces)
    for i, a in enumerate(names):  # (some pairs are close, as real decks have: two dark fields whose
        for b in names[i + 1 :]:  # small white emblems differ by shape only, 2.8 % of the face)
            differ = (np.abs(faces[a].astype(int) - faces[b].astype(int)).max(axis=2) > 40).mean()
            assert differ > 0.01, (a, b)


def test_the_art_cards_are_the_text_frame_decks() -> None:
    for c in decks.plain_probe_deck()[:3]:
        assert np.array_equal(render_card(DECK, c), render_card(decks.TEXT_FRAME_DECK, c))


def test_every_plain_card_is_mostly_one_field_and_every_kind_of_field_is_drawn() -> None:
    kinds = set()
    for c in _fields():
        face = render_card(DECK, c)
        field = np.median(face.reshape(-1, 3), axis=0)
        assert (np.abs(face.astype(float) - field).sum(axis=2) < 60).mean() >= MIN_FIELD_SHARE, c
        hsv = cv2.cvtColor(np.array([[field]], np.uint8), cv2.COLOR_BGR2HSV)[0, 0]
        if hsv[1] >= 100:
            kinds.add("chromatic")
        elif hsv[1] >= 20 and hsv[2] >= 200:
            kinds.add("pale")
        elif hsv[2] >= 100:
            kinds.add("grey")
        else:
            kinds.add("dark")
    assert kinds == {"chromatic", "pale", "grey", "dark"}


def test_the_tuning_figures_are_given_per_card_kind() -> None:
    faces = {c: [render_card(DECK, c)] for c in decks.plain_probe_deck()}
    ident = Identifier([build_reference_set(DECK, faces)])
    out = tuning.measure(ident, DECK, 8, ("easy",), 30_000, "table")
    by_prefix = out["easy"]["top1_by_prefix"]
    assert set(by_prefix) == {"tale", "field"}
    assert all(0.0 <= v <= 1.0 for v in by_prefix.values())
    assert out["false_accepts"]["frames"] == 10
    assert len(out["false_accept_examples"]) == out["false_accepts"]["unenrolled_card"]
