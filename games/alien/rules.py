"""Alien on Board on the box: rounds, commanders, the guesses after the rockets are down, and scores.

The decoders, cards and rockets stay physical. The box takes the guesses one player at a time, learns
the alien only from the alien's own reveal press, scores exactly by the rulebook (scoring.py) and
announces the standings. The phase table names each phase's functions (phases.py). Decisions beside
the rulebook's words: docs/rules/alien.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from games.alien import demo, phases, scoring, steps
from games.alien.errors import BadOption
from games.alien.settings import settings
from games.alien.state import COMMANDER, GUESSING, JOIN, QUESTIONING, REVEAL, AlienState
from games.alien.views import public_view, team_view
from games.core import TEAM_COLOURS, Effect, Game, GameInfo, Input, Phase, Prompt, say
from games.data import load_toml

INFO = GameInfo(
    id="alien",
    title="Alien on Board",
    min_teams=settings().min_players,
    max_teams=settings().max_players,
    hidden_information=False,  # the secret (who is the alien) lives in the decoders, never in the box
    chance=False,  # the commander shuffles the decoders by hand
    order=int(load_toml("games.alien", "alien.toml")["game"]["order"]),
)

PHASES: dict[str, Phase[AlienState]] = {
    JOIN: Phase(prompt=phases.join_prompt, check=phases.join_check,
                apply=phases.join_apply, legal=phases.join_legal),
    COMMANDER: Phase(prompt=phases.commander_prompt, check=phases.commander_check,
                     apply=phases.commander_apply, legal=phases.commander_legal),
    QUESTIONING: Phase(prompt=phases.questioning_prompt, check=phases.questioning_check,
                       apply=phases.questioning_apply, legal=phases.questioning_legal),
    GUESSING: Phase(prompt=phases.guessing_prompt, check=phases.guessing_check,
                    apply=phases.guessing_apply, legal=phases.guessing_legal),
    REVEAL: Phase(prompt=phases.reveal_prompt, check=phases.reveal_check,
                  apply=phases.reveal_apply, legal=phases.reveal_legal),
}


class AlienOnBoard(Game[AlienState]):
    """The rules object registered as game `alien`."""

    info = INFO
    phases = PHASES

    def setup(self, options: Mapping[str, Any]) -> AlienState:
        """Options: `rounds` (default from alien.toml) and, for a display that already knows the
        table, `players` (colours in seating order), which skips joining by buttons. Anything else
        raises `BadOption` (a `SetupError`)."""
        s = settings()
        unknown = sorted(set(options) - {"rounds", "players"})
        if unknown:
            raise BadOption("bad_option", {"option": unknown[0], "value": options[unknown[0]]})
        rounds = options.get("rounds", s.rounds)
        whole = isinstance(rounds, int) and not isinstance(rounds, bool)
        if not whole or not s.min_rounds <= rounds <= s.max_rounds:
            raise BadOption("bad_option", {"option": "rounds", "value": rounds})
        state = AlienState(rounds=rounds)
        if "players" not in options:
            return state
        players = options["players"]
        if (
            not isinstance(players, list | tuple)
            or not all(isinstance(p, str) and p in TEAM_COLOURS for p in players)
            or len(set(players)) != len(players)
            or not s.min_players <= len(players) <= s.max_players
        ):
            raise BadOption("bad_option", {"option": "players", "value": players})
        return steps.start(replace(state, players=tuple(players)))[0]

    def phase_of(self, state: AlienState) -> str:
        return state.phase

    def final_prompt(self, state: AlienState) -> Prompt:
        return Prompt(say("game_over", rounds=state.rounds), (), finished=True)

    def teams(self, state: AlienState) -> tuple[str, ...]:
        return state.players

    def secrets(self, state: AlienState) -> frozenset[str]:
        """Nothing: the box never holds a secret in this game. Who is the alien lives in the
        decoders until the alien's own reveal press, and every guess is entered openly once the
        rockets are down, so everything the box knows is public the moment it knows it."""
        return frozenset()

    def simulation_options(self, teams: int) -> dict[str, Any]:
        """`houston simulate --teams N`: the first N colours, seated in panel order."""
        return {"players": list(TEAM_COLOURS[:teams])}

    def simulation_stats(self, state: AlienState, effects: Sequence[Effect]) -> dict[str, Any]:
        """Per game: how rounds ended (averaged) and whether the victory was shared (tallied)."""
        verdicts = [r.verdict for r in state.history]
        won = scoring.winners(state.players, state.totals) if state.totals else ()
        return {
            "rounds_exposed": verdicts.count(scoring.EXPOSED),
            "rounds_escaped": verdicts.count(scoring.ESCAPED),
            "rounds_tied": verdicts.count(scoring.TIE),
            "victory": "shared" if len(won) > 1 else "single",
        }

    def public_view(self, state: AlienState) -> dict[str, Any]:
        return public_view(INFO, state)

    def team_view(self, state: AlienState, team: str) -> dict[str, Any]:
        return team_view(INFO, state, team)

    def demo_options(self) -> dict[str, Any]:
        return demo.demo_options()

    def demo_input(self, state: AlienState, step: int) -> Input | None:
        return demo.demo_input(state, step)


GAME = AlienOnBoard()
