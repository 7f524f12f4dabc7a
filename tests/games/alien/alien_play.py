"""Helpers for the Alien on Board tests: drive a pure session the way a table would."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from games.alien.state import AlienState
from games.core import Effect, Press, Say
from games.registry import load_game
from games.session import Session

GAME = load_game("alien")


class Table:
    """A session plus a journal of the entries it accepted, as the box would record them."""

    def __init__(self, rounds: int = 10) -> None:
        self.session = Session.start(GAME, {"rounds": rounds})
        self.effects: list[Effect] = []
        self.entries: list[tuple[str, Press | None]] = []  # ("input", press) or ("undo", None)

    @property
    def state(self) -> AlienState:
        return self.session.state

    def press(self, button: str, hold: bool = False) -> list[Effect]:
        inp = Press(button, hold)
        effects = self.session.submit(inp, {}, len(self.entries))
        self.entries.append(("input", inp))
        self.effects += effects
        return effects

    def back(self) -> None:
        self.session.undo()
        self.entries.append(("undo", None))

    def said(self) -> list[str]:
        return [e.key for e in self.effects if isinstance(e, Say)]


def seated(players: Sequence[str], rounds: int = 10, commander: str | None = None) -> Table:
    """A table whose players have joined in this order, started, with the first commander chosen."""
    table = Table(rounds)
    for colour in players:
        table.press(colour)
    table.press("ok")
    table.press(commander or players[0])
    return table


def play_round(table: Table, guesses: Mapping[str, str], alien: str) -> list[Effect]:
    """Rockets down, every guess entered in the order the box calls, then the alien reveals."""
    table.press("ok")
    while (player := table.state.awaited()) is not None:
        table.press(guesses[player])
    return table.press(alien)


def points_of(table: Table) -> dict[str, int]:
    last = table.state.history[-1]
    return dict(zip(table.state.players, last.points, strict=True))


def sum_rounds(table: Table, players: Iterable[str]) -> dict[str, int]:
    seats = list(table.state.players)
    return {p: sum(r.points[seats.index(p)] for r in table.state.history) for p in players}
