"""The state of a game of Houston, We Have a Dolphin!, and small helpers to read and move cards.

One frozen record of tuples and strings, so BACK can keep old states, replay can compare them with
`==`, and `to_data` can journal them. Hidden facts (hands, modules, void, slot cards, the deal plan,
dolphinized teams, chance outcomes, how each spacewalk went) live here too; only views.py decides
what leaves the box.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, make_dataclass
from operator import attrgetter
from typing import Any

from games.core import Say

# Phases, in the order a round visits them.
CREWING = "crewing"            # teams join; OK starts
BOARDING = "boarding"          # the guided deal: scan the top card, the box says where it goes
TEMP_CAPTAIN = "temp_captain"  # the Captain waits in a module: first team button names a captain
SPACEWALK = "spacewalk"        # three scans fill slots A, B, C
DETACH = "detach"              # the hero's team saves the module's astronaut or raises the PANIC
SUCCESSOR_TIE = "successor_tie"    # the former captain picks among tied teams by button
SUCCESSOR_CARD = "successor_card"  # the providing team scans the astronaut it puts face up
ORDER = "order"                # the captain picks sacrifice, flood or reset
THREATEN = "threaten"          # the captain names the threatened team
VOTE = "vote"                  # the panic vote: tokens entered by button presses
VICTIM = "victim"              # the threatened team scans the astronaut it sacrifices
OVER = "over"
START_SPACEWALK = "start_spacewalk"  # a passing step: the dispatcher starts the next spacewalk

VOID = "void"
MODULES = ("module1", "module2", "module3")


@dataclass(frozen=True, slots=True)
class HState:
    """Everything the box knows. Team-indexed tuples follow `teams` (the order teams joined)."""

    phase: str
    teams: tuple[str, ...] = ()
    locked: bool = False                   # teams fixed by the options: crewing only waits for OK
    unlocked: tuple[str, ...] = ()         # unlockable cards enabled for this game
    deck: tuple[str, ...] = ()             # every card in this deal
    plan: tuple[str, ...] = ()             # hidden destination of each deck card (colour, moduleN, void)
    stack: tuple[str, ...] = ()            # cards the dealer has not scanned yet
    hands: tuple[tuple[str, ...], ...] = ()
    modules: tuple[str, ...] = ("", "", "")  # card waiting in each module ('' once detached)
    detached: int = 0                      # modules detach in order 1, 2, 3
    void: tuple[str, ...] = ()
    slots: tuple[tuple[str, str], ...] = ()  # (card, team) on slots A, B, C in order
    tokens: tuple[int, ...] = ()
    tray: int = 0
    captain: str = ""                      # the captain's team
    captain_card: str = ""                 # the open card in front of the captain ('' if none)
    face_up: tuple[str, ...] = ()          # every card shown face up as a captain card (public from then on)
    dolphinized: tuple[bool, ...] = ()     # sticks for the rest of the game
    spacewalks: int = 0
    order: str = ""                        # the captain's order being voted on
    threatened: str = ""
    votes: tuple[int, ...] = ()            # tokens each team put in the panic vote
    actor: str = ""                        # the team the box waits for (hero, chooser, provider...)
    candidates: tuple[str, ...] = ()       # teams tied for providing the next captain
    then: str = ""                         # where a captain succession returns to: order | spacewalk
    report: tuple[Say, ...] = ()           # what the last spacewalk announced (public)
    reports: tuple[tuple[Say, ...], ...] = ()  # what every spacewalk announced, in order (public)
    history: tuple[tuple[str, ...], ...] = ()  # how each spacewalk went (hidden until the end)
    chances: tuple[tuple[str, object], ...] = ()  # every chance outcome (hidden until the end)
    result: str = ""                       # end reason (a message key)
    winners: tuple[str, ...] = ()


_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(HState))
_INDEX: dict[str, int] = {name: i for i, name in enumerate(_FIELDS)}
_ALL = attrgetter(*_FIELDS)


# A non-frozen twin of HState with the same slots, in the same order. A frozen dataclass sets each
# of its ~40 fields through object.__setattr__, which made building states the largest cost of a
# simulated game; the twin's plain __init__ is several times cheaper, and the finished record is
# then given HState's class (same slot layout), so every state the rules see is a frozen HState.
_Draft = make_dataclass(
    "_Draft", [(f.name, f.type, field(default=f.default)) for f in fields(HState)],
    slots=True, eq=False, repr=False, match_args=False,
)


def evolve(state: HState, **changes: Any) -> HState:
    """`dataclasses.replace` for HState, three to four times as fast (it runs several times on
    every input of every simulated game); an unknown field name raises KeyError."""
    values = list(_ALL(state))
    for name, value in changes.items():
        values[_INDEX[name]] = value
    draft = _Draft(*values)
    draft.__class__ = HState  # type: ignore[assignment]  # same slots: see _Draft
    return draft  # type: ignore[return-value]


def holder(state: HState, card: str) -> str:
    """The team whose hand holds `card`, or '' if it is in no hand."""
    for team, hand in zip(state.teams, state.hands, strict=True):
        if card in hand:
            return team
    return ""


def hand_of(state: HState, team: str) -> tuple[str, ...]:
    return state.hands[state.teams.index(team)]


def counts(state: HState) -> tuple[int, ...]:
    """Astronauts per team, counting cards out on the spacewalk as their team's."""
    result = [len(hand) for hand in state.hands]
    for _, team in state.slots:
        result[state.teams.index(team)] += 1
    return tuple(result)


def set_at(values: tuple, index: int, value: object) -> tuple:
    """A copy of `values` with one item replaced."""
    return (*values[:index], value, *values[index + 1:])


def add_to_hand(hands: tuple[tuple[str, ...], ...], index: int, card: str) -> tuple[tuple[str, ...], ...]:
    return set_at(hands, index, (*hands[index], card))


def remove_from_hand(hands: tuple[tuple[str, ...], ...], index: int, card: str) -> tuple[tuple[str, ...], ...]:
    return set_at(hands, index, tuple(c for c in hands[index] if c != card))


def give_tokens(state: HState, teams: tuple[str, ...], each: int) -> tuple[tuple[int, ...], int, tuple[str, ...]]:
    """Hand `each` tokens from the tray to `teams` in order while the tray lasts.

    Returns the new tokens, the new tray and the teams that received something.
    """
    tokens = list(state.tokens)
    tray = state.tray
    got = []
    for team in teams:
        take = min(each, tray)
        if take <= 0:
            break
        tokens[state.teams.index(team)] += take
        tray -= take
        got.append(team)
    return tuple(tokens), tray, tuple(got)
