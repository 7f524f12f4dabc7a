"""Here Comes the Dog: the box keeps the bonfire, the sticks, the dogs and the villagers."""

from games.dog.rules import GAME

__all__ = ["GAME"]
