"""The demo of Here Comes the Dog as a pure policy of (state, step): three players take their
places by team buttons (one presses twice and is refused, one slip is taken back with BACK), then
a whole game is played: rolls, takes (cycling the offers once in a while), exchanges, thefts and
whatever incidents the dice bring, to the winner."""

from __future__ import annotations

from typing import Any

from games.core import BACK, OK, Input, Press
from games.dog.state import EXCHANGE, ORDER, OVER, STEAL, TAKE, TURN, VICTIM, DogState

# The set-up, step by step: (step, teams pressed so far) -> input.
SETUP_SCRIPT: dict[tuple[int, tuple[str, ...]], Input] = {
    (0, ()): Press("red"),
    (1, ("red",)): Press("red"),  # refused: red already has a place
    (2, ("red",)): Press("blue"),
    (3, ("red", "blue")): Press("yellow"),  # a slip...
    (4, ("red", "blue", "yellow")): Press(BACK),  # ...taken back
    (5, ("red", "blue")): Press("green"),
    (6, ("red", "blue", "green")): Press(OK),
}
PLAYERS = ("red", "blue", "green")


def demo_input(game: Any, s: DogState, step: int) -> Input | None:
    if s.phase == OVER:
        return None
    if s.phase == ORDER:
        scripted = SETUP_SCRIPT.get((step, s.teams))
        if scripted is not None:
            return scripted
        missing = [t for t in PLAYERS if t not in s.teams]
        return Press(missing[0]) if missing else Press(OK)
    team = s.teams[s.current]
    if s.phase == TURN:
        exchange = not s.must_roll and step % 5 == 0 and len(game.legal_inputs(s)) > 1
        return Press(OK, hold=True) if exchange else Press(OK)
    if s.phase in (TAKE, STEAL) and len(s.offers) > 1 and s.pick == 0 and step % 3 == 0:
        return Press(team)  # look at the next offer before taking
    if s.phase in (TAKE, STEAL, EXCHANGE):
        return Press(OK)
    if s.phase == VICTIM:
        victims = [inp for inp in game.legal_inputs(s) if isinstance(inp, Press)]  # by button, as a table
        richest = max(victims, key=lambda p: sum(s.hands[s.teams.index(p.button)]))
        return richest
    return None
