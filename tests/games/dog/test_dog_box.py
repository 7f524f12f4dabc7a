"""A whole game of Here Comes the Dog through the real service on gpiozero mock pins: team
buttons set the order, the panel plays every turn, the slot LEDs show the dice, the team lights
show whose turn, every count is spoken, and the journal replays to the live state."""

import random

from device.cli.commands.journal_tools import export_lines, replay_lines
from device.simulation.testing import make_box
from games.core import BACK
from games.dog.rules import GAME


class SeededDrawer:
    """Dice for a reproducible test (the box itself draws with `secrets`)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def below(self, n: int) -> int:
        return self.rng.randrange(n)


def drive(box, inp):
    if inp.button == BACK:
        box.press(BACK)
    else:
        box.press(inp.button, hold=inp.hold)


def test_a_whole_game_on_mock_pins(tmp_path):
    box = make_box(tmp_path, drawer=SeededDrawer(7))
    try:
        box.press("ok")  # start Here Comes the Dog from idle
        assert box.said[-1] == "Press your team buttons in playing order, then OK. 0 players so far."
        box.press("red")
        box.press("red")
        assert box.errors[-1] == "already_in_order"
        box.press("blue")
        box.press("back")
        assert box.session.state.teams == ("red",)
        box.press("blue")
        box.press("green")
        box.press("ok")
        assert "Playing order: Red, Blue, then Green." in box.said
        assert box.led("team:red") == ("on", "steady") and box.led("team:blue") == ("off", "steady")
        box.press("ok")  # red rolls
        state = box.session.state
        leds = {"meat": "tan", "charcoal": "dim-white", "fire": "red"}
        for slot, colour in zip("ABC", state.roll, strict=True):
            assert box.led(f"slot:{slot}") == (leds[colour], "steady")
        box.press("back")
        assert box.errors[-1] == "nothing_to_undo"  # BACK never crosses a roll
        for step in range(7, 3000):
            if box.session is None:
                break
            drive(box, GAME.demo_input(box.session.state, step))
        assert box.session is None and box.service.finished is not None
        final = box.service.finished.state
        record = box.journal.games()[-1]
        assert record.result["reason"] == "rounds_played"
        assert record.result["winners"] == list(final.winners) and final.winners
        assert sum(final.dogs) + final.pack == 25
        spoken = "\n".join(box.said)
        assert "villagers standing." in spoken and ("wins with" in spoken or "share the win" in spoken)
        assert any(line.endswith("wasted.") or line.endswith("villagers faint.") for line in box.said)
        rebuilt = replay_lines(export_lines(box.journal, record.id))
        assert rebuilt.state == final
        view = box.public_views[-1]
        assert view["mode"] == "idle"
    finally:
        box.close()


def test_team_lights_follow_whose_turn(tmp_path):
    box = make_box(tmp_path, game="dog", options={"teams": ["blue", "yellow"]}, drawer=SeededDrawer(3))
    try:
        assert box.led("team:blue") == ("on", "steady") and box.led("team:yellow") == ("off", "steady")
        for _ in range(40):
            s = box.session.state
            if s.phase == "turn" and not s.must_roll and s.team() == "yellow":
                break
            drive(box, GAME.demo_input(s, 1))
        assert box.led("team:yellow") == ("on", "steady") and box.led("team:blue") == ("off", "steady")
        assert box.public_views[-1]["game"]["turn"] == "yellow"
    finally:
        box.close()
