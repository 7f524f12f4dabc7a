"""Rule 8: the captain's order, the panic vote, revolts and the sacrifice."""

import pytest
from hwhad_kit import GLUE, check, cid, step, table, walk, words

from games.core import Choose, IllegalInput, Press, Scan
from games.hwhad.rules import GAME
from games.hwhad.state import ORDER, SPACEWALK, SUCCESSOR_CARD, SUCCESSOR_TIE, THREATEN, VICTIM, VOTE

HANDS = {"red": ["glue", "max"], "blue": ["paul", "jimmy", "lou"], "green": ["bubbles", "sheila"],
         "yellow": ["dowell", "torque"]}


def at_orders(tokens=None, hands=HANDS):
    state, _ = walk(table(hands, tokens=tokens), "paul", "sheila", "jimmy")  # nothing happens
    assert state.phase == ORDER
    return state


def test_sacrifice_names_a_team_then_the_vote_then_that_team_scans_its_victim():
    state, effects = step(at_orders(), Choose("sacrifice"))
    assert state.phase == THREATEN and words(effects) == ["The captain orders a sacrifice."]
    with pytest.raises(IllegalInput, match="cannot_threaten_own"):
        check(state, Press("red"))
    state, effects = step(state, Press("yellow"))
    assert state.phase == VOTE and words(effects) == ["Yellow is threatened."]
    state, effects = step(state, Press("ok"))
    assert state.phase == VICTIM and state.actor == "yellow"
    assert words(effects) == ["0 panic tokens from 3 voters: no revolt. The order stands."]
    with pytest.raises(IllegalInput, match="not_in_team_hand"):
        check(state, Scan(cid("max")))
    state, effects = step(state, Scan(cid("torque")))
    assert cid("torque") in state.void and state.phase == SPACEWALK and state.spacewalks == 2
    assert words(effects)[0] == "Yellow sent an astronaut to the void."


def test_reset_is_refused_before_three_modules_are_detached():
    state = at_orders()
    with pytest.raises(IllegalInput) as err:
        check(state, Choose("reset"))
    assert err.value.key == "reset_needs_modules" and err.value.params == {"detached": 0}
    assert Choose("reset") not in GAME.legal_inputs(state)


def test_sacrifice_needs_another_team_with_astronauts():
    state = table({"red": ["glue", "max"], "blue": []}, dolphinized=("blue",))
    assert state.phase == ORDER
    with pytest.raises(IllegalInput, match="no_one_to_sacrifice"):
        check(state, Choose("sacrifice"))


def test_votes_are_button_presses_and_nobody_spends_more_than_they_hold():
    state, _ = step(at_orders(tokens={"blue": 1, "green": 2, "yellow": 1}), Choose("flood"))
    assert state.phase == VOTE
    state, _ = step(state, Press("blue"))
    with pytest.raises(IllegalInput) as err:
        check(state, Press("blue"))  # blue holds one token (it was on the spacewalk)
    assert err.value.key == "not_enough_tokens"
    with pytest.raises(IllegalInput, match="not_a_voter"):
        check(state, Press("red"))  # the captain's team does not vote
    assert GAME.public_view(state)["teams"][1]["votes"] == 1


def test_a_revolt_when_the_tokens_reach_the_number_of_voters():
    # 3 voters need 3 tokens. Yellow invests most and provides the captain; the order is dropped.
    state, _ = step(at_orders(tokens={"blue": 1, "green": 1, "yellow": 1}), Choose("flood"))
    tray = state.tray
    for team in ("yellow", "yellow", "blue"):
        state, _ = step(state, Press(team))
    state, effects = step(state, Press("ok"))
    assert words(effects)[:3] == ["3 panic tokens from 3 voters: REVOLT!",
                                  "The captain goes to the void with Cpt. E. Glue.",
                                  "Yellow provides the new captain."]
    assert GLUE in state.void and state.phase == SUCCESSOR_CARD and state.actor == "yellow"
    assert state.tray == tray + 3 and state.tokens == (1, 0, 1, 0) and state.order == ""
    state, _ = step(state, Scan(cid("dowell")))
    assert state.captain == "yellow" and state.captain_card == cid("dowell") and state.phase == SPACEWALK


