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
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeAlias, TypeVar

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


class SetupError(RuleError):
    """A game option the game cannot start with (refused before anything is journaled)."""


class UnknownGame(RuleError):
    """A game id that is not installed."""


class NothingToUndo(IllegalInput):
    """BACK with nothing undoable since the last chance outcome or reveal."""


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
    """Set a light: target is `team:<colour>`, `slot:A` or `status`.

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
    buttons to light. `finished` marks a game that accepts nothing more. A pattern ending in `*`
    (`choose:damage:*`) accepts every choice that starts with what precedes the star: a command
    with typed fields the game's `check` parses (an additive extension; no game needs it)."""

    ask: Say
    accepts: tuple[str, ...]
    lights: tuple[str, ...] = ()
    finished: bool = False

    def allows(self, inp: Input) -> bool:
        """True if the input is of a kind this prompt waits for (rules may still refuse it)."""
        pattern = input_pattern(inp)
        if pattern in self.accepts or (isinstance(inp, Scan) and "scan" in self.accepts):
            return True
        return isinstance(inp, Choose) and any(
            p.startswith("choose:") and p.endswith("*") and pattern.startswith(p[:-1]) for p in self.accepts)


# --- Games ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameInfo:
    """Facts about a game declared up front (OpenSpiel's _GAME_INFO). `order` places the game in
    the list the box offers (from the game's data file); `deck` names its camera deck, if any."""

    id: str
    title: str
    min_teams: int
    max_teams: int
    hidden_information: bool
    chance: bool
    deck: str | None = None
    order: int = 100


State: TypeAlias = Any
S = TypeVar("S")


@dataclass(frozen=True)
class Phase(Generic[S]):
    """One row of a game's phase table: plain functions of the state, found by a search for their
    names. `check` raises a typed `IllegalInput` or returns the chance the input needs; `legal`
    lists every input the phase accepts now (for random players and tests); None derives it from
    the prompt and `check`."""

    prompt: Callable[[S], Prompt]
    check: Callable[[S, Input], tuple[ChanceRequest, ...]]
    apply: Callable[[S, Input, Outcomes], tuple[S, list[Effect]]]
    legal: Callable[[S], list[Input]] | None = None


@dataclass(frozen=True)
class Cards:
    """A game's cards: ids in catalogue order, printed names, and the camera deck they form."""

    deck: str | None = None
    ids: tuple[str, ...] = ()
    names: Mapping[str, str] = field(default_factory=dict)

    def name(self, card: str) -> str:
        return self.names.get(card, card)


FINISHED = Prompt(Say("game_over"), accepts=(), finished=True)


