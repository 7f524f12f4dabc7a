"""Run the camera for the service: frames through the watchdog into card recognition.

Recognition (device/hardware/vision/camera_feed.py, another part of the box) turns a stream of frames into
decisions; this module supplies the stream, tells the players when the camera is lost or back, and
posts each recognised card to the service as a `Scan`. If recognition is not installed the camera
is still watched, so `houston doctor` and the status light tell the truth about it.
"""

from __future__ import annotations

import importlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from device.box.jobs import InputJob, SayJob
from device.box.service import Service
from device.hardware.camera.sources import open_source
from device.hardware.camera.watchdog import CameraWatchdog
from games.core import Input, Scan, say

log = logging.getLogger("houston.camera")


def decision_input(decision: Any) -> Input | None:
    """The input a recognition decision stands for (a Scan, a card id, or an object with .card)."""
    if decision is None:
        return None
    if isinstance(decision, Scan):
        return decision
    if isinstance(decision, str):
        return Scan(decision)
    card = getattr(decision, "card", None) or getattr(decision, "card_id", None)
    return Scan(card) if isinstance(card, str) and card != "unknown" else None


class CameraFeed:
    """The camera thread of a running box."""

    def __init__(
        self,
        service: Service,
        open_frames: Callable[[], Any],
        *,
        data_dir: Path,
        stale_after: float = 2.0,
        on_change: Callable[[bool], None] | None = None,
        on_scanning: Callable[[bool], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.service = service
        self.data_dir = data_dir
        self.on_change = on_change
        self.on_scanning = on_scanning
        self.stop_event = threading.Event()
        self.watchdog = CameraWatchdog(
            open_frames, clock=clock, on_lost=self._lost, on_back=self._back, stale_after=stale_after,
        )
        self.thread = threading.Thread(target=self._run, name="houston-camera", daemon=True)
        self._to_service: Callable[[Any], Any] | None = None

    def _lost(self, reason: str) -> None:
        self.service.post(SayJob([say("camera_lost")]))
        if self.on_change:
            self.on_change(False)

    def _back(self) -> None:
        self.service.post(SayJob([say("camera_back")]))
        if self.on_change:
            self.on_change(True)

    def on_decision(self, decision: Any) -> None:
        """Called by recognition: a card → a Scan input; a list of Say (unknown card …) is spoken."""
        if self._to_service is not None:
            decision = self._to_service(decision)
        if isinstance(decision, list | tuple):
            self.service.post(SayJob(list(decision)))
            return
        inp = decision_input(decision)
        if inp is not None:
            self.service.post(InputJob(inp))

    def start(self) -> CameraFeed:
        self.thread.start()
        return self

    def _run(self) -> None:
        frames = self.watchdog.frames(self.stop_event)
        try:
            session, run_feed = self._recognition()
            if session is None:
                for _ in frames:  # no recognition: still watch the camera, so its state is told
                    pass
                return
            run_feed(self.watch_scanning(frames, session), session, self.on_decision, self.stop_event)
        except Exception:
            log.exception("camera feed stopped; buttons still work")
        finally:
            self.watchdog.close()

    def watch_scanning(self, frames: Iterator[Any], session: Any) -> Iterator[Any]:
        """Pass frames through; tell `on_scanning` when a card comes into view or leaves it
        (the status light blinks fast meanwhile), judged by the session's last identification."""
        seeing = False
        for frame in frames:
            yield frame
            now_seeing = getattr(getattr(session, "last", None), "status", "none") in ("match", "unknown")
            if now_seeing != seeing:
                seeing = now_seeing
                if self.on_scanning is not None:
                    self.on_scanning(seeing)
        if seeing and self.on_scanning is not None:
            self.on_scanning(False)

    def _recognition(self) -> tuple[Any, Any]:
        """(scan session, run_camera_feed) from device/vision, or (None, None) with the reason logged."""
        try:
            feed = importlib.import_module("device.hardware.vision.camera_feed")
        except ImportError as exc:
            log.warning("card recognition is not installed (%s): the camera is watched, cards are not read", exc)
            return None, None
        self._to_service = getattr(feed, "service_message", None)
        try:
            session = _scan_session(feed, self.service, self.data_dir)
        except Exception as exc:  # e.g. no deck enrolled yet
            log.warning("cards cannot be read: %s", exc)
            return None, None
        return session, feed.run_camera_feed

    def stop(self, timeout: float = 3.0) -> None:
        self.stop_event.set()
        if self.thread.is_alive():
            self.thread.join(timeout)


def _scan_session(feed: Any, service: Service, data_dir: Path) -> Any:
    """Recognition's session object, built by whichever factory the vision module offers."""
    factory = getattr(feed, "make_scan_session", None)
    return factory(service=service, data_dir=data_dir) if factory is not None else None


def start_camera(spec: str, service: Service, data_dir: Path, **kw: Any) -> CameraFeed | None:
    """Start watching the camera named by `spec` (see sources.open_source); None for `none`."""
    if spec == "none":
        return None
    return CameraFeed(service, lambda: open_source(spec), data_dir=data_dir, **kw).start()
