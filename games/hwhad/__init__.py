"""Houston, We Have a Dolphin! — the box keeps the hidden layout and resolves spacewalks in secret."""

from games.hwhad.rules import GAME

__all__ = ["GAME"]
