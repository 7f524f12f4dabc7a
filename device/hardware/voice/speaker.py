"""The speaker: a queue of announcements and sounds played one after another through pygame.

Announcements never overlap or cut each other off: one worker thread plays the queue in order and
waits for each item to finish. Clips come from the ClipCache (pre-rendered, or rendered on first
use); sounds are synthesised once at start. With no audio device the box keeps working and logs
what it would have said — and says once, in the log, why it is silent.
"""

from __future__ import annotations

import contextlib
import logging
import os
import queue
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from device.hardware.voice.clips import ClipCache, VoiceUnavailable
from device.hardware.voice.sounds import RATE, SOUNDS, synthesise

log = logging.getLogger("houston.voice")

HISTORY_ITEMS = 256  # items kept in `history` and `started`
MAX_PENDING = 32  # announcements waiting to be spoken; older ones give way to newer
LOADED_CLIPS = 64  # pygame Sounds kept in memory (a clip is ~100-300 KB decoded)
RETRY_SECONDS = 30.0  # how often a silent box looks for a speaker again


@dataclass
class Item:
    kind: str  # say | sound
    what: str  # the text, or the sound's name
    queued_at: float = field(default_factory=time.perf_counter)
    started_at: float | None = None


def use_alsa_under_systemd(environ: dict[str, str] | Any = os.environ) -> None:
    """A systemd service has no sound-server session: talk to ALSA directly unless told otherwise."""
    if environ.get("INVOCATION_ID") and not environ.get("SDL_AUDIODRIVER"):
        environ["SDL_AUDIODRIVER"] = "alsa"


class Mixer:
    """pygame's mixer, or None-like when there is no audio device (`ok` is False, `problem` why)."""

    def __init__(self, volume: float = 0.8) -> None:
        self.volume = volume
        self.ok = False
        self.problem = ""
        self.open()

    def open(self) -> bool:
        """(Re)try the audio device: a USB speaker may appear after the box has started."""
        use_alsa_under_systemd()
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        try:
            import pygame

            pygame.mixer.pre_init(RATE, -16, 1, 512)
            pygame.mixer.init()
        except Exception as exc:  # pygame.error, ImportError: the box must still referee
            self.problem = f"no audio device ({exc})"
            return False
        self.pygame = pygame
        self.ok = True
        self.problem = ""
        return True

    def load(self, path: Path) -> Any:
        sound = self.pygame.mixer.Sound(str(path))
        sound.set_volume(self.volume)
        return sound

    def from_samples(self, samples: Any) -> Any:
        """A Sound from int16 mono samples at RATE, fitted to whatever format the device gave us
        (a USB card may insist on stereo or 48 kHz)."""
        import numpy as np

        freq, _, channels = self.pygame.mixer.get_init()
        if freq != RATE:
            positions = np.arange(int(len(samples) * freq / RATE)) * (RATE / freq)
            samples = np.interp(positions, np.arange(len(samples)), samples).astype(np.int16)
        if channels > 1:
            samples = np.repeat(samples[:, None], channels, axis=1)
        sound = self.pygame.mixer.Sound(buffer=np.ascontiguousarray(samples, dtype="<i2").tobytes())
        sound.set_volume(self.volume)
        return sound

    def close(self) -> None:
        if self.ok:
            with contextlib.suppress(Exception):
                self.pygame.mixer.quit()
            self.ok = False


