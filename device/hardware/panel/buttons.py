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
    MASH_QUIET = 5.0  # seconds before 'slow down' is said again

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
        self._mash_told: dict[str, float] = {}
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
        """One electrical edge of button `name` (down = closed).

        After an accepted edge, further edges within `debounce` are contact bounce and ignored;
        a press starts at its first accepted closing and ends at the next accepted opening."""
        now = self.clock()
        with self._lock:
            last = self._last_edge.get(name)
            if last is not None and now - last < self.debounce - 1e-9:
                return
            if down:
                self._down_at[name] = now  # a missed opening just restarts the press
                self._last_edge[name] = now
                return
            pressed_at = self._down_at[name]
            if pressed_at is None:
                return
            self._last_edge[name] = now
            self._down_at[name] = None
            held = now - pressed_at >= self.hold
            previous = self._last_accepted.get(name)
            if not held and previous is not None and now - previous < self.repeat_guard:
                self.dropped += 1
                told = self._mash_told.get(name)
                if told is not None and now - told < self.MASH_QUIET:
                    return
                self._mash_told[name] = now
                mash = self.on_mash
                press = None
            else:
                self._last_accepted[name] = now
                mash, press = None, Press(name, hold=held)
        if press is not None:
            self.on_press(press)
        elif mash is not None:
            mash(name)  # said once per burst of mashing

    def close(self) -> None:
        for device in self.devices.values():
            device.close()
