"""The games installed on the box, by id, loaded on first use."""

from __future__ import annotations

import importlib

from games.core import Game

# id -> module that defines GAME (a games.core.Game). Order is the order the box offers them.
GAME_MODULES: dict[str, str] = {
    "dog": "games.dog.rules",
    "hwhad": "games.hwhad.rules",
    "alien": "games.alien.rules",
    "whales": "games.whales.rules",
}


class UnknownGame(ValueError):
    """A game id that is not installed."""


def game_ids() -> tuple[str, ...]:
    return tuple(GAME_MODULES)


def load_game(game_id: str) -> Game:
    """The rules object of an installed game; raises UnknownGame for anything else."""
    module_name = GAME_MODULES.get(game_id)
    if module_name is None:
        raise UnknownGame(f"unknown game {game_id!r}; installed: {', '.join(GAME_MODULES)}")
    return importlib.import_module(module_name).GAME
