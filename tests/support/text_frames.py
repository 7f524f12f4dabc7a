"""Text-frame tuning deck frames for tests: what it must never name (its unenrolled cards and empty
tables), and plain cards named with and without a step."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import numpy as np

from device.hardware.vision import decks
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import render_card
from device.hardware.vision.identifier import Identifier


def unenrolled_and_empty(card_seed: int, cards: int, empty_seed: int, empties: int) -> list[np.ndarray]:
    """`cards` unenrolled text-frame cards on a table, each at medium and at hard (seeds from
    `card_seed`), then `empties` empty tables (seeds from `empty_seed`); tuning seeds only."""
    unenrolled = decks.text_frame_unenrolled()
    frames = [
        single_frame(render_card(decks.TEXT_FRAME_DECK, unenrolled[i % len(unenrolled)]), card_seed + i, d, "table")
        for i in range(cards)
        for d in ("medium", "hard")
    ]
    return frames + [single_frame(None, empty_seed + i, "medium", "table") for i in range(empties)]


def named_plain_cards(
    identifiers: Mapping[str, Identifier], cards: Iterable[str], seed: int, per_card: int, stride: int
) -> dict[str, int]:
    """How many medium table frames of each text-frame card (seeds `seed + stride * i + s`, `s`
    below `per_card`) each identifier names; fails on any card named as another."""
    named = dict.fromkeys(identifiers, 0)
    for i, card in enumerate(cards):
        face = render_card(decks.TEXT_FRAME_DECK, card)
        for s in range(per_card):
            frame = single_frame(face, seed + stride * i + s, "medium", "table")
            for name, idf in identifiers.items():
                result = idf.identify(frame)
                if result.is_match:
                    assert result.card == card, (name, card, result.card)
                    named[name] += 1
    return named
