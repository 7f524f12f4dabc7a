"""Houston, We Have a Dolphin! as the box referees it: the rules object registered as `hwhad`.

Each phase has four small functions (prompt, check, apply, legal) in the module for its part of the
game; this module only dispatches on the phase and runs passing steps (starting the next spacewalk).
Decisions beside the rulebook's words are in docs/rules/hwhad.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from games.core import (
    TEAM_COLOURS,
    ChanceRequest,
    Effect,
    GameInfo,
    IllegalInput,
    Input,
    NotExpected,
    Outcomes,
    Prompt,
    say,
)
from games.hwhad import boarding, captain, spacewalk
from games.hwhad import state as st
from games.hwhad.cards import astronauts, catalogue, numbers, unlockables
from games.hwhad.state import HState
from games.hwhad.views import public_view, team_view

INFO = GameInfo(
    id="hwhad",
    title="Houston, We Have a Dolphin!",
    min_teams=2,
    max_teams=5,
    hidden_information=True,
    chance=True,
    deck="hwhad",
)


class Phase(NamedTuple):
    prompt: Callable[[HState], Prompt]
    check: Callable[[HState, Input], tuple[ChanceRequest, ...]]
    apply: Callable[[HState, Input, Outcomes], tuple[HState, list[Effect]]]
    legal: Callable[[HState], list[Input]]


def _phase(module: Any, name: str) -> Phase:
    return Phase(*(getattr(module, f"{name}_{part}") for part in ("prompt", "check", "apply", "legal")))


PHASES: dict[str, Phase] = {
    st.CREWING: _phase(boarding, "crewing"),
    st.BOARDING: _phase(boarding, "boarding"),
    st.TEMP_CAPTAIN: _phase(boarding, "temp_captain"),
    st.SPACEWALK: _phase(spacewalk, "spacewalk"),
    st.DETACH: _phase(spacewalk, "detach"),
    st.SUCCESSOR_TIE: _phase(captain, "successor_tie"),
    st.SUCCESSOR_CARD: _phase(captain, "successor_card"),
    st.ORDER: _phase(captain, "order"),
    st.THREATEN: _phase(captain, "threaten"),
    st.VOTE: _phase(captain, "vote"),
    st.VICTIM: _phase(captain, "victim"),
}


def _enabled_unlockables(options: Mapping[str, Any]) -> tuple[str, ...]:
    """Option `unlockables`: card ids (or short names like "doggo") of unlockables to deal."""
    wanted = options.get("unlockables", ())
    if isinstance(wanted, str) or not isinstance(wanted, Sequence):
        raise IllegalInput("bad_option", {"option": "unlockables", "value": wanted})
    enabled = []
    defined = unlockables(enabled_only=True)
    for name in wanted:
        card = name if isinstance(name, str) and name.startswith("hwhad-") else f"hwhad-{name}"
        if card not in defined:
            raise IllegalInput("bad_option", {"option": "unlockables", "value": name})
        if card not in enabled:
            enabled.append(card)
    return tuple(c for c in defined if c in enabled)


def _preset_teams(options: Mapping[str, Any]) -> tuple[str, ...]:
    """Option `teams`: colours that are already crewed (crewing then only waits for OK)."""
    teams = options.get("teams", ())
    limits = numbers()
    if isinstance(teams, str) or not isinstance(teams, Sequence):
        raise IllegalInput("bad_option", {"option": "teams", "value": teams})
    teams = tuple(teams)
    ok = (
        all(isinstance(t, str) and t in TEAM_COLOURS for t in teams)
        and len(set(teams)) == len(teams)
        and (not teams or limits.min_teams <= len(teams) <= limits.max_teams)
    )
    if not ok:
        raise IllegalInput("bad_option", {"option": "teams", "value": list(teams)})
    return teams


class Hwhad:
    """The rules object registered as game `hwhad`."""

    info = INFO

    def setup(self, options: Mapping[str, Any]) -> HState:
        enabled = _enabled_unlockables(options)
        teams = _preset_teams(options)
        return HState(phase=st.CREWING, teams=teams, locked=bool(teams), unlocked=enabled,
                      deck=(*astronauts(), *enabled))

    def teams(self, state: HState) -> tuple[str, ...]:
        return state.teams

    def card_ids(self) -> list[str]:
        return [*astronauts(), *unlockables()]

    def card_name(self, card_id: str) -> str:
        """The card's printed name (from cards.toml), for enrolling it by voice."""
        return catalogue()[card_id].name

    def prompt(self, state: HState) -> Prompt:
        if state.phase == st.OVER:
            return Prompt(say("game_over"), accepts=(), finished=True)
        return PHASES[state.phase].prompt(state)

    def validate(self, state: HState, inp: Input) -> tuple[ChanceRequest, ...]:
        prompt = self.prompt(state)
        if prompt.finished or not prompt.allows(inp):
            raise NotExpected("not_expected", {"expected": prompt.ask.key})
        return PHASES[state.phase].check(state, inp)

    def apply(self, state: HState, inp: Input, outcomes: Outcomes) -> tuple[HState, list[Effect]]:
        state, effects = PHASES[state.phase].apply(state, inp, outcomes)
        if state.phase == st.START_SPACEWALK:
            state, more = spacewalk.start(state)
            effects = [*effects, *more]
        return state, effects

    def legal_inputs(self, state: HState) -> list[Input]:
        phase = PHASES.get(state.phase)
        return phase.legal(state) if phase else []

    def public_view(self, state: HState) -> dict[str, Any]:
        return public_view(state, INFO.title)

    def team_view(self, state: HState, team: str) -> dict[str, Any]:
        return team_view(state, team)

    def simulation_options(self, teams: int) -> dict[str, Any]:
        """Options for a simulated game of `teams` teams (used by `houston simulate`)."""
        return {"teams": list(TEAM_COLOURS[:teams])}

    def simulation_stats(self, state: HState, effects: Sequence[Effect]) -> dict[str, Any]:
        """Per-game facts `houston simulate` aggregates: side, end reason, spacewalks, incidents."""
        side = "humans" if "humans" in state.result else "dolphins" if "dolphins" in state.result else "nobody"
        stats: dict[str, Any] = {"side": side, "reason": state.result or "unfinished",
                                 "spacewalks": state.spacewalks}
        for how in state.history:
            for step in how:
                kind = step.split(":")[0]
                stats[f"incident_{kind}"] = stats.get(f"incident_{kind}", 0) + 1
        stats["modules_detached"] = state.detached
        return stats


GAME = Hwhad()
