"""Resuming after a kill: a finished game is closed, a garbled entry is voided, and the table hears
every result the journal holds (issue 12, defects 1, 2 and 7)."""

import json

from device.box.journal import Journal, journal_path
from device.simulation.testing import make_box
from games.core import GameOver, Press


def append_final_as_a_kill_leaves_it(data_dir, inp):
    """Journal the final input the way a kill between the commit and the game's end leaves it."""
    journal = Journal(journal_path(data_dir))
    record = journal.unfinished()
    journal.append(record.id, "input", inp, {})
    journal.close()


def test_a_kill_after_the_final_input_does_not_leave_the_box_stuck(tmp_path):
    box = make_box(tmp_path, "dog", {})
    # Dog: holding OK ends the round; the last round's hold ends the game (no chance drawn).
    for _ in range(20):
        _, effects = box.session.game.apply(box.session.state, Press("ok", True), {})
        if any(isinstance(e, GameOver) for e in effects):
            break
        box.hold("ok")
    last = Press("ok", True)
    box.close()
    append_final_as_a_kill_leaves_it(tmp_path, last)
    again = make_box(tmp_path, "dog")
    try:
        assert again.service.session is None, "a finished game must not be resumed as running"
        assert again.journal.unfinished() is None
        assert any("Game over" in s for s in again.said)
        assert again.command("start_game", {"game": "dog", "options": {}})["status"] == "ok"
    finally:
        again.close()


def test_the_final_input_and_the_games_end_are_one_commit(tmp_path):
    box = make_box(tmp_path, "dog", {})
    for _ in range(20):
        box.hold("ok")
        if box.session is None:
            break
    rows = box.journal.conn.execute("SELECT COUNT(*) FROM games WHERE ended_at IS NULL").fetchone()[0]
    box.close()
    assert rows == 0
    # Every game ends in the same transaction as its last entry: the ended_at stamp equals the
    # entry's time exactly.
    journal = Journal(journal_path(tmp_path))
    (ended, last_at), = journal.conn.execute(
        "SELECT g.ended_at, MAX(e.at) FROM games g JOIN entries e ON e.game_id=g.id GROUP BY g.id"
    ).fetchall()
    journal.close()
    assert ended == last_at


def garble(data_dir, seq, column="input", text="{not json"):
    journal = Journal(journal_path(data_dir))
    journal.conn.execute(f"UPDATE entries SET {column}=? WHERE seq=?", (text, seq))
    journal.close()


def test_a_garbled_entry_is_voided_and_the_box_starts(tmp_path):
    box = make_box(tmp_path, "dog", {})
    for _ in range(4):
        box.press("ok")
    box.close()
    garble(tmp_path, 3)
    again = make_box(tmp_path, "dog")
    try:
        assert again.session is not None
        assert any("could not be read" in s for s in again.said)
        voids = again.journal.conn.execute("SELECT seq, input FROM entries WHERE void=1").fetchall()
        assert voids and voids[0] == (3, "{not json")  # kept for inspection
    finally:
        again.close()


def test_garbled_outcomes_are_voided_too(tmp_path):
    box = make_box(tmp_path, "dog", {})
    for _ in range(3):
        box.press("ok")
    box.close()
    garble(tmp_path, 2, "outcomes", "\x00\xff")
    again = make_box(tmp_path, "dog")
    try:
        assert again.session is not None and again.journal.count(again.service.record.id) == 1
    finally:
        again.close()


def test_export_and_replay_survive_a_garbled_entry(tmp_path, capsys):
    from device.cli import main

    box = make_box(tmp_path, "dog", {})
    for _ in range(3):
        box.press("ok")
    box.close()
    garble(tmp_path, 2)
    out = tmp_path / "game.jsonl"
    assert main(["export", "--data-dir", str(tmp_path), "-o", str(out)]) == 0
    lines = [json.loads(x) for x in out.read_text().splitlines()]
    assert any(line.get("unreadable") for line in lines)
    capsys.readouterr()
    code = main(["replay", str(out)])
    captured = capsys.readouterr()
    assert code == 2 and "entry 2" in captured.err and "Traceback" not in captured.err
    assert main(["replay", str(journal_path(tmp_path))]) == 2
    assert "entry 2" in capsys.readouterr().err


def roll_sentence(box):
    return ", ".join(box.session.state.last_roll) + "."


def test_a_result_committed_before_a_crash_is_announced_on_resume(tmp_path):
    box = make_box(tmp_path, "dog", {})
    box.press("ok")
    box.close()
    # The kill came after the commit and before the announcement: journal a roll by hand.
    journal = Journal(journal_path(tmp_path))
    record = journal.unfinished()
    journal.append(record.id, "input", Press("ok"), {"die_A": 0, "die_B": 0, "die_C": 0})
    journal.close()
    again = make_box(tmp_path, "dog")
    try:
        said = again.said
        sentence = roll_sentence(again)
        assert sentence in said, f"the committed roll was never announced: {said}"
        # and REPEAT repeats that result, not only the prompt
        again.press("repeat")
        assert sentence in again.said[len(said):]
    finally:
        again.close()


def test_a_result_already_heard_is_not_announced_twice_but_repeat_gives_it(tmp_path):
    box = make_box(tmp_path, "dog", {})
    box.press("ok")
    box.press("ok")
    heard = roll_sentence(box)
    assert heard in box.said
    box.close()
    again = make_box(tmp_path, "dog")
    try:
        assert heard not in again.said
        before = len(again.said)
        again.press("repeat")
        assert heard in again.said[before:]
    finally:
        again.close()
