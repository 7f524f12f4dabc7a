"""The jobs adapters post to the service thread: one class per kind, so dispatch is on the type.

Adapters (panel, camera, MQTT, the simulator) never touch the game: they post a job and the
service thread handles it, in order, alone. A job may carry `reply`, called on the service thread
with the answer (MQTT publishes it on `<topic>/reply`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from device.box.commands import Command
from games.core import Input, Press, RuleError, Say

Reply = dict[str, Any]
Answer = Callable[[Reply], None]


@dataclass(frozen=True)
class PressJob:
    """A panel button: BACK, REPEAT and idle OK mean something to the box, the rest to the game."""

    press: Press
    reply: Answer | None = None


@dataclass(frozen=True)
class InputJob:
    """An input for the game (a scan from the camera, a choice typed in the simulator)."""

    inp: Input
    reply: Answer | None = None


@dataclass(frozen=True)
class UndoJob:
    reply: Answer | None = None


@dataclass(frozen=True)
class RepeatJob:
    reply: Answer | None = None


@dataclass(frozen=True)
class CommandJob:
    """A command from a display or the admin, already parsed field by field (device/box/commands.py)."""

    command: Command
    reply: Answer | None = None


@dataclass(frozen=True)
class RefuseJob:
    """A command that did not parse: the box says why (the same error sound and words as a refusal)."""

    error: RuleError
    reply: Answer | None = None


@dataclass(frozen=True)
class SayJob:
    """Words from an adapter (the camera's 'I don't know that card', 'slow down')."""

    words: Sequence[Say] = field(default_factory=tuple)
    reply: Answer | None = None


@dataclass(frozen=True)
class CallJob:
    """Run `fn` on the service thread (to wait until the queue drains, or to read consistently)."""

    fn: Callable[[], object]
    reply: Answer | None = None


@dataclass(frozen=True)
class TickJob:
    """Nothing arrived for a while (or the loop is asked to wake up and stop): run the tick hooks."""

    reply: Answer | None = None


Job: TypeAlias = PressJob | InputJob | UndoJob | RepeatJob | CommandJob | RefuseJob | SayJob | CallJob | TickJob
