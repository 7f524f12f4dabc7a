"""The games installed on the box, found by discovery: no list to edit when a game is added.

A game is a package that exports `GAME` (a `games.core.Game`) from its `__init__.py`. The
registry looks for such packages on the `games` package path: every folder in this repository's
`games/`, and — because `games/__init__.py` extends its path with `pkgutil.extend_path` — every
`games/<id>/` folder under any other directory on sys.path. A game kept outside the repository
is installed by putting `<dir>/games/<id>/__init__.py` on the path (PYTHONPATH=<dir>); nothing
here lists it (the sixth-game test installs its toy game this way; see docs/adding-a-game.md).

Games are offered in the order of `GAME.info.order` (each game reads it from its own data file),
then by id. Discovery runs once per process; `refresh()` looks again (after sys.path changed).
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache
from types import ModuleType

import games
from games.core import Game, UnknownGame


def _exported_game(module: ModuleType) -> Game | None:
    """The `GAME` a package exports, if it is a Game (anything else under games/ is not a game)."""
    game = vars(module).get("GAME")
    return game if isinstance(game, Game) else None


def _candidate_packages() -> list[str]:
    return sorted({info.name for info in pkgutil.iter_modules(games.__path__, "games.") if info.ispkg})


@cache
def _installed() -> dict[str, Game]:
    found: dict[str, Game] = {}
    for name in _candidate_packages():
        game = _exported_game(importlib.import_module(name))
        if game is None:
            continue
        if game.info.id in found:
            raise ImportError(f"two packages install the game id {game.info.id!r} (the second: {name})")
        found[game.info.id] = game
    ordered = sorted(found.values(), key=lambda g: (g.info.order, g.info.id))
    return {game.info.id: game for game in ordered}


_PATH_AT_IMPORT: tuple[str, ...] = tuple(games.__path__)


def refresh() -> None:
    """Look again: the `games` path as at start, extended over sys.path as it is now (a folder
    added since is found, one removed is forgotten); then discovery runs anew."""
    games.__path__[:] = pkgutil.extend_path(list(_PATH_AT_IMPORT), games.__name__)
    _installed.cache_clear()


def game_ids() -> tuple[str, ...]:
    """Installed game ids, in the order the box offers them."""
    return tuple(_installed())


def installed_games() -> tuple[Game, ...]:
    return tuple(_installed().values())


def load_game(game_id: str) -> Game:
    """The rules object of an installed game; raises UnknownGame for anything else."""
    game = _installed().get(game_id)
    if game is None:
        raise UnknownGame("unknown_game", {"game": game_id, "installed": ", ".join(_installed())})
    return game


def describe(exc: UnknownGame) -> str:
    """A line for a terminal: which id is unknown and which are installed."""
    return f"unknown game {exc.params.get('game')!r}; installed: {exc.params.get('installed', '')}"


__all__ = ["UnknownGame", "describe", "game_ids", "installed_games", "load_game", "refresh"]
