"""The state of one scenario: dogs, enemy groups, the round's position, the Game Runner's goals."""

from __future__ import annotations

from dataclasses import dataclass, replace

from games.spacedogs.campaign import Campaign
from games.spacedogs.catalog import DOMESTICATED, ENRAGED

# The round's phases, in order, then the interlude and the scenario's end.
BEGINNING, TEMPERAMENT, REFRESH, DRAW, ACTIVATION, DISCARD, END = (
    "beginning", "temperament", "refresh", "draw", "activation", "discard", "end")
ROUND: tuple[str, ...] = (BEGINNING, TEMPERAMENT, REFRESH, DRAW, ACTIVATION, DISCARD, END)
EXPLORATION, REWARDS, OVER = "exploration", "rewards", "over"
PLAYERS, GR = "players", "gr"
GREEN, TRASHED = "green", "trashed"


@dataclass(frozen=True)
class Dog:
    """One Spacedog on the table. `temper` is the position on the scale (0 = Enraged)."""

    id: str
    colour: str
    health: int
    temper: int
    stance: str
    stances: tuple[str, ...]
    powers: tuple[str, ...]
    plating: int
    token: str = GREEN
    acted: bool = False
    item: str | None = None

    @property
    def incapacitated(self) -> bool:
        return self.health == 0

    @property
    def enraged(self) -> bool:
        return self.stance == ENRAGED

    @property
    def domesticated(self) -> bool:
        return self.stance == DOMESTICATED

    @property
    def helpless(self) -> bool:
        """The glossary's Helpless: incapacitated, Enraged or Domesticated."""
        return self.incapacitated or self.enraged or self.domesticated

    @property
    def can_activate(self) -> bool:
        return self.token == GREEN and not self.acted and not self.incapacitated and not self.enraged


@dataclass(frozen=True)
class Group:
    """An enemy group: health per figure (0 = defeated), and whether it was activated this round."""

    id: str
    kind: str
    name: str
    health: tuple[int, ...]
    max_health: int
    plating: int
    activated: bool = False
    placed: bool = True  # False: waiting off the map, known to the Game Runner only

    @property
    def defeated(self) -> bool:
        return all(h == 0 for h in self.health)

    @property
    def can_activate(self) -> bool:
        return self.placed and not self.activated and not self.defeated


@dataclass(frozen=True)
class Goal:
    """A hidden agenda goal of the Game Runner and its XP (secret until the scenario's end)."""

    id: str
    text: str
    xp: int
    achieved: bool = False


@dataclass(frozen=True)
class Activation:
    """The dog activating now and the actions it has left."""

    dog: str
    actions: int


@dataclass(frozen=True)
class Exploration:
    """Exploration mode: dogs in clockwise order from the last active player, whose go it is."""

    order: tuple[str, ...]
    index: int = 0

    @property
    def current(self) -> str:
        return self.order[self.index % len(self.order)]


@dataclass(frozen=True)
class SDState:
    scenario: str
    dogs: tuple[Dog, ...]
    groups: tuple[Group, ...]
    goals: tuple[Goal, ...]
    campaign: Campaign
    phase: str = BEGINNING
    round: int = 1
    turn: str = PLAYERS
    active: Activation | None = None
    last_dog: str | None = None
    exploring: Exploration | None = None
    revealed: bool = False
    awarded: tuple[tuple[str, int], ...] = ()
    choice: str | None = None
    bought: tuple[str, ...] = ()
    log: tuple[str, ...] = ()

    def dog(self, dog_id: str) -> Dog:
        for d in self.dogs:
            if d.id == dog_id:
                return d
        raise KeyError(dog_id)

    def group(self, group_id: str) -> Group:
        for g in self.groups:
            if g.id == group_id:
                return g
        raise KeyError(group_id)

    def with_dog(self, dog: Dog) -> SDState:
        return replace(self, dogs=tuple(dog if d.id == dog.id else d for d in self.dogs))

    def with_group(self, group: Group) -> SDState:
        return replace(self, groups=tuple(group if g.id == group.id else g for g in self.groups))

    def gr_earned(self) -> int:
        return sum(g.xp for g in self.goals if g.achieved)
