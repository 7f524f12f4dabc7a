"""Resuming after a kill: a finished game is closed, a garbled entry is voided, and the table hears
every result the journal holds (issue 12, defects 1, 2 and 7). The games are driven by their own
random policy through the generic contract, so these hold for any installed game."""

import json
import random
from dataclasses import replace

from device.box.chance import draw_all
from device.box.journal import Journal, journal_path
from device.simulation.crash_bench import table_options
from device.simulation.testing import make_box
from games.core import Say

GAME = "dog"  # short games with chance and spoken results


def start(tmp_path):
    return make_box(tmp_path, GAME, table_options(GAME))


class Ended(Exception):
    """The game ended on the box's own dice before the input a test looks for."""


def next_input(box, rng):
    session = box.session
    if session is None:
        raise Ended
    legal = session.game.legal_inputs(session.state)
    return session.game.random_input(session.state, legal, rng.randrange)


def playing(tmp_path, seed, find):
    """(folder, box, what `find(box, rng)` returns) for a game played from a fresh box until `find`
    has what it looks for. A trial draws its own dice on a copy and the box draws others for the
    real input, so a real input can end the game where its trial did not (CI saw it once): then
    the game is played again from the start, in a folder of its own."""
    rng = random.Random(seed)
    for attempt in range(10):
        folder = tmp_path / f"game{attempt}"
        folder.mkdir()
        box = start(folder)
        try:
            return folder, box, find(box, rng)
        except Ended:
            box.close()
    raise AssertionError("every game ended early")


def trial(box, inp):
    """What `inp` would do now, on a copy: (outcomes, effects, the copy)."""
    copy = replace(box.session, undo_stack=list(box.session.undo_stack))
    outcomes = draw_all(copy.check(inp))
    effects = copy.submit(inp, outcomes, 10**6)
    return outcomes, effects, copy


def words(box, effects):
    return [box.service.narrator.render(e, GAME) for e in effects if isinstance(e, Say)]


def journal_by_hand(data_dir, inp, outcomes):
    """Journal an input the way a kill after the commit (before anything else) leaves it."""
    journal = Journal(journal_path(data_dir))
    record = journal.unfinished()
    journal.append(record.id, "input", inp, outcomes)
    journal.close()


def to_the_final_input(box, rng):
    """Play until the next input would end the game; return it and its outcomes."""
    for _ in range(2000):
        inp = next_input(box, rng)
        outcomes, _, copy = trial(box, inp)
        if copy.over is not None:
            return inp, outcomes
        box.submit(inp)
    raise AssertionError("the game did not end")


def test_a_kill_after_the_final_input_does_not_leave_the_box_stuck(tmp_path):
    folder, box, (inp, outcomes) = playing(tmp_path, 1, to_the_final_input)
    box.close()
    journal_by_hand(folder, inp, outcomes)  # the final input, the game's end not recorded
    again = make_box(folder, GAME)
    try:
        assert again.service.session is None, "a finished game must not be resumed as running"
        assert again.journal.unfinished() is None
        assert any("over" in s.lower() for s in again.said), again.said
        assert again.command("start_game", {"game": GAME, "options": table_options(GAME)})["status"] == "ok"
    finally:
        again.close()


def test_the_final_input_and_the_games_end_are_one_commit(tmp_path):
    box, rng = start(tmp_path), random.Random(2)
    for _ in range(2000):
        if box.session is None:
            break
        box.submit(next_input(box, rng))
    assert box.session is None, "the game did not end"
    box.close()
    journal = Journal(journal_path(tmp_path))
    ((ended, last_at),) = journal.conn.execute(
        "SELECT g.ended_at, MAX(e.at) FROM games g JOIN entries e ON e.game_id=g.id GROUP BY g.id"
    ).fetchall()
    journal.close()
    assert ended == last_at  # stamped in the same transaction as the last entry


def play(tmp_path, steps, seed=3):
    box, rng = start(tmp_path), random.Random(seed)
    for _ in range(steps):
        box.submit(next_input(box, rng))
    assert box.session is not None
    box.close()


def garble(data_dir, seq, column="input", text="{not json"):
    journal = Journal(journal_path(data_dir))
    journal.conn.execute(f"UPDATE entries SET {column}=? WHERE seq=?", (text, seq))
    journal.close()


def test_a_garbled_entry_is_voided_and_the_box_starts(tmp_path):
    play(tmp_path, 4)
    garble(tmp_path, 3)
    again = make_box(tmp_path, GAME)
    try:
        assert again.session is not None
        assert any("could not be read" in s for s in again.said), again.said
        voids = again.journal.conn.execute("SELECT seq, input FROM entries WHERE void=1 ORDER BY seq").fetchall()
        assert voids and voids[0] == (3, "{not json")  # kept for inspection
    finally:
        again.close()


def test_garbled_outcomes_are_voided_too(tmp_path):
    play(tmp_path, 3)
    garble(tmp_path, 2, "outcomes", "\x00\xff")
    again = make_box(tmp_path, GAME)
    try:
        assert again.session is not None and again.journal.count(again.service.record.id) == 1
    finally:
        again.close()


def test_export_and_replay_survive_a_garbled_entry(tmp_path, capsys):
    from device.cli import main

    play(tmp_path, 3)
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


def to_a_spoken_result(box, rng):
    """Play until the next input would say something; return it, its outcomes and its words."""
    for _ in range(500):
        inp = next_input(box, rng)
        outcomes, effects, copy = trial(box, inp)
        if words(box, effects) and copy.over is None:
            return inp, outcomes, words(box, effects)
        box.submit(inp)
    raise AssertionError("no input said anything")


def test_a_result_committed_before_a_crash_is_announced_on_resume(tmp_path):
    folder, box, (inp, outcomes, result) = playing(tmp_path, 4, to_a_spoken_result)
    box.close()
    journal_by_hand(folder, inp, outcomes)  # committed; the kill came before the announcement
    again = make_box(folder, GAME)
    try:
        said = list(again.said)
        assert all(text in said for text in result), f"never announced {result}: {said}"
        again.press("repeat")  # and REPEAT repeats that result, not only the prompt
        assert all(text in again.said[len(said) :] for text in result)
    finally:
        again.close()


def test_a_result_already_heard_is_not_announced_twice_but_repeat_gives_it(tmp_path):
    folder, box, (inp, _, _) = playing(tmp_path, 5, to_a_spoken_result)
    before = len(box.said)
    box.submit(inp)
    heard = [s for s in box.said[before:] if s != box.service.public_view()["prompt"]["text"]]
    assert heard
    box.close()
    again = make_box(folder, GAME)
    try:
        assert not any(text in again.said for text in heard), again.said
        start_at = len(again.said)
        again.press("repeat")
        assert all(text in again.said[start_at:] for text in heard)
    finally:
        again.close()
