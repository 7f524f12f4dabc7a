"""The demo policy plays a whole game through a Session, showing every kind of step."""

import random
from collections import Counter

from games.core import BACK, Press, RuleError, Say
from games.dog.rules import GAME
from games.session import Session


def run_demo(seed: int):
    rng = random.Random(seed)
    session = Session.start(GAME, GAME.demo_options())
    shown: Counter[str] = Counter()
    for step in range(2000):
        inp = GAME.demo_input(session.state, step)
        if inp is None:
            break
        if inp == Press(BACK):
            session.undo()
            shown["back"] += 1
            continue
        try:
            requests = session.check(inp)
        except RuleError as err:
            shown[f"refused:{err.key}"] += 1
            continue
        effects = session.submit(inp, {r.name: rng.randrange(len(r.weights)) for r in requests}, step)
        if requests:
            shown["roll"] += 1
        for e in effects:
            if isinstance(e, Say):
                shown[e.key] += 1
    return session, shown


def test_the_demo_plays_a_whole_game_showing_each_kind_of_step():
    session, shown = run_demo(1)
    assert session.over is not None and session.over.reason == "rounds_played"
    assert shown["back"] == 1 and shown["refused:already_in_order"] == 1
    assert shown["roll"] > 10
    assert shown["took_two"] + shown["took_pair"] + shown["took_one"] > 5
    assert shown["exchanged"] >= 1 and shown["stole"] >= 1
    assert shown["incident_feed"] + shown["incident_assault"] + shown["incident_fire_fest"] >= 1
    assert session.state.teams == ("red", "blue", "green")


def test_the_demo_is_a_pure_policy():
    state = GAME.setup(GAME.demo_options())
    assert GAME.demo_input(state, 0) == GAME.demo_input(state, 0) == Press("red")
    for seed in range(5):
        session, _shown = run_demo(seed)
        assert session.over is not None
