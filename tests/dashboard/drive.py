"""Play a whole game through the box with the game's own policies (no game ids, no scripts here).

Each step asks the game's demo policy (`demo_input`) for the next input, and once the demo has
shown enough (it returns None, or after `DEMO_STEPS` inputs: a demo need not play to the end),
its random-player policy (`random_input` over `legal_inputs`) with a seeded pick, until the game
is over. Presses go through the mock pins (so BACK undoes, as on the panel);
choices and scans go to the service as the camera or a display would post them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from device.simulation.simbox import SimBox
from games.core import Game, Input, Press
from games.registry import game_ids, load_game

LIMIT = 800
DEMO_STEPS = 150


def playable_games() -> list[str]:
    """Every installed game; a game not yet on the contract (games.core.Game) is reported."""
    return list(game_ids())


def game_or_skip(game_id: str) -> Game[Any]:
    game = load_game(game_id)
    if not isinstance(game, Game):
        pytest.skip(f"{game_id} is not on the game contract yet (games/core.py Game): no policy to play it")
    return game


def start(box: SimBox, game_id: str) -> None:
    game = load_game(game_id)
    reply = box.command("start_game", {"game": game_id, "options": game.demo_options()})
    assert reply["status"] == "ok", reply


def give(box: SimBox, inp: Input) -> None:
    if isinstance(inp, Press):
        box.press(inp.button, hold=inp.hold)
    else:
        box.submit(inp)


def play(box: SimBox, on_step: Callable[[int], None] | None = None, seed: int = 1, limit: int = LIMIT) -> int:
    """Play the running game to its end; returns the number of inputs given."""
    rng = random.Random(seed)
    step = 0
    while box.session is not None and step < limit:
        session = box.session
        game = session.game
        inp = game.demo_input(session.state, step) if step < DEMO_STEPS else None
        if inp is None:
            legal = game.legal_inputs(session.state)
            if not legal:
                break
            inp = game.random_input(session.state, legal, rng.randrange)
        give(box, inp)
        step += 1
        if on_step is not None:
            on_step(step)
    assert box.session is None, f"the game did not end within {limit} inputs"
    return step
