"""A full round and an exploration interlude through the real service on gpiozero mock pins."""

from __future__ import annotations

from pathlib import Path

from device.simulation.testing import make_box
from games.core import BACK, Choose, Press, digest
from games.session import replay
from games.spacedogs.catalog import catalog
from games.spacedogs.demo import SCRIPT
from games.spacedogs.rules import GAME

CAT = catalog()


def drive(box, inp) -> None:
    if isinstance(inp, Choose):
        box.choose(inp.option)
    else:
        assert isinstance(inp, Press)
        box.press(inp.button, hold=inp.hold)


def test_a_full_round_with_an_exploration_interlude_on_mock_pins(tmp_path: Path) -> None:
    with make_box(tmp_path, "spacedogs", GAME.demo_options()) as box:
        assert box.said[-1].startswith("Round 1 begins.")
        step = 0
        while (inp := GAME.demo_input(box.session.state, step)) is not None:
            drive(box, inp)
            if step == 3:  # the players' turn: both dogs' buttons are lit, OK is not
                assert box.led("team:yellow")[0] == "on" and box.led("team:green")[0] == "on"
                assert box.led("team:red")[0] == "off"
            if step == 14:
                assert "Exploration mode" in " ".join(box.said[-3:])
            step += 1
        state = box.session.state
        assert box.errors == ["dog_acted"]  # the one refused press, spoken, nothing changed
        assert any(e["type"] == "say" and e["key"] == "undone" for e in box.recorder.events)  # the BACK
        assert state.round == 2 and state.phase == "beginning"
        assert state.dog("orion").health == CAT.numbers.max_health - 1
        assert [e["text"] for e in box.recorder.events if e["type"] == "error"] == [
            "Nova has already acted this round."]
        assert "Orion suffers 1, health 15." in box.said
        assert "Exploration mode ends; the round continues in the activation phase." in box.said
        record = box.journal.games()[-1]
        rebuilt = replay(GAME, record.options, list(box.journal.entries(record.id)))
        assert digest(rebuilt.state) == digest(state)
        assert Press(BACK) in SCRIPT
