"""Alien on Board on the box: rounds, commanders, the guesses after the rockets are down, and scores.

The decoders, cards and rockets stay physical. The box takes the guesses one player at a time, learns
the alien only from the alien's own reveal press, scores exactly by the rulebook (scoring.py) and
announces the standings. Decisions beside the rulebook's words: docs/rules/alien.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from games.alien import scoring, steps
from games.alien.errors import BadOption, NotPlaying, RevealNotPlayer, SelfGuess, TooFewPlayers
from games.alien.settings import settings
from games.alien.state import COMMANDER, GUESSING, JOIN, OVER, QUESTIONING, REVEAL, AlienState
from games.alien.views import public_view, team_view
from games.core import (
    OK,
    TEAM_COLOURS,
    ChanceRequest,
    Effect,
    GameInfo,
    Input,
    NotExpected,
    Outcomes,
    Press,
    Prompt,
    say,
)

INFO = GameInfo(
    id="alien",
    title="Alien on Board",
    min_teams=settings().min_players,
    max_teams=settings().max_players,
    hidden_information=False,  # the secret (who is the alien) lives in the decoders, never in the box
    chance=False,  # the commander shuffles the decoders by hand
)

COLOUR_PRESSES: tuple[str, ...] = tuple(f"press:{c}" for c in TEAM_COLOURS)


class AlienOnBoard:
    """The rules object registered as game `alien`."""

    info = INFO

    def setup(self, options: Mapping[str, Any]) -> AlienState:
        """Options: `rounds` (default from alien.toml) and, for a display that already knows the
        table, `players` (colours in seating order), which skips joining by buttons."""
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

    def teams(self, state: AlienState) -> tuple[str, ...]:
        return state.players

    def prompt(self, state: AlienState) -> Prompt:
        if state.phase == JOIN:
            return Prompt(say("join_prompt"), (*COLOUR_PRESSES, "press:ok", "hold:ok"), (*state.players, OK))
        if state.phase == COMMANDER:
            return Prompt(say("choose_commander"), COLOUR_PRESSES, state.players)
        if state.phase == QUESTIONING:
            ask = say("questioning_prompt", round=state.round, rounds=state.rounds, team=state.commander)
            return Prompt(ask, ("press:ok",), (OK,))
        if state.phase == GUESSING:
            player = state.awaited()
            targets = tuple(p for p in state.players if p != player)
            return Prompt(say("guess_prompt", team=player), COLOUR_PRESSES, targets)
        if state.phase == REVEAL:
            return Prompt(say("reveal_prompt"), COLOUR_PRESSES, state.players)
        return Prompt(say("game_over", rounds=state.rounds), (), finished=True)

    def validate(self, state: AlienState, inp: Input) -> tuple[ChanceRequest, ...]:
        """Refuse, with a spoken reason, anything that makes no sense now. No chance is ever drawn."""
        if not isinstance(inp, Press) or not self.prompt(state).allows(inp):
            raise NotExpected("not_expected", {"expected": self.prompt(state).ask.key})
        colour = inp.button
        if state.phase == JOIN and colour == OK and not inp.hold:
            needed = settings().min_players
            if len(state.players) < needed:
                raise TooFewPlayers("too_few_players", {"min": needed, "count": len(state.players)})
        elif state.phase in (COMMANDER, GUESSING) and colour not in state.players:
            raise NotPlaying("not_playing", {"team": colour})
        elif state.phase == GUESSING and colour == state.awaited():
            raise SelfGuess("guess_self", {"team": colour})
        elif state.phase == REVEAL and colour not in state.players:
            raise RevealNotPlayer("reveal_not_player", {"team": colour})
        return ()

    def apply(self, state: AlienState, inp: Input, outcomes: Outcomes) -> tuple[AlienState, list[Effect]]:
        assert isinstance(inp, Press)  # validate admitted only presses
        button = inp.button
        if state.phase == JOIN:
            if button != OK:
                return steps.toggle_player(state, button)
            return steps.cycle_rounds(state) if inp.hold else steps.start(state)
        if state.phase == COMMANDER:
            return steps.first_commander(state, button)
        if state.phase == QUESTIONING:
            return steps.expose(state)
        if state.phase == GUESSING:
            return steps.enter_guess(state, button)
        if state.phase == REVEAL:
            return steps.reveal(state, button)
        raise NotExpected("not_expected", {"expected": "game_over"})

    def legal_inputs(self, state: AlienState) -> list[Input]:
        """Every input the prompt accepts and validate passes (for random players and tests)."""
        if state.phase == OVER:
            return []
        candidates: list[Input] = [Press(c) for c in TEAM_COLOURS] + [Press(OK), Press(OK, hold=True)]
        legal = []
        for inp in candidates:
            try:
                self.validate(state, inp)
            except ValueError:
                continue
            legal.append(inp)
        return legal

    def simulation_options(self, teams: int) -> dict[str, Any]:
        """`houston simulate --teams N`: the first N colours, seated in panel order."""
        return {"players": list(TEAM_COLOURS[:teams])}

    def simulation_stats(self, state: AlienState, effects: list[Effect]) -> dict[str, Any]:
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


GAME = AlienOnBoard()
