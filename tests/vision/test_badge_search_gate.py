"""No badge search when the features already placed a card-like face of another card (stop 38).

An unenrolled illustrated card is card-like but named nothing; its illustration's colours gave
badge patches that were aligned and judged (~40 ms a frame on the text-frame deck) for nothing.
A badge frame's card-like face, when there is one before the search, is the badge itself, so the
search still runs there. Answers must not change either way.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from device.hardware.vision import decks
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identification, Identifier
from device.hardware.vision.references import ReferenceSet


class _CountingSearches(Identifier):
    """The identifier, counting its badge searches."""

    searches = 0

    def _badge_by_field(self, frame: np.ndarray) -> Identification | None:
        self.searches += 1
        return super()._badge_by_field(frame)


def _frames(cards: list[str], seed: int, style: str) -> list[np.ndarray]:
    return [
        single_frame(render_card(decks.SYNTHETIC_DECK, card), seed + i, "medium", style) for i, card in enumerate(cards)
    ]


def test_unenrolled_cards_skip_the_badge_search_and_answers_stay(synthetic_refs: ReferenceSet) -> None:
    gated = _CountingSearches([synthetic_refs])
    every = _CountingSearches([synthetic_refs], replace(gated.t, badge_skip_cardlike=False))
    frames = _frames(decks.synthetic_unenrolled()[:12], 3100, "table")
    for frame in frames:
        a, b = every.identify(frame), gated.identify(frame)
        assert (a.status, a.card) == (b.status, b.card)
    assert every.searches >= 8  # most unenrolled cards are searched for badges without the gate
    assert gated.searches <= every.searches // 2, (gated.searches, every.searches)


def test_badge_frames_are_still_searched(synthetic_refs: ReferenceSet) -> None:
    gated = _CountingSearches([synthetic_refs])
    every = _CountingSearches([synthetic_refs], replace(gated.t, badge_skip_cardlike=False))
    badges = [c for c in decks.synthetic_deck() if c.startswith("badge-")]
    named = 0
    for frame in _frames(badges * 2, 3200, "ceiling"):
        a, b = every.identify(frame), gated.identify(frame)
        assert (a.status, a.card) == (b.status, b.card)
        named += b.is_match
    assert named >= len(badges)
    assert gated.searches == every.searches
