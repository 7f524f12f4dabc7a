"""The card catalogue and the game's numbers, read from cards.toml and game.toml.

Everything a table might change (names, facings, hand sizes, odds, tokens) lives in data; this
module only checks it and turns it into small frozen records the rules can look up quickly.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from games.core import Scan
from games.data import load_toml

PACKAGE = "games.hwhad"
ROLES = ("engineer", "hero", "observer", "dolphin", "captain", "doggo", "microwave", "unknown")
WRENCH_ROLES = ("engineer", "captain")
FACINGS = ("left", "right")
CAPTAIN_ID = "hwhad-glue"


@dataclass(frozen=True, slots=True)
class Card:
    """One astronaut card. `facing` is the side it acts to (wrench, gaze, attack), or ''."""

    id: str
    name: str
    role: str
    facing: str = ""
    unlockable: bool = False
    enabled: bool = True

    @property
    def wrench(self) -> str:
        """'left'/'right' for a card carrying a wrench (engineers and the Captain), else ''."""
        return self.facing if self.role in WRENCH_ROLES else ""


@dataclass(frozen=True, slots=True)
class Numbers:
    """The numbers of game.toml: team counts, hand sizes, dolphins on the ship, odds, tokens."""

    min_teams: int
    max_teams: int
    hand_size: dict[int, int]
    dolphins_on_ship: dict[int, int]
    asteroid_percent: int
    asteroid_percent_without_dolphins: int
    tray: int
    panic_raise: int


@cache
def catalogue() -> dict[str, Card]:
    """Every card by id, in the data file's order; refuses a malformed catalogue."""
    cards: dict[str, Card] = {}
    for entry in load_toml(PACKAGE, "cards.toml")["card"]:
        card = Card(
            id=str(entry["id"]),
            name=str(entry["name"]),
            role=str(entry["role"]),
            facing=str(entry.get("facing", "")),
            unlockable=bool(entry.get("unlockable", False)),
            enabled=bool(entry.get("enabled", True)),
        )
        if card.role not in ROLES or (card.facing and card.facing not in FACINGS) or card.id in cards:
            raise ValueError(f"cards.toml: bad card {entry!r}")
        if card.role in ("engineer", "observer", "dolphin", "captain") and not card.facing:
            raise ValueError(f"cards.toml: {card.id} needs a facing")
        cards[card.id] = card
    if CAPTAIN_ID not in cards or cards[CAPTAIN_ID].role != "captain":
        raise ValueError("cards.toml: the Captain is missing")
    return cards


def astronauts() -> tuple[str, ...]:
    """The 20 cards always in the deal."""
    return tuple(c.id for c in catalogue().values() if not c.unlockable)


def unlockables(enabled_only: bool = False) -> tuple[str, ...]:
    """Unlockable cards (only those the rulebook defines when `enabled_only`)."""
    return tuple(c.id for c in catalogue().values() if c.unlockable and (c.enabled or not enabled_only))


@cache
def numbers() -> Numbers:
    """game.toml checked: every team count has a hand size that leaves the modules their cards."""
    data = load_toml(PACKAGE, "game.toml")
    teams = data["teams"]
    hand = {int(k): int(v) for k, v in data["hand_size"].items()}
    ship = {int(k): int(v) for k, v in data["dolphins_on_ship"].items()}
    result = Numbers(
        min_teams=int(teams["min"]),
        max_teams=int(teams["max"]),
        hand_size=hand,
        dolphins_on_ship=ship,
        asteroid_percent=int(data["asteroid"]["percent"]),
        asteroid_percent_without_dolphins=int(data["asteroid"]["percent_without_dolphins"]),
        tray=int(data["panic"]["tray"]),
        panic_raise=int(data["panic"]["raise"]),
    )
    for n in range(result.min_teams, result.max_teams + 1):
        if n not in hand or n not in ship or n * hand[n] + 3 > len(astronauts()):
            raise ValueError(f"game.toml: no valid deal for {n} teams")
    for pct in (result.asteroid_percent, result.asteroid_percent_without_dolphins):
        if not 0 <= pct <= 100:
            raise ValueError("game.toml: asteroid percentages must be 0..100")
    return result


def asteroid_weights(percent: int) -> tuple[int, ...]:
    """Exact odds for [no hit, hit A, hit B, hit C]: `percent`% that one slot, uniform, is hit."""
    return (3 * (100 - percent), percent, percent, percent)


@cache
def scans() -> dict[str, Scan]:
    """One Scan per card, built once: legal-input lists hand these out instead of new ones."""
    return {card: Scan(card) for card in catalogue()}
