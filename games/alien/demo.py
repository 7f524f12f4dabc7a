"""The demo of Alien on Board as a pure policy: three players, three rounds, slips refused, a guess
taken back.

Red, blue and green join (purple joins by mistake and presses again to leave), red commands first.
Each round's rockets and alien come from ROUNDS. In the first round the first guesser slips: they
press their own colour (refused), then white, which nobody plays (refused), then a wrong colour,
which BACK takes back. The game draws no chance, so every demo is the same and the slips are
found by the step number; everything else follows from the state.
"""

from __future__ import annotations

from typing import Any

from games.alien.state import COMMANDER, GUESSING, JOIN, QUESTIONING, REVEAL, AlienState
from games.core import BACK, OK, Input, Press

# Each round: where every rocket stands (player -> colour guessed), then who turns out to be the
# alien. The box never knows the alien before the reveal press; the policy plays the table.
ROUNDS: tuple[tuple[dict[str, str], str], ...] = (
    ({"red": "green", "blue": "green", "green": "red"}, "green"),  # exposed: the crew scores
    ({"red": "blue", "blue": "red", "green": "red"}, "blue"),  # a tie: 1 of 2 found the alien
    ({"red": "green", "blue": "green", "green": "blue"}, "red"),  # the alien escapes: +2
)
JOINING: tuple[str, ...] = ("red", "blue", "purple", "purple", "green")  # purple joins, then leaves
FIRST_COMMANDER = "red"
# Steps before the first guess: the joins, OK, the commander's press, OK for the rockets.
FIRST_GUESS_STEP = len(JOINING) + 3


def demo_options() -> dict[str, Any]:
    """Three rounds, one per entry of ROUNDS; players join on the panel."""
    return {"rounds": len(ROUNDS)}


def _slips(player: str, guess: str) -> tuple[Input, ...]:
    wrong = next(p for p in ("red", "blue", "green") if p not in (player, guess))
    return (Press(player), Press("white"), Press(wrong), Press(BACK))


def demo_input(state: AlienState, step: int) -> Input | None:
    """The next press of the demo table, or None once the game is over."""
    if state.phase == JOIN:
        return Press(JOINING[step]) if step < len(JOINING) else Press(OK)
    if state.phase == COMMANDER:
        return Press(FIRST_COMMANDER)
    if state.phase == QUESTIONING:
        return Press(OK)  # every rocket is on the disc
    if state.phase == GUESSING:
        player = state.awaited()
        assert player is not None
        guess = ROUNDS[state.round - 1][0][player]
        slips = _slips(player, guess)
        offset = step - FIRST_GUESS_STEP
        if state.round == 1 and 0 <= offset < len(slips):  # the last slip, BACK, undoes the wrong guess
            return slips[offset]
        return Press(guess)
    if state.phase == REVEAL:
        return Press(ROUNDS[state.round - 1][1])
    return None
