"""A white or grey plain card's field split by a cast shadow is also tried as one patch (stop 40):
the shadow's edge is not flat, so the finder's flat mask cut the field in two and neither part had
the card's shape."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from device.hardware.vision import decks
from device.hardware.vision.badge_finder import BadgeFinder
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier
from device.hardware.vision.references import ReferenceSet


def _split_field() -> np.ndarray:
    """A half-size mask: a 110 x 150 field with a hole for its emblem, cut across by a 9 px band
    (a shadow's edge, not flat), on an empty frame."""
    mask = np.zeros((240, 320), np.uint8)
    mask[40:190, 100:210] = 1
    mask[95:125, 140:170] = 0  # the emblem
    mask[130:139, 100:210] = 0  # the shadow's edge
    return mask


def test_the_two_parts_of_a_split_field_give_one_quad_round_both() -> None:
    finder = BadgeFinder([], neutral_bridge_px=25)
    quads = finder._bridged(_split_field(), [], 1.0)
    assert len(quads) == 1
    corners = sorted(map(tuple, np.round(quads[0]).astype(int).tolist()))
    want = sorted([(100, 40), (209, 40), (209, 189), (100, 189)])
    assert all(abs(a - c) <= 3 and abs(b - d) <= 3 for (a, b), (c, d) in zip(corners, want, strict=True)), corners


def test_no_bridge_when_off_or_when_the_patch_was_found_already() -> None:
    assert BadgeFinder([], neutral_bridge_px=0)._bridged(_split_field(), [], 1.0) == []
    finder = BadgeFinder([], neutral_bridge_px=25)
    whole = _split_field()
    whole[130:139, 100:210] = 1  # no shadow: the finder's own patch is the field
    found = finder._quads(whole, 2, 3)
    assert len(found) == 1
    assert finder._bridged(whole, found, 1.0) == []


def _pair(refs: ReferenceSet) -> tuple[Identifier, Identifier]:
    on = Identifier([refs])
    off = Identifier([refs])
    off.t = replace(on.t, badge_neutral_bridge=0)
    off._badge_finder.neutral_bridge_px = 0  # (the finder is built with the identifier)
    return on, off


def test_shadowed_grey_plain_cards_are_named(text_refs: ReferenceSet) -> None:
    """Text-frame table frames of the grey plain card (tuning seeds) that the finder without the
    bridge could not place."""
    on, off = _pair(text_refs)
    face = render_card(decks.TEXT_FRAME_DECK, "plain-grey-triangle")
    frames = [
        single_frame(face, seed, d, "table") for seed, d in ((961028, "medium"), (961033, "medium"), (962006, "hard"))
    ]
    assert not any(off.identify(f).is_match for f in frames)
    assert [(r.status, r.card) for r in map(on.identify, frames)] == [("match", "plain-grey-triangle")] * 3


def test_grey_plain_cards_not_enrolled_are_not_named(text_refs: ReferenceSet) -> None:
    """The same grey field with another emblem (a square, a bar: render_card draws any), medium
    and hard table frames: the joined patch is judged like any other and never named."""
    on, _ = _pair(text_refs)
    frames = [
        single_frame(render_card(decks.TEXT_FRAME_DECK, card), 963000 + 500 * k + i, d, "table")
        for k, card in enumerate(("plain-grey-square", "plain-grey-bar"))
        for i in range(5)
        for d in ("medium", "hard")
    ]
    named = [r.card for f in frames if (r := on.identify(f)).is_match]
    assert named == [], named