def test_no_revolt_below_the_number_of_voters_and_tokens_still_go_back():
    state, _ = step(at_orders(tokens={"blue": 1, "green": 1, "yellow": 1}), Choose("sacrifice"))
    state, _ = step(state, Press("green"))
    state, _ = step(state, Press("yellow"))
    state, _ = step(state, Press("yellow"))
    state, effects = step(state, Press("ok"))
    assert words(effects) == ["2 panic tokens from 3 voters: no revolt. The order stands."]
    assert state.phase == VICTIM and state.tokens[3] == 0


def test_revolt_ties_most_astronauts_then_the_former_captain_chooses():
    hands = {"red": ["glue", "max"], "blue": ["paul", "jimmy"], "green": ["bubbles", "sheila"],
             "yellow": ["dowell", "torque"]}
    state, _ = walk(table(hands, tokens={"blue": 2, "green": 2, "yellow": 2}), "paul", "sheila", "jimmy")
    state, _ = step(state, Choose("flood"))
    for team in ("blue", "green"):
        state, _ = step(state, Press(team))
    state, _ = step(state, Press("blue"))
    state, _ = step(state, Press("green"))
    state, _effects = step(state, Press("ok"))  # blue 2, green 2: tied, both with 2 astronauts
    assert state.phase == SUCCESSOR_TIE and state.candidates == ("blue", "green") and state.actor == "red"
    state, _ = step(state, Press("blue"))
    assert state.phase == SUCCESSOR_CARD and state.actor == "blue"


def test_top_investors_tied_the_one_with_most_astronauts_provides():
    state, _ = step(at_orders(tokens={"blue": 2, "green": 2, "yellow": 2}), Choose("flood"))
    for team in ("blue", "green", "blue", "green"):
        state, _ = step(state, Press(team))
    state, _effects = step(state, Press("ok"))  # blue has 3 astronauts, green 2
    assert state.phase == SUCCESSOR_CARD and state.actor == "blue"


def test_the_temporary_captain_overthrown_sends_no_card_to_the_void():
    hands = {"red": ["max"], "blue": ["paul", "jimmy", "lou"], "green": ["bubbles", "sheila"]}
    state = table(hands, modules=("glue", "brave", "stout"), captain="red", captain_card="",
                  tokens={"blue": 1, "green": 1})
    state, _ = walk(state, "paul", "sheila", "jimmy")
    state, _ = step(state, Choose("flood"))
    void = state.void
    state, _ = step(state, Press("blue"))
    state, _ = step(state, Press("green"))
    state, effects = step(state, Press("ok"))
    assert "2 panic tokens from 2 voters: REVOLT!" in words(effects)
    assert state.void == void and state.hands[0] == (cid("max"),)


def test_orders_from_the_panel_alone():
    # A team's button: sacrifice from that team; captain holds own button: flood; hold OK: reset.
    state, effects = step(at_orders(), Press("yellow"))
    assert (state.phase, state.order, state.threatened) == (VOTE, "sacrifice", "yellow")
    assert words(effects) == ["The captain orders a sacrifice.", "Yellow is threatened."]
    state, effects = step(at_orders(), Press("red", hold=True))
    assert (state.phase, state.order) == (VOTE, "flood")
    with pytest.raises(IllegalInput, match="reset_needs_modules"):
        check(at_orders(), Press("ok", hold=True))
    with pytest.raises(IllegalInput, match="cannot_threaten_own"):
        check(at_orders(), Press("red"))
    with pytest.raises(IllegalInput, match="not_expected"):
        check(at_orders(), Press("blue", hold=True))
