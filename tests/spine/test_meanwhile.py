"""What the service shows for an input is made while the journal's commit syncs
(device/box/meanwhile.py): it must be exactly what the service would show afterwards, and an input
whose commit fails must leave no trace of it (no update, no narration remembered for REPEAT)."""

import random
import sqlite3

import pytest

from device.box import views
from device.box.jobs import InputJob, PressJob
from device.simulation.testing import make_box
from games.core import Press
from games.registry import load_game


@pytest.fixture
def box(tmp_path):
    b = make_box(tmp_path)
    yield b
    b.close()


def _play(box, inputs: int, seed: int = 3) -> None:
    game = load_game(box.service.selected)
    rng = random.Random(seed)
    box.command("start_game", {"game": game.info.id, "options": game.demo_options()})
    for _ in range(inputs):
        session = box.session
        if session is None:
            box.command("start_game", {"game": game.info.id, "options": game.demo_options()})
            continue
        inp = game.random_input(session.state, game.legal_inputs(session.state), rng.randrange)
        box.service.post(PressJob(inp) if isinstance(inp, Press) else InputJob(inp))
        box.service.wait_idle()
        update = box.recorder.updates[-1]
        # what was made during the commit equals what the service shows now, byte for byte
        assert update.public == box.service.public_view()
        assert update.teams == box.service.team_views()
        if update.public_json is not None:
            assert update.public_json == views.public_json(update.seq, update.public)


def test_updates_made_while_the_disk_syncs_are_the_service_views(box):
    _play(box, 150)
    prepared = [u for u in box.recorder.updates if u.public_json is not None]
    assert len(prepared) > 100  # the helper made nearly every input's update


def test_a_failed_commit_shows_nothing_of_its_input_and_repeat_says_the_old_words(box, monkeypatch):
    _play(box, 5)
    session = box.session
    assert session is not None
    game = session.game
    inp = game.random_input(session.state, game.legal_inputs(session.state), random.Random(9).randrange)
    spoken_before = list(box.service.last_spoken)
    updates_before = len(box.recorder.updates)
    started = []

    def failing_append(game_id, kind, inp, outcomes, *, end=None, meanwhile=None):
        if meanwhile is not None:
            meanwhile()  # the helper starts on the views, then the disk fails
            started.append(True)
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(box.journal, "append", failing_append)
    box.service.post(PressJob(inp) if isinstance(inp, Press) else InputJob(inp))
    box.service.wait_idle()
    assert started
    new = box.recorder.updates[updates_before:]
    assert [e["key"] for u in new for e in u.events if e["type"] == "error"] == ["journal_write_failed"]
    assert all(e["type"] in ("sound", "error") for u in new for e in u.events)  # nothing the input said
    assert all(u.public_json is None for u in new)
    assert box.service.last_spoken == spoken_before
    assert box.session is session  # the rules' state is the one before the input
