"""Scoring exactly as the rulebook's "Expose the alien" and "End of the Game" say.

Each crew member: +1 for guessing the alien; +1 more when a majority of all crew members guessed
the alien. The alien: +2 when a majority of all crew members did not. A tie gives neither bonus.
"Majority" means more than half of the crew (alien excluded); exactly half is the tie.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

EXPOSED = "exposed"
ESCAPED = "escaped"
TIE = "tie"


@dataclass(frozen=True)
class Scored:
    """One round's points per player (seating order), how many crew found the alien, the verdict."""

    points: tuple[int, ...]
    correct: int
    crew: int
    verdict: str


def verdict(correct: int, crew: int) -> str:
    """Exposed if more than half of the crew found the alien, escaped if fewer, else a tie."""
    if 2 * correct > crew:
        return EXPOSED
    if 2 * correct < crew:
        return ESCAPED
    return TIE


def score_round(players: Sequence[str], alien: str, guesses: Mapping[str, str]) -> Scored:
    """Points for one round; `guesses` maps every player to the colour their rocket stood on."""
    crew = [p for p in players if p != alien]
    correct = sum(1 for p in crew if guesses[p] == alien)
    outcome = verdict(correct, len(crew))
    points = []
    for player in players:
        if player == alien:
            points.append(2 if outcome == ESCAPED else 0)
        else:
            points.append((guesses[player] == alien) + (outcome == EXPOSED))
    return Scored(tuple(points), correct, len(crew), outcome)


def winners(players: Sequence[str], totals: Sequence[int]) -> tuple[str, ...]:
    """Everyone with the most points: "all those involved in the tie share the victory"."""
    best = max(totals)
    return tuple(p for p, t in zip(players, totals, strict=True) if t == best)
