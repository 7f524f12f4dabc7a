from games.whales.rules import GAME

__all__ = ["GAME"]
