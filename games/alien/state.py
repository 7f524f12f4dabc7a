"""What the box remembers of a game of Alien on Board: seats, round, entries and scores.

The alien's identity is never stored before the reveal press: the box does not know it, so no view
or announcement can leak it.
"""

from __future__ import annotations

from dataclasses import dataclass

JOIN = "join"  # players press their colours; OK starts
COMMANDER = "commander"  # the first commander presses their colour
QUESTIONING = "questioning"  # decoders and questions at the table; OK when the rockets are down
GUESSING = "guessing"  # each player in turn enters the colour their rocket stands on
REVEAL = "reveal"  # the alien presses their own colour; the round is scored
OVER = "over"

PHASES: tuple[str, ...] = (JOIN, COMMANDER, QUESTIONING, GUESSING, REVEAL, OVER)


@dataclass(frozen=True)
class RoundResult:
    """A scored round: everything in it is public once the alien has revealed."""

    round: int
    commander: str
    alien: str
    guesses: tuple[tuple[str, str], ...]  # (player, colour their rocket stood on), seating order
    points: tuple[int, ...]  # per player, seating order
    correct: int  # crew members who guessed the alien
    verdict: str  # "exposed" | "escaped" | "tie"


@dataclass(frozen=True)
class AlienState:
    """Immutable game state; `players` is the seating order (the order they joined)."""

    rounds: int
    phase: str = JOIN
    players: tuple[str, ...] = ()
    round: int = 0
    commander: str = ""
    guesses: tuple[tuple[str, str], ...] = ()  # this round's entries, in entry order
    totals: tuple[int, ...] = ()  # per player, seating order
    history: tuple[RoundResult, ...] = ()

    def guess_order(self) -> tuple[str, ...]:
        """Seating order starting at the commander (clockwise, as the card travels)."""
        if self.commander not in self.players:
            return self.players
        start = self.players.index(self.commander)
        return self.players[start:] + self.players[:start]

    def awaited(self) -> str | None:
        """The player whose guess the box waits for, if it waits for one."""
        if self.phase != GUESSING:
            return None
        entered = {player for player, _ in self.guesses}
        return next((p for p in self.guess_order() if p not in entered), None)

    def total_of(self, player: str) -> int:
        return self.totals[self.players.index(player)]
