"""The recognition loop of a running box: frames in, decisions out, on its own thread.

`run_camera_feed` works with any iterator of frames (the Pi camera through device/camera, an image
folder, a video file, synthetic captures) and calls `on_decision(Decision)` for each decision.
`service_message` turns a decision into what the service takes: a `Scan` for a card of this game,
a spoken message for an unknown or foreign card.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from device.hardware.vision.identifier import Identifier
from device.hardware.vision.references import default_data_dir, load_all
from device.hardware.vision.scan_session import CARD, FOREIGN, UNKNOWN, Decision, ScanSession

log = logging.getLogger("houston.vision")


def run_camera_feed(
    source: Iterable[np.ndarray | None],
    session: ScanSession,
    on_decision: Callable[[Decision], Any],
    stop_event: threading.Event,
) -> int:
    """Feed frames to the session until the source ends or `stop_event` is set.

    Returns the number of frames processed. A `None` from the source means "no new frame yet" and
    is skipped. An exception in `on_decision` is logged, not allowed to stop the camera.
    """
    cv2.setNumThreads(1)  # one core for recognition, the other for the service and MQTT
    count = 0
    for frame in source:
        if stop_event.is_set():
            break
        if frame is None:
            continue
        count += 1
        decision = session.feed(frame)
        if decision is not None:
            try:
                on_decision(decision)
            except Exception:
                log.exception("on_decision failed for %s", decision)
    return count


def service_message(decision: Decision) -> Any:
    """What the service should get: `Scan(card)` for a card, a list of `Say` to speak otherwise."""
    from games.core import Scan, say

    if decision.kind == CARD and decision.card:
        return Scan(decision.card)
    if decision.kind == FOREIGN:
        return [say("foreign_card")]
    if decision.kind == UNKNOWN:
        return [say("unknown_card")]
    return None


def _deck_of_running_game(service: Any) -> str | None:
    """The deck of the game the service is about: the one in progress (a resumed game included),
    else the one selected at idle (None if no game or no deck)."""
    game_id = service.game_id
    if not game_id:
        return None
    try:
        from games.registry import load_game

        return load_game(game_id).info.deck
    except Exception:
        return None


def make_scan_session(
    service: Any = None,
    data_dir: Path | str | None = None,
    deck: str | None = None,
    clock: Callable[[], float] | None = None,
) -> ScanSession:
    """A session over every deck enrolled in the data dir; the current deck follows the service.

    Raises `ReferenceStoreError` (message: how to enroll) when nothing usable is enrolled.
    """
    refs = load_all(default_data_dir(data_dir))
    identifier = Identifier(refs)
    current: str | Callable[[], str | None] | None
    current = deck if deck is not None or service is None else (lambda: _deck_of_running_game(service))
    kwargs: dict[str, Any] = {"clock": clock} if clock is not None else {}
    # An unchanged empty lid is not identified again for up to 15 frames (~1 s) in a row.
    return ScanSession(identifier.identify, deck=current, still_frames=15, **kwargs)
