"""Outlets turn each service update into something people see or hear.

PanelOutlet drives the LEDs; ConsoleOutlet prints announcements and light changes (the demo and
`houston run --sim`); RecordingOutlet keeps everything for tests.
"""

from __future__ import annotations

import logging
import sys
from collections import deque
from collections.abc import Callable
from typing import Any, TextIO

from device.box.service import Update
from device.hardware.panel.lights import Lights, UnknownLight
from games.core import TEAM_COLOURS, Light

log = logging.getLogger("houston.outlets")

CHANGES_KEPT = 256  # light changes PanelOutlet remembers (tests read the latest)
UPDATES_KEPT = 2_000  # updates RecordingOutlet keeps (~4 KB each); the oldest half goes when full


class PanelOutlet:
    """Light the buttons the prompt waits for; show Light effects; flash status on errors."""

    def __init__(self, lights: Lights) -> None:
        self.lights = lights
        self.changes: deque[tuple[str, str, str]] = deque(maxlen=CHANGES_KEPT)

    def deliver(self, update: Update) -> None:
        wanted = set(update.public["prompt"]["lights"])
        state = self.lights.state
        for colour in TEAM_COLOURS:
            target = f"team:{colour}"
            steady = ("on" if colour in wanted else "off", "steady")
            if state.get(target, steady) != steady and not self._effect_sets(update, target):
                self._set(target, *steady)  # only a light that must change (most stay as they are)
        for effect in update.effects:
            if isinstance(effect, Light):
                try:
                    self._set(effect.target, effect.colour, effect.pattern)
                except UnknownLight as exc:
                    log.warning("light effect ignored: %s", exc)

    @staticmethod
    def _effect_sets(update: Update, target: str) -> bool:
        return any(isinstance(e, Light) and e.target == target for e in update.effects)

    def _set(self, target: str, colour: str, pattern: str) -> None:
        if target not in self.lights.devices:
            return
        if self.lights.set(target, colour, pattern):
            self.changes.append((target, colour, pattern))


class ConsoleOutlet:
    """Print what the box says and how its lights change, as it happens."""

    def __init__(
        self, lights: Lights | None = None, stream: TextIO | None = None, trace: Callable[[], str | None] | None = None
    ) -> None:
        self.lights = lights
        self.stream = stream or sys.stdout
        self.trace = trace  # optional: a line of state after each update (crash tests read it)
        self._shown: dict[str, tuple[str, str]] = {}

    def deliver(self, update: Update) -> None:
        for event in update.events:
            if event["type"] in ("say", "prompt"):
                self._print(f"  SAY  {event['text']}")
            elif event["type"] == "error":
                self._print(f"  ERR  {event['text']}")
            elif event["type"] == "sound":
                self._print(f"  SND  {event['name']}")
        if self.lights is not None:
            changed = {t: s for t, s in self.lights.state.items() if self._shown.get(t) != s}
            if changed:
                self._shown.update(changed)
                self._print("  LED  " + "  ".join(_describe_light(t, s) for t, s in sorted(changed.items())))
        if self.trace is not None and (line := self.trace()):
            self._print(f"  TRC  {line}")

    def _print(self, line: str) -> None:
        print(line, file=self.stream, flush=True)


def _describe_light(target: str, state: tuple[str, str]) -> str:
    colour, pattern = state
    return f"{target}={colour}" + ("" if pattern == "steady" or colour == "off" else f"({pattern})")


class RecordingOutlet:
    """Keep the latest updates (tests read `said`, `errors`, `public_views`, `team_views`).
    `houston run --sim` runs for hours with one, so it forgets the oldest half when full."""

    def __init__(self, limit: int = UPDATES_KEPT) -> None:
        self.updates: list[Update] = []
        self.limit = limit
        self.dropped = 0

    def deliver(self, update: Update) -> None:
        if len(self.updates) >= self.limit:
            half = len(self.updates) // 2
            del self.updates[:half]
            self.dropped += half
        self.updates.append(update)

    @property
    def said(self) -> list[str]:
        return [e["text"] for u in self.updates for e in u.events if e["type"] in ("say", "prompt")]

    @property
    def errors(self) -> list[str]:
        return [e["key"] for u in self.updates for e in u.events if e["type"] == "error"]

    @property
    def refusals(self) -> list[tuple[str, str]]:
        """(key, refused) of every refusal: `setup` for options a game cannot start with, else `input`."""
        return [(e["key"], e.get("refused", "input")) for u in self.updates for e in u.events if e["type"] == "error"]

    @property
    def public_views(self) -> list[dict[str, Any]]:
        return [u.public for u in self.updates]

    @property
    def events(self) -> list[dict[str, Any]]:
        return [e for u in self.updates for e in u.events]