class Game(ABC, Generic[S]):
    """Everything the box, the CLI, the dashboard, the simulator and the shared tests use from a
    game — declared here once, with defaults where a game has nothing to say. See
    docs/adding-a-game.md.

    A game declares `info` and a phase table `phases`; `phase_of(state)` names the current row.
    The session (games/session.py) checks an input against the prompt before `validate` runs, so
    rules never re-check the prompt.
    """

    info: GameInfo
    phases: Mapping[str, Phase[S]]

    # --- set-up and flow ------------------------------------------------------------------

    @abstractmethod
    def setup(self, options: Mapping[str, Any]) -> S:
        """The first state; bad options raise `SetupError` (never an `IllegalInput`)."""

    @abstractmethod
    def phase_of(self, state: S) -> str:
        """The name of the phase-table row that handles `state` (or a finished phase)."""

    def is_over(self, state: S) -> bool:
        """True once the game accepts nothing more (default: its phase has no table row)."""
        return self.phase_of(state) not in self.phases

    def prompt(self, state: S) -> Prompt:
        if self.is_over(state):
            return self.final_prompt(state)
        return self.phases[self.phase_of(state)].prompt(state)

    def final_prompt(self, state: S) -> Prompt:
        """What the box says once the game is over."""
        return FINISHED

    def validate(self, state: S, inp: Input) -> tuple[ChanceRequest, ...]:
        """The rules' check of an input the prompt allows: the chance it needs, or a typed error."""
        if self.is_over(state):
            raise NotExpected("not_expected", {"expected": "game_over"})
        return self.phases[self.phase_of(state)].check(state, inp)

    def apply(self, state: S, inp: Input, outcomes: Outcomes) -> tuple[S, list[Effect]]:
        """Pure: the new state and the effects of a validated, journaled input."""
        return self.phases[self.phase_of(state)].apply(state, inp, outcomes)

    def legal_inputs(self, state: S) -> list[Input]:
        """Every input accepted now, sorted as the prompt lists them (random players, tests)."""
        if self.is_over(state):
            return []
        phase = self.phases[self.phase_of(state)]
        if phase.legal is not None:
            return phase.legal(state)
        return self.prompted_inputs(state)

    def prompted_inputs(self, state: S) -> list[Input]:
        """Inputs the prompt names (every card for `scan`) that `validate` accepts."""
        prompt = self.prompt(state)
        legal: list[Input] = []
        for inp in inputs_of_patterns(prompt.accepts, self.cards().ids):
            try:
                self.validate(state, inp)
            except RuleError:
                continue
            legal.append(inp)
        return legal

    # --- who is playing, and what leaves the box ------------------------------------------

    @abstractmethod
    def teams(self, state: S) -> tuple[str, ...]:
        """The teams playing (each gets a private view)."""

    @abstractmethod
    def public_view(self, state: S) -> dict[str, Any]:
        """What the whole table may see; includes `widgets` (games/widgets.py) for displays."""

    def team_view(self, state: S, team: str) -> dict[str, Any]:
        """What only `team` may see (default: nothing private)."""
        return {"game": self.info.id, "team": team}

    def secrets(self, state: S) -> frozenset[str]:
        """The secrecy oracle: strings that must never appear in anything published publicly in
        `state` (card ids in hands, roles, hidden outcomes). Used by the never-secret tests."""
        return frozenset()

    # --- who may send what -----------------------------------------------------------------

    def choice_audience(self, option: str) -> str | None:
        """The one team (a `teams` audience, e.g. a game runner) that alone may send this choice
        over the network, or None if anyone may (the default). The box knows the sender from the
        team's own command topic; the admin may always send it. Additive to the contract."""
        return None

    # --- a campaign kept across games (additive: the default means "no campaign") ------------

    def campaign_initial(self) -> dict[str, Any] | None:
        """A new campaign's snapshot (JSON-able), or None for a game without a campaign. The box
        keeps the snapshot in its campaign store and passes it to `setup` as option `campaign`,
        so it is journaled with the game and a replay needs nothing else."""
        return None

    def campaign_check(self, data: Any) -> dict[str, Any]:
        """Parse a snapshot from outside (the store, an imported file) field by field; return it
        in canonical form or raise `SetupError` naming what is wrong."""
        raise SetupError("no_campaign", {"game": self.info.id})

    def campaign_after(self, state: S) -> dict[str, Any] | None:
        """The snapshot to keep once the game is over (None: keep the one it started with)."""
        return None

    # --- cards ------------------------------------------------------------------------------

    def cards(self) -> Cards:
        """The game's cards (none by default)."""
        return Cards()

    # --- simulation and demo ----------------------------------------------------------------

    def simulation_options(self, teams: int) -> dict[str, Any]:
        """Options of a simulated game with `teams` teams (`houston simulate --teams`)."""
        return {}

    def simulation_stats(self, state: S, effects: Sequence[Effect]) -> dict[str, Any]:
        """Per-game facts `houston simulate` aggregates: text is tallied, numbers averaged."""
        return {}

    def random_input(self, state: S, legal: Sequence[Input], pick: Callable[[int], int]) -> Input:
        """A random player's choice among `legal` (non-empty); `pick(n)` is uniform on range(n).
        A game may weigh choices so random games end in a sensible number of steps."""
        return legal[pick(len(legal))]

    def random_step(self, state: S, pick: Callable[[int], int]) -> tuple[Input, tuple[ChanceRequest, ...]] | None:
        """One step of a random player for `houston simulate`: the input `random_input` picks
        among `legal_inputs` and the chance `validate` asks for it, or None when the game is over
        or nothing is legal. A game may answer in one cheaper call (additive to the contract); it
        must then give the same input and chance from the same picks — its tests check that
        against this default."""
        if self.is_over(state):
            return None
        legal = self.legal_inputs(state)
        if not legal:
            return None
        inp = self.random_input(state, legal, pick)
        return inp, self.validate(state, inp)

    def simulation_step(self, state: S, pick: Callable[[int], int],
                        draw: Callable[[tuple[ChanceRequest, ...]], Outcomes]) -> tuple[S, list[Effect]] | None:
        """`random_step` applied: the new state and effects of the random player's next input, its
        chance answered by `draw` (the simulator's drawer), or None when the game is over. What
        `houston simulate` calls once per input. A game may answer in one call without the
        dispatch of `apply` (additive to the contract); it must then give what this default gives
        from the same picks and draws — its tests check that against this default."""
        step = self.random_step(state, pick)
        if step is None:
            return None
        inp, requests = step
        return self.apply(state, inp, draw(requests) if requests else {})

    def demo_options(self) -> dict[str, Any]:
        """Options `houston demo` starts the game with."""
        return {}

    def demo_input(self, state: S, step: int) -> Input | None:
        """The demo script as a pure policy: the panel input a table would give next (BACK and
        refused inputs included, to show them), or None when the demo has shown enough."""
        legal = self.legal_inputs(state)
        return legal[0] if legal else None


def inputs_of_patterns(patterns: Sequence[str], cards: Sequence[str]) -> list[Input]:
    """Concrete inputs for prompt patterns: press:ok, hold:red, choose:flood, scan (every card)."""
    inputs: list[Input] = []
    for pattern in patterns:
        kind, _, arg = pattern.partition(":")
        if kind in ("press", "hold"):
            inputs.append(Press(arg, hold=kind == "hold"))
        elif kind == "choose" and not arg.endswith("*"):  # a wildcard names no one input
            inputs.append(Choose(arg))
        elif kind == "scan":
            inputs.extend(Scan(card) for card in cards)
    return inputs


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
