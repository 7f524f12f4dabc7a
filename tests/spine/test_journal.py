"""The journal: durable, replayable across versions, and graceful when damaged."""

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from device.box.journal import Journal, JournalDamaged, JournalError, journal_path, open_journal
from device.cli.commands.journal_tools import export_lines, replay_lines
from device.simulation.testing import make_box
from games.core import Press, to_data
from games.dog.rules import GAME

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"


def test_settings_are_wal_and_full_sync(tmp_path):
    j = Journal(journal_path(tmp_path))
    assert j.conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert j.conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert j.conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()[0] == "1"
    j.close()


def test_a_committed_entry_is_in_the_file_before_append_returns(tmp_path):
    j = Journal(journal_path(tmp_path))
    game = j.begin_game("dog", {})
    seq = j.append(game, "input", Press("ok"), {"die_A": 0, "die_B": 1, "die_C": 2})
    other = sqlite3.connect(journal_path(tmp_path))  # a second reader sees it at once
    assert other.execute("SELECT seq, outcomes FROM entries").fetchall() == [
        (seq, json.dumps({"die_A": 0, "die_B": 1, "die_C": 2}, sort_keys=True))]
    other.close()
    j.close()


WRITTEN_STATE = {
 'hands': [['hwhad-dowell', 'hwhad-peeper', 'hwhad-stout', 'hwhad-jimmy'], ['hwhad-lou', 'hwhad-bubbles'],
           ['hwhad-sheila']],
 'modules': ['', 'hwhad-max', ''],
 'phase': 'boarding',
 'stack': ['hwhad-glue', 'hwhad-rivet', 'hwhad-bolt', 'hwhad-number5', 'hwhad-paul', 'hwhad-spanner',
           'hwhad-torque', 'hwhad-valiant', 'hwhad-gallant', 'hwhad-brave', 'hwhad-eagle', 'hwhad-flipper'],
 'teams': ['red', 'blue', 'green'],
 'tokens': [0, 0, 0],
 'void': []}


def test_an_old_version_1_file_still_replays(tmp_path):
    path = tmp_path / "journal.sqlite"
    conn = sqlite3.connect(path)
    conn.executescript((FIXTURES / "journal-v1.sql").read_text())
    conn.close()
    j = Journal(path)
    session = replay_lines(export_lines(j, 1))
    assert session.game.info.id == "hwhad" and session.state.phase == "boarding"
    assert len(session.undo_stack) == 8  # the scans since the undo (the deal's shuffle is a barrier)
    # What this file rebuilt when it was written (at c9015c3): the layout, hands and tokens. Compared
    # field by field, since the state class itself may grow fields in later versions.
    rebuilt = to_data(session.state)
    assert {k: rebuilt[k] for k in WRITTEN_STATE} == WRITTEN_STATE
    j.close()


def test_a_newer_schema_is_refused_with_a_reason(tmp_path):
    j = Journal(journal_path(tmp_path))
    j.conn.execute("UPDATE meta SET value='99' WHERE key='schema_version'")
    j.close()
    with pytest.raises(JournalError, match="newer Houston"):
        Journal(journal_path(tmp_path))


def test_a_garbage_file_is_set_aside_and_a_fresh_journal_started(tmp_path):
    journal_path(tmp_path).write_bytes(b"this is not a database" * 100)
    j, notes = open_journal(tmp_path)
    assert notes == ["journal_damaged"]
    assert j.games() == []
    kept = list(tmp_path.glob("journal.sqlite.damaged-*"))
    assert len(kept) == 1 and kept[0].read_bytes().startswith(b"this is not")
    j.close()


def test_a_truncated_journal_is_detected(tmp_path):
    box = make_box(tmp_path)
    box.press("ok")
    for step in range(60):
        inp = GAME.demo_input(box.session.state, step)
        box.press(inp.button, hold=inp.hold)
    box.close()
    path = journal_path(tmp_path)
    data = path.read_bytes()
    assert len(data) > 8192
    path.write_bytes(data[: len(data) // 2 + 100])
    with pytest.raises(JournalDamaged):
        Journal(path)


def test_the_box_starts_anyway_after_a_damaged_journal_and_says_so(tmp_path):
    journal_path(tmp_path).write_bytes(b"\0" * 5000 + b"junk")
    box = make_box(tmp_path)
    try:
        assert "The journal was damaged. I kept it aside and started a fresh one." in box.said
        for button in ("ok", "red", "blue", "ok", "ok"):  # start, seat two players, roll
            box.press(button)
        assert len(box.session.state.roll) == 3
    finally:
        box.close()


def test_an_unreadable_entry_is_voided_and_the_game_goes_on_before_it(tmp_path):
    box = make_box(tmp_path)
    for button in ("ok", "red", "blue", "green"):  # start, then three players take their places
        box.press(button)
    box.close()
    conn = sqlite3.connect(journal_path(tmp_path))
    conn.execute("UPDATE entries SET input='{\"kind\": \"press\", \"button\": 7}' WHERE seq=2")
    conn.commit()
    conn.close()
    again = make_box(tmp_path)
    try:
        assert again.session.state.teams == ("red",)  # entry 1 replayed, 2 and later voided
        assert "Part of the journal could not be read. The game continues from before entry 2." in again.said
        raw = again.journal.raw_entries(1, include_void=True)
        assert [r.get("void", False) for r in raw] == [False, True, True]
        again.press("yellow")
        assert again.session.state.teams == ("red", "yellow")
    finally:
        again.close()
    third = make_box(tmp_path)  # the voided rows no longer stop the replay
    try:
        assert third.session.state.teams == ("red", "yellow")
    finally:
        third.close()


def test_an_unwritable_data_directory_stops_the_box_with_one_line(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    with pytest.raises(JournalError):
        open_journal(blocker / "data")
    proc = subprocess.run(
        [sys.executable, "-m", "device.cli", "run", "--sim", "--data-dir", str(blocker / "data")],
        input="", capture_output=True, text=True, timeout=60,
    )
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("houston: data directory") and "not writable" in lines[0]
