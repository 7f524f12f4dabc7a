"""Alien on Board's phases as plain functions: what each phase asks for, what it refuses, and
which step (steps.py) an accepted press takes. The session has already checked the prompt, so
every `check` here sees a press the prompt waits for; no chance is ever drawn.
"""

from __future__ import annotations

from games.alien import steps
from games.alien.errors import NotPlaying, RevealNotPlayer, SelfGuess, TooFewPlayers
from games.alien.settings import settings
from games.alien.state import AlienState
from games.core import OK, TEAM_COLOURS, ChanceRequest, Effect, Input, Outcomes, Press, Prompt, say

COLOUR_PRESSES: tuple[str, ...] = tuple(f"press:{c}" for c in TEAM_COLOURS)

Step = tuple[AlienState, list[Effect]]


def _button(inp: Input) -> str:
    assert isinstance(inp, Press)  # every phase's prompt accepts presses only
    return inp.button


# --- Joining: colours join or leave, OK starts, holding OK steps the round count ---------------


def join_prompt(state: AlienState) -> Prompt:
    return Prompt(say("join_prompt"), (*COLOUR_PRESSES, "press:ok", "hold:ok"), (*state.players, OK))


def join_check(state: AlienState, inp: Input) -> tuple[ChanceRequest, ...]:
    assert isinstance(inp, Press)
    if inp.button == OK and not inp.hold:
        needed = settings().min_players
        if len(state.players) < needed:
            raise TooFewPlayers("too_few_players", {"min": needed, "count": len(state.players)})
    return ()


def join_apply(state: AlienState, inp: Input, outcomes: Outcomes) -> Step:
    assert isinstance(inp, Press)
    if inp.button != OK:
        return steps.toggle_player(state, inp.button)
    return steps.cycle_rounds(state) if inp.hold else steps.start(state)


def join_legal(state: AlienState) -> list[Input]:
    legal: list[Input] = [Press(c) for c in TEAM_COLOURS]
    if len(state.players) >= settings().min_players:
        legal.append(Press(OK))
    return [*legal, Press(OK, hold=True)]


# --- The first commander presses their colour -------------------------------------------------


def commander_prompt(state: AlienState) -> Prompt:
    return Prompt(say("choose_commander"), COLOUR_PRESSES, state.players)


def commander_check(state: AlienState, inp: Input) -> tuple[ChanceRequest, ...]:
    colour = _button(inp)
    if colour not in state.players:
        raise NotPlaying("not_playing", {"team": colour})
    return ()


def commander_apply(state: AlienState, inp: Input, outcomes: Outcomes) -> Step:
    return steps.first_commander(state, _button(inp))


def commander_legal(state: AlienState) -> list[Input]:
    return [Press(c) for c in TEAM_COLOURS if c in state.players]


# --- Questioning at the table; OK once every rocket is down -----------------------------------


def questioning_prompt(state: AlienState) -> Prompt:
    ask = say("questioning_prompt", round=state.round, rounds=state.rounds, team=state.commander)
    return Prompt(ask, ("press:ok",), (OK,))


def questioning_check(state: AlienState, inp: Input) -> tuple[ChanceRequest, ...]:
    return ()


def questioning_apply(state: AlienState, inp: Input, outcomes: Outcomes) -> Step:
    return steps.expose(state)


def questioning_legal(state: AlienState) -> list[Input]:
    return [Press(OK)]


# --- Guessing: each player in turn enters the colour their rocket stands on -------------------


def guessing_prompt(state: AlienState) -> Prompt:
    player = state.awaited()
    targets = tuple(p for p in state.players if p != player)
    return Prompt(say("guess_prompt", team=player), COLOUR_PRESSES, targets)


def guessing_check(state: AlienState, inp: Input) -> tuple[ChanceRequest, ...]:
    colour = _button(inp)
    if colour not in state.players:
        raise NotPlaying("not_playing", {"team": colour})
    if colour == state.awaited():
        raise SelfGuess("guess_self", {"team": colour})
    return ()


def guessing_apply(state: AlienState, inp: Input, outcomes: Outcomes) -> Step:
    return steps.enter_guess(state, _button(inp))


def guessing_legal(state: AlienState) -> list[Input]:
    player = state.awaited()
    return [Press(c) for c in TEAM_COLOURS if c in state.players and c != player]


# --- The alien reveals by pressing their own colour -------------------------------------------


def reveal_prompt(state: AlienState) -> Prompt:
    return Prompt(say("reveal_prompt"), COLOUR_PRESSES, state.players)


def reveal_check(state: AlienState, inp: Input) -> tuple[ChanceRequest, ...]:
    colour = _button(inp)
    if colour not in state.players:
        raise RevealNotPlayer("reveal_not_player", {"team": colour})
    return ()


def reveal_apply(state: AlienState, inp: Input, outcomes: Outcomes) -> Step:
    return steps.reveal(state, _button(inp))


def reveal_legal(state: AlienState) -> list[Input]:
    return [Press(c) for c in TEAM_COLOURS if c in state.players]
