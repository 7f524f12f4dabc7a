"""Shared helpers for the Spacedogs tests: start a scenario, drive inputs through a real Session."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from games.core import BACK, Effect, Input, Press, RuleError, Say
from games.session import Entry, Session
from games.spacedogs.rules import GAME
from games.spacedogs.state import SDState


def start(**options: Any) -> Session:
    return Session.start(GAME, options)


class Driver:
    """A session plus its journal (entries), so replay can be compared with the live state."""

    def __init__(self, options: Mapping[str, Any] | None = None) -> None:
        self.options = dict(options or {})
        self.session = Session.start(GAME, self.options)
        self.entries: list[Entry] = []
        self.seq = 0

    @property
    def state(self) -> SDState:
        return self.session.state

    def send(self, inp: Input) -> list[Effect]:
        """Submit one input like the box does; BACK undoes. Refusals raise (nothing is journaled)."""
        self.seq += 1
        if isinstance(inp, Press) and inp.button == BACK:
            self.session.undo()
            self.entries.append(Entry(self.seq, "undo"))
            return []
        effects = self.session.submit(inp, {}, self.seq)
        self.entries.append(Entry(self.seq, "input", inp, {}))
        return effects

    def run(self, inputs: Iterable[Input]) -> list[Effect]:
        out: list[Effect] = []
        for inp in inputs:
            out += self.send(inp)
        return out

    def refused(self, inp: Input) -> RuleError:
        before = self.state
        try:
            self.send(inp)
        except RuleError as err:
            assert self.state == before
            return err
        raise AssertionError(f"{inp} was accepted")

    def to_activation(self) -> None:
        """OK through Beginning, Temperament, Refresh and Draw."""
        while self.state.phase != "activation":
            self.send(Press("ok"))


def keys(effects: Iterable[Effect]) -> list[str]:
    return [e.key for e in effects if isinstance(e, Say)]
