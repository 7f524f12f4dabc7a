"""One game in progress: its state and the undo stack, driven by journal entries.

The service and `replay` both use this class, so that a replayed journal rebuilds exactly what the
live box had — undo included. It is pure: outcomes come in, nothing is drawn here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from games.core import (
    ChanceRequest,
    Effect,
    Game,
    GameOver,
    Input,
    NotExpected,
    NothingToUndo,
    Outcomes,
    Prompt,
    Reveal,
    RuleError,
    State,
    check_outcomes,
)


@dataclass
class Undoable:
    """What BACK can restore: the state before an input, and the input itself (to name it)."""

    before: State
    inp: Input
    seq: int


@dataclass
class Session:
    """A game, its current state, and the inputs BACK may still take back."""

    game: Game
    state: State
    undo_stack: list[Undoable] = field(default_factory=list)
    over: GameOver | None = None

    @classmethod
    def start(cls, game: Game, options: Mapping[str, Any]) -> Session:
        return cls(game=game, state=game.setup(options))

    def prompt(self) -> Prompt:
        return self.game.prompt(self.state)

    def check(self, inp: Input) -> tuple[ChanceRequest, ...]:
        """Validate an input against the prompt and the rules; returns the chance it needs."""
        prompt = self.prompt()
        if prompt.finished or not prompt.allows(inp):
            raise NotExpected("not_expected", {"expected": prompt.ask.key})
        return self.game.validate(self.state, inp)

    def submit(self, inp: Input, outcomes: Outcomes, seq: int) -> list[Effect]:
        """Apply a journaled input. An input that drew chance or revealed a secret is a barrier."""
        requests = self.check(inp)
        check_outcomes(requests, outcomes)
        before = self.state
        state, effects = self.game.apply(before, inp, outcomes)
        self.state = state
        if requests or any(isinstance(e, Reveal) for e in effects):
            self.undo_stack.clear()
        else:
            self.undo_stack.append(Undoable(before, inp, seq))
        for effect in effects:
            if isinstance(effect, GameOver):
                self.over = effect
                self.undo_stack.clear()
        return effects

    def undo(self) -> Undoable:
        """Take back the last undoable input; raises NothingToUndo when there is none."""
        if not self.undo_stack:
            raise NothingToUndo("nothing_to_undo")
        entry = self.undo_stack.pop()
        self.state = entry.before
        return entry


@dataclass(frozen=True)
class Entry:
    """One journal row as the rules see it: an input with its outcomes, or an undo."""

    seq: int
    kind: str  # "input" | "undo"
    inp: Input | None = None
    outcomes: Outcomes = field(default_factory=dict)


class EntryRefused(RuleError):
    """A journal entry the rules refuse on replay (a damaged or foreign journal). `seq` names the
    entry, `cause` the rules' refusal, and `session` holds the game as rebuilt up to just before it."""

    def __init__(self, seq: int, cause: RuleError, session: Session) -> None:
        super().__init__("entry_refused", {"seq": seq, "refused": cause.key, **cause.params})
        self.seq = seq
        self.cause = cause
        self.session = session


def replay(game: Game, options: Mapping[str, Any], entries: Iterable[Entry]) -> Session:
    """Rebuild a session from journal entries, drawing nothing. Bad options raise the game's
    `SetupError`; an entry the rules refuse raises `EntryRefused` (with the session before it).
    The service's resume, `houston replay`, the demo's check and the tests all rebuild this way."""
    session = Session.start(game, options)
    for entry in entries:
        try:
            if entry.kind == "undo":
                session.undo()
            elif entry.inp is not None:
                session.submit(entry.inp, entry.outcomes, entry.seq)
        except RuleError as exc:
            raise EntryRefused(entry.seq, exc, session) from exc
    return session
