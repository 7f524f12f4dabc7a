"""Here Comes the Dog as the box runs it today: dice, incidents, theft and the round counter.

The full referee (sticks, dogs, villagers) is a later issue; this slice exercises every layer of
the box with one small game. Decisions beside the rulebook's words are in docs/rules/dog.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from games.core import (
    OK,
    SLOTS,
    ChanceRequest,
    Effect,
    GameInfo,
    GameOver,
    IllegalInput,
    Input,
    Light,
    Outcomes,
    Press,
    Prompt,
    Sound,
    say,
)
from games.data import load_toml
from games.dog.dice import Die, classify, led_colours, load_dice, read_roll, roll_requests

INFO = GameInfo(
    id="dog",
    title="Here Comes the Dog",
    min_teams=0,
    max_teams=6,
    hidden_information=False,
    chance=True,
)


@dataclass(frozen=True)
class DogState:
    """Round counter, the last roll and what it meant, and whether the game is over."""

    rounds: int
    round: int = 1
    rolls: int = 0
    last_roll: tuple[str, ...] = ()
    last_result: str = ""
    over: bool = False


class DogDice:
    """The rules object registered as game `dog`."""

    info = INFO

    def __init__(self) -> None:
        self.dice: tuple[Die, ...] = load_dice()
        self.leds = led_colours()
        self.default_rounds = int(load_toml("games.dog", "dice.toml")["game"]["rounds"])

    def setup(self, options: Mapping[str, Any]) -> DogState:
        rounds = options.get("rounds", self.default_rounds)
        if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= 20:
            raise IllegalInput("bad_option", {"option": "rounds", "value": rounds})
        return DogState(rounds=rounds)

    def teams(self, state: DogState) -> tuple[str, ...]:
        return ()

    def prompt(self, state: DogState) -> Prompt:
        if state.over:
            return Prompt(say("game_over", rounds=state.rounds), accepts=(), finished=True)
        key = "press_ok_to_roll_again" if state.last_result in ("feed", "assault", "fire_fest") else "press_ok_to_roll"
        return Prompt(say(key, round=state.round), accepts=("press:ok", "hold:ok"), lights=(OK,))

    def validate(self, state: DogState, inp: Input) -> tuple[ChanceRequest, ...]:
        assert isinstance(inp, Press) and inp.button == OK  # the prompt admitted only OK
        return () if inp.hold else roll_requests(self.dice)

    def apply(self, state: DogState, inp: Input, outcomes: Outcomes) -> tuple[DogState, list[Effect]]:
        assert isinstance(inp, Press)
        if inp.hold:
            return self._next_round(state)
        roll = read_roll(self.dice, outcomes)
        result = classify(roll)
        effects: list[Effect] = [Sound("dice"), say("dice_rolled", a=roll[0], b=roll[1], c=roll[2])]
        effects += [Light(f"slot:{slot}", self.leds[colour]) for slot, colour in zip(SLOTS, roll, strict=True)]
        if result == "theft":
            effects.append(say("theft"))
        elif result != "take":
            effects += [Sound("alarm"), say(f"incident_{result}")]
        return replace(state, rolls=state.rolls + 1, last_roll=roll, last_result=result), effects

    def _next_round(self, state: DogState) -> tuple[DogState, list[Effect]]:
        slots_off: list[Effect] = [Light(f"slot:{slot}", "off") for slot in SLOTS]
        if state.round >= state.rounds:
            over = replace(state, over=True, last_roll=(), last_result="")
            return over, [*slots_off, Sound("fanfare"), say("game_over", rounds=state.rounds),
                          GameOver("rounds_played")]
        nxt = replace(state, round=state.round + 1, last_roll=(), last_result="")
        return nxt, slots_off  # the prompt that follows names the new round

    def public_view(self, state: DogState) -> dict[str, Any]:
        return {
            "game": INFO.id,
            "title": INFO.title,
            "phase": "over" if state.over else "rolling",
            "round": state.round,
            "rounds": state.rounds,
            "rolls": state.rolls,
            "dice": list(state.last_roll),
            "result": state.last_result or None,
        }

    def team_view(self, state: DogState, team: str) -> dict[str, Any]:
        return {"game": INFO.id, "team": team}


GAME = DogDice()
