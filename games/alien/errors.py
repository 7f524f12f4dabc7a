"""Inputs the box refuses in Alien on Board; each carries the message key it speaks."""

from __future__ import annotations

from games.core import IllegalInput, SetupError


class BadOption(SetupError):
    """A setup option out of range (rounds, players) or unknown: refused before the game starts."""


class TooFewPlayers(IllegalInput):
    """OK pressed to start before enough players have joined."""


class NotPlaying(IllegalInput):
    """A colour pressed as commander or guess that no player has."""


class SelfGuess(IllegalInput):
    """A player entering their own colour: nobody's rocket stands on their own field."""


class RevealNotPlayer(IllegalInput):
    """An alien reveal on a colour nobody plays."""
