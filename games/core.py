"""The contract between the box and every game's rules.

A game is pure: it turns (state, input, chance outcomes) into (new state, effects). The box asks
`prompt(state)` what it is waiting for, `validate(state, input)` whether an input is legal now and
which chance outcomes it needs, draws and journals those outcomes, then calls `apply`. Nothing in
`games/` performs I/O or draws random numbers: chance enters only as journaled outcomes.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeAlias

# --- Buttons of the panel -------------------------------------------------------------------

TEAM_COLOURS: tuple[str, ...] = ("red", "blue", "green", "yellow", "purple", "white")
OK = "ok"
BACK = "back"
REPEAT = "repeat"
PANEL_BUTTONS: tuple[str, ...] = (*TEAM_COLOURS, OK, BACK, REPEAT)
SLOTS: tuple[str, ...] = ("A", "B", "C")


# --- Inputs ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Press:
    """A panel button (or the same button sent as an MQTT command); `hold` is a long press."""

    button: str
    hold: bool = False


@dataclass(frozen=True)
class Scan:
    """A card id recognised by the camera (or typed in the simulator)."""

    card: str


@dataclass(frozen=True)
class Choose:
    """A named choice made on a dashboard (e.g. an order of the captain)."""

    option: str


Input: TypeAlias = Press | Scan | Choose


def input_to_data(inp: Input) -> dict[str, Any]:
    """Plain JSON-able form of an input, as journaled."""
    if isinstance(inp, Press):
        return {"kind": "press", "button": inp.button, "hold": inp.hold}
    if isinstance(inp, Scan):
        return {"kind": "scan", "card": inp.card}
    if isinstance(inp, Choose):
        return {"kind": "choose", "option": inp.option}
    raise MalformedInput("malformed_input", {"reason": f"not an input: {type(inp).__name__}"})


def input_from_data(data: Any) -> Input:
    """Parse a journaled or commanded input; anything off raises `MalformedInput`."""
    if not isinstance(data, Mapping):
        raise MalformedInput("malformed_input", {"reason": "an input must be an object"})
    kind = data.get("kind")
    if kind == "press":
        button, hold = data.get("button"), data.get("hold", False)
        if not isinstance(button, str) or not isinstance(hold, bool):
            raise MalformedInput("malformed_input", {"reason": "press needs button (text), hold (bool)"})
        return Press(button, hold)
    if kind == "scan":
        card = data.get("card")
        if not isinstance(card, str) or not card or len(card) > 64:
            raise MalformedInput("malformed_input", {"reason": "scan needs a card id"})
        return Scan(card)
    if kind == "choose":
        option = data.get("option")
        if not isinstance(option, str) or not option or len(option) > 64:
            raise MalformedInput("malformed_input", {"reason": "choose needs an option"})
        return Choose(option)
    raise MalformedInput("malformed_input", {"reason": f"unknown input kind {kind!r}"})


def input_pattern(inp: Input) -> str:
    """The pattern a prompt uses to accept an input: press:ok, hold:red, scan, choose:flood."""
    if isinstance(inp, Press):
        return f"{'hold' if inp.hold else 'press'}:{inp.button}"
    if isinstance(inp, Scan):
        return "scan"
    return f"choose:{inp.option}"


# --- Errors ---------------------------------------------------------------------------------


class RuleError(ValueError):
    """An input the box refuses; `key` names the message the box speaks, `params` fill it."""

    def __init__(self, key: str, params: Mapping[str, Any] | None = None) -> None:
        super().__init__(key)
        self.key = key
        self.params: dict[str, Any] = dict(params or {})


class IllegalInput(RuleError):
    """A well-formed input the rules do not allow now."""


class NotExpected(IllegalInput):
    """An input of a kind the prompt does not wait for (a button pressed at the wrong time)."""


class UnknownCard(IllegalInput):
    """A scanned card this game does not know."""


class MalformedInput(RuleError):
    """Input that is not an input at all (bad JSON, wrong types)."""


class BadOutcome(RuleError):
    """A journaled chance outcome that does not answer its request (a damaged journal)."""


# --- Chance ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Chance:
    """Ask the box for one index into `weights` (non-negative integers, exact odds)."""

    name: str
    weights: tuple[int, ...]


@dataclass(frozen=True)
class Shuffle:
    """Ask the box for a uniformly random permutation of range(size)."""

    name: str
    size: int


ChanceRequest: TypeAlias = Chance | Shuffle
Outcomes: TypeAlias = Mapping[str, Any]


def check_outcomes(requests: Sequence[ChanceRequest], outcomes: Outcomes) -> None:
    """Refuse outcomes that do not answer exactly these requests (protects replay of old files)."""
    names = [r.name for r in requests]
    if sorted(names) != sorted(outcomes):
        raise BadOutcome("bad_outcome", {"expected": names, "got": sorted(outcomes)})
    for request in requests:
        value = outcomes[request.name]
        if isinstance(request, Chance):
            ok = (
                isinstance(value, int)
                and not isinstance(value, bool)
                and 0 <= value < len(request.weights)
                and request.weights[value] > 0
            )
        else:
            ok = isinstance(value, list | tuple) and sorted(value) == list(range(request.size))
        if not ok:
            raise BadOutcome("bad_outcome", {"request": request.name, "value": value})


# --- Effects --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Say:
    """An announcement: a message key from the catalogue and its parameters."""

    key: str
    params: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Light:
    """Set a light: target is `team:<colour>`, `button:ok`, `slot:A` or `status`.

    colour: an RGB colour name for slot LEDs (`tan`, `dim-white`, `red`, ...), `on` for plain
    LEDs, `off` to switch off. pattern: steady, blink, pulse, flash (confirmed), error.
    """

    target: str
    colour: str = "on"
    pattern: str = "steady"


@dataclass(frozen=True)
class Sound:
    """A synthesised sound: confirm, error, dice, alarm, fanfare."""

    name: str


@dataclass(frozen=True)
class Reveal:
    """Hidden information was shown to the table: BACK may not undo across this input."""

    what: str


@dataclass(frozen=True)
class GameOver:
    """The game ended; `winners` are teams (or a side), `reason` a message key."""

    reason: str
    winners: tuple[str, ...] = ()


Effect: TypeAlias = Say | Light | Sound | Reveal | GameOver


def say(key: str, **params: Any) -> Say:
    """Shorthand for an announcement effect."""
    return Say(key, params)


# --- Prompts --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Prompt:
    """What the box waits for now: the words to speak, the input patterns it accepts, the
    buttons to light. `finished` marks a game that accepts nothing more."""

    ask: Say
    accepts: tuple[str, ...]
    lights: tuple[str, ...] = ()
    finished: bool = False

    def allows(self, inp: Input) -> bool:
        """True if the input is of a kind this prompt waits for (rules may still refuse it)."""
        pattern = input_pattern(inp)
        return pattern in self.accepts or (isinstance(inp, Scan) and "scan" in self.accepts)


# --- Games ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameInfo:
    """Facts about a game declared up front (OpenSpiel's _GAME_INFO)."""

    id: str
    title: str
    min_teams: int
    max_teams: int
    hidden_information: bool
    chance: bool
    deck: str | None = None


State: TypeAlias = Any


class Game(Protocol):
    """What a game module provides; see docs/architecture.md."""

    info: GameInfo

    def setup(self, options: Mapping[str, Any]) -> State: ...

    def prompt(self, state: State) -> Prompt: ...

    def validate(self, state: State, inp: Input) -> tuple[ChanceRequest, ...]: ...

    def apply(self, state: State, inp: Input, outcomes: Outcomes) -> tuple[State, list[Effect]]: ...

    def public_view(self, state: State) -> dict[str, Any]: ...

    def team_view(self, state: State, team: str) -> dict[str, Any]: ...

    def teams(self, state: State) -> tuple[str, ...]: ...


# --- Plain data -----------------------------------------------------------------------------


def to_data(value: Any) -> Any:
    """Turn states, effects and views into JSON-able data (dataclasses, enums, tuples, sets)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_data(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, enum.Enum):
        return to_data(value.value)
    if isinstance(value, Mapping):
        return {str(k): to_data(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [to_data(v) for v in value]
    if isinstance(value, set | frozenset):
        return sorted(to_data(v) for v in value)
    return value


def canonical_json(value: Any) -> str:
    """Byte-stable JSON used for digests and comparing views."""
    return json.dumps(to_data(value), sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def digest(value: Any) -> str:
    """A short fingerprint of a state, to compare a live state with a replayed one."""
    return hashlib.sha256(canonical_json(value).encode()).hexdigest()[:16]
