"""A game's demo policy driven through a bare Session (no box, no journal), as its contract tests
do: BACK undoes, a refused input changes nothing, chance is drawn by a seeded drawer."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from device.box.chance import SeededDrawer, draw_all
from games.core import BACK, Game, Input, Press, RuleError
from games.session import Session


@dataclass
class DemoRun:
    session: Session
    played: list[Input] = field(default_factory=list)  # every input given, BACK and refused ones too
    refused: int = 0
    undone: int = 0


def play_demo(game: Game[Any], seed: int = 1, limit: int = 2000,
              stop: Callable[[Any], bool] = lambda state: False) -> DemoRun:
    """Follow `game`'s demo policy from its demo options until it says enough, `stop(state)` is
    true, or `limit` inputs."""
    drawer = SeededDrawer(random.Random(seed))
    run = DemoRun(Session.start(game, game.demo_options()))
    session = run.session
    for step in range(limit):
        if stop(session.state):
            break
        inp = game.demo_input(session.state, step)
        if inp is None:
            break
        run.played.append(inp)
        if inp == Press(BACK):
            session.undo()
            run.undone += 1
            continue
        try:
            requests = session.check(inp)
        except RuleError:
            run.refused += 1
            continue
        session.submit(inp, draw_all(requests, drawer), step)
    return run
