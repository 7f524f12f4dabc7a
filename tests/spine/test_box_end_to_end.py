"""The whole box on gpiozero mock pins: presses in, words, LEDs and journal rows out."""

import json

import pytest

from device.hardware.panel.lights import RGB_COLOURS
from device.simulation.testing import make_box
from games.core import TEAM_COLOURS
from games.dog.rules import GAME


@pytest.fixture
def box(tmp_path):
    b = make_box(tmp_path)
    yield b
    b.close()


def rows(box):
    return box.journal.conn.execute("SELECT seq, kind, input, outcomes FROM entries ORDER BY seq").fetchall()


class ScriptedDice:
    """Faces for the box's draws, in order (meat = 0, charcoal = 2, fire = 4 on the data's dice)."""

    def __init__(self, *faces: int) -> None:
        self.faces = list(faces)

    def below(self, n: int) -> int:
        return self.faces.pop(0) if self.faces else 0


@pytest.fixture
def dice_box(tmp_path):
    b = make_box(tmp_path, drawer=ScriptedDice(0, 0, 2, 4, 4, 0))  # meat, meat, charcoal; fire, fire, meat
    yield b
    b.close()


def seat(box, *teams):
    """Start the default game (Here Comes the Dog) and press the players' buttons in order, then OK."""
    box.press("ok")
    for team in teams or ("red", "blue"):
        box.press(team)
    box.press("ok")


def test_ok_starts_the_game_and_rolls_through_the_real_pins(dice_box):
    box = dice_box
    assert box.said[:2] == ["Houston online.",
                           "Press OK to play Here Comes the Dog, or hold REPEAT for another game."]
    box.press("ok")
    assert box.said[-2:] == ["Starting: Here Comes the Dog",
                            "Press your team buttons in playing order, then OK. 0 players so far."]
    box.press("red")
    box.press("blue")
    box.press("ok")
    assert box.said[-2:] == ["Round 1. Red begins.", "Red: press OK to roll the dice, or hold OK to exchange a stick."]
    box.press("ok")
    *_, (seq, kind, inp, outcomes) = rows(box)
    assert (seq, kind, json.loads(inp)) == (4, "input", {"kind": "press", "button": "ok", "hold": False})
    faces = json.loads(outcomes)
    assert faces == {"die_A": 0, "die_B": 0, "die_C": 2}
    roll = box.session.state.roll
    assert roll == ("meat", "meat", "charcoal") and "meat, meat, charcoal." in box.said
    leds = {"meat": "tan", "charcoal": "dim-white", "fire": "red"}
    for slot, colour in zip("ABC", roll, strict=True):
        assert box.led(f"slot:{slot}") == (leds[colour], "steady")
        rgb = box.panel.lights.devices[f"slot:{slot}"]
        assert rgb.color == pytest.approx(RGB_COLOURS[leds[colour]])
        # the RGB LED's red pin really carries the level (MockPWMPin records it)
        red_pin = box.factory.pin(box.pins.slot_leds[slot][0])
        assert red_pin.state == pytest.approx(RGB_COLOURS[leds[colour]][0])
    assert box.said[-1] == "Red: take two meat? Press your button for another choice, OK to take."
    box.press("red")
    assert box.said[-1] == "Red: take meat and charcoal? Press your button for another choice, OK to take."
    box.press("ok")
    assert box.session.state.hands[0] == (1, 1, 0)


def test_team_buttons_light_only_when_the_prompt_wants_them(box):
    box.press("ok")
    for colour in TEAM_COLOURS:  # set-up: every team may still take a place
        assert box.led(f"team:{colour}") == ("on", "steady")
    box.press("red")
    box.press("blue")
    box.press("ok")
    for colour in TEAM_COLOURS:  # red's turn: only red's button
        assert box.led(f"team:{colour}") == ("on" if colour == "red" else "off", "steady")
        assert box.factory.pin(box.pins.team_leds[colour]).state in ((1, True) if colour == "red" else (0, False))


