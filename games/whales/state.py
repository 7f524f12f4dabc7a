"""The state of a game of Whales Destroying The World: one frozen record of tuples and strings.

Frozen so BACK can keep old states and replay can compare them with `==`. The one secret the box
holds is `offered` (the card scanned face down before it is kept or refused); views.py decides
what leaves the box. Roles are never in the state before the table declares them.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from games.core import Say

# Phases (names of the phase table's rows).
JOIN = "join"              # teams press their buttons in seating order, OK starts
DEAL = "deal"              # the dealer scans whales face up, two per army, round the table
DISCARD = "discard"        # the player drew 2 and scans the one they discard face up
OFFER_CARD = "offer_card"  # ... holds the other face down over the lid (scanned, kept secret)
OFFER_TO = "offer_to"      # ... and presses the button of the player they offer it to
DECIDE = "decide"          # the receiver scans it face up (keeps it) or presses the offerer's button
RETURN = "return"          # refused: the offerer scans it face up into their own army
WILD_SET = "wild"            # the wild card's owner picks its colour (red, blue, white = grey)
TURTLE = "turtle"          # a turtle arrived: its receiver scans one own card to discard
STEAL_FROM = "steal_from"  # a colour overflowed: the player picks a victim by button
STEAL_CARD = "steal_card"  # ... and scans the card taken
GUESS = "guess"            # whales won: the werewhale's guesses, one role at a time
DECLARE = "declare"        # the roles are declared, one role at a time
OVER = "over"

TURN_PHASES = (DISCARD, OFFER_CARD, OFFER_TO, DECIDE, RETURN, WILD_SET, TURTLE, STEAL_FROM, STEAL_CARD)

# How a game ends (message keys).
SIX_WHALES = "end_six_whales"
DECK_SHORT = "end_deck_short"
THREE_SUPERHEROES = "end_three_superheroes"
TURTLE_CLAIM = "end_turtle_claim"

LOG_LIMIT = 40

Entry = tuple[str, str]  # (card, colour set it is sorted into, '' for none)
Army = tuple[Entry, ...]


class WState(NamedTuple):
    """Everything the box knows. Team-indexed tuples follow `teams` (the seating order).

    A NamedTuple rather than a frozen dataclass: a new state is made on every input of every
    simulated game, and a tuple is made ten times faster."""

    phase: str
    teams: tuple[str, ...] = ()
    locked: bool = False              # teams fixed by the options (no joining)
    expansion: bool = False
    roles: tuple[str, ...] = ()       # expansion roles the table put into the role deck
    deck: tuple[str, ...] = ()        # cards the box knows are still in the deck (catalogue order)
    out: tuple[str, ...] = ()         # 5+ cards left in the box for this table size
    armies: tuple[Army, ...] = ()
    discard: tuple[str, ...] = ()
    dealt: int = 0                    # whales dealt so far
    player: int = 0                   # index of the player whose turn it is
    turns: int = 0                    # turns completed
    drawn: bool = False               # the player holds a drawn card the box has not seen yet
    offered: str = ""                 # SECRET until revealed: the card offered face down
    receiver: str = ""                # the team offered the card
    actor: str = ""                   # the team the box waits for in a sub-step (wild, turtle, steal)
    pending: str = ""                 # the card being placed (wild) or the turtle
    victim: str = ""
    end: str = ""                     # how the game ended (a message key), '' while playing
    ender: str = ""                   # the team whose army ended it
    questions: tuple[str, ...] = ()   # roles still to ask about (guess, then declare)
    marked: tuple[str, ...] = ()      # teams pressed for the role being asked
    guesses: tuple[tuple[str, str], ...] = ()   # werewhale's guesses (team, role)
    declared: tuple[tuple[str, str], ...] = ()  # (team, role) for every non-whale role
    winners: tuple[str, ...] = ()
    log: tuple[Say, ...] = ()         # the last announcements, public


_INDEX: dict[str, int] = {name: i for i, name in enumerate(WState._fields)}


def evolve(state: WState, **changes: Any) -> WState:
    """A copy of `state` with `changes` (`_replace`, faster); an unknown field raises KeyError."""
    values = list(state)
    for name, value in changes.items():
        values[_INDEX[name]] = value
    return WState._make(values)


def set_at(values: tuple, index: int, value: object) -> tuple:
    return (*values[:index], value, *values[index + 1:])


def logged(state: WState, *lines: Say) -> tuple[Say, ...]:
    """The log with `lines` appended, bounded to the last LOG_LIMIT lines."""
    return (*state.log, *lines)[-LOG_LIMIT:]


def army_of(state: WState, team: str) -> Army:
    return state.armies[state.teams.index(team)]


def current(state: WState) -> str:
    return state.teams[state.player] if state.teams else ""
