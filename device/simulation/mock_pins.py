"""gpiozero's mock pins with a bounded memory of their state changes.

gpiozero's MockPin appends every change of level to `pin.states` (a list, for its own
`assert_states`) and never forgets one. A simulated box runs for hours (`houston run --sim`,
`houston bench soak`): every press is two changes, every light set is one to three, and a blinking
LED changes on its own thread several times a second, so that list was the soak's steady RSS
climb. Tests only ever look at the latest changes; these pins keep the last PIN_STATES_KEPT.
"""

from __future__ import annotations

from collections import deque
from time import monotonic

from gpiozero.pins.mock import MockFactory, MockPWMPin, PinState

PIN_STATES_KEPT = 256  # state changes each mock pin remembers (the latest)


class BoundedMockPWMPin(MockPWMPin):
    """A MockPWMPin whose `states` keeps only the latest PIN_STATES_KEPT changes."""

    def clear_states(self) -> None:
        self._last_change = monotonic()
        self.states = deque([PinState(0.0, self._state)], maxlen=PIN_STATES_KEPT)


def mock_factory() -> MockFactory:
    """The pin factory of a simulated box: PWM-capable mock pins with bounded records."""
    return MockFactory(pin_class=BoundedMockPWMPin)
