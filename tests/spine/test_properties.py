"""Property tests: replaying the journal rebuilds the live state; undo restores the exact past."""

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.box.chance import draw_all
from device.box.journal import Journal, journal_path
from device.box.service import Service
from device.cli.commands.journal_tools import export_lines, replay_lines
from games.core import GameOver, Press, RuleError, Scan
from games.dog.rules import GAME
from games.session import Entry, Session, replay

actions = st.lists(
    st.sampled_from(["ok", "hold", "undo", "red", "blue", "scan"]), min_size=1, max_size=40
)
TWO = {"teams": ["red", "blue"]}


def as_input(action):
    return {"hold": Press("ok", hold=True), "scan": Scan("max")}.get(action) or Press(action)
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
        inp = as_input(action)
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


@given(actions, st.lists(faces, min_size=40, max_size=40))
@settings(max_examples=200, deadline=None)
def test_undo_restores_the_exact_state_before_the_last_undoable_input(script, rolls):
    s = Session.start(GAME, TWO)
    history = []  # states before each undoable input still on the stack
    for step, (action, face) in enumerate(zip(script, rolls, strict=False)):
        if s.over:
            break
        if action == "undo":
            if history:
                s.undo()
                assert s.state == history.pop()
            else:
                assert not s.undo_stack
            continue
        inp = as_input(action)
        try:
            requests = s.check(inp)
        except RuleError:
            continue
        before = s.state
        effects = s.submit(inp, {r.name: f for r, f in zip(requests, face, strict=False)}, step)
        if requests or any(isinstance(e, GameOver) for e in effects):
            history.clear()  # chance is a barrier, and so is the end
        else:
            history.append(before)
        assert len(s.undo_stack) == len(history)


@given(st.lists(st.sampled_from(["ok", "hold", "back", "red", "blue", "repeat", "bogus"]), min_size=1, max_size=25))
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
    requests = GAME.validate(GAME.setup(TWO), Press("ok"))
    outcomes = draw_all(requests)
    assert set(outcomes) == {"die_A", "die_B", "die_C"}
    assert all(0 <= v < 6 for v in outcomes.values())
