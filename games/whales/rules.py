"""Whales Destroying The World as the box referees it: the rules object registered as `whales`.

The phase table names plain functions from turn.py (joining, the deal, the turn and the army
rules) and ending.py (guesses, declaration, winners). Decisions beside the rulebook's words are in
docs/rules/whales.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.core import (
    OK,
    TEAM_COLOURS,
    Cards,
    ChanceRequest,
    Effect,
    Game,
    GameInfo,
    Input,
    NotExpected,
    Outcomes,
    Phase,
    Press,
    Prompt,
    SetupError,
    say,
)
from games.whales import demo, ending, turn
from games.whales import state as st
from games.whales.cards import catalogue, numbers
from games.whales.state import WState
from games.whales.views import public_view, secrets, team_view

INFO = GameInfo(
    id="whales",
    title="Whales Destroying The World",
    min_teams=numbers().min_teams,
    max_teams=numbers().max_teams,
    hidden_information=True,   # the card offered face down
    chance=False,              # the table shuffles the physical deck; the box draws nothing
    deck=numbers().deck,
    order=numbers().order,
)


def _phase(name: str) -> Phase[WState]:
    parts = (getattr(turn, f"{name}_{part}") for part in ("prompt", "check", "apply", "legal"))
    return Phase(*parts)


_ROLES: Phase[WState] = Phase(ending.roles_prompt, ending.roles_check, ending.roles_apply, ending.roles_legal)

PHASES: dict[str, Phase[WState]] = {
    st.JOIN: _phase("join"),
    st.DEAL: _phase("deal"),
    st.DISCARD: _phase("discard"),
    st.OFFER_CARD: _phase("offer_card"),
    st.OFFER_TO: _phase("offer_to"),
    st.DECIDE: _phase("decide"),
    st.RETURN: _phase("return"),
    st.WILD_SET: _phase("wild"),
    st.TURTLE: _phase("turtle"),
    st.STEAL_FROM: _phase("steal_from"),
    st.STEAL_CARD: _phase("steal_card"),
    st.GUESS: _ROLES,
    st.DECLARE: _ROLES,
}

OPTIONS = ("teams", "expansion", "roles")


def _teams_option(options: Mapping[str, Any]) -> tuple[str, ...]:
    """Option `teams`: colours in seating order, clockwise from the first player (the panel has
    six team buttons, so 3 to 6 even where the expansion allows 8)."""
    teams = options.get("teams", ())
    if isinstance(teams, str) or not isinstance(teams, Sequence):
        raise SetupError("bad_option", {"option": "teams", "value": teams})
    teams = tuple(teams)
    limits = numbers()
    if teams and not limits.min_teams <= len(teams) <= limits.max_teams:
        key = "too_many_teams" if len(teams) > limits.max_teams else "join_count"
        raise SetupError(key, {"count": len(teams), "min": limits.min_teams, "max": limits.max_teams,
                               "rulebook_max": limits.rulebook_max})
    if not all(isinstance(t, str) and t in TEAM_COLOURS for t in teams) or len(set(teams)) != len(teams):
        raise SetupError("bad_option", {"option": "teams", "value": list(teams)})
    return teams


def _roles_option(options: Mapping[str, Any], expansion: bool, teams: int) -> tuple[str, ...]:
    """Option `roles`: expansion roles put into the role deck (sidekick, dolphin, turtle, werewhale)."""
    roles = options.get("roles", ())
    if isinstance(roles, str) or not isinstance(roles, Sequence):
        raise SetupError("bad_option", {"option": "roles", "value": roles})
    extra = numbers().extra_roles
    if any(r not in extra for r in roles) or len(set(roles)) != len(roles):
        raise SetupError("bad_option", {"option": "roles", "value": list(roles)})
    if roles and not expansion:
        raise SetupError("roles_need_expansion")
    if "werewhale" in roles and teams and teams < numbers().werewhale_from:
        raise SetupError("werewhale_needs", {"count": numbers().werewhale_from})
    return tuple(r for r in extra if r in roles)


class Whales(Game[WState]):
    """The rules object registered as game `whales`."""

    info = INFO
    phases = PHASES

    def setup(self, options: Mapping[str, Any]) -> WState:
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise SetupError("bad_option", {"option": unknown[0], "value": options[unknown[0]]})
        expansion = options.get("expansion", False)
        if not isinstance(expansion, bool):
            raise SetupError("bad_option", {"option": "expansion", "value": expansion})
        teams = _teams_option(options)
        roles = _roles_option(options, expansion, len(teams))
        state = WState(phase=st.JOIN, teams=teams, locked=bool(teams), expansion=expansion, roles=roles)
        if teams:
            state, _ = turn.start_deal(state)
        return state

    def phase_of(self, state: WState) -> str:
        return state.phase

    # The base class's flow, with one table lookup per call: `houston simulate` runs these on
    # every input of every game.

    def is_over(self, state: WState) -> bool:
        return state.phase not in PHASES

    def prompt(self, state: WState) -> Prompt:
        phase = PHASES.get(state.phase)
        return self.final_prompt(state) if phase is None else phase.prompt(state)

    def validate(self, state: WState, inp: Input) -> tuple[ChanceRequest, ...]:
        phase = PHASES.get(state.phase)
        if phase is None:
            raise NotExpected("not_expected", {"expected": "game_over"})
        return phase.check(state, inp)

    def apply(self, state: WState, inp: Input, outcomes: Outcomes) -> tuple[WState, list[Effect]]:
        return PHASES[state.phase].apply(state, inp, outcomes)

    def legal_inputs(self, state: WState) -> list[Input]:
        phase = PHASES.get(state.phase)
        return [] if phase is None or phase.legal is None else phase.legal(state)

    def final_prompt(self, state: WState) -> Prompt:
        return Prompt(say("game_over_whales", end=state.end), accepts=(), finished=True)

    def teams(self, state: WState) -> tuple[str, ...]:
        return state.teams

    def public_view(self, state: WState) -> dict[str, Any]:
        return public_view(state, INFO.id, INFO.title)

    def team_view(self, state: WState, team: str) -> dict[str, Any]:
        return team_view(state, team, INFO.id)

    def secrets(self, state: WState) -> frozenset[str]:
        return secrets(state)

    # --- cards --------------------------------------------------------------------------------

    def cards(self) -> Cards:
        cat = catalogue()
        return Cards(deck=INFO.deck, ids=tuple(cat), names={c.id: c.name for c in cat.values()})

    def card_ids(self) -> list[str]:
        """The deck as games/catalog.py and the simulator still ask for it (before `cards()`)."""
        return list(catalogue())

    def card_name(self, card: str) -> str:
        return catalogue()[card].name

    # --- simulation and demo ------------------------------------------------------------------

    def simulation_options(self, teams: int) -> dict[str, Any]:
        return {"teams": list(TEAM_COLOURS[:teams])}

    def simulation_stats(self, state: WState, effects: Sequence[Effect]) -> dict[str, Any]:
        """How the game ended, which role won, and how long it took."""
        roles = dict(state.declared)
        winning = sorted({roles.get(t, ending.WHALE) for t in state.winners}) or ["nobody"]
        return {
            "end": state.end or "unfinished",
            "winning_roles": "+".join(winning),
            "shared": "shared" if len(state.winners) > 1 else "single",
            "turns": state.turns,
            "discarded": len(state.discard),
        }

    def random_input(self, state: WState, legal: Sequence[Input], pick: Callable[[int], int]) -> Input:
        """Declarations end quickly: OK half the time when it is allowed."""
        if state.phase in (st.GUESS, st.DECLARE) and legal[-1] == Press(OK) and pick(2):
            return legal[-1]
        return legal[pick(len(legal))]

    def demo_options(self) -> dict[str, Any]:
        return demo.OPTIONS

    def demo_input(self, state: WState, step: int) -> Input | None:
        return demo.next_input(self, state, step)


GAME = Whales()
