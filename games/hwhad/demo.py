"""The demo of Houston, We Have a Dolphin! as a pure policy: what the table does next.

Four teams join (three by button, one by badge); a team pressing again is refused; purple joins by
mistake and BACK takes it back; OK boards. The dealer scans the stack in the order the box keeps
it (as a dealer following the box's words would). Then the crew flies spacewalks, saving every
module's astronaut; the captain orders a sacrifice after the first spacewalk, gives no order after
the second and floods the ship after that (or resets, once three modules are detached).

Crewing is the same in every demo (no chance has been drawn yet), so its script is read by the
step number; everything after it follows from the state alone.
"""

from __future__ import annotations

from typing import Any

from games.badges import badge_of
from games.core import BACK, OK, Choose, Input, Press, Scan
from games.hwhad import boarding, captain, spacewalk
from games.hwhad.state import (
    BOARDING,
    CREWING,
    DETACH,
    ORDER,
    OVER,
    SPACEWALK,
    SUCCESSOR_CARD,
    SUCCESSOR_TIE,
    TEMP_CAPTAIN,
    THREATEN,
    VICTIM,
    VOTE,
    HState,
)

CREWING_SCRIPT: tuple[Input, ...] = (
    Press("red"),
    Press("blue"),
    Press("green"),
    Scan(badge_of("yellow")),
    Press("red"),  # red is on board already: refused, nothing changes
    Press("purple"),  # purple joins by mistake...
    Press(BACK),  # ...and BACK takes it back
    Press(OK),  # boarding: the box draws the layout
)


def demo_options() -> dict[str, Any]:
    """Teams join on the panel, so the demo starts with no options."""
    return {}


def demo_input(state: HState, step: int) -> Input | None:
    """The next input of the demo table, or None once the game is over."""
    if state.phase == OVER:
        return None
    if state.phase == CREWING:
        return CREWING_SCRIPT[min(step, len(CREWING_SCRIPT) - 1)]
    if state.phase == BOARDING:
        return Scan(state.stack[0])
    if state.phase == ORDER:
        return _order(state)
    if state.phase == VOTE:
        return Press(OK)  # nobody panics: the order stands
    if state.phase == DETACH:
        return spacewalk.detach_legal(state)[0]  # save the astronaut in the module
    if state.phase == SPACEWALK:
        return spacewalk.spacewalk_legal(state)[0]
    if state.phase == TEMP_CAPTAIN:
        return boarding.temp_captain_legal(state)[0]
    if state.phase == SUCCESSOR_TIE:
        return captain.successor_tie_legal(state)[0]
    if state.phase == SUCCESSOR_CARD:
        return captain.successor_card_legal(state)[0]
    if state.phase == THREATEN:
        return captain.threaten_legal(state)[0]
    if state.phase == VICTIM:
        return captain.victim_legal(state)[0]
    raise ValueError(f"the hwhad demo has no move for phase {state.phase!r}")


def _order(state: HState) -> Input:
    legal = captain.order_legal(state)
    if Choose("reset") in legal:
        return Choose("reset")
    if state.spacewalks <= 1 and Choose("sacrifice") in legal:
        return Choose("sacrifice")
    if state.spacewalks == 2 and spacewalk.callable_teams(state):  # else no order would loop
        return Choose(captain.NO_ORDER)
    return Choose("flood")
