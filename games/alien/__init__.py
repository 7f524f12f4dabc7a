"""Alien on Board: the box keeps rounds, commanders, guesses and scores; decoders stay physical."""

from games.alien.rules import GAME

__all__ = ["GAME"]
