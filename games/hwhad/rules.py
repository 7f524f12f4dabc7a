"""Houston, We Have a Dolphin! as the box referees it: the rules object registered as `hwhad`.

The phase table names, for every phase, four plain functions (prompt, check, apply, legal) of the
module for its part of the game; `Hwhad.apply` also runs the one passing step (starting the next
spacewalk). Decisions beside the rulebook's words are in docs/rules/hwhad.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache
from typing import Any

from games.core import (
    TEAM_COLOURS,
    Cards,
    Effect,
    Game,
    GameInfo,
    Input,
    Outcomes,
    Phase,
    SetupError,
)
from games.data import load_toml
from games.hwhad import boarding, captain, demo, spacewalk
from games.hwhad import state as st
from games.hwhad.cards import astronauts, catalogue, numbers, unlockables
from games.hwhad.oracle import secrets
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
    order=int(load_toml("games.hwhad", "game.toml")["order"]),
)

PHASES: dict[str, Phase[HState]] = {
    st.CREWING: Phase(prompt=boarding.crewing_prompt, check=boarding.crewing_check,
                      apply=boarding.crewing_apply, legal=boarding.crewing_legal),
    st.BOARDING: Phase(prompt=boarding.boarding_prompt, check=boarding.boarding_check,
                       apply=boarding.boarding_apply, legal=boarding.boarding_legal),
    st.TEMP_CAPTAIN: Phase(prompt=boarding.temp_captain_prompt, check=boarding.temp_captain_check,
                           apply=boarding.temp_captain_apply, legal=boarding.temp_captain_legal),
    st.SPACEWALK: Phase(prompt=spacewalk.spacewalk_prompt, check=spacewalk.spacewalk_check,
                        apply=spacewalk.spacewalk_apply, legal=spacewalk.spacewalk_legal),
    st.DETACH: Phase(prompt=spacewalk.detach_prompt, check=spacewalk.detach_check,
                     apply=spacewalk.detach_apply, legal=spacewalk.detach_legal),
    st.SUCCESSOR_TIE: Phase(prompt=captain.successor_tie_prompt, check=captain.successor_tie_check,
                            apply=captain.successor_tie_apply, legal=captain.successor_tie_legal),
    st.SUCCESSOR_CARD: Phase(prompt=captain.successor_card_prompt, check=captain.successor_card_check,
                             apply=captain.successor_card_apply, legal=captain.successor_card_legal),
    st.ORDER: Phase(prompt=captain.order_prompt, check=captain.order_check,
                    apply=captain.order_apply, legal=captain.order_legal),
    st.THREATEN: Phase(prompt=captain.threaten_prompt, check=captain.threaten_check,
                       apply=captain.threaten_apply, legal=captain.threaten_legal),
    st.VOTE: Phase(prompt=captain.vote_prompt, check=captain.vote_check,
                   apply=captain.vote_apply, legal=captain.vote_legal),
    st.VICTIM: Phase(prompt=captain.victim_prompt, check=captain.victim_check,
                     apply=captain.victim_apply, legal=captain.victim_legal),
}


def _enabled_unlockables(options: Mapping[str, Any]) -> tuple[str, ...]:
    """Option `unlockables`: card ids (or short names like "doggo") of unlockables to deal."""
    wanted = options.get("unlockables", ())
    if isinstance(wanted, str) or not isinstance(wanted, Sequence):
        raise SetupError("bad_option", {"option": "unlockables", "value": wanted})
    enabled = []
    defined = unlockables(enabled_only=True)
    for name in wanted:
        card = name if isinstance(name, str) and name.startswith("hwhad-") else f"hwhad-{name}"
        if card not in defined:
            raise SetupError("bad_option", {"option": "unlockables", "value": name})
        if card not in enabled:
            enabled.append(card)
    return tuple(c for c in defined if c in enabled)


def _preset_teams(options: Mapping[str, Any]) -> tuple[str, ...]:
    """Option `teams`: colours that are already crewed (crewing then only waits for OK)."""
    teams = options.get("teams", ())
    limits = numbers()
    if isinstance(teams, str) or not isinstance(teams, Sequence):
        raise SetupError("bad_option", {"option": "teams", "value": teams})
    teams = tuple(teams)
    ok = (
        all(isinstance(t, str) and t in TEAM_COLOURS for t in teams)
        and len(set(teams)) == len(teams)
        and (not teams or limits.min_teams <= len(teams) <= limits.max_teams)
    )
    if not ok:
        raise SetupError("bad_option", {"option": "teams", "value": list(teams)})
    return teams


OPTIONS = ("teams", "unlockables")


@cache
def _cards() -> Cards:
    ids = (*astronauts(), *unlockables())
    return Cards(deck=INFO.deck, ids=ids, names={c: catalogue()[c].name for c in ids})


class Hwhad(Game[HState]):
    """The rules object registered as game `hwhad`."""

    info = INFO
    phases = PHASES

    def setup(self, options: Mapping[str, Any]) -> HState:
        unknown = sorted(set(options) - set(OPTIONS))
        if unknown:
            raise SetupError("bad_option", {"option": unknown[0], "value": options[unknown[0]]})
        enabled = _enabled_unlockables(options)
        teams = _preset_teams(options)
        return HState(phase=st.CREWING, teams=teams, locked=bool(teams), unlocked=enabled,
                      deck=(*astronauts(), *enabled))

    def phase_of(self, state: HState) -> str:
        return state.phase

    def apply(self, state: HState, inp: Input, outcomes: Outcomes) -> tuple[HState, list[Effect]]:
        """The phase's apply, then the passing step: a phase that ends in START_SPACEWALK (the
        captain named, a sacrifice done, a vote without an order) starts the next spacewalk at
        once, so the box never rests in START_SPACEWALK."""
        state, effects = PHASES[state.phase].apply(state, inp, outcomes)
        if state.phase == st.START_SPACEWALK:
            state, more = spacewalk.start(state)
            effects = [*effects, *more]
        return state, effects

    def teams(self, state: HState) -> tuple[str, ...]:
        return state.teams

    def cards(self) -> Cards:
        """The 20 astronauts and the unlockables, with their printed names (cards.toml)."""
        return _cards()

    def public_view(self, state: HState) -> dict[str, Any]:
        return public_view(state, INFO.title)

    def team_view(self, state: HState, team: str) -> dict[str, Any]:
        return team_view(state, team)

    def secrets(self, state: HState) -> frozenset[str]:
        return secrets(state)

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

    def random_input(self, state: HState, legal: Sequence[Input], pick: Callable[[int], int]) -> Input:
        """Uniform among `legal`, except that a random captain gives "no order" (and its panel
        twin, OK) only one time in ten: a table that never orders would fly spacewalks until the
        crew runs out, and random games should end in a sensible number of steps."""
        if state.phase == st.ORDER:
            ordering = [i for i in legal if not captain.is_no_order(i)]
            if ordering and pick(10):
                return ordering[pick(len(ordering))]
        return legal[pick(len(legal))]

    def demo_options(self) -> dict[str, Any]:
        return demo.demo_options()

    def demo_input(self, state: HState, step: int) -> Input | None:
        return demo.demo_input(state, step)


GAME = Hwhad()
