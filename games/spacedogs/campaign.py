"""The campaign a table carries from scenario to scenario, as plain JSON-able data.

The box keeps it in its own durable store (device/box/campaign_store.py); the game only parses a
snapshot (field by field: anything off is refused) and computes the snapshot after a scenario.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core import SetupError
from games.spacedogs.catalog import Catalog

VERSION = 1
MAX_LIST = 200  # a campaign's lists are short; a longer one is not a campaign file


@dataclass(frozen=True)
class DogRecord:
    xp: int
    level: int


@dataclass(frozen=True)
class Campaign:
    """Scenarios played, every dog's XP and level, stickers applied, equipment unlocked by
    scenarios (on top of what the data file marks unlocked from the start), story choices, the
    Game Runner's XP and the enemy upgrades bought."""

    scenarios: tuple[str, ...]
    dogs: tuple[tuple[str, DogRecord], ...]
    stickers: tuple[str, ...]
    unlocked: tuple[str, ...]
    choices: tuple[tuple[str, str], ...]
    gr_xp: int
    upgrades: tuple[str, ...]

    def dog(self, dog: str) -> DogRecord:
        return dict(self.dogs)[dog]


def initial(cat: Catalog) -> Campaign:
    return Campaign(
        scenarios=(),
        dogs=tuple((d, DogRecord(0, cat.level_for(0))) for d in cat.dogs),
        stickers=(),
        unlocked=(),
        choices=(),
        gr_xp=0,
        upgrades=(),
    )


def to_json(c: Campaign) -> dict[str, Any]:
    return {
        "version": VERSION,
        "scenarios": list(c.scenarios),
        "dogs": {d: {"xp": r.xp, "level": r.level} for d, r in c.dogs},
        "stickers": list(c.stickers),
        "unlocked": list(c.unlocked),
        "choices": {s: ch for s, ch in c.choices},
        "gr_xp": c.gr_xp,
        "upgrades": list(c.upgrades),
    }


def _bad(field: str, why: str) -> SetupError:
    return SetupError("bad_campaign", {"field": field, "reason": why})


def _int(value: Any, field: str, low: int = 0, high: int = 1_000_000) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise _bad(field, f"must be a whole number {low}..{high}")
    return value


def _ids(value: Any, field: str, allowed: Mapping[str, Any] | tuple[str, ...]) -> tuple[str, ...]:
    if not isinstance(value, list) or len(value) > MAX_LIST:
        raise _bad(field, "must be a list")
    out: list[str] = []
    for item in value:
        if not isinstance(item, str) or (allowed and item not in allowed):
            raise _bad(field, f"unknown id {item!r}")
        if item in out:
            raise _bad(field, f"{item!r} twice")
        out.append(item)
    return tuple(out)


def from_json(data: Any, cat: Catalog) -> Campaign:
    """Parse a snapshot field by field; raises SetupError('bad_campaign') naming the field."""
    if not isinstance(data, Mapping):
        raise _bad("campaign", "must be an object")
    expected = {"version", "scenarios", "dogs", "stickers", "unlocked", "choices", "gr_xp", "upgrades"}
    if set(data) != expected:
        raise _bad("campaign", f"fields must be exactly {sorted(expected)}")
    if data["version"] != VERSION:
        raise _bad("version", f"must be {VERSION}")
    scenarios = _ids(data["scenarios"], "scenarios", tuple(cat.scenarios))
    raw_dogs = data["dogs"]
    if not isinstance(raw_dogs, Mapping) or set(raw_dogs) != set(cat.dogs):
        raise _bad("dogs", f"must name exactly {sorted(cat.dogs)}")
    dogs = []
    for dog in cat.dogs:
        rec = raw_dogs[dog]
        if not isinstance(rec, Mapping) or set(rec) != {"xp", "level"}:
            raise _bad(f"dogs.{dog}", "must be {xp, level}")
        xp = _int(rec["xp"], f"dogs.{dog}.xp")
        level = _int(rec["level"], f"dogs.{dog}.level", 0, 1000)
        if level != cat.level_for(xp):
            raise _bad(f"dogs.{dog}.level", f"level {level} does not match {xp} XP")
        dogs.append((dog, DogRecord(xp, level)))
    stickers = _ids(data["stickers"], "stickers", ())
    if any(not s or len(s) > 40 for s in stickers):
        raise _bad("stickers", "a sticker id is 1..40 characters")
    unlocked = _ids(data["unlocked"], "unlocked", cat.equipment)
    raw_choices = data["choices"]
    if not isinstance(raw_choices, Mapping) or len(raw_choices) > MAX_LIST:
        raise _bad("choices", "must be an object")
    choices = []
    for scen, choice in raw_choices.items():
        if scen not in cat.scenarios or choice not in cat.scenarios[scen].choices:
            raise _bad("choices", f"{scen!r}: {choice!r} is not a choice of that scenario")
        choices.append((scen, choice))
    gr_xp = _int(data["gr_xp"], "gr_xp")
    upgrades = _ids(data["upgrades"], "upgrades", cat.upgrades)
    return Campaign(scenarios, tuple(dogs), stickers, unlocked, tuple(choices), gr_xp, upgrades)


def after_scenario(
    c: Campaign,
    cat: Catalog,
    scenario: str,
    dog_xp: Mapping[str, int],
    choice: str | None,
    gr_earned: int,
    bought: tuple[str, ...],
) -> Campaign:
    """The campaign once a scenario's rewards are recorded (XP, levels, unlocks, stickers...)."""
    spec = cat.scenarios[scenario]
    dogs = []
    for dog, rec in c.dogs:
        xp = rec.xp + dog_xp.get(dog, 0)
        dogs.append((dog, DogRecord(xp, cat.level_for(xp))))
    spent = sum(cat.upgrades[u].cost for u in bought)
    choices = dict(c.choices)
    if choice is not None:
        choices[scenario] = choice
    return Campaign(
        scenarios=c.scenarios if scenario in c.scenarios else (*c.scenarios, scenario),
        dogs=tuple(dogs),
        stickers=(*c.stickers, *(s for s in spec.stickers if s not in c.stickers)),
        unlocked=(*c.unlocked, *(e for e in spec.unlock if e not in c.unlocked)),
        choices=tuple(choices.items()),
        gr_xp=c.gr_xp + gr_earned - spent,
        upgrades=(*c.upgrades, *bought),
    )
