"""hwhad against the game contract: the phase table, setup errors, typed refusals, the secrecy
oracle, the demo policy, the captain's "no order" (C6), plural words and the decisions of
docs/rules/hwhad.md that need a table of their own (D7, T1, T3, V1)."""

import inspect
import pathlib
import sys

import pytest
from hwhad_kit import GLUE, check, cid, step, table, walk, words

from games import widgets
from games.core import (
    Choose,
    Game,
    IllegalInput,
    NotExpected,
    Press,
    Scan,
    SetupError,
    say,
)
from games.hwhad import errors
from games.hwhad import state as st
from games.hwhad.cards import catalogue
from games.hwhad.rules import GAME, PHASES
from games.hwhad.text import render
from games.session import Session
from tests.support.demo import play_demo

HANDS = {"red": ["glue", "max"], "blue": ["paul", "jimmy", "lou"], "green": ["bubbles", "sheila"],
         "yellow": ["dowell", "torque"]}


def at_orders(hands=HANDS, **kw):
    state, _ = walk(table(hands, **kw), "paul", "sheila", "jimmy")  # nothing happens
    assert state.phase == st.ORDER
    return state


# --- The phase table ------------------------------------------------------------------------


def test_every_resting_phase_has_a_row_and_every_row_names_module_level_functions():
    resting = {v for k, v in vars(st).items() if k.isupper() and isinstance(v, str) and k not in ("VOID",)
               and not k.startswith("MODULE")} - {st.OVER, st.START_SPACEWALK}
    assert set(PHASES) == resting
    assert isinstance(GAME, Game)
    for name, phase in PHASES.items():
        for part in ("prompt", "check", "apply", "legal"):
            fn = getattr(phase, part)
            assert inspect.isfunction(fn) and fn.__qualname__ == fn.__name__, (name, part)
            assert getattr(sys.modules[fn.__module__], fn.__name__) is fn
            assert fn.__module__.startswith("games.hwhad.")


def test_no_phase_function_name_is_built_from_strings():
    source = "".join(p.read_text() for p in pathlib.Path("games/hwhad").glob("*.py"))
    assert "getattr(" not in source and "_phase(" not in source


def test_the_box_never_rests_in_the_passing_step():
    state, _ = step(at_orders(), Choose("flood"))
    state, _ = step(state, Press("ok"))  # no revolt: flood ends the game
    for start in (table(HANDS), at_orders()):
        assert start.phase != st.START_SPACEWALK
    state = at_orders()
    state, _ = step(state, Choose("no_order"))
    state, _ = step(state, Press("ok"))
    assert state.phase == st.SPACEWALK and state.spacewalks == 2


# --- Setup and typed errors -----------------------------------------------------------------


@pytest.mark.parametrize("options", [
    {"teams": ["red"]}, {"teams": ["red", "red"]}, {"teams": ["red", "orange"]}, {"teams": "red,blue"},
    {"unlockables": ["teleporter"]}, {"unlockables": "doggo"}, {"colour": "red"},
])
def test_bad_options_raise_setup_errors_not_illegal_inputs(options):
    with pytest.raises(SetupError) as err:
        GAME.setup(options)
    assert not isinstance(err.value, IllegalInput) and err.value.key == "bad_option"


def test_every_refusal_raised_by_the_rules_is_a_typed_class():
    for path in pathlib.Path("games/hwhad").glob("*.py"):
        assert "raise IllegalInput(" not in path.read_text(), path
    classes = [c for _, c in inspect.getmembers(errors, inspect.isclass) if c.__module__ == errors.__name__]
    assert len(classes) >= 6 and all(issubclass(c, IllegalInput) and issubclass(c, ValueError) for c in classes)


@pytest.mark.parametrize(("make", "inp", "cls", "key"), [
    (lambda: GAME.setup({"teams": ["red", "blue"]}), Press("ok"), None, None),
    (lambda: GAME.setup({}), Press("ok"), errors.CrewRefused, "need_teams"),
    (lambda: table(HANDS), Scan(cid("max")), errors.WrongTeam, "captain_calls_other"),
    (lambda: at_orders(), Choose("reset"), errors.OrderRefused, "reset_needs_modules"),
])
def test_refusals_carry_their_class_and_message_key(make, inp, cls, key):
    if cls is None:
        check(make(), inp)
        return
    with pytest.raises(cls) as err:
        check(make(), inp)
    assert err.value.key == key


def test_spacewalk_refusals_by_kind():
    state, _ = step(table(HANDS), Scan(cid("paul")))
    with pytest.raises(errors.SlotTaken):
        check(state, Scan(cid("paul")))
    with pytest.raises(errors.CardNotInHand):
        check(state, Scan(cid("brave")))  # waits in module 1
    with pytest.raises(errors.WrongTeam):
        check(state, Scan(cid("jimmy")))  # blue just played
    with pytest.raises(NotExpected):
        check(state, Press("red"))  # the session's prompt check, not the rules'