class Speaker:
    """Queue of things to say; play them in order on a thread of its own.

    `history` records the latest items queued (tests read it); `started` the latest items that began
    playing, with their timings (the benchmark reads those); `queued`/`played` count them all. Both
    records and the backlog are bounded: a flood of REPEAT cannot grow memory, and when the table
    asks faster than the box can speak, the oldest unspoken announcements give way to the newest."""

    def __init__(
        self,
        clips: ClipCache,
        *,
        volume: float = 0.8,
        mixer: Mixer | None = None,
        on_silent: Callable[[str], None] | None = None,
    ) -> None:
        self.clips = clips
        self.mixer = mixer or Mixer(volume)
        self.history: list[Item] = []  # at most HISTORY_ITEMS, the latest
        self.started: list[Item] = []  # at most HISTORY_ITEMS, the latest
        self.queued = 0
        self.played = 0
        self.on_silent = on_silent
        self._queue: queue.Queue[Item | None] = queue.Queue()
        self._loaded: OrderedDict[str, Any] = OrderedDict()
        self._sounds: dict[str, Any] = {}
        self._told_silent = False
        self._told_no_engine = False
        self._last_retry = time.monotonic()
        self._stop = threading.Event()
        self._current: Any = None
        if self.mixer.ok:
            self._make_sounds()
        else:
            self._silent(self.mixer.problem)
        self._thread = threading.Thread(target=self._run, name="houston-voice", daemon=True)
        self._thread.start()

    # --- queueing ----------------------------------------------------------------------------

    def say(self, text: str) -> None:
        self._put(Item("say", text))

    def sound(self, name: str) -> None:
        self._put(Item("sound", name))

    def _put(self, item: Item) -> None:
        self.history.append(item)
        del self.history[:-HISTORY_ITEMS]
        self.queued += 1
        while self._queue.qsize() >= MAX_PENDING:  # drop the oldest unspoken item
            try:
                dropped = self._queue.get_nowait()
            except queue.Empty:
                break
            self._queue.task_done()
            if dropped is None:  # a stop request is never dropped
                self._queue.put(None)
                return
        self._queue.put(item)

    def wait_done(self, timeout: float = 30.0) -> bool:
        """Block until everything queued so far has finished playing."""
        deadline = time.monotonic() + timeout
        while self._queue.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.01)
        return not self._queue.unfinished_tasks

    # --- playing -----------------------------------------------------------------------------

    def _make_sounds(self) -> None:
        self._sounds = {name: self.mixer.from_samples(synthesise(name)) for name in SOUNDS}

    def _retry_mixer(self) -> None:
        now = time.monotonic()
        if now - self._last_retry < RETRY_SECONDS:
            return
        self._last_retry = now
        if self.mixer.open():
            log.warning("speaker found: speaking again")
            self._make_sounds()

    def _silent(self, why: str) -> None:
        if not self._told_silent:
            self._told_silent = True
            log.warning("speaker silent: %s; announcements go to the log instead", why)
            if self.on_silent:
                self.on_silent(why)

    def _run(self) -> None:
        while True:
            item = self._queue.get()
            try:
                if item is None:
                    return
                if not self._stop.is_set():
                    self._play(item)
            except Exception:
                log.exception("could not play %s %r", item.kind if item else "", item.what if item else "")
            finally:
                self._queue.task_done()

    def _resolve(self, item: Item) -> Any:
        if item.kind == "sound":
            if item.what not in self._sounds:
                log.warning("no sound named %r", item.what)
            return self._sounds.get(item.what)
        sound = self._loaded.get(item.what)
        if sound is not None:
            self._loaded.move_to_end(item.what)
            return sound
        try:
            path = self.clips.render(item.what)
        except VoiceUnavailable as exc:
            if not self._told_no_engine:
                self._told_no_engine = True
                log.warning("cannot render speech: %s; phrases not rendered before are logged instead", exc)
            return None
        sound = self.mixer.load(path)
        self._loaded[item.what] = sound
        while len(self._loaded) > LOADED_CLIPS:
            self._loaded.popitem(last=False)
        return sound

    def _play(self, item: Item) -> None:
        if not self.mixer.ok:
            self._retry_mixer()
        if not self.mixer.ok:
            log.info("SAY %s" if item.kind == "say" else "SOUND %s", item.what)
            return
        sound = self._resolve(item)
        if sound is None:
            log.info("SAY %s" if item.kind == "say" else "SOUND %s", item.what)
            return
        channel = sound.play()
        item.started_at = time.perf_counter()
        self.started.append(item)
        del self.started[:-HISTORY_ITEMS]
        self.played += 1
        if channel is None:
            return
        self._current = channel
        # wait for the end, with a margin so a stuck device cannot stall the queue for ever
        deadline = time.monotonic() + sound.get_length() + 1.0
        while channel.get_busy() and time.monotonic() < deadline and not self._stop.is_set():
            time.sleep(0.01)
        self._current = None

    def close(self, drain: bool = False, timeout: float = 10.0) -> None:
        """Stop playing (after the queue empties if `drain`) and release the audio device."""
        if drain:
            self.wait_done(timeout)
        self._stop.set()
        channel = self._current
        if channel is not None:
            with contextlib.suppress(Exception):
                channel.stop()
        self._queue.put(None)
        self._thread.join(timeout)
        self.mixer.close()
