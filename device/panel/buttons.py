"""Turn button edges into presses and long presses, with debouncing done here.

gpiozero's MockPin ignores `bounce_time`, and real arcade buttons bounce for a few milliseconds,
so the box debounces itself against an injected clock (tests and the simulator move time by hand).
A press is reported on release: shorter than `hold` is a press, longer a long press (hold).
The same button again within `repeat_guard` of the last accepted press is mashing and dropped.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from typing import Any

from gpiozero import Button

from games.core import Press

Clock = Callable[[], float]


class ButtonReader:
    def __init__(
        self,
        buttons: Mapping[str, int],
        on_press: Callable[[Press], None],
        *,
        clock: Clock,
        debounce: float,
        hold: float,
        repeat_guard: float,
        pin_factory: Any = None,
        on_mash: Callable[[str], None] | None = None,
    ) -> None:
        self.on_press = on_press
        self.on_mash = on_mash
        self.clock = clock
        self.debounce = debounce
        self.hold = hold
        self.repeat_guard = repeat_guard
        self._lock = threading.Lock()
        self._down_at: dict[str, float | None] = {}
        self._last_edge: dict[str, float] = {}
        self._last_accepted: dict[str, float] = {}
        self._mash_told: set[str] = set()
        self.devices: dict[str, Button] = {}
        self.dropped = 0
        for name, pin in buttons.items():
            device = Button(pin, pull_up=True, bounce_time=None, pin_factory=pin_factory)
            device.when_pressed = self._edge_handler(name, True)
            device.when_released = self._edge_handler(name, False)
            self.devices[name] = device
            self._down_at[name] = None

    def _edge_handler(self, name: str, down: bool) -> Callable[[], None]:
        def handler() -> None:
            self.edge(name, down)

        return handler

    def edge(self, name: str, down: bool) -> None:
        """One electrical edge of button `name` (down = closed)."""
        now = self.clock()
        with self._lock:
            last = self._last_edge.get(name)
            self._last_edge[name] = now
            if down:
                if last is not None and now - last < self.debounce and self._down_at[name] is None:
                    return  # bounce right after a release
                if self._down_at[name] is None:
                    self._down_at[name] = now
                return
            pressed_at = self._down_at[name]
            self._down_at[name] = None
            if pressed_at is None or now - pressed_at < self.debounce:
                return  # a release with no press, or a glitch shorter than the debounce time
            held = now - pressed_at >= self.hold
            previous = self._last_accepted.get(name)
            if not held and previous is not None and now - previous < self.repeat_guard:
                self.dropped += 1
                mash = self.on_mash if name not in self._mash_told else None
                self._mash_told.add(name)
                if mash is None:
                    return
            else:
                self._last_accepted[name] = now
                self._mash_told.discard(name)
                mash = None
                press = Press(name, hold=held)
        if mash is not None:
            mash(name)  # said once per burst of mashing
            return
        self.on_press(press)

    def close(self) -> None:
        for device in self.devices.values():
            device.close()
