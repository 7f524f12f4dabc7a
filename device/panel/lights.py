"""The panel's LEDs: a light per team button, the OK button, three RGB slot LEDs, a status LED.

Effects name lights by target (`team:red`, `button:ok`, `slot:A`, `status`) and colour; this
module maps them onto gpiozero devices. Patterns: steady, blink, pulse, flash (a short confirm),
error (a fast triple blink). `state` keeps what each light shows, for the simulator and tests.
"""

from __future__ import annotations

import threading
from typing import Any

from gpiozero import LED, PWMLED, RGBLED

from device.config import PinMap

# Colour names used by the rules, as RGB levels for the slot LEDs.
RGB_COLOURS: dict[str, tuple[float, float, float]] = {
    "off": (0.0, 0.0, 0.0),
    "on": (1.0, 1.0, 1.0),
    "white": (1.0, 1.0, 1.0),
    "dim-white": (0.2, 0.2, 0.2),
    "tan": (0.8, 0.45, 0.15),
    "red": (1.0, 0.0, 0.0),
    "green": (0.0, 1.0, 0.0),
    "blue": (0.0, 0.0, 1.0),
    "yellow": (1.0, 0.8, 0.0),
    "purple": (0.6, 0.0, 1.0),
    "orange": (1.0, 0.4, 0.0),
    "cyan": (0.0, 0.8, 0.8),
}
PATTERNS = ("steady", "blink", "pulse", "flash", "error")


class UnknownLight(ValueError):
    """A light effect naming a target or colour the panel does not have."""


class Lights:
    def __init__(self, pins: PinMap, *, pin_factory: Any = None) -> None:
        self._lock = threading.Lock()
        self.devices: dict[str, Any] = {}
        for team, pin in pins.team_leds.items():
            self.devices[f"team:{team}"] = LED(pin, pin_factory=pin_factory)
        for slot, (r, g, b) in pins.slot_leds.items():
            self.devices[f"slot:{slot}"] = RGBLED(r, g, b, pin_factory=pin_factory)
        self.devices["status"] = PWMLED(pins.status_led, pin_factory=pin_factory)
        self.state: dict[str, tuple[str, str]] = {target: ("off", "steady") for target in self.devices}

    def targets(self) -> tuple[str, ...]:
        return tuple(self.devices)

    def set(self, target: str, colour: str = "on", pattern: str = "steady") -> bool:
        """Show `colour` on `target` with `pattern`; returns True if anything changed."""
        device = self.devices.get(target)
        if device is None:
            raise UnknownLight(f"no light {target!r}")
        if pattern not in PATTERNS:
            raise UnknownLight(f"no pattern {pattern!r}")
        if isinstance(device, RGBLED):
            if colour not in RGB_COLOURS:
                raise UnknownLight(f"no colour {colour!r}")
            level: Any = RGB_COLOURS[colour]
        else:
            level = 0.0 if colour == "off" else 1.0
        with self._lock:
            if self.state[target] == (colour, pattern) and pattern not in ("flash", "error"):
                return False
            self.state[target] = (colour, pattern)
            self._drive(device, level, colour, pattern)
        return True

    @staticmethod
    def _drive(device: Any, level: Any, colour: str, pattern: str) -> None:
        off = colour == "off"
        if isinstance(device, RGBLED):
            if off or pattern == "steady":
                device.color = level
            elif pattern == "pulse":
                device.pulse(fade_in_time=0.6, fade_out_time=0.6, on_color=level)
            elif pattern == "blink":
                device.blink(on_time=0.4, off_time=0.4, on_color=level)
            elif pattern == "flash":
                device.blink(on_time=0.15, off_time=0.1, on_color=level, n=1)
            else:
                device.blink(on_time=0.08, off_time=0.08, on_color=level, n=3)
            return
        if off:
            device.off()
        elif pattern == "steady":
            device.on()
        elif pattern == "pulse" and isinstance(device, PWMLED):
            device.pulse(fade_in_time=0.6, fade_out_time=0.6)
        elif pattern in ("blink", "pulse"):
            device.blink(on_time=0.4, off_time=0.4)
        elif pattern == "flash":
            device.blink(on_time=0.15, off_time=0.1, n=1)
        else:
            device.blink(on_time=0.08, off_time=0.08, n=3)

    def close(self) -> None:
        for device in self.devices.values():
            device.close()
