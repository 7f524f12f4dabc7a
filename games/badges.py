"""Team badges: the cards that show a team's colour, the same for every game with a deck.

A badge is scanned like a card (a team joins by holding up its badge), so every deck includes
them. Their ids are defined here once; vision and the games use these names.
"""

from __future__ import annotations

from games.core import TEAM_COLOURS

BADGE_PREFIX = "badge-"
BADGES: tuple[str, ...] = tuple(f"{BADGE_PREFIX}{colour}" for colour in TEAM_COLOURS)


def badge_of(colour: str) -> str:
    """The badge card id of a team colour."""
    return f"{BADGE_PREFIX}{colour}"


def team_of_badge(card: str) -> str | None:
    """The team colour a badge card shows, or None if `card` is not a badge."""
    return card.removeprefix(BADGE_PREFIX) if card in BADGES else None
