"""Wrap callbacks so an exception is logged instead of killing the thread that called them.

paho runs its callbacks on its network thread: one uncaught exception there ends the thread, and
with it every reconnect and publish. So every callback we hand to paho goes through `guarded`.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from typing import Any, TypeVar

log = logging.getLogger("houston.mqtt")

F = TypeVar("F", bound=Callable[..., Any])


def guarded(fn: F) -> F:
    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except Exception:
            log.exception("MQTT callback %s failed", getattr(fn, "__name__", fn))
            return None

    return wrapper  # type: ignore[return-value]
