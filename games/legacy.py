"""Transitional: an old-style game object seen through the `games.core.Game` contract.

Dog, Houston We Have a Dolphin and Alien on Board predate the `Game` base class; their ports are
under way (issue 11). Until each subclasses `Game` and exports `GAME` from its package, the
registry adapts it here, so the box, the simulator and the tests use the contract only. This is
the one place that probes a game for optional methods; delete the file when the ports land.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.core import Cards, ChanceRequest, Effect, Game, Input, Outcomes, Phase, Prompt


class LegacyGame(Game[Any]):
    """Delegates to an old-style game; the contract's defaults fill what it does not have."""

    phases: Mapping[str, Phase[Any]] = {}

    def __init__(self, inner: Any) -> None:
        self.inner = inner
        self.info = inner.info
        self._legal = self._optional("legal_inputs")
        self.prompt = inner.prompt  # type: ignore[method-assign]  # bound once: the simulator's hot path
        self.apply = inner.apply  # type: ignore[method-assign]

    def _optional(self, name: str) -> Callable[..., Any] | None:
        return getattr(self.inner, name, None)  # transitional: see the module docstring

    def setup(self, options: Mapping[str, Any]) -> Any:
        return self.inner.setup(options)

    def phase_of(self, state: Any) -> str:
        return "over" if self.is_over(state) else "playing"

    def is_over(self, state: Any) -> bool:
        return bool(self.inner.prompt(state).finished)

    def prompt(self, state: Any) -> Prompt:
        prompt: Prompt = self.inner.prompt(state)
        return prompt

    def validate(self, state: Any, inp: Input) -> tuple[ChanceRequest, ...]:
        requests: tuple[ChanceRequest, ...] = self.inner.validate(state, inp)
        return requests

    def apply(self, state: Any, inp: Input, outcomes: Outcomes) -> tuple[Any, list[Effect]]:
        new, effects = self.inner.apply(state, inp, outcomes)
        return new, list(effects)

    def legal_inputs(self, state: Any) -> list[Input]:
        if self._legal is None:
            return [] if self.is_over(state) else self.prompted_inputs(state)
        legal: list[Input] = self._legal(state)
        return legal

    def teams(self, state: Any) -> tuple[str, ...]:
        return tuple(self.inner.teams(state))

    def public_view(self, state: Any) -> dict[str, Any]:
        return dict(self.inner.public_view(state))

    def team_view(self, state: Any, team: str) -> dict[str, Any]:
        return dict(self.inner.team_view(state, team))

    def cards(self) -> Cards:
        ids, namer = self._optional("card_ids"), self._optional("card_name")
        card_ids = tuple(ids()) if ids is not None else ()
        names = {card: str(namer(card)) for card in card_ids} if namer is not None else {}
        return Cards(deck=self.info.deck, ids=card_ids, names=names)

    def simulation_options(self, teams: int) -> dict[str, Any]:
        hook = self._optional("simulation_options")
        return dict(hook(teams)) if hook is not None else {}

    def simulation_stats(self, state: Any, effects: Sequence[Effect]) -> dict[str, Any]:
        hook = self._optional("simulation_stats")
        return dict(hook(state, effects)) if hook is not None else {}


def adapt(inner: Any) -> Game[Any]:
    return LegacyGame(inner)
