"""A colour patch none of whose four rough views looks like the badge is not aligned (stop 36):
ECC ranking the four orientations is most of what a badge patch costs, and on empty tables and
unenrolled cards most patches are a background or an illustration of the badge's colour."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import numpy as np

from device.hardware.vision import decks
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier
from device.hardware.vision.references import ReferenceSet


class _CountingAlignments(Identifier):
    """The identifier, counting its ECC alignments."""

    alignments = 0

    def _align(self, *args: Any, **kwargs: Any) -> np.ndarray | None:
        self.alignments += 1
        return super()._align(*args, **kwargs)  # (forwarded whole: no copy of the signature to keep in step)


def test_patches_unlike_the_badge_are_not_aligned_and_answers_stay(synthetic_refs: ReferenceSet) -> None:
    gated = _CountingAlignments([synthetic_refs])
    every = _CountingAlignments([synthetic_refs], replace(gated.t, badge_min_rough_view=-1.0))
    badges = [c for c in decks.synthetic_deck() if c.startswith("badge-")]
    unenrolled = [render_card(decks.SYNTHETIC_DECK, c) for c in decks.synthetic_unenrolled()]
    frames: list[np.ndarray] = []
    for i in range(8):
        frames.append(single_frame(None, 2600 + i, "medium", "table"))
        frames.append(single_frame(unenrolled[i % len(unenrolled)], 2700 + i, "medium", "ceiling"))
    named = 0
    for i, card in enumerate(badges * 2):
        face = render_card(decks.SYNTHETIC_DECK, card)
        frames.append(single_frame(face, 2800 + i, "medium", ("table", "ceiling")[i % 2]))
    for frame in frames:
        a, b = every.identify(frame), gated.identify(frame)
        assert (a.is_match, a.card) == (b.is_match, b.card)
        named += a.is_match and a.card in badges
    assert named >= len(badges)  # the badge frames are named, by both
    assert gated.alignments < every.alignments, (gated.alignments, every.alignments)
