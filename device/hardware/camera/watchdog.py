"""Notice a dead or frozen camera, say so, and keep trying to get it back.

A ribbon cable works loose, a USB webcam browns out, libcamera wedges and repeats its last buffer:
none of these may stop the game. The watchdog wraps a source factory: when no *new* frame has come
for `stale_after` seconds (nothing at all, an exception, or the very same picture again and again)
it reports the camera lost once, closes it and reopens it every `retry_every` seconds. Players keep
going on the buttons meanwhile; when fresh frames come back it reports the camera back.

Time comes from an injected clock, so tests freeze and kill cameras without sleeping.
"""

from __future__ import annotations

import logging
import time
import zlib
from collections.abc import Callable, Iterator
from threading import Event
from typing import Any

from device.hardware.camera.sources import CameraError, Frame

log = logging.getLogger("houston.camera")

Clock = Callable[[], float]


def fingerprint(frame: Frame) -> int:
    """A cheap checksum of the picture: a live sensor's noise changes it every frame."""
    return zlib.crc32(frame.data.cast("B")) if frame.flags.c_contiguous else zlib.crc32(frame.tobytes())


class CameraWatchdog:
    """Frames from a source that may die; `on_lost(reason)` and `on_back()` report the changes."""

    def __init__(
        self,
        open_source: Callable[[], Any],
        *,
        clock: Clock = time.monotonic,
        on_lost: Callable[[str], None] = lambda reason: None,
        on_back: Callable[[], None] = lambda: None,
        stale_after: float = 2.0,
        retry_every: float = 1.0,
    ) -> None:
        self.open_source = open_source
        self.clock = clock
        self.on_lost = on_lost
        self.on_back = on_back
        self.stale_after = stale_after
        self.retry_every = retry_every
        self.source: Any = None
        self.lost = False
        self.reason = ""
        self.reconnects = 0
        self._last_fresh = clock()
        self._last_print: int | None = None
        self._connected_at = self._last_fresh
        self._frames_from_source = 0
        self._last_try: float | None = None
        self._last_error = ""

    # --- one step ----------------------------------------------------------------------------

    def poll(self) -> Frame | None:
        """One attempt: a fresh frame, or None (no camera, nothing new, or the same picture)."""
        now = self.clock()
        if self.source is None and not self._connect(now):
            self._check_stale(now, self._last_error or "camera not connected")
            return None
        try:
            frame = self.source.read()
        except (CameraError, OSError) as exc:
            self._drop(str(exc))
            self._check_stale(now, f"camera died: {exc}")
            return None
        if frame is None:
            self._check_stale(now, "no frames from the camera")
            return None
        print_ = fingerprint(frame)
        if print_ == self._last_print:
            self._check_stale(now, "the camera shows the same picture (frozen)")
            return None
        self._last_print = print_
        self._frames_from_source += 1
        if self.lost and self._frames_from_source < 2:
            return None  # a reopened camera proves itself live by a *change* of picture, not one frame
        self._last_fresh = now
        if self.lost:
            self.lost = False
            log.warning("camera back (%s)", getattr(self.source, "name", "camera"))
            self.on_back()
        return frame

    def _connect(self, now: float) -> bool:
        if self._last_try is not None and now - self._last_try < self.retry_every:
            return False
        self._last_try = now
        try:
            self.source = self.open_source()
        except (CameraError, OSError) as exc:
            self._last_error = str(exc)
            return False
        self.reconnects += 1
        self._connected_at = now
        self._frames_from_source = 0
        return True

    def _drop(self, why: str) -> None:
        source, self.source = self.source, None
        self._last_error = why
        if source is not None:
            try:
                source.close()
            except Exception:
                log.exception("closing the camera failed")

    def _check_stale(self, now: float, reason: str) -> None:
        if now - self._last_fresh < self.stale_after:
            return
        if not self.lost:
            self.lost = True
            self.reason = reason
            log.warning("camera lost: %s", reason)
            self.on_lost(reason)
        if self.source is not None and now - self._connected_at >= self.stale_after:
            self._drop(reason)  # a frozen camera is reopened, not waited on

    # --- a stream ----------------------------------------------------------------------------

    def frames(self, stop: Event, idle: float = 0.02) -> Iterator[Frame]:
        """Fresh frames until `stop` is set, waiting `idle` seconds between empty polls."""
        while not stop.is_set():
            frame = self.poll()
            if frame is None:
                stop.wait(idle)
                continue
            yield frame

    def close(self) -> None:
        self._drop("closed")
