"""The state of a game of Here Comes the Dog: one frozen record of tuples, replaced on each input.

Sticks are counted as (meat, charcoal, fire) triples, on the bonfire and in each hand; teams are
indexed by their place in the play order. Nothing here is hidden: the whole table sees it all.
"""

from __future__ import annotations

from typing import NamedTuple

from games.core import Say

Sticks = tuple[int, int, int]
MEAT, CHARCOAL, FIRE = 0, 1, 2
COLOURS: tuple[str, ...] = ("meat", "charcoal", "fire")
NO_STICKS: Sticks = (0, 0, 0)

# phases
ORDER = "order"  # players press their team buttons in play order, then OK
TURN = "turn"  # the player whose turn it is rolls (OK) or exchanges (hold OK / a choice)
EXCHANGE = "exchange"  # cycling through the legal exchanges
TAKE = "take"  # cycling through the legal takes of a roll
VICTIM = "victim"  # theft: the roller presses the victim's team button
STEAL = "steal"  # theft: cycling through the colours the victim holds
OVER = "over"

LOG_LINES = 30  # the public log shows this many events
# The state keeps more: its log is cut back to the last LOG_LINES only when it would hold more than
# LOG_KEPT, so a line is added with one copy of the log instead of two (a cut, then a copy) on
# nearly every input.
LOG_KEPT = 2 * LOG_LINES


class DogState(NamedTuple):
    """Everything the box keeps. `faints[i]` counts how often all of team i's villagers fainted
    (3 = knocked out). `offers` are what the current player cycles through (takes, exchanges or
    colours, as option names); `pick` is the one on offer now.

    A named tuple, not a dataclass: `houston simulate` makes about 150 of these a game, and a
    tuple is made from a list of its fields (`[*s]`, changed, then `remade`) in one call and read by
    field in C. Immutable all the same; `evolve` is `_replace` without its Python loop."""

    phase: str
    teams: tuple[str, ...]
    rounds: int
    bonfire: Sticks
    pack: int
    hands: tuple[Sticks, ...] = ()
    dogs: tuple[int, ...] = ()
    villagers: tuple[int, ...] = ()
    faints: tuple[int, ...] = ()
    round: int = 1
    current: int = 0
    must_roll: bool = False  # after an incident or a theft with nobody to rob: roll again
    roll: tuple[str, ...] = ()
    rolls: int = 0  # dice rolled this game
    offers: tuple[str, ...] = ()
    pick: int = 0
    victim: int = -1
    log: tuple[Say, ...] = ()
    result: str = ""
    winners: tuple[str, ...] = ()

    def team(self) -> str:
        return self.teams[self.current]

    def out(self, i: int) -> bool:
        return self.faints[i] >= 3


# Where each field sits in the tuple, for the hottest transitions that set fields in a list
# (`[*s]`, then `remade`).
AT: dict[str, int] = {name: i for i, name in enumerate(DogState._fields)}
PHASE, HANDS, BONFIRE_AT, LOG = AT["phase"], AT["hands"], AT["bonfire"], AT["log"]
CURRENT, MUST_ROLL, ROLL_AT, ROLLS_AT, OFFERS, PICK = (AT["current"], AT["must_roll"], AT["roll"], AT["rolls"],
                                                    AT["offers"], AT["pick"])
ROUND, VICTIM_AT = AT["round"], AT["victim"]

def remade(fields: list[object]) -> DogState:
    """A state from a full list of fields (`[*s]` of another, changed). `[*s]`, not `list(s)`:
    the same list without the call (a state is made on every input)."""
    return _new(DogState, fields)


def evolve(s: DogState, **changes: object) -> DogState:
    """`s._replace(**changes)`: a copy of the fields with `changes`."""
    fields = list(s)
    for name, value in changes.items():
        fields[AT[name]] = value
    return _new(DogState, fields)


_new = tuple.__new__


def add(a: Sticks, b: Sticks) -> Sticks:
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def sub(a: Sticks, b: Sticks) -> Sticks:
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def log_line(log: tuple[Say, ...], line: Say) -> tuple[Say, ...]:
    """The log with one line appended, by concatenation (half the cost of unpacking): the log is
    copied once, and cut back to the last LOG_LINES only beyond LOG_KEPT."""
    return log + (line,) if len(log) < LOG_KEPT else log[1 - LOG_LINES:] + (line,)  # noqa: RUF005


def logged(state_log: tuple[Say, ...], lines: list[Say]) -> tuple[Say, ...]:
    """The log with `lines` appended (cut back to the last LOG_LINES beyond LOG_KEPT)."""
    log = (*state_log, *lines)
    return log if len(log) <= LOG_KEPT else log[-LOG_LINES:]
