"""The panel: gpiozero buttons in, LEDs out, built from the pin map in firmware_config/pins.toml."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from device.box.config import PinMap, Settings
from device.hardware.panel.buttons import ButtonReader, Clock
from device.hardware.panel.lights import Lights
from games.core import Press


class Panel:
    """Buttons and lights of one box, on whichever gpiozero pin factory is configured."""

    def __init__(
        self,
        pins: PinMap,
        settings: Settings,
        on_press: Callable[[Press], None],
        *,
        clock: Clock,
        pin_factory: Any = None,
        on_mash: Callable[[str], None] | None = None,
    ) -> None:
        self.pins = pins
        self.buttons = ButtonReader(
            pins.buttons,
            on_press,
            clock=clock,
            debounce=settings.debounce_ms / 1000,
            hold=settings.hold_ms / 1000,
            repeat_guard=settings.repeat_guard_ms / 1000,
            pin_factory=pin_factory,
            on_mash=on_mash,
        )
        self.lights = Lights(pins, pin_factory=pin_factory)

    def close(self) -> None:
        self.buttons.close()
        self.lights.close()
