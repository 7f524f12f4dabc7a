"""Alien on Board against the game contract: the phase table, setup errors, the (empty) secrecy
oracle, the demo policy through a session, and the widgets its views declare."""

import inspect
import sys

import pytest
from alien_play import GAME, play_round, seated

from games import widgets
from games.alien import state as st
from games.alien.rules import PHASES
from games.core import Game, IllegalInput, NotExpected, Press, SetupError
from tests.support.demo import play_demo


def test_every_phase_but_the_end_has_a_row_of_module_level_functions():
    assert isinstance(GAME, Game)
    assert set(PHASES) == set(st.PHASES) - {st.OVER}
    for name, phase in PHASES.items():
        for part in ("prompt", "check", "apply", "legal"):
            fn = getattr(phase, part)
            assert inspect.isfunction(fn) and fn.__qualname__ == fn.__name__, (name, part)
            assert getattr(sys.modules[fn.__module__], fn.__name__) is fn
            assert fn.__name__ == f"{name}_{part}"


@pytest.mark.parametrize("options", [
    {"rounds": 0}, {"rounds": "ten"}, {"rounds": True}, {"players": ["red", "blue"]},
    {"players": ["red", "red", "blue"]}, {"players": ["red", "blue", "orange"]}, {"seats": 4},
])
def test_bad_options_raise_setup_errors_not_illegal_inputs(options):
    with pytest.raises(SetupError) as err:
        GAME.setup(options)
    assert not isinstance(err.value, IllegalInput) and err.value.key == "bad_option"


def test_the_session_checks_the_prompt_and_the_rules_only_their_own_refusals():
    table = seated(["red", "blue", "green"])
    with pytest.raises(NotExpected):
        table.session.check(Press("red"))  # the questioning waits for OK
    assert not GAME.prompt(table.state).allows(Press("red"))


def test_nothing_the_box_holds_is_secret():
    table = seated(["red", "blue", "green"])
    assert GAME.secrets(table.state) == frozenset()
    play_round(table, {"red": "green", "blue": "green", "green": "red"}, "green")
    assert GAME.secrets(table.state) == frozenset()
    assert GAME.cards().ids == ()


def test_views_declare_the_disc_scores_history_and_whose_turn_it_is():
    table = seated(["red", "blue", "green"], rounds=2)
    view = GAME.public_view(table.state)
    assert view["turn"] == "red" and view["round"] == 1  # the commander presses OK when rockets are down
    table.press("ok")
    table.press("green")  # red's rocket stands on green
    view = GAME.public_view(table.state)
    assert view["turn"] == "blue"
    kinds = [w["kind"] for w in view["widgets"]]
    assert set(kinds) <= set(widgets.KINDS) and {"teams", "disc", "table", "log"} <= set(kinds)
    disc = next(w for w in view["widgets"] if w["kind"] == "disc")
    assert {"team": "green", "label": "Red", "marked": False} in disc["segments"]
    table.press("green")
    table.press("red")
    table.press("green")  # green reveals: exposed
    view = GAME.public_view(table.state)
    assert view["scores"] == {"red": 2, "blue": 2, "green": 0}
    log = next(w for w in view["widgets"] if w["kind"] == "log")
    assert log["lines"][0].startswith("Round 1 of 2: Green was the alien! Exposed!")
    play_round(table, {"green": "red", "red": "blue", "blue": "red"}, "blue")
    view = GAME.public_view(table.state)
    banner = view["widgets"][0]
    assert banner == {"kind": "banner", "title": "Game over", "text": "Blue was the alien!",
                      "detail": banner["detail"]}
    assert view["winners"] and banner["detail"]
    scores = next(w for w in view["widgets"] if w["kind"] == "table")
    assert scores["rows"][-1][0] == "Total" and scores["rows"][-1][1:] == [view["scores"][p] for p in
                                                                             ("red", "blue", "green")]


def test_the_demo_policy_plays_to_the_end_through_a_session():
    run = play_demo(GAME, limit=500)
    session = run.session
    assert session.over is not None and session.state.players == ("red", "blue", "green")
    assert run.refused == 2 and run.undone == 1
    assert [r.alien for r in session.state.history] == ["green", "blue", "red"]
    assert [r.verdict for r in session.state.history] == ["exposed", "tie", "escaped"]


def test_a_team_view_shows_the_players_total_and_whose_turn():
    table = seated(["red", "blue", "green"])
    view = GAME.team_view(table.state, "red")
    assert view["your_turn"] and view["widgets"][0] == {
        "kind": "counters", "title": "Red", "items": [{"label": "points", "value": 0}]}
    assert view["widgets"][1]["kind"] == "banner"
    assert GAME.team_view(table.state, "blue")["widgets"][1:] == []
    assert GAME.team_view(table.state, "white")["widgets"] == []


def test_the_commander_badge_goes_when_the_game_ends():
    """Issue 14: the commander badge stayed on the dashboard after Alien on Board ended."""
    table = seated(["red", "blue", "green"], rounds=1)
    badges = {r["team"]: r["badges"] for r in GAME.public_view(table.state)["widgets"][0]["rows"]}
    assert badges["red"]  # red commands the first round
    play_round(table, {"red": "blue", "blue": "green", "green": "red"}, "green")
    view = GAME.public_view(table.state)
    assert view["phase"] == st.OVER and view["commander"] is None
    rows = next(w for w in view["widgets"] if w["kind"] == "teams")["rows"]
    assert all(not r["badges"] for r in rows)
    disc = next(w for w in view["widgets"] if w["kind"] == "disc")
    assert not any(s["marked"] for s in disc["segments"])
