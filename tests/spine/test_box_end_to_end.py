"""The whole box on gpiozero mock pins: presses in, words, LEDs and journal rows out."""

import json

import pytest

from device.hardware.panel.lights import RGB_COLOURS
from device.simulation.testing import make_box
from games.core import TEAM_COLOURS


@pytest.fixture
def box(tmp_path):
    b = make_box(tmp_path)
    yield b
    b.close()


def rows(box):
    return box.journal.conn.execute("SELECT seq, kind, input, outcomes FROM entries ORDER BY seq").fetchall()


def test_ok_starts_the_game_and_rolls_through_the_real_pins(box):
    assert box.said[:2] == ["Houston online.",
                           "Press OK to play Here Comes the Dog, or hold REPEAT for another game."]
    box.press("ok")
    assert box.said[-2:] == ["Starting: Here Comes the Dog",
                            "Round 1. Press OK to roll the dice. Hold OK to end the round."]
    box.press("ok")
    (seq, kind, inp, outcomes), = rows(box)
    assert (seq, kind, json.loads(inp)) == (1, "input", {"kind": "press", "button": "ok", "hold": False})
    faces = json.loads(outcomes)
    roll = box.session.state.last_roll
    names = {"meat": "meat", "charcoal": "charcoal", "fire": "fire"}
    assert f"{names[roll[0]]}, {roll[1]}, {roll[2]}." in box.said
    leds = {"meat": "tan", "charcoal": "dim-white", "fire": "red"}
    for slot, colour in zip("ABC", roll, strict=True):
        assert box.led(f"slot:{slot}") == (leds[colour], "steady")
        rgb = box.panel.lights.devices[f"slot:{slot}"]
        assert rgb.color == pytest.approx(RGB_COLOURS[leds[colour]])
        # the RGB LED's red pin really carries the level (MockPWMPin records it)
        red_pin = box.factory.pin(box.pins.slot_leds[slot][0])
        assert red_pin.state == pytest.approx(RGB_COLOURS[leds[colour]][0])
    assert set(faces) == {"die_A", "die_B", "die_C"}


def test_team_buttons_light_only_when_the_prompt_wants_them(box):
    box.press("ok")
    for colour in TEAM_COLOURS:
        assert box.led(f"team:{colour}") == ("off", "steady")
        assert box.factory.pin(box.pins.team_leds[colour]).state in (0, False)


def test_a_button_at_the_wrong_time_is_refused_and_changes_nothing(box):
    box.press("ok")
    before, entries = box.session.state, rows(box)
    box.press("purple")
    assert box.errors[-1] == "not_expected"
    assert box.said[-1].startswith("Round 1")  # no new announcement; the error went out as an error event
    assert box.session.state == before and rows(box) == entries
    assert box.led("status") == ("on", "error")


def test_an_unknown_button_command_is_refused(box):
    box.press("ok")
    before = box.session.state
    reply = box.command("press", {"button": "self-destruct"})
    assert reply["status"] == "error" and reply["error"] == "unknown_button"
    assert box.session.state == before


def test_mashing_fifty_presses_in_a_second_is_mostly_dropped_and_said_once(box):
    box.press("ok")
    entries = len(rows(box))
    pin = box.factory.pin(box.pins.buttons["ok"])
    for _ in range(50):  # 50 presses in one second: 10 ms down, 10 ms up
        pin.drive_low()
        box.clock.advance(0.01)
        pin.drive_high()
        box.clock.advance(0.01)
    box.service.wait_idle()
    rolls = len(rows(box)) - entries
    assert 1 <= rolls <= 4  # at most one roll per 250 ms guard
    assert box.said.count("Slow down, one press at a time.") == 1
    assert box.session.state.rolls == rolls


def test_contact_bounce_makes_one_press(box):
    box.press("ok")
    box.bounce("ok")
    assert len(rows(box)) == 1


def test_back_undoes_a_round_end_and_says_so_but_never_a_roll(box):
    box.press("ok")
    box.press("ok")
    box.press("back")
    assert box.errors[-1] == "nothing_to_undo"
    box.hold("ok")
    assert box.session.state.round == 2
    box.press("back")
    assert box.session.state.round == 1
    assert "Undone: the long press of OK." in box.said
    kinds = [r[1] for r in rows(box)]
    assert kinds == ["input", "input", "undo"]


def test_repeat_repeats_the_last_announcement(box):
    box.press("ok")
    box.press("ok")
    roll = box.session.state.last_roll
    n = len(box.said)
    last = [t for t in box.said if t.startswith(", ".join(roll))]
    assert last, box.said
    box.press("repeat")
    again = box.said[n:]
    assert again[0] == last[-1]  # the dice again, then whatever followed them
    assert len(rows(box)) == 1
    box.hold("repeat")  # in a game: say what the box waits for
    assert box.said[-1].startswith(("Round 1", "Same player")) and len(rows(box)) == 1


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


def test_a_finished_game_returns_to_idle(box):
    box.press("ok")
    for _ in range(5):
        box.hold("ok")
    assert box.session is None and box.service.finished is not None
    record = box.journal.games()[-1]
    assert record.ended_at is not None and record.result == {"reason": "rounds_played", "winners": []}
    assert box.public_views[-1]["mode"] == "idle"


def test_restart_resumes_and_repeats_the_prompt(tmp_path):
    box = make_box(tmp_path)
    box.press("ok")
    box.press("ok")
    box.hold("ok")
    state = box.session.state
    box.close()
    again = make_box(tmp_path)
    try:
        assert again.session.state == state
        assert again.said[-2:] == ["Resuming where we left off: Here Comes the Dog",
                                  "Round 2. Press OK to roll the dice. Hold OK to end the round."]
    finally:
        again.close()
