"""Gem Vault's rules: a phase table of plain functions, a secret, a chance roll, three cards.

Each round the box draws which gem is in the vault (a chance roll the box journals); teams take
turns holding up a gem card; a wrong guess is shown to the table (a reveal: BACK cannot take it
back), the right one scores. The first team to `target` points wins.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from games import widgets
from games.core import (
    OK,
    TEAM_COLOURS,
    Cards,
    Chance,
    ChanceRequest,
    Effect,
    Game,
    GameInfo,
    GameOver,
    IllegalInput,
    Input,
    Light,
    Outcomes,
    Phase,
    Press,
    Prompt,
    Reveal,
    Scan,
    SetupError,
    Sound,
    UnknownCard,
    say,
)
from games.data import load_toml

DATA = load_toml("games.toygame", "toygame.toml")
GEMS: tuple[str, ...] = tuple(DATA["cards"])
NAMES: dict[str, str] = dict(DATA["cards"])
TARGET: int = DATA["target"]

HIDE, GUESS, OVER = "hide", "guess", "over"


@dataclass(frozen=True)
class VaultState:
    teams: tuple[str, ...]
    scores: tuple[int, ...]
    turn: int = 0
    phase: str = HIDE
    gem: str = ""  # the secret: which gem is in the vault this round
    tried: tuple[str, ...] = ()
    log: tuple[str, ...] = ()


# --- phase "hide": OK draws the gem ----------------------------------------------------------


def hide_prompt(state: VaultState) -> Prompt:
    return Prompt(say("toy_hide"), accepts=("press:ok",), lights=(OK,))


def hide_check(state: VaultState, inp: Input) -> tuple[ChanceRequest, ...]:
    return (Chance("gem", tuple(1 for _ in GEMS)),)


def hide_apply(state: VaultState, inp: Input, outcomes: Outcomes) -> tuple[VaultState, list[Effect]]:
    gem = GEMS[outcomes["gem"]]
    return replace(state, phase=GUESS, gem=gem, tried=()), [say("toy_hidden"), Sound("dice")]


# --- phase "guess": the team whose turn it is holds up a gem card -------------------------------


def guess_prompt(state: VaultState) -> Prompt:
    team = state.teams[state.turn]
    return Prompt(say("toy_guess", team=team), accepts=("scan",), lights=(team,))


def guess_check(state: VaultState, inp: Input) -> tuple[ChanceRequest, ...]:
    if not isinstance(inp, Scan) or inp.card not in GEMS:
        raise UnknownCard("unknown_card")
    if inp.card in state.tried:
        raise IllegalInput("toy_already")
    return ()


def guess_legal(state: VaultState) -> list[Input]:
    return [Scan(gem) for gem in GEMS if gem not in state.tried]


def guess_apply(state: VaultState, inp: Input, outcomes: Outcomes) -> tuple[VaultState, list[Effect]]:
    assert isinstance(inp, Scan)
    team = state.teams[state.turn]
    name = NAMES[inp.card]
    if inp.card != state.gem:
        nxt = (state.turn + 1) % len(state.teams)
        shown = replace(state, turn=nxt, tried=(*state.tried, inp.card), log=(*state.log, f"{team}: not {name}"))
        return shown, [say("toy_wrong", gem=name), Reveal(inp.card), Light(f"team:{team}", "off")]
    scores = tuple(s + (i == state.turn) for i, s in enumerate(state.scores))
    logged = (*state.log, f"{team} found {name}")
    effects: list[Effect] = [say("toy_right", team=team, gem=name), Reveal(inp.card), Sound("fanfare")]
    if scores[state.turn] >= TARGET:
        effects += [say("toy_won", team=team), GameOver("toy_won", (team,))]
        return replace(state, scores=scores, phase=OVER, gem="", log=logged), effects
    nxt = (state.turn + 1) % len(state.teams)
    return replace(state, scores=scores, turn=nxt, phase=HIDE, gem="", tried=(), log=logged), effects


PHASES: dict[str, Phase[VaultState]] = {
    HIDE: Phase(hide_prompt, hide_check, hide_apply),
    GUESS: Phase(guess_prompt, guess_check, guess_apply, guess_legal),
}


class GemVault(Game[VaultState]):
    info = GameInfo(id="toygame", title="Gem Vault", min_teams=2, max_teams=6, hidden_information=True,
                    chance=True, deck="toygame", order=DATA["order"])
    phases = PHASES

    def setup(self, options: Mapping[str, Any]) -> VaultState:
        teams = options.get("teams", ["red", "blue"])
        if (set(options) - {"teams"} or not isinstance(teams, list) or not 2 <= len(teams) <= 6
                or len(set(teams)) != len(teams) or any(t not in TEAM_COLOURS for t in teams)):
            raise SetupError("toy_bad_teams")
        return VaultState(teams=tuple(teams), scores=tuple(0 for _ in teams))

    def phase_of(self, state: VaultState) -> str:
        return state.phase

    def teams(self, state: VaultState) -> tuple[str, ...]:
        return state.teams

    def public_view(self, state: VaultState) -> dict[str, Any]:
        rows = [widgets.team_row(team, [widgets.counter("points", score)],
                                 active=state.phase == GUESS and i == state.turn)
                for i, (team, score) in enumerate(zip(state.teams, state.scores, strict=True))]
        shown: list[widgets.Widget] = [
            widgets.teams("Teams", rows),
            widgets.counters("Vault", [widgets.counter("gems tried", len(state.tried))]),
            widgets.log("Guesses", state.log),
        ]
        winners = [t for t, s in zip(state.teams, state.scores, strict=True) if s >= TARGET]
        if winners:
            shown.append(widgets.banner("Winner", f"{winners[0]} wins"))
        return widgets.view("toygame", "Gem Vault", state.phase, shown,
                            turn=state.teams[state.turn] if state.phase == GUESS else None,
                            scores=dict(zip(state.teams, state.scores, strict=True)), winners=winners)

    def secrets(self, state: VaultState) -> frozenset[str]:
        """The gem in the vault, while it is hidden."""
        return frozenset({state.gem}) if state.phase == GUESS else frozenset()

    def cards(self) -> Cards:
        return Cards(deck="toygame", ids=GEMS, names=NAMES)

    def simulation_options(self, teams: int) -> dict[str, Any]:
        return {"teams": list(TEAM_COLOURS[:teams])}

    def simulation_stats(self, state: VaultState, effects: Sequence[Effect]) -> dict[str, Any]:
        over = [e for e in effects if isinstance(e, GameOver)]
        return {"winner": over[-1].winners[0] if over else "none", "guesses": len(state.log)}

    def random_input(self, state: VaultState, legal: Sequence[Input], pick: Callable[[int], int]) -> Input:
        return legal[pick(len(legal))]

    def demo_options(self) -> dict[str, Any]:
        return {"teams": ["red", "blue", "green"]}

    def demo_input(self, state: VaultState, step: int) -> Input | None:
        """Hide a gem, show that BACK cannot undo a draw, then guess gems in catalogue order."""
        if state.phase == OVER:
            return None
        if step == 1:
            return Press("back")
        if state.phase == HIDE:
            return Press(OK)
        return guess_legal(state)[0]


GAME = GemVault()
