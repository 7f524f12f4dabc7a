"""Whole games through the real service loop, journal and mock pins, one for each way to end.

The dealer's shuffle and the asteroids come from a scripted drawer (the box's own drawer is
`secrets`): the deal's chance picks a chosen Captain/dolphin placement, the shuffle keeps the
catalogue order, and no asteroid ever hits. So the layout is known and the script can play it.
"""

import json
import re
from collections import Counter

import pytest

from device.simulation.testing import make_box
from games.core import canonical_json
from games.hwhad.deal import ORDER, SPECIALS, destinations, plan_deal, special_positions
from games.hwhad.rules import GAME

TEAMS4 = ("red", "blue", "green", "yellow")


class ScriptedDrawer:
    """below(n): the chosen special placement first, then 'keep the order' for the shuffle,
    then 0 for every later draw (no asteroid hits)."""

    def __init__(self, special: int, shuffle_size: int) -> None:
        self.special, self.shuffle_size, self.calls = special, shuffle_size, 0

    def below(self, n: int) -> int:
        self.calls += 1
        if self.calls == 1:
            return self.special
        if self.calls <= self.shuffle_size:
            return n - 1  # Fisher-Yates swapping each card with itself
        return 0


def start(tmp_path, teams, captain, dolphins):
    """A box running hwhad with the Captain and dolphins at these deal positions, dealt out."""
    deck = GAME.setup({}).deck
    special = special_positions(teams, len(deck)).index((captain, *dolphins))
    box = make_box(tmp_path, game="hwhad", options={"teams": list(teams)},
                   drawer=ScriptedDrawer(special, len(deck) - 3))
    box.press("ok")
    state = box.session.state
    expected = plan_deal(teams, deck, {SPECIALS: special, ORDER: list(range(len(deck) - 3))})
    assert state.plan == expected, "the service's shuffle no longer keeps the order for n-1 draws"
    for card in state.stack:
        box.scan(card)
    return box


def scan(box, *names):
    for name in names:
        box.scan(f"hwhad-{name}")


def order(box, what, votes=(), threatened=None):
    box.choose(what)
    if threatened:
        box.press(threatened)
    for team in votes:
        box.press(team)
    box.press("ok")


def finished(box):
    return box.service.finished.state


def no_secret_leaked(box, hidden_names):
    """No public view published before the end names a hidden card."""
    for view in box.public_views:
        if view["game"] is None:
            continue
        if view["game"]["phase"] == "over":
            break
        text = json.dumps(view)  # anywhere: a field's value or inside a sentence of the log
        assert not any(re.search(rf"\b{re.escape(name)}\b", text) for name in hidden_names), text


@pytest.fixture
def four_teams(tmp_path):
    # Captain at position 0 (red), dolphins at 12 and 13 (yellow). Then in catalogue order:
    # red: Glue, Lou, Max, Sheila; blue: Rivet, Bolt, Number 5, Jimmy; green: Paul, Spanner,
    # Torque, Sgt. Dowell; yellow: Flipper, Bubbles, Lt. Valiant, Dr. Gallant; modules:
    # Cmdr. Brave, Ens. Stout, Eagle-Eye; void: Peeper.
    box = start(tmp_path, TEAMS4, 0, (12, 13))
    yield box
    box.close()


def test_layout_and_captains_appearance(four_teams):
    box = four_teams
    state = box.session.state
    assert set(state.hands[3]) == {"hwhad-flipper", "hwhad-bubbles", "hwhad-valiant", "hwhad-gallant"}
    assert state.modules == ("hwhad-brave", "hwhad-stout", "hwhad-eagle") and state.void == ("hwhad-peeper",)
    assert "Red has the Captain! Put Cpt. E. Glue face up in front of you." in box.said
    assert box.said[-1] == "Slot A: the called team scans an astronaut."
    # four hands of four, one card per module, the one card left over in the void
    assert Counter(destinations(TEAMS4, 20)) == {**dict.fromkeys(TEAMS4, 4), "module1": 1, "module2": 1,
                                                  "module3": 1, "void": 1}


