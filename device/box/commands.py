"""Commands from outside (MQTT displays, the admin, the simulator), parsed field by field.

Each command has an allow-list of fields with their types and the kinds of user that may send it;
its input is built only from its own typed fields, never by splicing a payload into an input.
A card scan names a card, so only the admin (and the camera, which posts inputs directly) may
send one: a display that could scan could play any card it likes.
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from games.core import Choose, MalformedInput, Press, RuleError, Scan

MAX_TEXT = 64
MAX_OPTIONS = 32


class User(enum.Enum):
    """Who sent a command: a display (houston/<box>/cmd/...) or the admin (.../admin/cmd/...)."""

    DISPLAY = "display"
    ADMIN = "admin"


class NotAllowed(RuleError):
    """A command this kind of user may not send (a scan from a display)."""


@dataclass(frozen=True)
class PressCommand:
    press: Press


@dataclass(frozen=True)
class ChooseCommand:
    choice: Choose


@dataclass(frozen=True)
class ScanCommand:
    scan: Scan


@dataclass(frozen=True)
class UndoCommand:
    pass


@dataclass(frozen=True)
class RepeatCommand:
    pass


@dataclass(frozen=True)
class SelectGameCommand:
    game: str


@dataclass(frozen=True)
class StartGameCommand:
    game: str | None  # None: the selected game
    options: Mapping[str, Any] = field(default_factory=dict)


Command: TypeAlias = (
    PressCommand | ChooseCommand | ScanCommand | UndoCommand | RepeatCommand | SelectGameCommand | StartGameCommand
)


# --- field parsers: each returns the typed value or raises MalformedInput --------------------


def _bad(command: str, reason: str) -> MalformedInput:
    return MalformedInput("malformed_input", {"reason": f"{command}: {reason}"})


def _text(command: str, name: str, value: Any) -> str:
    if not isinstance(value, str) or not value or len(value) > MAX_TEXT:
        raise _bad(command, f"{name} must be text of 1..{MAX_TEXT} characters")
    return value


def _flag(command: str, name: str, value: Any) -> bool:
    if not isinstance(value, bool):
        raise _bad(command, f"{name} must be true or false")
    return value


def _plain(value: Any, depth: int = 0) -> bool:
    """JSON scalars, and lists of them (options are small: a number of rounds, a variant name)."""
    if isinstance(value, bool | int | float | str) or value is None:
        return not isinstance(value, str) or len(value) <= MAX_TEXT
    if isinstance(value, list) and depth == 0:
        return len(value) <= MAX_OPTIONS and all(_plain(v, 1) for v in value)
    return False


def _options(command: str, name: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict) or len(value) > MAX_OPTIONS:
        raise _bad(command, f"{name} must be an object of at most {MAX_OPTIONS} options")
    options: dict[str, Any] = {}
    for key, item in value.items():
        if not isinstance(key, str) or not key or len(key) > MAX_TEXT or not _plain(item):
            raise _bad(command, f"{name}.{key}: options are short names with plain values")
        options[key] = item
    return options


@dataclass(frozen=True)
class Spec:
    """One command: who may send it, its fields (name -> parser), which are required, and how
    the typed fields become the command."""

    users: frozenset[User]
    fields: Mapping[str, Callable[[str, str, Any], Any]]
    required: frozenset[str]
    build: Callable[[Mapping[str, Any]], Command]


EVERYONE = frozenset(User)
ADMIN_ONLY = frozenset({User.ADMIN})

COMMANDS: dict[str, Spec] = {
    "press": Spec(EVERYONE, {"button": _text, "hold": _flag}, frozenset({"button"}),
                  lambda f: PressCommand(Press(f["button"], f.get("hold", False)))),
    "choose": Spec(EVERYONE, {"option": _text}, frozenset({"option"}), lambda f: ChooseCommand(Choose(f["option"]))),
    "scan": Spec(ADMIN_ONLY, {"card": _text}, frozenset({"card"}), lambda f: ScanCommand(Scan(f["card"]))),
    "undo": Spec(EVERYONE, {}, frozenset(), lambda f: UndoCommand()),
    "repeat": Spec(EVERYONE, {}, frozenset(), lambda f: RepeatCommand()),
    "select_game": Spec(EVERYONE, {"game": _text}, frozenset({"game"}), lambda f: SelectGameCommand(f["game"])),
    "start_game": Spec(EVERYONE, {"game": _text, "options": _options}, frozenset(),
                       lambda f: StartGameCommand(f.get("game"), f.get("options", {}))),
}


def parse_command(name: str, payload: Any, user: User) -> Command:
    """The typed command for `name` with `payload` from `user`; raises MalformedInput for an
    unknown command, a missing, unknown or mistyped field, and NotAllowed for the wrong user."""
    spec = COMMANDS.get(name)
    if spec is None:
        raise MalformedInput("malformed_input", {"reason": f"unknown command {name[:MAX_TEXT]!r}"})
    if user not in spec.users:
        raise NotAllowed("not_allowed", {"command": name})
    if not isinstance(payload, Mapping):
        raise _bad(name, "the payload must be a JSON object")
    unknown = sorted(str(k)[:MAX_TEXT] for k in payload if k not in spec.fields)
    if unknown:
        raise _bad(name, f"unknown field(s) {', '.join(unknown)}")
    missing = sorted(spec.required - set(payload))
    if missing:
        raise _bad(name, f"needs {', '.join(missing)}")
    typed = {key: spec.fields[key](name, key, value) for key, value in payload.items()}
    return spec.build(typed)
