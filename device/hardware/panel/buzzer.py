"""An optional piezo buzzer (pins.toml [buzzer] pin): beeps for the box's sounds when no speaker
is fitted, or alongside it. Each sound name is a beep pattern (on seconds, off seconds, count)."""

from __future__ import annotations

from typing import Any

from gpiozero import Buzzer

PLAYED_KEPT = 256
BEEPS: dict[str, tuple[float, float, int]] = {
    "confirm": (0.05, 0.05, 1),
    "error": (0.25, 0.1, 2),
    "dice": (0.02, 0.04, 6),
    "alarm": (0.15, 0.1, 5),
    "fanfare": (0.08, 0.06, 4),
}


class BuzzerOutlet:
    """Beep each sound event of an update (patterns play in the background, never blocking)."""

    def __init__(self, pin: int, *, pin_factory: Any = None) -> None:
        self.device = Buzzer(pin, pin_factory=pin_factory)
        self.played: list[str] = []  # the latest beeps, at most PLAYED_KEPT (tests read them)

    def deliver(self, update: Any) -> None:
        for event in update.events:
            if event["type"] == "sound" and event["name"] in BEEPS:
                on, off, n = BEEPS[event["name"]]
                self.played.append(event["name"])
                del self.played[:-PLAYED_KEPT]
                self.device.beep(on_time=on, off_time=off, n=n, background=True)

    def close(self) -> None:
        self.device.close()
