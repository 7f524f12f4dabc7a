"""The panel end to end on gpiozero MockFactory/MockPWMPin: a press goes through the real pins,
debouncer and service loop, and comes out as LED states, the status light and voice queue entries."""

from __future__ import annotations

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from device.hardware.panel.buttons import ButtonReader
from device.hardware.panel.buzzer import BuzzerOutlet
from device.hardware.panel.lights import STATUS_STATES, StatusLight
from device.hardware.voice.outlet import SpeakerOutlet
from device.simulation.simbox import VirtualClock
from device.simulation.testing import make_box
from games.core import Press


@pytest.fixture
def rig(tmp_path, speaker):
    """A box at idle with the real speaker and the status light attached, as `houston run` does."""
    box = make_box(tmp_path, game="dog")
    status = StatusLight(box.panel.lights, box.clock)
    box.service.outlets += [status, SpeakerOutlet(speaker)]
    box.service.tick_hooks.append(status.tick)
    status.update(busy=False)
    box.attached_at = len(box.recorder.updates)  # updates from here on reach the speaker
    yield box, status, speaker
    box.close()


def spoken(speaker):
    return [(i.kind, i.what) for i in speaker.history]


def status_pin(box):
    return box.factory.pin(box.pins.status_led)


def test_ok_at_idle_starts_the_game_lights_its_buttons_and_queues_the_words(rig):
    box, status, speaker = rig
    box.press("ok")
    said_now = box.said[-2:]
    assert said_now[0] == "Starting: Here Comes the Dog"
    assert spoken(speaker)[-2:] == [("say", said_now[0]), ("say", said_now[1])]
    wanted = set(box.public_views[-1]["prompt"]["lights"])
    for colour in ("red", "blue", "green", "yellow", "purple", "white"):
        assert box.led(f"team:{colour}") == ("on" if colour in wanted else "off", "steady")
        assert box.factory.pin(box.pins.team_leds[colour]).state == (1 if colour in wanted else 0)
    assert box.led("status") == ("on", "steady") and status.state == "ready"
    assert status_pin(box).state == 1


def test_a_refused_press_buzzes_says_why_flashes_status_then_returns_to_ready(rig):
    box, status, speaker = rig
    before = len(speaker.history)
    box.press("red")  # no game yet
    assert spoken(speaker)[before:] == [("sound", "error"), ("say", "No game is running. Press OK to start one.")]
    assert box.led("status") == ("on", "error") and status.state == "error"
    box.clock.advance(1.0)
    box.service.wait_idle()  # the loop's tick restores the status light once the flash is over
    assert box.led("status") == ("on", "steady") and status.state == "ready"


def test_every_spoken_event_reaches_the_voice_queue_in_order(rig):
    box, _, speaker = rig
    box.press("ok")
    box.press("ok")
    box.press("back")  # a roll cannot be undone: refused
    box.press("repeat")
    kinds = ("say", "prompt", "error", "sound")
    events = [e for u in box.recorder.updates[box.attached_at:] for e in u.events if e["type"] in kinds]
    expected = [("sound", e["name"]) if e["type"] == "sound" else ("say", e["text"]) for e in events]
    assert spoken(speaker) == expected


def test_repeat_queues_the_last_announcement_again(rig):
    box, _, speaker = rig
    box.press("ok")
    last = box.service.last_spoken
    box.press("repeat")
    assert [w for k, w in spoken(speaker)[-len(last):]] == last


def test_hold_repeat_at_idle_selects_the_next_game_by_voice(rig):
    box, _, speaker = rig
    box.hold("repeat")
    from games.registry import load_game

    assert box.service.selected != "dog"
    title = load_game(box.service.selected).info.title
    assert spoken(speaker)[-1][0] == "say" and title in spoken(speaker)[-1][1]


@pytest.mark.parametrize(
    ("conditions", "state", "pattern"),
    [
        ({}, "ready", "steady"),
        ({"busy": True}, "busy", "pulse"),
        ({"busy": True, "scanning": True}, "scanning", "fast"),
        ({"scanning": True, "broker_online": False}, "broker-offline", "blip"),
        ({"broker_online": True}, "ready", "steady"),
    ],
)
def test_status_light_shows_the_most_urgent_state(rig, conditions, state, pattern):
    box, status, _ = rig
    status.update(**conditions)
    assert status.state == state and STATUS_STATES[state] == pattern
    assert box.led("status") == ("on", pattern)


def test_status_light_refuses_an_unknown_condition(rig):
    with pytest.raises(TypeError):
        rig[1].update(camera=False)


# --- the button reader on its own: long press and debounce edges beyond the basics ------------


@pytest.fixture
def reader():
    factory = MockFactory(pin_class=MockPWMPin)
    clock = VirtualClock()
    presses: list[Press] = []
    mashed: list[str] = []
    r = ButtonReader({"ok": 13, "red": 4}, presses.append, clock=clock, debounce=0.03, hold=0.8,
                     repeat_guard=0.25, pin_factory=factory, on_mash=mashed.append)
    yield r, factory.pin(13), clock, presses, mashed
    r.close()
    factory.reset()


def hold_for(pin, clock, seconds):
    pin.drive_low()
    clock.advance(seconds)
    pin.drive_high()


def test_long_press_boundary_is_the_hold_time(reader):
    _, pin, clock, presses, _ = reader
    hold_for(pin, clock, 0.78)
    clock.advance(1)
    hold_for(pin, clock, 0.82)
    assert presses == [Press("ok", hold=False), Press("ok", hold=True)]


def test_a_glitch_shorter_than_debounce_is_not_a_press(reader):
    _, pin, clock, presses, _ = reader
    hold_for(pin, clock, 0.01)
    assert presses == []


def test_bounce_after_release_does_not_make_a_second_press(reader):
    _, pin, clock, presses, _ = reader
    hold_for(pin, clock, 0.1)
    for _ in range(4):  # the contacts chatter for 8 ms after letting go
        clock.advance(0.001)
        pin.drive_low()
        clock.advance(0.001)
        pin.drive_high()
    assert presses == [Press("ok")]


def test_long_presses_are_never_taken_for_mashing(reader):
    _, pin, clock, presses, mashed = reader
    hold_for(pin, clock, 1.0)
    clock.advance(0.05)
    hold_for(pin, clock, 1.0)
    assert presses == [Press("ok", hold=True), Press("ok", hold=True)] and mashed == []


def test_mashing_one_button_does_not_block_another(reader):
    r, pin, clock, presses, mashed = reader
    red = r.devices["red"].pin
    hold_for(pin, clock, 0.05)
    clock.advance(0.05)
    hold_for(pin, clock, 0.05)  # mashing ok: dropped
    clock.advance(0.01)
    hold_for(red, clock, 0.05)  # red right after is its own button: accepted
    assert presses == [Press("ok"), Press("red")] and mashed == ["ok"]


def test_buzzer_beeps_the_sounds_of_an_update():
    from device.box.service import Update

    factory = MockFactory(pin_class=MockPWMPin)
    buzzer = BuzzerOutlet(11, pin_factory=factory)
    try:
        buzzer.deliver(Update(1, {}, {}, [{"type": "sound", "name": "error"}, {"type": "say", "text": "x"}]))
        assert buzzer.played == ["error"]
        assert buzzer.device.is_active or any(s.state for s in factory.pin(11).states)
    finally:
        buzzer.close()
        factory.reset()
