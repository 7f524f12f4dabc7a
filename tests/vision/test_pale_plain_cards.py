"""Pale plain cards (stop 42): a cream or pale-grey field whose emblem is only a little lighter has
nothing 120 levels from its field and no dark ink, so it had no plain layout and no plain evidence;
a card of another colour with the same emblem could then be named as it by the features alone.
Its white is now what is lighter than its field, and the plain-evidence checks refuse that card."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from device.hardware.vision import captures, decks, identifier
from device.hardware.vision.card_art import CARD_H, CARD_W, render_card
from device.hardware.vision.identifier import Identifier
from device.hardware.vision.references import build_reference_set
from tests.support.text_frames import unenrolled_and_empty

_PALE = "pale-star"
_PURPLE = "purple-star"
# Table frames (tuning seeds, medium) of the purple card that the features named as the pale one.
_CONFUSED = (910026, 910045, 910092)


def _star(centre: tuple[int, int], outer: float, inner: float) -> np.ndarray:
    a = np.linspace(-np.pi / 2, 1.5 * np.pi, 10, endpoint=False)
    r = np.where(np.arange(10) % 2 == 0, outer, inner)
    return np.column_stack([centre[0] + r * np.cos(a), centre[1] + r * np.sin(a)]).astype(np.int32)


def _plain(field: tuple[int, int, int], emblem: str) -> np.ndarray:
    """A plain card drawn here (no generator's): its field to the edge, a thin light line, and a
    light emblem: a star, or a ring 14 px wide (3.5 px at thumbnail size)."""
    img = np.zeros((CARD_H, CARD_W, 3), np.uint8)
    img[:] = field
    cv2.rectangle(img, (8, 8), (CARD_W - 9, CARD_H - 9), (238, 238, 238), 3)
    centre, light = (CARD_W // 2, CARD_H // 2), (245, 245, 245)
    if emblem == "star":
        cv2.fillPoly(img, [_star(centre, 60, 26)], light, cv2.LINE_AA)
    else:
        cv2.circle(img, centre, 52, light, 14, cv2.LINE_AA)
    return img


_FACES = {_PALE: _plain((215, 225, 232), "star"), _PURPLE: _plain((140, 40, 110), "star")}
_RINGS = {"orange-ring": _plain((40, 120, 220), "ring"), "cream-ring": _plain((205, 215, 228), "ring")}


def _identifier(deck: str, extra: dict[str, np.ndarray]) -> Identifier:
    """The text-frame deck and the cards drawn here, enrolled from their faces."""
    faces = {c: [render_card(decks.TEXT_FRAME_DECK, c)] for c in decks.text_frame_deck()}
    return Identifier([build_reference_set(deck, faces | {c: [f] for c, f in extra.items()})])


@pytest.fixture(scope="module")
def pair() -> tuple[Identifier, Identifier]:
    with_pale = _identifier("pale-probe", _FACES)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(identifier, "_PALE_STEP", 1e9)  # nothing is that much lighter: the step off
        without = _identifier("pale-probe", _FACES)
    return with_pale, without


def test_a_pale_card_is_judged_against_its_lighter_emblem(pair: tuple[Identifier, Identifier]) -> None:
    with_pale, without = pair
    k = with_pale._index_of[("pale-probe", _PALE)]
    assert k not in without._plain_layouts
    lay = with_pale._plain_layouts[k]
    assert lay.neutral and lay.white is not None and not lay.by_ink
    assert lay.white.sum() >= 15 and not (lay.white & lay.field).any()
    # Every other card keeps the layout it had (or has none, as before).
    assert set(with_pale._plain_layouts) - {k} == set(without._plain_layouts)


@pytest.mark.parametrize("seed", _CONFUSED)
def test_another_colour_with_the_same_emblem_is_not_named_as_the_pale_card(
    pair: tuple[Identifier, Identifier], seed: int
) -> None:
    with_pale, without = pair
    frame = captures.single_frame(_FACES[_PURPLE], seed, "medium", "table")
    assert without.identify(frame).card == _PALE  # the features alone named it
    assert with_pale.identify(frame).card != _PALE


@pytest.fixture(scope="module")
def ring_ident() -> Identifier:
    return _identifier("ring-probe", _RINGS)


def test_a_thin_ring_still_has_emblem_pixels_to_judge(ring_ident: Identifier, monkeypatch: pytest.MonkeyPatch) -> None:
    for card in _RINGS:
        lay = ring_ident._plain_layouts[ring_ident._index_of[("ring-probe", card)]]
        assert lay.other.sum() >= 15
    # Eroded 5 x 5 only (before stop 42), too little of the ring is left to judge (15 pixels in view).
    monkeypatch.setattr(
        identifier,
        "_core",
        lambda m, min_pixels=15: cv2.erode(m.astype(np.uint8), np.ones((5, 5), np.uint8)).astype(bool),
    )
    before = _identifier("ring-probe", _RINGS)
    for card in _RINGS:
        lay = before._plain_layouts[before._index_of[("ring-probe", card)]]
        assert lay.other.sum() < 15


@pytest.mark.parametrize("size", [(252, 352), (500, 700), (630, 880)])
def test_ring_cards_name_their_own_scans(ring_ident: Identifier, size: tuple[int, int]) -> None:
    for card, face in _RINGS.items():
        named = ring_ident.identify(cv2.resize(face, size, interpolation=cv2.INTER_AREA))
        assert named.is_match and named.card == card


def test_no_false_accepts_once_pale_and_ring_cards_are_judged(
    pair: tuple[Identifier, Identifier], ring_ident: Identifier
) -> None:
    """A pale card with a layout is also looked for by its flat field: unenrolled cards, empty
    tables and empty (grey, flat) ceilings are still never named (tuning seeds)."""
    frames = unenrolled_and_empty(928000, 8, 929000, 8)
    frames += [captures.single_frame(None, 929500 + i, "medium", "ceiling") for i in range(8)]
    for ident in (pair[0], ring_ident):
        answers = [ident.identify(f) for f in frames]
        assert not any(r.is_match for r in answers), [r.card for r in answers if r.is_match]
