"""The panel's LEDs: a light per team button, three RGB slot LEDs, a status LED.

Effects name lights by target (`team:red`, `slot:A`, `status`) and colour; this
module maps them onto gpiozero devices. Patterns: steady, blink, pulse, flash (a short confirm),
error (a fast triple blink), fast (quick blinking) and blip (a short blink every two seconds).
`state` keeps what each light shows, for the simulator and tests.

The status LED shows one of STATUS_STATES; `StatusLight` decides which from what the box knows
(busy, scanning, camera, broker) and returns to it after a transient flash.
"""

from __future__ import annotations

import threading
from typing import Any

from gpiozero import LED, PWMLED, RGBLED

from device.box.config import PinMap

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
PATTERNS = ("steady", "blink", "pulse", "flash", "error", "fast", "blip")
TRANSIENT = ("flash", "error")  # patterns that end by themselves
TRANSIENT_SECONDS = {"flash": 0.25, "error": 0.5}

# What the single status LED shows for each state of the box, most urgent first.
STATUS_STATES: dict[str, str] = {
    "error": "error",  # a refusal or a fault: fast triple blink, then back to the state below
    "broker-offline": "blip",  # refereeing fine, but displays get nothing: a blip every 2 s
    "scanning": "fast",  # the camera sees a card and is deciding
    "busy": "pulse",  # starting up, replaying the journal, rendering speech
    "ready": "steady",
}


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
            if self.state[target] == (colour, pattern) and pattern not in TRANSIENT:
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
            elif pattern == "fast":
                device.blink(on_time=0.1, off_time=0.1, on_color=level)
            elif pattern == "blip":
                device.blink(on_time=0.1, off_time=1.9, on_color=level)
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
        elif pattern == "fast":
            device.blink(on_time=0.1, off_time=0.1)
        elif pattern == "blip":
            device.blink(on_time=0.1, off_time=1.9)
        else:
            device.blink(on_time=0.08, off_time=0.08, n=3)

    def close(self) -> None:
        for device in self.devices.values():
            device.close()


class StatusLight:
    """The status LED as a summary of the box: ready, busy, scanning, broker offline, error.

    Conditions are set from wherever they are known (service start, camera feed, MQTT link);
    `show()` lights the most urgent. An error or confirm flash from an effect is transient: the
    service loop's tick calls `tick()`, which restores the state once the flash is over. It is
    also an outlet, so it sees the effects of every update."""

    def __init__(self, lights: Lights, clock: Any) -> None:
        self.lights = lights
        self.clock = clock
        self.busy = True  # until the service says it is up
        self.scanning = False
        self.broker_online: bool | None = None  # None: no broker configured
        self._transient_until: float | None = None

    @property
    def state(self) -> str:
        if self._transient_until is not None:
            return "error"
        if self.broker_online is False:
            return "broker-offline"
        if self.scanning:
            return "scanning"
        if self.busy:
            return "busy"
        return "ready"

    def update(self, **conditions: Any) -> None:
        """Change conditions (busy=, scanning=, broker_online=) and show the result."""
        for name, value in conditions.items():
            if name not in ("busy", "scanning", "broker_online"):
                raise TypeError(f"unknown status condition {name!r}")
            setattr(self, name, value)
        self.show()

    def show(self) -> None:
        if "status" not in self.lights.devices or self._transient_until is not None:
            return
        self.lights.set("status", "on", STATUS_STATES[self.state])

    def deliver(self, update: Any) -> None:
        """Outlet side: notice a transient flash on the status light (e.g. a refused input)."""
        for effect in getattr(update, "effects", []):
            if getattr(effect, "target", None) == "status" and getattr(effect, "pattern", None) in TRANSIENT:
                self._transient_until = self.clock() + TRANSIENT_SECONDS[effect.pattern]

    def tick(self) -> None:
        if self._transient_until is not None and self.clock() >= self._transient_until:
            self._transient_until = None
            self.show()
