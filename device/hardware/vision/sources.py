"""Frame sources for recognition off the Pi: image folders, video files and synthetic captures.

Each is a plain iterator of BGR frames (numpy arrays), which is all `run_camera_feed` needs. The
Pi camera and webcams live in device/hardware/camera/sources.py; note those may deliver greyscale frames,
with which badges can only be told apart by brightness.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from pathlib import Path

import cv2
import numpy as np

from device.hardware.vision.captures import iter_hold
from device.hardware.vision.card_art import render_card
from device.hardware.vision.references import IMAGE_EXTS


def image_folder(folder: Path | str) -> Iterator[np.ndarray]:
    """Every image in a folder, in name order; unreadable files raise ValueError."""
    paths = sorted(p for p in Path(folder).iterdir() if p.is_file() and p.suffix.lower() in IMAGE_EXTS)
    for p in paths:
        img = cv2.imread(str(p), cv2.IMREAD_COLOR)
        if img is None:
            raise ValueError(f"cannot read image {p}")
        yield img


def video_file(path: Path | str) -> Iterator[np.ndarray]:
    """Frames of a video file until it ends."""
    cap = cv2.VideoCapture(str(path))
    if not cap.isOpened():
        raise ValueError(f"cannot open video {path}")
    try:
        while True:
            ok, frame = cap.read()
            if not ok:
                return
            yield frame
    finally:
        cap.release()


def synthetic_captures(
    deck: str,
    cards: Sequence[str | None],
    *,
    seed: int,
    frames_per_card: int = 12,
    gap_frames: int = 8,
    difficulty: str = "medium",
) -> Iterator[np.ndarray]:
    """A player holding each card in turn (None: an empty view), with empty frames between."""
    for i, card in enumerate(cards):
        face = render_card(deck, card) if card is not None else None
        hold = iter_hold(face, seed * 1000 + i, difficulty)
        for _ in range(frames_per_card):
            yield next(hold)
        empty = iter_hold(None, seed * 1000 + 500 + i, difficulty)
        for _ in range(gap_frames):
            yield next(empty)
