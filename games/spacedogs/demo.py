"""The demo script of Spacedogs as a pure policy of the step: a full round with an exploration
interlude, the rulebook's Orion example entered by the Game Runner, a BACK and one refused input."""

from __future__ import annotations

from typing import Any

from games.core import BACK, OK, Choose, Input, Press

OPTIONS: dict[str, Any] = {"dogs": ["nova", "orion"], "scenario": "s01"}

SCRIPT: tuple[Input, ...] = (
    Press(OK),  # Beginning -> Temperament
    Press(OK),  # -> Refresh
    Press(OK),  # -> Draw
    Press(OK),  # -> Activation: the players' turn
    Press("yellow"),  # Nova activates (two actions)
    Press("yellow"),  # she spends an action...
    Press(BACK),  # ...takes it back
    Press("yellow"),  # first action
    Press("yellow"),  # second action: her activation ends, the Game Runner's turn
    Choose("damage:orion:3:receive:1:4"),  # the Orion example: cover and Shield(4) -> 0
    Choose("damage:orion:2:receive:1:0"),  # second attack: cover -> 1 suffered
    Press(OK),  # the Game Runner activates the thugs
    Press("yellow"),  # refused: Nova has acted this round
    Press("green"),  # Orion activates
    Press(OK, hold=True),  # the Game Runner calls out Exploration Mode
    Press("green"),  # Orion (last active) moves 1
    Press("yellow", hold=True),  # Nova interacts
    Choose("explore:end"),  # the round resumes: Orion still activating
    Press("green"),  # an action
    Press(OK),  # Orion ends his activation
    Choose("activate:turret"),  # the Game Runner's last group: every figure has acted
    Press(OK),  # Discard -> End
    Press(OK),  # End -> Beginning of round 2
)


def next_input(state: Any, step: int) -> Input | None:
    """The input a table would give at `step` of the demo, or None when it has shown enough."""
    return SCRIPT[step] if 0 <= step < len(SCRIPT) else None
