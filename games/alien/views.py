"""What leaves the box: the public view (and a team view with nothing secret in it).

The box holds no secret in this game: it learns the alien only when the alien reveals, and all
guesses are public once the rockets are down. So the public view shows everything it knows.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from games import widgets as w
from games.alien.scoring import winners
from games.alien.settings import settings
from games.alien.state import COMMANDER, GUESSING, JOIN, OVER, QUESTIONING, REVEAL, AlienState, RoundResult
from games.core import GameInfo
from games.data import display_words, plural_key


@cache
def _texts() -> dict[str, str]:
    return display_words("games.alien")


def _word(key: str, **params: Any) -> str:
    """A line of the catalogue, filled (a colour parameter is spoken as the catalogue's word)."""
    return _filled(key, tuple(params.items()))


@lru_cache(maxsize=4096)
def _filled(key: str, items: tuple[tuple[str, Any], ...]) -> str:
    """_word's work, cached: every view draws the same labels and history lines again."""
    params = dict(items)
    texts = _texts()
    filled = {k: texts.get(v, v) if isinstance(v, str) else v for k, v in params.items()}
    return texts[plural_key(texts, key, filled)].format(**filled)


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
    won = list(winners(state.players, state.totals)) if state.phase == OVER else []
    return w.view(
        info.id, info.title, state.phase, _widgets(state, won),
        round=state.round or None,
        turn=awaiting(state)["team"],
        scores=totals,
        winners=won,
        **_fields(state, totals, guesses, disc, last, s.min_players, s.max_players),
    )


def _fields(state: AlienState, totals: dict[str, int], guesses: dict[str, str], disc: list[dict[str, Any]],
            last: RoundResult | None, min_players: int, max_players: int) -> dict[str, Any]:
    """The named fields displays read before widgets (kept beside them)."""
    return {
        "rounds": state.rounds,
        "commander": state.commander or None,
        "players": list(state.players),
        "min_players": min_players,
        "max_players": max_players,
        "totals": totals,
        "awaiting": awaiting(state),
        "guesses": guesses,
        "disc": disc,
        "last_round": _round_view(last) if last else None,
        "history": [
            {"round": r.round, "alien": r.alien, "points": dict(zip(state.players, r.points, strict=True))}
            for r in state.history
        ],
    }


def _widgets(state: AlienState, won: list[str]) -> list[w.Widget]:
    """Teams with their totals, the guessing disc with the rockets on each field, the score table,
    the round history, and at the end the reveal banner."""
    waiting = awaiting(state)["team"]
    totals = dict(zip(state.players, state.totals, strict=False))
    rows = [w.team_row(p, [w.counter(_word("w_points"), totals.get(p, 0))],
                       badges=[_word("w_commander")] if p == state.commander else [],
                       active=p == waiting)
            for p in state.players]
    on_field: dict[str, list[str]] = {p: [] for p in state.players}
    for player, field in state.guesses:
        on_field.setdefault(field, []).append(_word(player))
    segments = [{"team": p, "label": ", ".join(on_field.get(p, [])), "marked": p == state.commander}
                for p in state.players]
    centre = _word("w_round", round=state.round, rounds=state.rounds) if state.round else ""
    columns = [_word("w_round_column"), *(_word(p) for p in state.players)]
    table_rows: list[list[Any]] = [[r.round, *r.points] for r in state.history]
    if state.history:
        table_rows.append([_word("w_total"), *state.totals])
    lines = [f"{_word('w_round', round=r.round, rounds=state.rounds)}: {_word('alien_revealed', team=r.alien)} "
             + _word(f"verdict_{r.verdict}", correct=r.correct, crew=len(state.players) - 1)
             for r in state.history]
    result = [w.teams(_word("w_players"), rows), w.disc(_word("w_disc"), segments, centre),
              w.table(_word("w_scores"), columns, table_rows), w.log(_word("w_history"), lines)]
    if state.phase == OVER and state.history:
        best = max(state.totals)
        detail = (_word("winner", team=won[0], points=best) if len(won) == 1
                  else _word("shared_victory", points=best))
        result.insert(0, w.banner(_word("w_over"), _word("alien_revealed", team=state.history[-1].alien), detail))
    return result




def team_view(info: GameInfo, state: AlienState, team: str) -> dict[str, Any]:
    """A player's own corner of the disc; nothing here is secret from the others."""
    playing = team in state.players
    total = state.total_of(team) if playing and state.totals else 0
    your_turn = awaiting(state)["team"] == team
    widgets = [w.counters(_word(team), [w.counter(_word("w_points"), total)])] if playing else []
    if your_turn:
        widgets.append(w.banner(_word(team), _word("w_your_turn")))
    return {
        "game": info.id,
        "team": team,
        "playing": playing,
        "seat": state.players.index(team) if playing else None,
        "total": total,
        "your_turn": your_turn,
        "widgets": widgets,
    }
