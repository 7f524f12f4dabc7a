"""Enrolling a deck: from a folder of photos/scans, or card by card in front of the camera.

Both end in a reference set saved to the data dir and a report: how many cards and views, which
catalogue cards are missing, which files name no card of the deck, and which cards look too alike
to tell apart (their faces differ on under 3% of the card) - the table should know before a game.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

import cv2
import numpy as np

from device.hardware.vision.calibration import calibrate
from device.hardware.vision.card_art import CARD_H, CARD_W
from device.hardware.vision.decks import card_ids_for
from device.hardware.vision.identifier import Identifier
from device.hardware.vision.references import (
    ReferenceSet,
    _order_corners,
    build_reference_set,
    read_folder,
    save,
)


@dataclass
class EnrollReport:
    """What an enrollment did, for the CLI to print."""

    deck: str
    path: Path
    cards: int
    views: int
    missing: list[str] = field(default_factory=list)
    unknown: list[str] = field(default_factory=list)
    groups: list[list[str]] = field(default_factory=list)
    too_alike: list[tuple[str, str]] = field(default_factory=list)
    calibration: dict[str, float] = field(default_factory=dict)

    def lines(self) -> list[str]:
        out = [f"enrolled {self.cards} cards ({self.views} views) of deck {self.deck!r} into {self.path}"]
        if self.missing:
            out.append(f"not enrolled (no image): {', '.join(self.missing)}")
        if self.unknown:
            out.append(f"skipped (not a card of this deck): {', '.join(self.unknown)}")
        for g in self.groups:
            out.append(f"look-alike group ({len(g)} cards share a frame): {', '.join(g)}")
        for a, b in self.too_alike:
            out.append(f"WARNING: {a} and {b} look too alike to tell apart")
        if self.calibration:
            c = self.calibration
            out.append(
                f"calibrated: strictness {c['strictness']:.3f}; {c['positives_accepted']:.0f} of {c['positives']:.0f} "
                f"test views named, 0 of {c['negatives']:.0f} negatives accepted"
            )
        return out


def _finish(
    refs: ReferenceSet,
    faces: dict[str, list[np.ndarray]],
    data_dir: Path,
    views: int,
    missing: list[str],
    unknown: list[str],
    calibration_options: dict[str, int] | None = None,
) -> EnrollReport:
    ident = Identifier([refs])
    refs = replace(refs, look_alikes=ident.alike)
    calibration = calibrate(
        refs, faces, lambda sets, th, alike: Identifier(sets, th, look_alikes=alike), **(calibration_options or {})
    )
    refs = replace(refs, calibration=calibration.as_dict())
    path = save(refs, data_dir)
    return EnrollReport(
        refs.deck,
        path,
        len(refs.cards),
        views,
        missing,
        unknown,
        ident.look_alike_groups(),
        ident.too_alike(),
        calibration.as_dict(),
    )


def enroll_from_folder(
    deck: str, folder: Path, data_dir: Path, calibration_options: dict[str, int] | None = None
) -> EnrollReport:
    """Enroll `<card-id>[__n].<ext>` images; a built-in deck only takes its catalogue's ids."""
    expected = card_ids_for(deck)
    faces, unknown, missing = read_folder(Path(folder), expected)
    if not faces:
        raise ValueError(f"no images of deck {deck!r} cards in {folder}")
    refs = build_reference_set(deck, faces)
    views = sum(len(v) for v in faces.values())
    return _finish(refs, faces, data_dir, views, missing, unknown, calibration_options)


def find_card_quad(frame: np.ndarray) -> np.ndarray | None:
    """The outline of a card held flat and whole in view (enrollment only; 4x2 or None)."""
    grey = cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY) if frame.ndim == 3 else frame, (5, 5), 0)
    edges = cv2.dilate(cv2.Canny(grey, 40, 120), None)
    contours, _ = cv2.findContours(edges, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    h, w = grey.shape
    for c in sorted(contours, key=cv2.contourArea, reverse=True)[:5]:
        if cv2.contourArea(c) < 0.08 * h * w:
            break
        quad = cv2.approxPolyDP(c, 0.02 * cv2.arcLength(c, True), True)
        if len(quad) == 4 and cv2.isContourConvex(quad):
            return _order_corners(quad)
    return None


def enroll_from_camera(
    deck: str,
    cards: Sequence[str],
    frames: Iterator[np.ndarray],
    data_dir: Path,
    *,
    say: Callable[[str], None] = print,
    name_of: Callable[[str], str] = str,
    progress: Callable[[int, int, str, int, int], None] | None = None,
    views: int = 3,
    clock: Callable[[], float] = time.monotonic,
    min_gap: float = 0.3,
    max_frames_per_card: int = 600,
) -> EnrollReport:
    """Walk through `cards`: ask for each, take `views` whole-card views, then say "got it"."""
    faces: dict[str, list[np.ndarray]] = {}
    missing: list[str] = []
    dst = np.float32([[0, 0], [CARD_W - 1, 0], [CARD_W - 1, CARD_H - 1], [0, CARD_H - 1]])
    for n, card in enumerate(cards, 1):
        say(f"Hold {name_of(card)} over the box.")
        taken: list[np.ndarray] = []
        last = -1e9
        for i, frame in enumerate(frames):
            if frame.ndim == 2:
                frame = cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
            quad = find_card_quad(frame)
            now = clock()
            if quad is not None and now - last >= min_gap:
                m = cv2.getPerspectiveTransform(quad.astype(np.float32), dst)
                taken.append(cv2.warpPerspective(frame, m, (CARD_W, CARD_H)))
                last = now
            if progress:
                progress(n, len(cards), card, len(taken), views)
            if len(taken) >= views or i + 1 >= max_frames_per_card:
                break
        if taken:
            faces[card] = taken
            say("Got it.")
        else:
            missing.append(card)
            say(f"No card seen. Skipping {name_of(card)}.")
    if not faces:
        raise ValueError("no card was seen by the camera")
    refs = build_reference_set(deck, faces)
    return _finish(refs, faces, data_dir, sum(len(v) for v in faces.values()), missing, [])
