"""Gem Vault, a toy game: the box hides a gem, the teams guess it by holding up gem cards."""

from games.toygame.rules import GAME

__all__ = ["GAME"]