def test_the_rules_do_not_recheck_the_prompt_the_session_does():
    state = table(HANDS)
    session = Session(GAME, state)
    with pytest.raises(NotExpected):
        session.check(Press("ok"))
    assert GAME.prompt(state).allows(Press("ok")) is False


# --- Cards and secrets ----------------------------------------------------------------------


def test_cards_name_every_astronaut_and_unlockable_by_its_printed_name():
    cards = GAME.cards()
    assert cards.deck == "hwhad" and cards.ids[0] == GLUE and len(cards.ids) == len(catalogue())
    assert cards.name("hwhad-number5") == "Number 5" and cards.name("hwhad-glue") == "Cpt. E. Glue"


def test_a_hand_card_is_secret_during_play_and_public_after_the_end():
    state = at_orders()
    secret = GAME.secrets(state)
    assert cid("max") in secret and "Max" in secret  # in red's hand
    assert cid("brave") in secret and catalogue()[cid("brave")].name in secret  # in module 1
    assert GLUE not in secret and "Cpt. E. Glue" not in secret  # face up in front of the captain
    assert "dolphinized" in secret and "chances" in secret
    text = str(GAME.public_view(state))
    assert not any(f"'{s}'" in text for s in secret)
    over, _ = step(state, Choose("flood"))
    over, _ = step(over, Press("ok"))
    assert over.phase == st.OVER and GAME.secrets(over) == frozenset()
    assert cid("max") in str(GAME.public_view(over))


def test_the_captain_dealt_to_a_module_stays_secret_until_saved():
    state = table(HANDS, modules=("glue", "stout", "eagle"), captain="red", captain_card="max")
    assert GLUE in GAME.secrets(state)
    assert cid("max") not in GAME.secrets(state)  # the open captain card


def test_a_sighting_makes_that_name_public():
    # Eagle-Eye looks left at slot A's Lou: "Lou was seen."
    hands = {"red": ["glue", "max"], "blue": ["lou", "jimmy"], "green": ["eagle", "sheila"],
             "yellow": ["bubbles", "dowell"]}
    state, effects = walk(table(hands, modules=("brave", "stout", "peeper")), "lou", "eagle", "dowell")
    assert "Lou was seen." in words(effects)
    assert "Lou" not in GAME.secrets(state) and cid("jimmy") in GAME.secrets(state)


# --- Views ----------------------------------------------------------------------------------


def test_views_declare_widgets_and_whose_turn_it_is():
    state = at_orders()
    view = GAME.public_view(state)
    assert view["turn"] == "red" and view["round"] == 1 and view["winners"] == []
    assert {w["kind"] for w in view["widgets"]} <= set(widgets.KINDS)
    assert {w["kind"] for w in view["widgets"]} >= {"teams", "counters", "slots", "log"}
    assert view["scores"] == {"red": 2, "blue": 3, "green": 2, "yellow": 2}
    log = next(w for w in view["widgets"] if w["kind"] == "log")
    assert log["lines"] == ["Spacewalk 1: Nothing happened out there."]
    hand = GAME.team_view(state, "blue")["widgets"][0]
    assert hand["kind"] == "cards"
    assert {"name": "Paul", "text": "Engineer: the wrench faces left."} in hand["items"]
    assert {"name": "Lou", "text": "Engineer: the wrench faces right."} in hand["items"]
    green = GAME.team_view(state, "green")["widgets"]  # green holds Bubbles
    assert green[0]["kind"] == "banner" and "dolphinized" in green[0]["text"]
    assert [w["kind"] for w in GAME.team_view(state, "yellow")["widgets"]] == ["cards"]


def test_the_spacewalk_turn_is_the_team_that_calls_next():
    state = table(HANDS)
    assert GAME.public_view(state)["turn"] == "red"  # the captain calls slot A
    state, _ = step(state, Scan(cid("paul")))
    assert GAME.public_view(state)["turn"] == "blue"  # blue just played and calls slot B


def test_the_end_shows_a_banner_and_the_reveal_table():
    state, _ = step(at_orders(), Choose("flood"))
    state, _ = step(state, Press("ok"))
    view = GAME.public_view(state)
    banner = view["widgets"][0]
    assert banner["kind"] == "banner" and banner["text"] == "The spaceship is flooded. The dolphins win!"
    assert banner["detail"] == "Winner: Green."
    reveal = next(w for w in view["widgets"] if w["kind"] == "table")
    assert ["Green", "dolphinized", "Bubbles, Sheila"] in reveal["rows"]
    assert view["winners"] == ["green"]


# --- The demo policy ------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(12))
def test_the_demo_policy_plays_a_game_to_its_end(seed):
    run = play_demo(GAME, seed)
    session = run.session
    assert session.over is not None and GAME.demo_input(session.state, 9999) is None
    assert run.refused >= 1 and run.undone == 1
    assert len(session.state.teams) == 4 and "purple" not in session.state.teams


