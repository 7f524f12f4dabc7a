"""Spacedogs — the box runs the round, keeps every dog's health and temperament, settles damage,
keeps the Game Runner's secrets and the campaign."""

from games.spacedogs.rules import GAME

__all__ = ["GAME"]
