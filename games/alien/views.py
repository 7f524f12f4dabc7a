"""What leaves the box: the public view (and a team view with nothing secret in it).

The box holds no secret in this game: it learns the alien only when the alien reveals, and all
guesses are public once the rockets are down. So the public view shows everything it knows.
"""

from __future__ import annotations

from typing import Any

from games.alien.scoring import winners
from games.alien.settings import settings
from games.alien.state import COMMANDER, GUESSING, JOIN, OVER, QUESTIONING, REVEAL, AlienState, RoundResult
from games.core import GameInfo


def awaiting(state: AlienState) -> dict[str, Any]:
    """Whose entry the box waits for, and what kind: the dashboard highlights it."""
    if state.phase == JOIN:
        return {"entry": "join", "team": None}
    if state.phase == COMMANDER:
        return {"entry": "commander", "team": None}
    if state.phase == QUESTIONING:
        return {"entry": "rockets_down", "team": state.commander}
    if state.phase == GUESSING:
        return {"entry": "guess", "team": state.awaited()}
    if state.phase == REVEAL:
        return {"entry": "reveal", "team": None}
    return {"entry": None, "team": None}


def _round_view(result: RoundResult) -> dict[str, Any]:
    return {
        "round": result.round,
        "commander": result.commander,
        "alien": result.alien,
        "guesses": dict(result.guesses),
        "points": dict(zip((p for p, _ in result.guesses), result.points, strict=True)),
        "correct": result.correct,
        "verdict": result.verdict,
    }


def public_view(info: GameInfo, state: AlienState) -> dict[str, Any]:
    """Round, commander, totals, this round's entries, the last scored round, and the disc ring."""
    s = settings()
    guesses = dict(state.guesses)
    last = state.history[-1] if state.history else None
    totals = dict(zip(state.players, state.totals, strict=False))
    disc = [
        {
            "colour": colour,
            "hex": s.disc_colour(colour),
            "seat": seat,
            "total": totals.get(colour, 0),
            "commander": colour == state.commander,
            "rocket": guesses.get(colour),
            "last_points": dict(zip(state.players, last.points, strict=True)).get(colour) if last else None,
        }
        for seat, colour in enumerate(state.players)
    ]
    return {
        "game": info.id,
        "title": info.title,
        "phase": state.phase,
        "round": state.round,
        "rounds": state.rounds,
        "commander": state.commander or None,
        "players": list(state.players),
        "min_players": s.min_players,
        "max_players": s.max_players,
        "totals": totals,
        "awaiting": awaiting(state),
        "guesses": guesses,
        "disc": disc,
        "last_round": _round_view(last) if last else None,
        "history": [
            {"round": r.round, "alien": r.alien, "points": dict(zip(state.players, r.points, strict=True))}
            for r in state.history
        ],
        "winners": list(winners(state.players, state.totals)) if state.phase == OVER else [],
    }


def team_view(info: GameInfo, state: AlienState, team: str) -> dict[str, Any]:
    """A player's own corner of the disc; nothing here is secret from the others."""
    playing = team in state.players
    return {
        "game": info.id,
        "team": team,
        "playing": playing,
        "seat": state.players.index(team) if playing else None,
        "total": state.total_of(team) if playing and state.totals else 0,
        "your_turn": awaiting(state)["team"] == team,
    }
