"""Polling for a condition a test needs, with one generous deadline for the whole suite."""

from __future__ import annotations

import time
from collections.abc import Callable

# Seconds a test waits for something that must happen. Generous: the wait ends as soon as it does,
# and on two busy cores a broker, a page or a box can take many times what it takes on an idle one.
PATIENCE = 30.0


def until(condition: Callable[[], object], timeout: float = PATIENCE, every: float = 0.02) -> bool:
    """Poll `condition` until it is true (True) or `timeout` seconds pass (False)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() >= deadline:
            return bool(condition())
        time.sleep(every)
    return True