# --- C6: the captain may give no order ------------------------------------------------------


def test_no_order_then_the_panic_vote_then_the_next_spacewalk():
    state, effects = step(at_orders(), Choose("no_order"))
    assert state.phase == st.VOTE and words(effects) == ["The captain gives no order."]
    state, effects = step(state, Press("ok"))
    assert words(effects)[0] == "0 panic tokens from 3 voters: no revolt. The captain stays captain."
    assert state.phase == st.SPACEWALK and state.captain == "red" and state.spacewalks == 2


def test_no_order_on_the_panel_is_a_short_ok_and_a_revolt_still_overthrows_the_captain():
    state, _ = step(at_orders(tokens={"blue": 1, "green": 1, "yellow": 1}), Press("ok"))
    assert state.phase == st.VOTE and state.order == "no_order"
    for team in ("blue", "green", "yellow"):
        state, _ = step(state, Press(team))
    state, effects = step(state, Press("ok"))
    assert "3 panic tokens from 3 voters: REVOLT!" in words(effects)
    assert GLUE in state.void and state.order == ""


def test_no_order_is_always_legal_at_the_orders():
    legal = GAME.legal_inputs(at_orders())
    assert Choose("no_order") in legal and Press("ok") in legal


# --- Plural forms ---------------------------------------------------------------------------


def test_plural_forms_follow_the_count():
    assert render(say("crewing", count=1)).endswith("1 team so far.")
    assert render(say("crewing", count=3)).endswith("3 teams so far.")
    assert render(say("boarding", count=1)) == "Scan the top card, face down. 1 card to deal."
    assert "takes 1 panic token and" in render(say("panic_raised", team="red", count=1, module=2))
    assert "takes 3 panic tokens and" in render(say("panic_raised", team="red", count=3, module=2))


def test_the_box_renderer_uses_the_same_plural_forms():
    from device.hardware.voice.render import render as box_render

    assert box_render(say("not_enough_tokens", team="red", count=1), "hwhad") == "Red holds only 1 panic token."
    assert box_render(say("not_enough_tokens", team="red", count=2), "hwhad") == "Red holds only 2 panic tokens."


# --- Decisions of docs/rules/hwhad.md that need their own table -----------------------------


def test_d7_a_short_tray_serves_teams_in_the_order_they_joined():
    state = table(HANDS, tokens={"red": 5, "blue": 5, "green": 5})
    assert state.tray == 1
    state, effects = walk(state, "paul", "sheila", "jimmy")  # red and yellow were not out there
    assert state.tray == 0 and state.tokens == (6, 5, 5, 0)
    assert "Red takes a panic token." in words(effects)


def test_t1_a_team_with_no_astronauts_takes_no_token():
    hands = {"red": ["glue", "max"], "blue": ["paul", "jimmy", "lou"], "green": ["bubbles", "sheila"],
             "yellow": []}
    state, effects = walk(table(hands), "paul", "sheila", "jimmy")
    assert state.tokens == (1, 0, 0, 0)
    assert "Red takes a panic token." in words(effects)


def microwave_wipeout():
    """Every astronaut on board goes out on one spacewalk and Mr. Microwave takes them all; the
    captain card (Number 5) is among them, nobody was ever dolphinized."""
    hands = {"red": ["number5"], "blue": ["max"], "green": ["microwave"]}
    state = table(hands, captain="red", captain_card="number5", unlocked=("microwave",))
    state, effects = walk(state, "max", "microwave", "number5")
    return state, effects


def test_t3_with_no_astronaut_left_the_captain_keeps_command_without_a_card():
    state, effects = microwave_wipeout()
    assert state.phase == st.ORDER and state.captain == "red" and state.captain_card == ""
    assert "No team has astronauts left: Red keeps command." in words(effects)


def test_v1_with_no_voter_the_order_stands_at_once():
    state, _ = microwave_wipeout()
    over, effects = step(state, Choose("flood"))
    assert words(effects)[:2] == ["The captain orders to flood the spaceship!", "Nobody can vote: the order stands."]
    assert over.phase == st.OVER and over.result == "nobody_wins_flood"
    again, effects = step(state, Choose("no_order"))
    assert "Nobody can vote: the captain stays captain." in words(effects)
    assert again.phase == st.ORDER  # no spacewalk is possible: back to the captain


@pytest.mark.parametrize("seed", range(40))
def test_no_public_view_of_a_random_game_names_a_secret(seed):
    import json
    import re

    from hwhad_kit import random_game

    for state, _, _ in random_game(seed, 3 + seed % 3, unlock=seed % 2 == 0):
        secret = GAME.secrets(state)
        text = json.dumps(GAME.public_view(state))
        for item in secret:
            assert not re.search(r"(?<![\w-])" + re.escape(item) + r"(?![\w-])", text), (state.phase, item)
