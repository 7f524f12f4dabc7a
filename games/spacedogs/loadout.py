"""The loadout check before a scenario (rulebook, Player Setup: "TLDR: Loadout Checklist")."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.core import SetupError
from games.spacedogs.catalog import SLOTS_OF_EQUIPMENT, Catalog, Loadout


def cost(cat: Catalog, dog: str, loadout: Loadout) -> int:
    """Equipment + powers + stances: the sum checked against the dog's level (loadout points)."""
    info = cat.dogs[dog]
    return (sum(cat.equipment[e].cost for e in loadout.equipment())
            + sum(info.powers[p] for p in loadout.powers)
            + sum(info.stances[s].cost for s in loadout.stances))


def check(cat: Catalog, dog: str, loadout: Loadout, level: int, unlocked: tuple[str, ...]) -> int:
    """Refuse a loadout that breaks a rule (SetupError naming the rule); return its cost."""
    info = cat.dogs[dog]
    for slot, eq in zip(SLOTS_OF_EQUIPMENT, loadout.equipment(), strict=True):
        if eq not in cat.equipment or cat.equipment[eq].slot != slot:
            raise SetupError("loadout_slot", {"dog": dog, "slot": slot, "equipment": eq})
        if eq not in unlocked:
            raise SetupError("loadout_locked", {"dog": dog, "equipment": eq})
    if len(loadout.powers) > 2:
        raise SetupError("loadout_powers", {"dog": dog, "powers": len(loadout.powers)})
    for power in loadout.powers:
        if power not in info.powers:
            raise SetupError("loadout_unknown", {"dog": dog, "card": power})
    for stance in loadout.stances:
        if stance not in info.stances:
            raise SetupError("loadout_unknown", {"dog": dog, "card": stance})
    if len(set(loadout.powers)) != len(loadout.powers) or len(set(loadout.stances)) != len(loadout.stances):
        raise SetupError("loadout_twice", {"dog": dog})
    total = cost(cat, dog, loadout)
    if total > level:
        raise SetupError("loadout_points", {"dog": dog, "cost": total, "level": level})
    return total


def check_team(cat: Catalog, loadouts: Mapping[str, Loadout], levels: Mapping[str, int],
               unlocked: tuple[str, ...]) -> None:
    """Every dog's loadout, and each equipment used by one dog only ("Each equipment card is unique")."""
    seen: dict[str, str] = {}
    for dog, loadout in loadouts.items():
        check(cat, dog, loadout, levels[dog], unlocked)
        for eq in loadout.equipment():
            if eq in seen:
                raise SetupError("loadout_shared", {"equipment": eq, "dog": dog, "other": seen[eq]})
            seen[eq] = dog


def parse(raw: Any, dog: str) -> Loadout:
    """A loadout from setup options, field by field."""
    if not isinstance(raw, Mapping) or set(raw) != {"weapon", "armor", "tool", "powers", "stances"}:
        raise SetupError("bad_option", {"option": f"loadouts.{dog}", "value": "weapon, armor, tool, powers, stances"})
    fields = [raw["weapon"], raw["armor"], raw["tool"]]
    lists = [raw["powers"], raw["stances"]]
    if not all(isinstance(f, str) and 0 < len(f) <= 40 for f in fields) or not all(
        isinstance(lst, list) and len(lst) <= 20 and all(isinstance(x, str) for x in lst) for lst in lists
    ):
        raise SetupError("bad_option", {"option": f"loadouts.{dog}", "value": "wrong types"})
    return Loadout(fields[0], fields[1], fields[2], tuple(lists[0]), tuple(lists[1]))
