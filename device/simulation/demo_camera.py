"""Cards "held up" in the demo: synthetic captures through the real recognition path.

The demo has no camera, so it renders each card the dealer holds with the synthetic capture model
(device/hardware/vision/captures.py: pose, blur, noise, lamps) and feeds the frames to the same scan
session the box runs on the Pi. Only a decision of that session becomes a `Scan` input. The deck
is enrolled first from the procedural card faces, as a table enrolls its printed deck.
"""

from __future__ import annotations

import itertools
import tempfile
from pathlib import Path
from typing import Any, TextIO

import cv2

from device.box.jobs import SayJob
from device.hardware.vision.camera_feed import service_message
from device.hardware.vision.captures import iter_hold
from device.hardware.vision.card_art import render_card
from device.hardware.vision.enrollment import enroll_from_folder
from device.hardware.vision.identifier import Identifier
from device.hardware.vision.references import load
from device.hardware.vision.scan_session import ScanSession
from device.simulation.simbox import SimBox
from games.catalog import deck_cards

FRAME_SECONDS = 1 / 30
MAX_FRAMES = 20  # a player holds a card still for about two thirds of a second at most
DEMO_SEED = 7_000_000  # captures for the demo; the vision benchmark evaluates on other seeds


class CameraHand:
    """Hold a card over the simulated camera until the scan session decides (or give up)."""

    def __init__(self, box: SimBox, deck: str, data_dir: Path, out: TextIO) -> None:
        self.box = box
        self.deck = deck
        self.out = out
        self.faces = {card: render_card(deck, card) for card in deck_cards(deck) or []}
        self.session = ScanSession(Identifier([load(data_dir, deck)]).identify, deck=deck, clock=box.clock)
        self.seeds = itertools.count(DEMO_SEED)
        self.frames_used: list[int] = []
        self.typed_in = 0

    def hold_up(self, card: str) -> None:
        self.box.clock.advance(1.0)  # the previous card has left the view
        frames = iter_hold(self.faces[card], next(self.seeds), "medium")
        for n, frame in enumerate(itertools.islice(frames, MAX_FRAMES), 1):
            self.box.clock.advance(FRAME_SECONDS)
            decision = self.session.feed(frame)
            if decision is None:
                continue
            message = service_message(decision)
            self.frames_used.append(n)
            print(f"  CAM  card held over the lid: recognised after {n} frames", file=self.out, flush=True)
            if isinstance(message, list):
                self.box.service.post(SayJob(message))
                self.box.service.wait_idle()
            elif message is not None:
                self.box.submit(message)
            return
        self.typed_in += 1
        print(f"  CAM  not recognised in {MAX_FRAMES} frames: the dealer types it in", file=self.out, flush=True)
        self.box.scan_direct(card)


def enroll_deck(deck: str, data_dir: Path) -> None:
    """Enroll the procedural faces of `deck` into `data_dir`, as `houston enroll --from` would."""
    with tempfile.TemporaryDirectory(prefix="houston-cards-") as tmp:
        for card in deck_cards(deck) or []:
            cv2.imwrite(str(Path(tmp) / f"{card}.png"), render_card(deck, card))
        enroll_from_folder(deck, Path(tmp), data_dir)


def attach_camera(box: SimBox, deck: str, data_dir: Path, out: TextIO) -> Any:
    """Route the box's scans through the simulated camera; returns the hand (for its figures)."""
    enroll_deck(deck, data_dir)
    hand = CameraHand(box, deck, data_dir, out)
    box.scanner = hand.hold_up
    return hand
