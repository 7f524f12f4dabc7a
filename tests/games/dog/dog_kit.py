"""Helpers for the Here Comes the Dog tests: set a table up, roll chosen faces, read what was said."""

from __future__ import annotations

from games.core import Effect, Press, Say
from games.dog.rules import GAME
from games.dog.state import DogState
from games.session import Session

FACE = {"meat": 0, "charcoal": 2, "fire": 4}  # first face index of each colour on the data's dice
TEAMS4 = ("red", "blue", "green", "yellow")


def faces(a: str, b: str, c: str) -> dict[str, int]:
    return {"die_A": FACE[a], "die_B": FACE[b], "die_C": FACE[c]}


class Table:
    """A session with a sequence counter: submit inputs, roll chosen dice."""

    def __init__(self, teams=("red", "blue"), rounds: int = 5, state: DogState | None = None) -> None:
        self.session = Session.start(GAME, {"teams": list(teams), "rounds": rounds})
        if state is not None:
            self.session.state = state
        self.seq = 0

    @property
    def state(self) -> DogState:
        return self.session.state

    def set(self, **changes) -> DogState:
        self.session.state = self.session.state._replace(**changes)
        return self.session.state

    def submit(self, inp, outcomes=None) -> list[Effect]:
        self.seq += 1
        return self.session.submit(inp, outcomes or {}, self.seq)

    def roll(self, a: str, b: str, c: str) -> list[Effect]:
        return self.submit(Press("ok"), faces(a, b, c))

    def press(self, button: str, hold: bool = False) -> list[Effect]:
        return self.submit(Press(button, hold))


def said(effects) -> list[Say]:
    return [e for e in effects if isinstance(e, Say)]


def keys(effects) -> list[str]:
    return [e.key for e in said(effects)]


def line(effects, key: str) -> list[dict]:
    return [dict(e.params) for e in said(effects) if e.key == key]
