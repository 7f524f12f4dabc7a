"""The demo script as a pure policy: the input a table would give next in a whole game.

Four players, the base game. The dealer deals the deck in a fixed order (the box does not
shuffle: the demo's "shuffle" is picking cards by a stride through the deck), scans a superhero by
mistake while dealing (refused with the rulebook's reason), offers the first card to the wrong
player and takes it back with BACK. Players keep a card unless it would be a third of a colour.
Yellow turns out to be the superspy.
"""

from __future__ import annotations

from typing import Any

from games.core import BACK, OK, Input, Press, Scan
from games.whales import army as rules_of_army
from games.whales.cards import catalogue
from games.whales.state import (
    DEAL,
    DECIDE,
    DECLARE,
    DISCARD,
    GUESS,
    OFFER_CARD,
    OFFER_TO,
    RETURN,
    STEAL_CARD,
    STEAL_FROM,
    TURTLE,
    WILD_SET,
    WState,
    current,
)

TEAMS = ("red", "blue", "green", "yellow")
OPTIONS: dict[str, Any] = {"teams": list(TEAMS)}
SUPERSPY = "yellow"
STRIDE = 7
MISTAKE_CARD = "whales-hero-harpoon"
# Inputs before the first offer: 2 whales dealt to each of 4 players, the refused superhero, one
# discard and one face-down scan. The first offer made at or before this step is the slip.
SLIP_BY = 2 * len(TEAMS) + 3


def _pick(cards: tuple[str, ...], step: int) -> str:
    return cards[(step * STRIDE) % len(cards)]


def next_input(game: Any, state: WState, step: int) -> Input | None:
    """The next input of the demo game, or None once it is over."""
    if game.is_over(state):
        return None
    phase = state.phase
    if phase == DEAL:
        if state.dealt == 1 and step <= 1 and MISTAKE_CARD in state.deck:
            return Scan(MISTAKE_CARD)  # refused: superheroes are put aside while dealing
        whales = tuple(c for c in state.deck if catalogue()[c].kind == "whale")
        return Scan(_pick(whales, step))
    if phase in (DISCARD, OFFER_CARD):
        return Scan(_pick(state.deck, step))
    if phase == OFFER_TO:
        seat = state.teams.index(current(state))
        if state.turns == 0 and step <= SLIP_BY:
            return Press(state.teams[(seat + 2) % len(state.teams)])  # the wrong player...
        return Press(state.teams[(seat + 1) % len(state.teams)])
    if phase == DECIDE:
        seat = state.teams.index(current(state))
        if state.turns == 0 and state.receiver == state.teams[(seat + 2) % len(state.teams)]:
            return Press(BACK)  # ...taken back
        return Press(current(state)) if _unwanted(state) else Scan(state.offered)
    if phase == RETURN:
        return Scan(state.offered)
    if phase == WILD_SET:
        return Press("white")
    if phase in (TURTLE, STEAL_FROM, STEAL_CARD):
        return game.legal_inputs(state)[0]
    if phase in (GUESS, DECLARE):
        role = state.questions[0]
        if role == "superspy" and SUPERSPY not in state.marked:
            return Press(SUPERSPY)
        return Press(OK)
    return None


def _unwanted(state: WState) -> bool:
    """The receiver refuses a whale that would be the third of its colour, and any superhero."""
    card = catalogue()[state.offered]
    army = state.armies[state.teams.index(state.receiver)]
    if card.kind == "superhero":
        return True
    return bool(card.colour) and len(rules_of_army.in_colour(army, card.colour)) >= rules_of_army.capacity(
        army, card.colour)
