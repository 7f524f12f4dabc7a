"""The three colour dice of Here Comes the Dog, read from the data file.

Faces come from dog.toml; a roll is three chance requests (one per die, uniform over its faces),
so the odds are exactly the data's and the box journals every face.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from games.core import Chance
from games.data import load_toml

COLOURS: tuple[str, ...] = ("meat", "charcoal", "fire")
INCIDENTS: dict[str, str] = {"meat": "feed", "charcoal": "assault", "fire": "fire_fest"}


@dataclass(frozen=True)
class Die:
    name: str
    faces: tuple[str, ...]


def load_dice() -> tuple[Die, ...]:
    """The dice as the data file defines them; refuses a face that is not a colour."""
    dice = []
    for entry in load_toml("games.dog", "dog.toml")["dice"]:
        faces = tuple(str(f) for f in entry["faces"])
        unknown = set(faces) - set(COLOURS)
        if unknown or not faces:
            raise ValueError(f"die {entry['name']}: faces must be among {COLOURS}, got {sorted(unknown)}")
        dice.append(Die(str(entry["name"]), faces))
    if len(dice) != 3:
        raise ValueError("Here Comes the Dog rolls exactly three dice")
    return tuple(dice)


def led_colours() -> dict[str, str]:
    return dict(load_toml("games.dog", "dog.toml")["led_colours"])


def roll_requests(dice: tuple[Die, ...]) -> tuple[Chance, ...]:
    """One uniform chance request per die: the outcome is the index of the face that shows."""
    return tuple(Chance(f"die_{die.name}", tuple(1 for _ in die.faces)) for die in dice)


def read_roll(dice: tuple[Die, ...], outcomes: Mapping[str, Any]) -> tuple[str, ...]:
    """The colours showing, in die order, from journaled outcomes."""
    return tuple(die.faces[int(outcomes[f"die_{die.name}"])] for die in dice)


def classify(roll: tuple[str, ...]) -> str:
    """'feed' | 'assault' | 'fire_fest' for a triple, 'theft' for three colours, else 'take'."""
    if len(set(roll)) == 1:
        return INCIDENTS[roll[0]]
    if len(set(roll)) == 3:
        return "theft"
    return "take"
