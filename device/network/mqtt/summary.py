"""What Home Assistant reads: a flat digest of the public state, and the results worth an event.

The public state is shaped for displays (a game view with widgets). An automation wants plain
values: the game, the phase, whose turn, the round, each team's score and counters, the dice,
the winner of the last finished game. `summary(public, announcement)` builds that from the fields
every view carries (games/widgets.py `view`), with None for "not started" (Home Assistant shows
"unknown"), never the string "none". `Results` turns a stream of updates into result events: one
per finished game (from the game-over event) and one per finished round (the view's `round`
going up), each published once, never retained.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.core import TEAM_COLOURS


def _game(public: Mapping[str, Any]) -> Mapping[str, Any] | None:
    """The game the table is looking at: none at idle once another game is selected."""
    game = public.get("game")
    if not isinstance(game, Mapping):
        return None
    if public.get("mode") == "idle" and game.get("game") not in (None, public.get("selected")):
        return None
    return game


def _widgets(game: Mapping[str, Any] | None, kind: str) -> list[Mapping[str, Any]]:
    widgets = game.get("widgets") if game else None
    if not isinstance(widgets, list):
        return []
    return [w for w in widgets if isinstance(w, Mapping) and w.get("kind") == kind]


def awaited_team(public: Mapping[str, Any], game: Mapping[str, Any] | None) -> str | None:
    """The team the box waits on: the view's `turn`, else the one team button the prompt lights."""
    if public.get("mode") != "game" or game is None:
        return None
    if isinstance(game.get("turn"), str):
        return str(game["turn"])
    prompt = public.get("prompt")
    lights = prompt.get("lights", []) if isinstance(prompt, Mapping) else []
    lit = [light for light in lights if light in TEAM_COLOURS]
    return lit[0] if len(lit) == 1 else None


def team_counters(game: Mapping[str, Any] | None) -> dict[str, dict[str, Any]]:
    """team -> {counter label: value} from the view's `teams` widgets."""
    out: dict[str, dict[str, Any]] = {}
    for widget in _widgets(game, "teams"):
        for row in widget.get("rows", []):
            if not isinstance(row, Mapping) or not isinstance(row.get("team"), str):
                continue
            counters = out.setdefault(row["team"], {})
            for c in row.get("counters", []):
                if isinstance(c, Mapping) and isinstance(c.get("label"), str):
                    counters[c["label"]] = c.get("value")
    return out


def _winner_text(winners: Sequence[str]) -> str | None:
    return ", ".join(str(w).capitalize() for w in winners) if winners else None


def summary(public: Mapping[str, Any], announcement: str | None = None) -> dict[str, Any]:
    """The flat digest published (retained) on houston/<box>/summary."""
    game = _game(public)
    titles = {g.get("id"): g.get("title") for g in public.get("games", []) if isinstance(g, Mapping)}
    running = public.get("mode") == "game" and game is not None
    over = game is not None and not running and (game.get("phase") == "over" or bool(game.get("winners")))
    raw_scores = game.get("scores") if game is not None else None
    scores: Mapping[str, Any] = raw_scores if isinstance(raw_scores, Mapping) else {}
    counters = team_counters(game)
    teams = {team: {"score": scores.get(team), **counters.get(team, {})}
             for team in [*scores, *[t for t in counters if t not in scores]]}
    dice = [str(f.get("label")) for w in _widgets(game, "dice") for f in w.get("faces", []) if isinstance(f, Mapping)]
    last = public.get("last_result")
    if not isinstance(last, Mapping) and over and game is not None:
        last = {"game": game.get("game"), "title": game.get("title"), "winners": list(game.get("winners") or [])}
    last_result = dict(last) if isinstance(last, Mapping) else None
    round_ = game.get("round") if running and game is not None else None
    return {
        "mode": public.get("mode"),
        "selected": titles.get(public.get("selected")) or public.get("selected"),
        "game": (game.get("title") or titles.get(game.get("game"))) if running and game is not None else None,
        "phase": ("over" if over else "idle") if not running else (game.get("phase") if game else None),
        "turn": awaited_team(public, game),
        "round": round_ if isinstance(round_, int) else None,
        "scores": {str(k): v for k, v in scores.items()},
        "teams": teams,
        "dice": ", ".join(dice) if dice else None,
        "winner": _winner_text(last_result.get("winners", [])) if last_result else None,
        "last_result": last_result,
        "announcement": announcement,
        "prompt": (public.get("prompt") or {}).get("text") if isinstance(public.get("prompt"), Mapping) else None,
    }


class Results:
    """Result events from updates: a `game_over` per finished game, a `round_result` per round."""

    def __init__(self) -> None:
        self._round: tuple[Any, int] | None = None  # (game id, round) last seen in a running game

    def events(self, public: Mapping[str, Any], events: Sequence[Mapping[str, Any]]) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        game = _game(public)
        scores = dict(game.get("scores") or {}) if game else {}
        game_id = game.get("game") if game else None
        round_ = game.get("round") if game else None
        if self._round is not None and isinstance(round_, int) and game_id == self._round[0] \
                and round_ > self._round[1]:
            out.append({"event_type": "round_result", "game": game_id, "round": self._round[1], "scores": scores})
        for event in events:
            if event.get("type") == "game_over":
                winners = [str(w) for w in event.get("winners", [])]
                out.append({"event_type": "game_over", "game": game_id, "title": game.get("title") if game else None,
                            "winners": winners, "winner": _winner_text(winners), "reason": event.get("reason"),
                            "scores": scores})
        running = public.get("mode") == "game"
        self._round = (game_id, round_) if running and isinstance(round_, int) else None
        return out
