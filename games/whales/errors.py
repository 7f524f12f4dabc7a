"""Inputs the box refuses in Whales Destroying The World; each carries the message key it speaks."""

from __future__ import annotations

from games.core import IllegalInput


class NotInPlay(IllegalInput):
    """A card that is not where the rules need it (not in the deck, not in that army, left out)."""


class NotAWhale(IllegalInput):
    """A superhero, turtle or special card scanned while dealing the starting whales."""


class NotTheOffered(IllegalInput):
    """A face-up scan of a card other than the one offered face down (the card is not named)."""


class NotPlaying(IllegalInput):
    """A team button of a colour nobody plays, or the player's own where another is needed."""


class CannotSteal(IllegalInput):
    """A steal the rules forbid: the shield, a whale that is not the lowest of its set, nothing there."""


class BadDeclaration(IllegalInput):
    """A role declaration the role deck cannot produce."""


class TooFewPlayers(IllegalInput):
    """OK pressed to start with fewer teams than the game needs (or the werewhale under 5)."""