def test_a_button_at_the_wrong_time_is_refused_and_changes_nothing(box):
    seat(box)
    before, entries = box.session.state, rows(box)
    box.press("purple")
    assert box.errors[-1] == "not_expected"
    assert box.said[-1].startswith("Red: press OK")  # no new announcement; the error went out as an error event
    assert box.session.state == before and rows(box) == entries
    assert box.led("status") == ("on", "error")


def test_an_unknown_button_command_is_refused(box):
    seat(box)
    before = box.session.state
    reply = box.command("press", {"button": "self-destruct"})
    assert reply["status"] == "error" and reply["error"] == "unknown_button"
    assert box.session.state == before


def test_mashing_fifty_presses_in_a_second_is_mostly_dropped_and_said_once(box):
    seat(box)
    entries = len(rows(box))
    pin = box.factory.pin(box.pins.buttons["ok"])
    for _ in range(50):  # 50 presses in one second: 10 ms down, 10 ms up
        pin.drive_low()
        box.clock.advance(0.01)
        pin.drive_high()
        box.clock.advance(0.01)
    box.service.wait_idle()
    taken = len(rows(box)) - entries
    assert 1 <= taken <= 4  # at most one press per 250 ms guard
    assert box.said.count("Slow down, one press at a time.") == 1


def test_contact_bounce_makes_one_press(box):
    seat(box)
    entries = len(rows(box))
    box.bounce("ok")
    assert len(rows(box)) == entries + 1


def test_back_undoes_a_choice_and_says_so_but_never_a_roll(dice_box):
    box = dice_box
    seat(box)
    box.press("ok")  # meat, meat, charcoal
    box.press("back")
    assert box.errors[-1] == "nothing_to_undo"
    before = box.session.state
    box.press("red")  # the next take on offer: meat and charcoal
    assert box.session.state.pick == 1
    box.press("back")
    assert box.session.state == before
    assert "Undone: the Red press." in box.said
    kinds = [r[1] for r in rows(box)]
    assert kinds == ["input"] * 5 + ["undo"]


def test_repeat_repeats_the_last_announcement(dice_box):
    box = dice_box
    seat(box)
    box.press("ok")
    n = len(box.said)
    last = [t for t in box.said if t == "meat, meat, charcoal."]
    assert last, box.said
    entries = len(rows(box))
    box.press("repeat")
    again = box.said[n:]
    assert again[0] == last[-1]  # the dice again, then whatever followed them
    assert len(rows(box)) == entries
    box.hold("repeat")  # in a game: say what the box waits for
    assert box.said[-1].startswith("Red: take two meat?") and len(rows(box)) == entries


def test_a_finished_game_returns_to_idle(tmp_path):
    box = make_box(tmp_path, options={"teams": ["red", "blue"], "rounds": 1})
    try:
        for step in range(500):
            if box.session is None:
                break
            inp = GAME.demo_input(box.session.state, step)
            box.press(inp.button, hold=inp.hold)
        assert box.session is None and box.service.finished is not None
        record = box.journal.games()[-1]
        final = box.service.finished.state
        assert record.ended_at is not None
        assert record.result == {"reason": "rounds_played", "winners": list(final.winners)}
        assert box.public_views[-1]["mode"] == "idle"
    finally:
        box.close()


def test_restart_resumes_and_repeats_the_prompt(tmp_path):
    box = make_box(tmp_path, drawer=ScriptedDice(0, 0, 2))
    seat(box)
    box.press("ok")
    box.press("ok")
    state = box.session.state
    box.close()
    again = make_box(tmp_path)
    try:
        assert again.session.state == state
        assert again.said[-2:] == ["Resuming where we left off: Here Comes the Dog",
                                  "Blue: press OK to roll the dice, or hold OK to exchange a stick."]
    finally:
        again.close()


def test_long_press_repeat_at_idle_cycles_games_and_ok_starts_one(box):
    games = box.service.public_view()["games"]
    first = [g["id"] for g in games].index(box.service.selected)
    box.hold("repeat")
    selected = box.service.selected
    following = games[(first + 1) % len(games)]
    assert selected == following["id"]
    assert following["title"] in box.said[-1]
    box.press("ok")
    assert box.session is not None and box.session.game.info.id == selected

