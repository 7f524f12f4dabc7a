"""Property tests: replaying the journal rebuilds the live state; undo restores the exact past."""

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.box.chance import draw_all
from device.box.journal import Journal, journal_path
from device.box.service import Service
from device.cli.commands.journal_tools import export_lines, replay_lines
from games.core import GameOver, Press, RuleError
from games.dog.rules import GAME
from games.session import Entry, Session, replay

actions = st.lists(
    st.sampled_from(["roll", "end_round", "undo", "red", "scan"]), min_size=1, max_size=40
)
faces = st.lists(st.integers(0, 5), min_size=3, max_size=3)


@given(actions, st.lists(faces, min_size=40, max_size=40))
@settings(max_examples=200, deadline=None)
def test_replay_of_entries_equals_live_session(script, rolls):
    live = Session.start(GAME, {})
    entries: list[Entry] = []
    seq = 0
    for action, face in zip(script, rolls, strict=False):
        if live.over:
            break
        if action == "undo":
            if live.undo_stack:
                seq += 1
                live.undo()
                entries.append(Entry(seq, "undo"))
            continue
        inp = Press("ok", hold=action == "end_round") if action in ("roll", "end_round") else Press("red")
        try:
            requests = live.check(inp)
        except RuleError:
            continue
        outcomes = {r.name: f for r, f in zip(requests, face, strict=False)}
        seq += 1
        live.submit(inp, outcomes, seq)
        entries.append(Entry(seq, "input", inp, outcomes))
    rebuilt = replay(GAME, {}, entries)
    assert rebuilt.state == live.state
    assert [u.before for u in rebuilt.undo_stack] == [u.before for u in live.undo_stack]


@given(actions)
@settings(max_examples=200, deadline=None)
def test_undo_restores_the_exact_state_before_the_last_undoable_input(script):
    s = Session.start(GAME, {})
    history = []  # states before each undoable input still on the stack
    for step, action in enumerate(script):
        if s.over:
            break
        if action == "undo":
            if history:
                s.undo()
                assert s.state == history.pop()
            else:
                assert not s.undo_stack
            continue
        if action == "end_round":
            before = s.state
            effects = s.submit(Press("ok", hold=True), {}, step)
            if any(isinstance(e, GameOver) for e in effects):
                history.clear()
            else:
                history.append(before)
        elif action == "roll":
            s.submit(Press("ok"), {"die_A": 0, "die_B": 2, "die_C": 4}, step)
            history.clear()  # chance is a barrier
        assert len(s.undo_stack) == len(history)


@given(st.lists(st.sampled_from(["ok", "hold", "back", "red", "repeat", "bogus"]), min_size=1, max_size=25))
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_service_journal_replays_to_the_live_state(presses):
    with tempfile.TemporaryDirectory() as tmp:
        journal = Journal(journal_path(Path(tmp)))
        service = Service(journal, default_game="dog")
        service.resume()
        service.start_game("dog", {})
        for name in presses:
            service.press(Press("ok", hold=True) if name == "hold" else Press(name))
        live = service.session or service.finished
        record = journal.games()[-1]
        rebuilt = replay_lines(export_lines(journal, record.id))
        assert rebuilt.state == live.state
        journal.close()


def test_draw_all_answers_every_request():
    requests = GAME.validate(GAME.setup({}), Press("ok"))
    outcomes = draw_all(requests)
    assert set(outcomes) == {"die_A", "die_B", "die_C"}
    assert all(0 <= v < 6 for v in outcomes.values())