def test_humans_win_by_reset(four_teams):
    box = four_teams
    scan(box, "glue")  # the captain may not fill slot A: refused, nothing changes
    assert box.errors[-1] == "captain_calls_other" and box.session.state.slots == ()
    scan(box, "rivet")
    box.press("back")  # undo slot A, then play it again
    assert box.session.state.slots == ()
    scan(box, "rivet", "dowell", "number5")
    assert "A module was opened." in box.said and box.led("slot:B") == ("blue", "pulse")
    scan(box, "brave")  # green saves the astronaut of module 1
    order(box, "sacrifice", threatened="yellow")
    scan(box, "valiant")
    scan(box, "bolt", "brave", "jimmy")
    scan(box, "stout")
    order(box, "sacrifice", threatened="yellow")
    scan(box, "gallant")
    scan(box, "rivet", "stout", "number5")
    box.hold("green")  # raise the PANIC: 3 tokens, Eagle-Eye to the void
    order(box, "reset")
    state = finished(box)
    assert (state.result, state.winners) == ("humans_win_reset", ("red", "blue", "green"))
    assert box.said.index("The spaceship is reset. The humans win!") + 1 == \
        box.said.index("Winners: Red, Blue and Green.")
    no_secret_leaked(box, ["Flipper", "Bubbles", "Sgt. Dowell", "Cmdr. Brave"])
    assert box.public_views[-1]["game"]["revealed"]["dolphinized"] == ["yellow"]


def test_humans_win_by_eliminating_the_dolphin_team(four_teams):
    box = four_teams
    for victim in ("valiant", "flipper", "gallant", "bubbles"):
        scan(box, "rivet", "paul", "bolt")  # nothing happens out there
        assert "Nothing happened out there." in box.said
        order(box, "sacrifice", threatened="yellow")
        scan(box, victim)
    state = finished(box)
    assert (state.result, state.winners) == ("humans_win_elimination", ("red", "blue", "green"))
    assert "Every dolphinized team is gone. The humans win!" in box.said


def test_dolphins_win_by_flood_after_a_revolt(four_teams):
    box = four_teams
    scan(box, "rivet", "paul", "bolt")
    order(box, "sacrifice", threatened="blue", votes=("yellow", "yellow", "blue"))
    assert "3 panic tokens from 3 voters: REVOLT!" in box.said
    scan(box, "valiant")  # yellow puts Lt. Valiant face up and takes command
    assert box.session.state.captain == "yellow"
    assert box.public_views[-1]["game"]["captain_card"]["name"] == "Lt. Valiant"
    scan(box, "rivet", "paul", "bolt")
    order(box, "flood")
    state = finished(box)
    assert (state.result, state.winners) == ("dolphins_win_flood", ("yellow",))
    assert "The spaceship is flooded. The dolphins win!" in box.said


def test_dolphins_win_by_eliminating_the_humans(tmp_path):
    # Two teams: red (Captain, Lou, Max, Sheila, Rivet, Bolt) against blue (both dolphins,
    # Number 5, Jimmy, Paul, Spanner).
    box = start(tmp_path, ("red", "blue"), 0, (6, 7))
    try:
        scan(box, "bubbles", "lou", "jimmy")  # the dolphin in A kills B
        assert "Astronaut B disappeared in the void." in box.said
        order(box, "flood", votes=("blue",))  # blue's one token is enough against one voter
        scan(box, "number5")  # blue's new captain card
        scan(box, "max", "bubbles", "sheila")  # the dolphin in B kills C
        order(box, "sacrifice", threatened="red")
        scan(box, "max")
        scan(box, "rivet", "bubbles", "bolt")
        order(box, "sacrifice", threatened="red")
        scan(box, "rivet")
        state = finished(box)
        assert (state.result, state.winners) == ("dolphins_win_elimination", ("blue",))
        assert "No human team is left. The dolphins win!" in box.said
    finally:
        box.close()


def test_flood_with_nobody_dolphinized_nobody_wins(tmp_path):
    # Three teams; one dolphin waits in module 1, the other in the void.
    box = start(tmp_path, ("red", "blue", "green"), 0, (15, 18))
    try:
        state = box.session.state
        assert not any(state.dolphinized) and state.modules[0] == "hwhad-flipper"
        scan(box, "number5", "torque", "bolt")
        order(box, "flood")
        state = finished(box)
        assert (state.result, state.winners) == ("nobody_wins_flood", ())
        assert "The spaceship is flooded and nobody can live underwater. Nobody wins." in box.said
        assert canonical_json(box.public_views[-1]["game"]["result"]) == '{"reason":"nobody_wins_flood","winners":[]}'
    finally:
        box.close()
