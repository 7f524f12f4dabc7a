"""What a panel button means to the box, in one place.

BACK takes back the last input, REPEAT says the last words again (held: what the box waits for;
held at idle: offer the next game), OK at idle starts the selected game. Every other press, and
these when they mean nothing to the box, goes to the game.
"""

from __future__ import annotations

import enum

from games.core import BACK, OK, PANEL_BUTTONS, REPEAT, Press


class Meaning(enum.Enum):
    UNKNOWN_BUTTON = "unknown_button"  # not a button of the panel
    UNDO = "undo"  # BACK
    REPEAT = "repeat"  # REPEAT: the last announcement again
    PROMPT_AGAIN = "prompt_again"  # REPEAT held: what the box waits for
    NEXT_GAME = "next_game"  # REPEAT held at idle: offer the next installed game
    START_GAME = "start_game"  # OK at idle: start the selected game
    NO_GAME = "no_game"  # any other button at idle
    TO_GAME = "to_game"  # an input for the game in progress


def meaning(press: Press, *, idle: bool) -> Meaning:
    """What `press` asks of the box; `idle` is True when no game is running."""
    if press.button not in PANEL_BUTTONS:
        return Meaning.UNKNOWN_BUTTON
    if press.button == BACK and not press.hold:
        return Meaning.UNDO
    if press.button == REPEAT:
        if press.hold:
            return Meaning.NEXT_GAME if idle else Meaning.PROMPT_AGAIN
        return Meaning.REPEAT
    if idle:
        return Meaning.START_GAME if press.button == OK and not press.hold else Meaning.NO_GAME
    return Meaning.TO_GAME
