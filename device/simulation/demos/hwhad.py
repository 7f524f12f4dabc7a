"""A scripted table session of Houston, We Have a Dolphin! for `houston demo`.

The script plays the table's part: four teams join, the dealer scans the shuffled stack (it reads
the layout the box keeps, as a dealer following the box's words would place each card), then the
crew flies spacewalks, votes and obeys the captain until the captain floods the ship.
"""

from __future__ import annotations

from typing import Any

from games.core import Choose, Press, Scan
from games.hwhad.rules import GAME
from games.hwhad.state import DETACH, ORDER, VOTE

MAX_INPUTS = 200


def _do(box: Any, inp: Press | Scan | Choose) -> None:
    if isinstance(inp, Scan):
        box.scan(inp.card)
    elif isinstance(inp, Choose):
        box.choose(inp.option)
    elif inp.hold:
        box.hold(inp.button)
    else:
        box.press(inp.button)


def play(box: Any) -> None:
    """Crew, deal, then rounds until the captain's flood (or an earlier end) finishes the game."""
    box.press("ok")  # start the selected game
    for team in ("red", "blue", "green"):
        box.press(team)
    box.scan("badge-yellow")
    box.press("red")  # red is on board already: refused, nothing changes
    box.press("ok")  # boarding: the box draws the layout
    for card in box.session.state.stack:
        box.scan(card)
    rounds = 0
    for _ in range(MAX_INPUTS):
        session = box.session
        if session is None:
            return
        state = session.state
        legal = GAME.legal_inputs(state)
        if state.phase == ORDER:
            rounds += 1
            wanted = Choose("reset") if Choose("reset") in legal else Choose("flood") if rounds >= 2 else None
            if wanted is None or wanted not in legal:
                wanted = Choose("sacrifice") if Choose("sacrifice") in legal else Choose("flood")
            _do(box, wanted)
        elif state.phase == VOTE:
            voters = [i for i in legal if isinstance(i, Press) and i.button != "ok"]
            if voters and rounds == 1:
                _do(box, voters[0])  # a team opens its hand with one token...
                box.press("back")  # ...and takes it back before OK
            box.press("ok")
        elif state.phase == DETACH:
            _do(box, legal[0])  # save the astronaut in the module
        else:
            _do(box, legal[0])
    if box.session is not None:
        raise RuntimeError("the hwhad demo did not reach the end of the game")
