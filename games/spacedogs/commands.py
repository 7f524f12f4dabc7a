"""The commands typed on a dashboard (the Game Runner's numbers, a player's exact choice), parsed
from a short option string field by field into typed values: `Choose("damage:orion:3:receive:1:4")`.

Formats (fields separated by ':'; a figure is a dog id or `<group>.<n>`, n counting from 1):
  damage:<figure>:<n>:<receive|suffer>[:<cover 0|1>[:<shields>]]   one attack on one figure
  area:<n>:<receive|suffer>:<figure>+<figure>+...                    an area attack, full damage each
  activate:<group>          the Game Runner activates this enemy group (its turn)
  place:<group>             the Game Runner sets up a group that waited off the map (an ambush)
  goal:<goal id>            the Game Runner marks a hidden agenda goal achieved (again: not achieved)
  item:<dog>:<item>|drop|use   a dog takes an item (limit one), puts it on the ground, or uses it
  stance:<dog>:<stance>     the activating dog exchanges its stance (one action)
  help:<dog>[:<stance>]     help a helpless dog (one action), naming the stance it swaps to
  explore / explore:end     the Game Runner calls out / ends Exploration Mode
  end                       the Game Runner ends the scenario (goals are revealed)
  xp:<dog>:<n>  story:<choice>  upgrade:<id>     rewards after the end scene
"""

from __future__ import annotations

from dataclasses import dataclass

from games.core import IllegalInput
from games.spacedogs.catalog import Catalog
from games.spacedogs.state import SDState

MAX_FIELDS = 8
GR_ONLY: tuple[str, ...] = ("damage", "area", "activate", "place", "goal", "explore", "end", "xp", "upgrade")


@dataclass(frozen=True)
class Figure:
    """A dog (group None) or figure `index` (0-based) of an enemy group."""

    dog: str | None
    group: str | None = None
    index: int = 0

    def name(self) -> str:
        return self.dog if self.dog is not None else f"{self.group}.{self.index + 1}"


@dataclass(frozen=True)
class Attack:
    figures: tuple[Figure, ...]
    amount: int
    receive: bool
    cover: bool = False
    shields: int = 0


@dataclass(frozen=True)
class Command:
    """A parsed command other than an attack: its verb and typed arguments."""

    verb: str
    target: str = ""
    value: str = ""
    number: int = 0


def bad(option: str, reason: str) -> IllegalInput:
    return IllegalInput("bad_command", {"option": option, "reason": reason})


def number(text: str, option: str, cat: Catalog, low: int = 0) -> int:
    if not text.isdigit() or len(text) > 3:
        raise bad(option, f"{text!r} is not a number")
    value = int(text)
    if not low <= value <= cat.numbers.max_entry:
        raise bad(option, f"{value} is not within {low}..{cat.numbers.max_entry}")
    return value


def figure(text: str, option: str, state: SDState) -> Figure:
    if any(d.id == text for d in state.dogs):
        return Figure(text)
    group, dot, index = text.partition(".")
    if dot and any(g.id == group for g in state.groups) and index.isdigit() and len(index) <= 2:
        n = int(index)
        if 1 <= n <= len(state.group(group).health):
            return Figure(None, group, n - 1)
    raise bad(option, f"no figure {text!r}")


def mode(text: str, option: str) -> bool:
    if text not in ("receive", "suffer"):
        raise bad(option, "damage is 'receive' or 'suffer'")
    return text == "receive"


def flag(text: str, option: str) -> bool:
    if text not in ("0", "1"):
        raise bad(option, "cover is 0 or 1")
    return text == "1"


def parse(option: str, state: SDState, cat: Catalog) -> Attack | Command:
    """The typed command of an option string, or IllegalInput('bad_command') naming the field."""
    fields = option.split(":")
    if len(fields) > MAX_FIELDS:
        raise bad(option, "too many fields")
    verb, args = fields[0], fields[1:]
    if verb == "damage":
        if not 3 <= len(args) <= 5:
            raise bad(option, "damage:<figure>:<n>:<receive|suffer>[:<cover>[:<shields>]]")
        target = figure(args[0], option, state)
        amount = number(args[1], option, cat, 1)
        receive = mode(args[2], option)
        cover = flag(args[3], option) if len(args) > 3 else False
        shields = number(args[4], option, cat) if len(args) > 4 else 0
        if not receive and (cover or shields):
            raise bad(option, "suffered damage cannot be reduced")
        return Attack((target,), amount, receive, cover, shields)
    if verb == "area":
        if len(args) != 3:
            raise bad(option, "area:<n>:<receive|suffer>:<figure>+<figure>...")
        amount = number(args[0], option, cat, 1)
        receive = mode(args[1], option)
        names = args[2].split("+")
        if len(set(names)) != len(names):
            raise bad(option, "a figure is named twice")
        return Attack(tuple(figure(n, option, state) for n in names), amount, receive)
    one = {"activate", "place", "goal", "story", "upgrade"}
    if verb in one:
        if len(args) != 1 or not args[0]:
            raise bad(option, f"{verb}:<id>")
        return Command(verb, args[0])
    if verb in ("item", "stance", "xp"):
        if len(args) != 2:
            raise bad(option, f"{verb}:<dog>:<value>")
        dog = args[0]
        if not any(d.id == dog for d in state.dogs):
            raise bad(option, f"no dog {dog!r} in this scenario")
        if verb == "xp":
            return Command(verb, dog, number=number(args[1], option, cat))
        return Command(verb, dog, args[1])
    if verb == "help":
        if len(args) not in (1, 2) or not any(d.id == args[0] for d in state.dogs):
            raise bad(option, "help:<dog>[:<stance>]")
        return Command(verb, args[0], args[1] if len(args) == 2 else "")
    if verb == "explore" and args in ([], ["end"]):
        return Command(verb, value="end" if args else "start")
    if verb == "end" and not args:
        return Command(verb)
    raise bad(option, f"unknown command {verb!r}")
