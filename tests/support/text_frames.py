"""Frames the text-frame tuning deck must never name: its unenrolled cards and empty tables."""

from __future__ import annotations

import numpy as np

from device.hardware.vision import decks
from device.hardware.vision.captures import single_frame
from device.hardware.vision.card_art import render_card


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
