"""Spacedogs as the box runs it: the round phase by phase, every dog's health and temperament,
damage, enemy groups, the loadout check, the Game Runner's secrets and the campaign.

The box cannot see the hex map: line of sight, movement, cover lines and the cards in hand stay
with the table. Decisions beside the rulebook's words are in docs/rules/spacedogs.md.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.core import Choose, Effect, Game, GameInfo, Input, Phase, SetupError
from games.spacedogs import campaign as camp
from games.spacedogs import demo
from games.spacedogs import loadout as lo
from games.spacedogs import phases as ph
from games.spacedogs.catalog import Catalog, Loadout, catalog
from games.spacedogs.commands import GR_ONLY
from games.spacedogs.state import (
    BEGINNING,
    DISCARD,
    DRAW,
    END,
    EXPLORATION,
    OVER,
    REFRESH,
    REWARDS,
    TEMPERAMENT,
    Dog,
    Goal,
    Group,
    SDState,
)
from games.spacedogs.views import GR_TEAM, dog_view, gr_view, public_view

_CAT = catalog()

INFO = GameInfo(
    id="spacedogs",
    title=_CAT.numbers.title,
    min_teams=_CAT.numbers.min_dogs,
    max_teams=_CAT.numbers.max_dogs,
    hidden_information=True,
    chance=False,
    order=_CAT.numbers.order,
)

_STEP = Phase(ph.step_prompt, ph.step_check, ph.step_apply, ph.step_legal)
PHASES: dict[str, Phase[SDState]] = {
    BEGINNING: _STEP, TEMPERAMENT: _STEP, REFRESH: _STEP, DRAW: _STEP, DISCARD: _STEP, END: _STEP,
    "activation": Phase(ph.activation_prompt, ph.activation_check, ph.activation_apply, ph.activation_legal),
    EXPLORATION: Phase(ph.explore_prompt, ph.explore_check, ph.explore_apply, ph.explore_legal),
    REWARDS: Phase(ph.rewards_prompt, ph.rewards_check, ph.rewards_apply, ph.rewards_legal),
}


def _dogs_option(options: Mapping[str, Any], cat: Catalog) -> tuple[str, ...]:
    dogs = options.get("dogs", list(cat.dogs))
    if isinstance(dogs, str) or not isinstance(dogs, Sequence):
        raise SetupError("bad_option", {"option": "dogs", "value": str(dogs)[:40]})
    dogs = tuple(dogs)
    if not all(isinstance(d, str) and d in cat.dogs for d in dogs) or len(set(dogs)) != len(dogs):
        raise SetupError("bad_option", {"option": "dogs", "value": list(dogs)})
    if not cat.numbers.min_dogs <= len(dogs) <= cat.numbers.max_dogs:
        raise SetupError("dog_count", {"min": cat.numbers.min_dogs, "max": cat.numbers.max_dogs})
    return dogs


def _loadouts(options: Mapping[str, Any], cat: Catalog, dogs: tuple[str, ...]) -> dict[str, Loadout]:
    raw = options.get("loadouts", {})
    if not isinstance(raw, Mapping) or not set(raw) <= set(dogs):
        raise SetupError("bad_option", {"option": "loadouts", "value": "one loadout per dog playing"})
    return {d: lo.parse(raw[d], d) if d in raw else cat.dogs[d].default_loadout for d in dogs}


def _upgraded(cat: Catalog, kind: str, upgrades: tuple[str, ...]) -> tuple[int, int]:
    base = cat.enemies[kind]
    bought = [cat.upgrades[u] for u in upgrades if cat.upgrades[u].enemy == kind]
    return base.health + sum(u.health for u in bought), base.plating + sum(u.plating for u in bought)


class Spacedogs(Game[SDState]):
    """The rules object registered as game `spacedogs`."""

    info = INFO
    phases = PHASES

    def setup(self, options: Mapping[str, Any]) -> SDState:
        """Options: dogs (1–4 ids, seated clockwise), scenario (an id from the data), campaign (the
        snapshot the box keeps; none = a new campaign), loadouts (per dog; default from data)."""
        cat = catalog()
        dogs = _dogs_option(options, cat)
        scenario = options.get("scenario", cat.numbers.first_scenario)
        if not isinstance(scenario, str) or scenario not in cat.scenarios:
            raise SetupError("bad_option", {"option": "scenario", "value": str(scenario)[:40]})
        raw_campaign = options.get("campaign")
        campaign = camp.initial(cat) if raw_campaign is None else camp.from_json(raw_campaign, cat)
        loadouts = _loadouts(options, cat, dogs)
        usable = (*(e.id for e in cat.equipment.values() if e.unlocked), *campaign.unlocked)
        lo.check_team(cat, loadouts, {d: campaign.dog(d).level for d in dogs}, usable)
        spec = cat.scenarios[scenario]
        state_dogs = tuple(
            Dog(id=d, colour=cat.dogs[d].colour, health=cat.numbers.max_health, temper=cat.numbers.balanced,
                stance=loadouts[d].stances[0] if loadouts[d].stances else "", stances=loadouts[d].stances,
                powers=loadouts[d].powers, plating=sum(cat.equipment[e].plating for e in loadouts[d].equipment()))
            for d in dogs
        )
        groups = []
        for g in spec.enemies:
            health, plating = _upgraded(cat, g.kind, campaign.upgrades)
            groups.append(Group(g.id, g.kind, cat.enemies[g.kind].name, (health,) * g.figures, health, plating,
                                placed=g.placed))
        goals = tuple(Goal(g.id, g.text, g.xp) for g in spec.goals)
        return SDState(scenario=scenario, dogs=state_dogs, groups=tuple(groups), goals=goals, campaign=campaign,
                       log=(f"{spec.title}: round 1",))

    def phase_of(self, state: SDState) -> str:
        if state.exploring is not None:
            return EXPLORATION
        return state.phase

    def teams(self, state: SDState) -> tuple[str, ...]:
        return (*(d.colour for d in state.dogs), GR_TEAM)

    def public_view(self, state: SDState) -> dict[str, Any]:
        return public_view(state, catalog())

    def team_view(self, state: SDState, team: str) -> dict[str, Any]:
        if team == GR_TEAM:
            return gr_view(state, catalog())
        return dog_view(state, catalog(), team)

    def choice_audience(self, option: str) -> str | None:
        """The Game Runner's commands (damage, XP, goals, ...) come only from the `gr` user."""
        return GR_TEAM if option.split(":", 1)[0] in GR_ONLY else None

    def secrets(self, state: SDState) -> frozenset[str]:
        """The hidden agenda goals' texts, until the end scene reveals them."""
        return frozenset() if state.revealed else frozenset(g.text for g in state.goals)

    # --- the campaign (an additive part of the contract: games/core.py) ------------------------

    def campaign_initial(self) -> dict[str, Any] | None:
        return camp.to_json(camp.initial(catalog()))

    def campaign_check(self, data: Any) -> dict[str, Any]:
        return camp.to_json(camp.from_json(data, catalog()))

    def campaign_after(self, state: SDState) -> dict[str, Any] | None:
        if state.phase != OVER:
            return None
        cat = catalog()
        after = camp.after_scenario(state.campaign, cat, state.scenario, dict(state.awarded), state.choice,
                                    state.gr_earned(), state.bought)
        return camp.to_json(after)

    # --- simulation and demo --------------------------------------------------------------------

    def simulation_options(self, teams: int) -> dict[str, Any]:
        cat = catalog()
        n = max(cat.numbers.min_dogs, min(cat.numbers.max_dogs, teams or cat.numbers.max_dogs))
        return {"dogs": list(cat.dogs)[:n]}

    def simulation_stats(self, state: SDState, effects: Sequence[Effect]) -> dict[str, Any]:
        return {"rounds": state.round, "incapacitated": sum(1 for d in state.dogs if d.incapacitated),
                "enemies_left": sum(1 for g in state.groups for h in g.health if h)}

    def random_input(self, state: SDState, legal: Sequence[Input], pick: Callable[[int], int]) -> Input:
        """Mostly the round's own flow; a command one time in four; the end scene after round 3."""
        flow = [i for i in legal if not isinstance(i, Choose) or i.option.split(":")[0] not in ("damage", "area",
                                                                                                "goal", "end")]
        commands = [i for i in legal if isinstance(i, Choose) and i.option.split(":")[0] in ("damage", "area",
                                                                                            "goal")]
        if state.round > 3 and Choose("end") in legal and pick(20) == 0:
            return Choose("end")
        if commands and (not flow or pick(4) == 0):
            return commands[pick(len(commands))]
        pool = flow or list(legal)
        return pool[pick(len(pool))]

    def demo_options(self) -> dict[str, Any]:
        return demo.OPTIONS

    def demo_input(self, state: SDState, step: int) -> Input | None:
        return demo.next_input(state, step)


GAME = Spacedogs()
