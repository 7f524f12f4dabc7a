"""Commands from outside are parsed field by field against an allow-list (device/box/commands.py)."""

from __future__ import annotations

import pytest

from device.box.commands import (
    ChooseCommand,
    NotAllowed,
    PressCommand,
    ScanCommand,
    StartGameCommand,
    UndoCommand,
    User,
    parse_command,
)
from device.simulation.testing import make_box
from games.core import Choose, MalformedInput, Press, Scan


def test_each_command_is_built_from_its_own_typed_fields() -> None:
    assert parse_command("press", {"button": "red"}, User.DISPLAY) == PressCommand(Press("red"))
    assert parse_command("press", {"button": "ok", "hold": True}, User.DISPLAY) == PressCommand(Press("ok", True))
    assert parse_command("choose", {"option": "flood"}, User.DISPLAY) == ChooseCommand(Choose("flood"))
    assert parse_command("scan", {"card": "max"}, User.ADMIN) == ScanCommand(Scan("max"))
    assert parse_command("undo", {}, User.DISPLAY) == UndoCommand()
    started = parse_command("start_game", {"options": {"rounds": 3}}, User.DISPLAY)
    assert started == StartGameCommand(None, {"rounds": 3})


@pytest.mark.parametrize(("name", "payload"), [
    ("press", {"button": "ok", "kind": "scan", "card": "max"}),  # no splicing another input's fields in
    ("press", {"hold": True}),  # button missing
    ("press", {"button": 3}),
    ("press", {"button": "ok", "hold": "yes"}),
    ("choose", {"option": ""}),
    ("choose", {"option": "x" * 65}),
    ("undo", {"seq": 4}),
    ("select_game", {}),
    ("start_game", {"options": []}),
    ("start_game", {"options": {"rounds": {"nested": 1}}}),
    ("start_game", {"options": {str(n): n for n in range(40)}}),
    ("launch", {}),
    ("press", ["ok"]),
])
def test_anything_off_the_allow_list_is_malformed(name: str, payload: object) -> None:
    with pytest.raises(MalformedInput):
        parse_command(name, payload, User.ADMIN)


def test_only_the_admin_may_scan() -> None:
    with pytest.raises(NotAllowed) as caught:
        parse_command("scan", {"card": "max"}, User.DISPLAY)
    assert caught.value.key == "not_allowed" and isinstance(caught.value, ValueError)


def test_a_refused_command_is_spoken_and_changes_nothing(tmp_path) -> None:
    box = make_box(tmp_path)
    try:
        reply = box.command("scan", {"card": "max"})  # from a display
        assert reply["status"] == "error" and reply["error"] == "not_allowed"
        reply = box.command("press", {"button": "ok", "extra": 1})
        assert reply["error"] == "malformed_input" and box.errors[-2:] == ["not_allowed", "malformed_input"]
        assert box.journal.games() == [] and box.session is None
    finally:
        box.close()


def test_the_recording_outlet_keeps_a_bounded_history() -> None:
    from device.box.outlets import RecordingOutlet
    from device.box.service import Update

    outlet = RecordingOutlet(limit=10)
    for seq in range(1, 26):
        outlet.deliver(Update(seq, {}, {}, []))
    assert len(outlet.updates) <= 10 and outlet.updates[-1].seq == 25
    assert outlet.dropped + len(outlet.updates) == 25
