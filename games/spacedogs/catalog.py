"""Spacedogs' data file read into typed records: dogs, equipment, enemies, scenarios, numbers.

Every number the rules use comes from here (spacedogs.toml), so a table can change it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from games.data import load_toml

PACKAGE = "games.spacedogs"
SLOTS_OF_EQUIPMENT: tuple[str, ...] = ("weapon", "armor", "tool")
SIDES: tuple[str, ...] = ("wild", "tame")
ENRAGED = "enraged"
DOMESTICATED = "domesticated"


@dataclass(frozen=True)
class Stance:
    id: str
    side: str
    cost: int


@dataclass(frozen=True)
class Loadout:
    """What a dog takes into a scenario: one equipment per slot, powers and stances."""

    weapon: str
    armor: str
    tool: str
    powers: tuple[str, ...]
    stances: tuple[str, ...]

    def equipment(self) -> tuple[str, str, str]:
        return (self.weapon, self.armor, self.tool)


@dataclass(frozen=True)
class DogInfo:
    id: str
    name: str
    colour: str
    powers: dict[str, int]
    stances: dict[str, Stance]
    default_loadout: Loadout


@dataclass(frozen=True)
class Equipment:
    id: str
    name: str
    slot: str
    cost: int
    plating: int
    unlocked: bool


@dataclass(frozen=True)
class EnemyKind:
    id: str
    name: str
    health: int
    plating: int


@dataclass(frozen=True)
class Upgrade:
    id: str
    enemy: str
    cost: int
    health: int
    plating: int
    text: str


@dataclass(frozen=True)
class GroupSpec:
    """An enemy group of a scenario; `placed` false: it waits off the map (an ambush) until the
    Game Runner places it, and only the Game Runner knows of it until then."""

    id: str
    kind: str
    figures: int
    placed: bool = True


@dataclass(frozen=True)
class GoalSpec:
    id: str
    text: str
    xp: int


@dataclass(frozen=True)
class Scenario:
    id: str
    title: str
    reminder: str
    enemies: tuple[GroupSpec, ...]
    goals: tuple[GoalSpec, ...]
    unlock: tuple[str, ...]
    stickers: tuple[str, ...]
    choices: tuple[str, ...]


@dataclass(frozen=True)
class Numbers:
    order: int
    title: str
    min_dogs: int
    max_dogs: int
    max_health: int
    hand_size: int
    actions: int
    enemy_actions: int
    scale_length: int
    max_entry: int
    log_lines: int
    first_scenario: str
    start_level: int
    xp_thresholds: tuple[int, ...]

    @property
    def balanced(self) -> int:
        return self.scale_length // 2


@dataclass(frozen=True)
class Catalog:
    numbers: Numbers
    dogs: dict[str, DogInfo]
    equipment: dict[str, Equipment]
    items: dict[str, str]
    enemies: dict[str, EnemyKind]
    upgrades: dict[str, Upgrade]
    scenarios: dict[str, Scenario]

    def dog_of_colour(self, colour: str) -> str | None:
        for dog in self.dogs.values():
            if dog.colour == colour:
                return dog.id
        return None

    def stance_side(self, dog: str, stance: str) -> str:
        if stance == ENRAGED:
            return "wild"
        if stance == DOMESTICATED:
            return "tame"
        return self.dogs[dog].stances[stance].side

    def level_for(self, xp: int) -> int:
        return self.numbers.start_level + sum(1 for t in self.numbers.xp_thresholds if xp >= t)


def _loadout(raw: dict[str, Any]) -> Loadout:
    return Loadout(str(raw["weapon"]), str(raw["armor"]), str(raw["tool"]),
                   tuple(str(p) for p in raw.get("powers", ())), tuple(str(s) for s in raw.get("stances", ())))


@cache
def catalog() -> Catalog:
    """The parsed data file; a malformed file fails loudly here, at import of the first game."""
    raw = load_toml(PACKAGE, "spacedogs.toml")
    g, lv = raw["game"], raw["levels"]
    numbers = Numbers(
        order=int(g["order"]), title=str(g["title"]), min_dogs=int(g["min_dogs"]), max_dogs=int(g["max_dogs"]),
        max_health=int(g["max_health"]), hand_size=int(g["hand_size"]), actions=int(g["actions"]),
        enemy_actions=int(g["enemy_actions"]), scale_length=int(g["scale_length"]), max_entry=int(g["max_entry"]),
        log_lines=int(g["log_lines"]), first_scenario=str(g["first_scenario"]),
        start_level=int(lv["start_level"]), xp_thresholds=tuple(int(x) for x in lv["xp_thresholds"]),
    )
    if numbers.scale_length < 3 or numbers.scale_length % 2 == 0:
        raise ValueError("spacedogs.toml: scale_length must be odd and at least 3 (Balanced in the centre)")
    dogs = {
        dog_id: DogInfo(
            id=dog_id, name=str(d["name"]), colour=str(d["colour"]),
            powers={str(k): int(v) for k, v in d["powers"].items()},
            stances={str(k): Stance(str(k), str(v["side"]), int(v["cost"])) for k, v in d["stances"].items()},
            default_loadout=_loadout(d["default_loadout"]),
        )
        for dog_id, d in raw["dogs"].items()
    }
    equipment = {
        k: Equipment(k, str(v["name"]), str(v["slot"]), int(v["cost"]), int(v["plating"]), bool(v["unlocked"]))
        for k, v in raw["equipment"].items()
    }
    enemies = {k: EnemyKind(k, str(v["name"]), int(v["health"]), int(v["plating"])) for k, v in raw["enemies"].items()}
    upgrades = {
        k: Upgrade(k, str(v["enemy"]), int(v["cost"]), int(v["health"]), int(v["plating"]), str(v["text"]))
        for k, v in raw["upgrades"].items()
    }
    scenarios = {}
    for s in raw["scenarios"]:
        scenarios[str(s["id"])] = Scenario(
            id=str(s["id"]), title=str(s["title"]), reminder=str(s["reminder"]),
            enemies=tuple(GroupSpec(str(e["id"]), str(e["kind"]), int(e["figures"]), bool(e.get("placed", True)))
                          for e in s["enemies"]),
            goals=tuple(GoalSpec(str(x["id"]), str(x["text"]), int(x["xp"])) for x in s["goals"]),
            unlock=tuple(str(x) for x in s["unlock"]), stickers=tuple(str(x) for x in s["stickers"]),
            choices=tuple(str(x) for x in s["choices"]),
        )
    items = {str(k): str(v) for k, v in raw["items"].items()}
    return Catalog(numbers, dogs, equipment, items, enemies, upgrades, scenarios)
