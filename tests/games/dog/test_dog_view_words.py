"""The public log's words are remembered per line (games/dog/views.py `said`): every view must
still say exactly what rendering each line afresh says, and the memory stays bounded."""

import random

from device.box.chance import SeededDrawer
from games.core import Say
from games.dog import views
from games.dog.rules import GAME
from games.dog.state import LOG_LINES
from games.session import Session


def _play(steps: int, seed: int) -> list[Session]:
    rng = random.Random(seed)
    drawer = SeededDrawer(random.Random(seed + 1))
    session = Session.start(GAME, GAME.demo_options())
    seen = []
    for seq in range(1, steps + 1):
        if session.over is not None:
            session = Session.start(GAME, GAME.demo_options())
        state = session.state
        inp = GAME.random_input(state, GAME.legal_inputs(state), rng.randrange)
        session.submit(inp, drawer.outcomes(session.check(inp)), seq)
        seen.append(session)
    return seen


def test_every_view_says_each_log_line_as_a_fresh_render_does():
    for session in _play(600, seed=5):
        state = session.state
        view = GAME.public_view(state)
        logs = [w for w in view["widgets"] if w["kind"] == "log"]
        assert logs[0]["lines"] == [views.words(line) for line in state.log[-LOG_LINES:]]


def test_a_new_line_equal_in_content_but_another_object_is_rendered_for_itself():
    first = Say("stole", {"team": "red", "victim": "blue", "item": "meat"})
    assert views.said(first) == views.words(first)
    other = Say("stole", {"team": "green", "victim": "blue", "item": "meat"})
    assert views.said(other) == views.words(other) != views.said(first)


def test_the_remembered_words_are_bounded():
    for i in range(5 * views._SAID_MAX):
        views.said(Say("round_start", {"round": i}))
    assert len(views._said) <= views._SAID_MAX
