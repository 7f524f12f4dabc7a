"""Rule 6 (detaching a module) and rule 7 (the return of the astronauts)."""

import pytest
from hwhad_kit import GLUE, check, cid, step, table, walk, words

from games.core import IllegalInput, Press, Reveal, Scan
from games.hwhad.rules import GAME
from games.hwhad.state import DETACH, ORDER, SUCCESSOR_CARD, SUCCESSOR_TIE

HANDS = {"red": ["glue", "max"], "blue": ["lou", "number5", "jimmy"], "green": ["dowell", "paul"],
         "yellow": ["flipper", "sheila"]}


def opened(modules=("brave", "stout", "eagle"), hands=HANDS, **kw):
    state = table(hands, modules=modules, **kw)
    state, effects = walk(state, "lou", "dowell", "number5")
    assert state.phase == DETACH and state.actor == "green"
    assert words(effects)[0] == "A module was opened."
    return state


def test_the_heros_team_saves_the_module_astronaut_and_the_hero_goes_to_the_void():
    state, effects = step(opened(), Scan(cid("brave")))
    assert cid("brave") in state.hands[2] and cid("dowell") in state.void
    assert state.detached == 1 and state.modules[0] == "" and state.phase == ORDER
    assert words(effects)[:2] == ["Green saves the astronaut of module 1. The module is detached.",
                                  "Slot B goes to the void; everyone else returns to their team."]
    assert cid("lou") in state.hands[1] and cid("number5") in state.hands[1]


def test_raising_the_panic_takes_three_tokens_and_voids_the_module_astronaut():
    before = opened()
    state, effects = step(before, Press("green", hold=True))
    assert state.tokens[2] == before.tokens[2] + 3 and state.tray == before.tray - 3 - 2
    assert cid("brave") in state.void and state.detached == 1
    assert "PANIC! Green takes 3 panic tokens" in words(effects)[0]


def test_only_the_heros_team_decides_and_only_about_the_module_card():
    state = opened()
    with pytest.raises(IllegalInput, match="only_team_decides"):
        check(state, Press("blue", hold=True))
    with pytest.raises(IllegalInput, match="not_module_card"):
        check(state, Scan(cid("stout")))


def test_modules_open_in_order():
    state, _ = step(opened(), Scan(cid("brave")))
    assert GAME.public_view(state)["modules"] == [{"module": 1, "detached": True},
                                                   {"module": 2, "detached": False},
                                                   {"module": 3, "detached": False}]


def test_saving_the_captain_makes_him_captain_at_once_and_voids_the_former_captain():
    hands = {"red": ["max", "sheila"], "blue": ["lou", "number5", "jimmy"], "green": ["dowell", "paul"],
             "yellow": ["flipper", "torque"]}
    state = opened(modules=("glue", "stout", "eagle"), hands=hands, captain="red", captain_card="max")
    state, effects = step(state, Scan(GLUE))
    assert state.captain == "green" and state.captain_card == GLUE
    assert cid("max") in state.void and cid("max") not in state.hands[0]
    assert any(isinstance(e, Reveal) for e in effects)
    assert "Green saved Cpt. E. Glue! He takes command at once; the former captain goes to the void." in words(effects)


def test_saving_a_dolphin_dolphinizes_the_team():
    state = opened(modules=("bubbles", "stout", "eagle"))
    assert not state.dolphinized[2]
    state, _ = step(state, Scan(cid("bubbles")))
    assert state.dolphinized[2] and cid("bubbles") in state.hands[2]


def test_return_gives_idle_teams_a_token_and_names_the_void_slots():
    state = table(HANDS, tokens={"red": 0, "blue": 1, "green": 1, "yellow": 1})
    state, effects = walk(state, "lou", "paul", "jimmy", hit="C")
    assert words(effects) == ["Astronaut C disappeared in the void.",
                              "Slot C goes to the void; everyone else returns to their team.",
                              "Red and Yellow take a panic token each."]
    assert state.tokens == (1, 1, 1, 2) and state.tray == 16 - 5


def test_when_the_captain_dies_the_team_with_most_astronauts_provides_the_next():
    hands = {"red": ["glue", "max"], "blue": ["paul", "jimmy", "lou"], "green": ["bubbles", "sheila"]}
    state = table(hands)
    state, effects = walk(state, "paul", "bubbles", "glue")  # example 2: the dolphin kills the captain
    assert state.phase == SUCCESSOR_CARD and state.actor == "blue"
    assert words(effects)[-2:] == ["The captain is lost!", "Blue provides the new captain."]
    with pytest.raises(IllegalInput, match="not_in_team_hand"):
        check(state, Scan(cid("sheila")))
    state, effects = step(state, Scan(cid("lou")))
    assert state.captain == "blue" and state.captain_card == cid("lou") and state.phase == ORDER
    assert any(isinstance(e, Reveal) for e in effects)
    assert GAME.public_view(state)["captain_card"]["name"] == "Lou"


def test_a_tie_for_most_astronauts_is_decided_by_the_former_captain():
    hands = {"red": ["glue", "max"], "blue": ["paul", "jimmy"], "green": ["bubbles", "sheila"]}
    state, effects = walk(table(hands), "paul", "bubbles", "glue")
    assert state.phase == SUCCESSOR_TIE and state.candidates == ("blue", "green") and state.actor == "red"
    assert words(effects)[-1] == "Blue and Green have the most astronauts: Red, press the button of your " \
                                 "successor's team."
    with pytest.raises(IllegalInput, match="not_a_candidate"):
        check(state, Press("red"))
    state, _ = step(state, Press("green"))
    assert state.phase == SUCCESSOR_CARD and state.actor == "green"


def test_a_hero_captain_card_opening_the_captains_module_goes_to_the_void_once():
    # Green's captain card is a hero; it opens module 1, where Cpt. E. Glue waits.
    hands = {"red": ["max", "sheila"], "blue": ["lou", "number5", "jimmy"], "green": ["dowell", "paul"]}
    state = table(hands, modules=("glue", "stout", "eagle"), captain="green", captain_card="dowell")
    state, _ = walk(state, "lou", "dowell", "number5")
    state, effects = step(state, Scan(GLUE))
    assert state.void.count(cid("dowell")) == 1
    assert state.captain == "green" and state.captain_card == GLUE and state.phase == ORDER
    assert "Slot B goes to the void; everyone else returns to their team." in words(effects)
