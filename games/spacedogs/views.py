"""What leaves the box: the table's public view, each dog's own view, and the Game Runner's.

The one choke point for the Game Runner's secrets: the hidden agenda goals (their texts, XP and
whether they are achieved) appear only in the `gr` view until the end scene reveals them.
"""

from __future__ import annotations

from typing import Any

from games import widgets as w
from games.spacedogs.catalog import Catalog
from games.spacedogs.state import ACTIVATION, EXPLORATION, GR, OVER, SDState

GR_TEAM = "gr"


def _temper_label(cat: Catalog, temper: int) -> str:
    last = cat.numbers.scale_length - 1
    if temper == 0:
        return "Enraged"
    if temper == last:
        return "Domesticated"
    offset = temper - cat.numbers.balanced
    return "Balanced" if offset == 0 else f"Wild {-offset}" if offset < 0 else f"Tame {offset}"


def turn_of(state: SDState) -> str | None:
    if state.exploring is not None:
        return state.dog(state.exploring.current).colour
    if state.phase != ACTIVATION:
        return None
    if state.active is not None:
        return state.dog(state.active.dog).colour
    return GR_TEAM if state.turn == GR else None


def phase_name(state: SDState) -> str:
    return EXPLORATION if state.exploring is not None else state.phase


def _dog_rows(state: SDState, cat: Catalog) -> list[dict[str, Any]]:
    rows = []
    for dog in state.dogs:
        badges = [cat.dogs[dog.id].name]
        if dog.item:
            badges.append(f"item {cat.items[dog.item]}")
        if dog.incapacitated:
            badges.append("incapacitated")
        active = (state.active is not None and state.active.dog == dog.id) or (
            state.exploring is not None and state.exploring.current == dog.id)
        counters = [w.counter("health", dog.health), w.counter("temperament", _temper_label(cat, dog.temper)),
                    w.counter("stance", dog.stance or "none"), w.counter("token", dog.token)]
        if state.active is not None and state.active.dog == dog.id:
            counters.append(w.counter("actions", state.active.actions))
        rows.append(w.team_row(dog.colour, counters, badges=badges, active=active, out=dog.incapacitated))
    return rows


def _group_rows(state: SDState, *, waiting: bool = False) -> list[list[Any]]:
    """The groups on the map (and, for the Game Runner, those still waiting off it)."""
    return [[g.name, g.id, " ".join(str(h) for h in g.health),
             "yes" if g.activated else "no" if g.placed else "waiting"]
            for g in state.groups if g.placed or waiting]


def _goal_rows(state: SDState) -> list[list[Any]]:
    return [[g.id, g.text, g.xp, "yes" if g.achieved else "no"] for g in state.goals]


def public_view(state: SDState, cat: Catalog) -> dict[str, Any]:
    spec = cat.scenarios[state.scenario]
    widgets = [
        w.banner("Scenario", spec.title, f"round {state.round} · {phase_name(state)}"),
        w.teams("Spacedogs", _dog_rows(state, cat)),
        w.table("Enemies", ["enemy", "group", "health", "activated"], _group_rows(state)),
    ]
    if state.revealed:
        widgets.append(w.table("Game Runner's goals", ["goal", "text", "XP", "achieved"], _goal_rows(state)))
    widgets.append(w.log("Log", state.log))
    return w.view(
        "spacedogs", cat.numbers.title, phase_name(state), widgets,
        round=state.round, turn=turn_of(state),
        scores={d.colour: d.health for d in state.dogs},
        scenario=state.scenario,
        dogs=[{"dog": d.id, "colour": d.colour, "health": d.health, "temper": d.temper, "stance": d.stance,
               "token": d.token, "acted": d.acted, "item": d.item, "powers": list(d.powers)} for d in state.dogs],
        groups=[{"group": g.id, "name": g.name, "health": list(g.health), "activated": g.activated}
                for g in state.groups if g.placed],
        exploring=state.exploring is not None,
        over=state.phase == OVER,
    )


def dog_view(state: SDState, cat: Catalog, colour: str) -> dict[str, Any]:
    dog = next((d for d in state.dogs if d.colour == colour), None)
    if dog is None:
        return {"game": "spacedogs", "team": colour}
    info = cat.dogs[dog.id]
    cards = [{"name": f"power: {p}", "text": f"cost {info.powers[p]}"} for p in dog.powers]
    cards += [{"name": f"stance: {s}", "text": f"{info.stances[s].side}, cost {info.stances[s].cost}"}
              for s in dog.stances]
    return {"game": "spacedogs", "team": colour, "dog": dog.id, "name": info.name,
            "widgets": [w.cards("Loadout", cards)]}


def controls(state: SDState) -> dict[str, Any]:
    """The `controls` widget: the Game Runner's commands as forms (device/network/dashboard/controls.js)."""
    placed = [g for g in state.groups if g.placed]
    figures = [d.id for d in state.dogs] + [f"{g.id}.{i + 1}" for g in placed for i in range(len(g.health))]
    forms: list[dict[str, Any]] = [
        {"command": "damage", "label": "Damage a figure", "fields": [
            {"name": "figure", "type": "choice", "options": figures},
            {"name": "amount", "type": "number", "min": 1},
            {"name": "mode", "type": "choice", "options": ["receive", "suffer"]},
            {"name": "cover", "type": "choice", "options": ["0", "1"]},
            {"name": "shields", "type": "number", "min": 0}]},
        {"command": "activate", "label": "Activate an enemy group", "fields": [
            {"name": "group", "type": "choice", "options": [g.id for g in placed]}]},
        {"command": "place", "label": "Set up a waiting group", "fields": [
            {"name": "group", "type": "choice", "options": [g.id for g in state.groups if not g.placed]}]},
        {"command": "goal", "label": "Mark a goal achieved", "fields": [
            {"name": "goal", "type": "choice", "options": [g.id for g in state.goals]}]},
        {"command": "xp", "label": "Enter a dog's XP", "fields": [
            {"name": "dog", "type": "choice", "options": [d.id for d in state.dogs]},
            {"name": "xp", "type": "number", "min": 0}]},
        {"command": "explore", "label": "Exploration mode (start)", "fields": []},
        {"command": "explore:end", "label": "Exploration mode (end)", "fields": []},
        {"command": "end", "label": "End the scenario", "fields": []},
    ]
    usable = [f for f in forms if all(x["type"] != "choice" or x["options"] for x in f["fields"])]
    return w.controls("Game Runner", usable)  # a form with nothing to choose is left out


def gr_view(state: SDState, cat: Catalog) -> dict[str, Any]:
    return {
        "game": "spacedogs", "team": GR_TEAM,
        "goals": [{"id": g.id, "name": g.text, "text": g.text, "xp": g.xp, "achieved": g.achieved}
                  for g in state.goals],
        "xp": state.gr_earned(), "campaign_xp": state.campaign.gr_xp,
        "waiting": [g.id for g in state.groups if not g.placed],
        "widgets": [w.table("Hidden agenda", ["goal", "text", "XP", "achieved"], _goal_rows(state)),
                    w.table("Enemies", ["enemy", "group", "health", "activated"], _group_rows(state, waiting=True)),
                    controls(state)],
    }
