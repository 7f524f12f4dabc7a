"""Army rules: a third whale of a colour, the steal, turtles, superheroes and the expansion cards."""

import pytest
from whales_kit import army, give, keys, over, press, scan, step, table

from games.core import Press, RuleError
from games.whales.rules import GAME
from games.whales.state import DECLARE, DISCARD, OVER, STEAL_CARD, STEAL_FROM, TURTLE, WILD_SET


def overflowed(armies, **kw):
    """Red receives a third red whale (red-3) from blue's turn... by keeping blue's offer."""
    state = table(armies, player=1, **kw)
    return give(state, "red-3", "red")


def test_a_third_whale_of_a_colour_discards_all_three_and_the_player_steals():
    state, effects = overflowed({"red": ["red-1", "red-2"], "blue": ["blue-1", "blue-4"], "green": ["grey-5"]})
    assert army(state, "red") == []
    assert {"whales-red-1", "whales-red-2", "whales-red-3"} <= set(state.discard)
    assert state.phase == STEAL_FROM and state.actor == "red" and "overflow" in keys(effects)
    assert {p.button for p in GAME.legal_inputs(state)} == {"blue", "green"}


def test_a_stolen_whale_must_be_the_lowest_of_its_colour():
    state, _ = overflowed({"red": ["red-1", "red-2"], "blue": ["blue-1", "blue-4"], "green": ["grey-5"]})
    state, _ = press(state, "blue")
    assert state.phase == STEAL_CARD
    with pytest.raises(RuleError) as err:
        scan(state, "blue-4")
    assert err.value.key == "steal_not_lowest" and err.value.params["lowest"] == "Blue Whale 1"
    with pytest.raises(RuleError) as err:
        scan(state, "grey-5")
    assert err.value.key == "steal_not_there"
    state, _ = scan(state, "blue-1")
    assert army(state, "red") == ["blue-1"] and army(state, "blue") == ["blue-4"]
    assert state.phase == DISCARD and state.player == 2


def test_a_superhero_may_be_stolen():
    state, _ = overflowed({"red": ["red-1", "red-2"], "blue": ["hero-net", "blue-4"], "green": ["grey-5"]})
    state, _ = press(state, "blue")
    state, _ = scan(state, "hero-net")
    assert army(state, "red") == ["hero-net"]


def test_a_stolen_whale_that_is_again_a_third_discards_again_and_steals_again():
    state, _ = overflowed({"red": ["red-1", "red-2", "blue-2", "blue-3"], "blue": ["blue-1"], "green": ["grey-5"]})
    state, _ = press(state, "blue")
    state, effects = scan(state, "blue-1")
    assert keys(effects).count("overflow") == 1 and army(state, "red") == []
    assert state.phase == STEAL_FROM and {p.button for p in GAME.legal_inputs(state)} == {"green"}


def test_with_nothing_to_steal_the_turn_ends():
    state, effects = overflowed({"red": ["red-1", "red-2"], "blue": [], "green": []})
    assert "nothing_to_steal" in keys(effects) and state.phase == DISCARD


def test_the_shield_is_never_stolen():
    state, _ = overflowed({"red": ["red-1", "red-2"], "blue": ["shield", "blue-4"], "green": []}, expansion=True)
    state, _ = press(state, "blue")
    with pytest.raises(RuleError) as err:
        scan(state, "shield")
    assert err.value.key == "steal_shield"
    only_shield, _ = overflowed({"red": ["red-1", "red-2"], "blue": ["shield"], "green": []}, expansion=True)
    assert only_shield.phase == DISCARD  # nobody had anything stealable


def test_a_turtle_makes_its_receiver_discard_an_own_card_and_the_turtle():
    state = table({"red": ["red-1"], "blue": ["hero-net", "blue-4"], "green": []})
    state, _ = scan(state, "red-5", "turtle-1")
    state, _ = press(state, "blue")
    state, _ = scan(state, "turtle-1")
    assert state.phase == TURTLE and state.actor == "blue"
    with pytest.raises(RuleError) as err:
        scan(state, "red-1")
    assert err.value.key == "turtle_not_own"
    state, _ = scan(state, "hero-net")  # "They may even discard a superhero card."
    assert army(state, "blue") == ["blue-4"]
    assert state.discard[-2:] == ("whales-hero-net", "whales-turtle-1")
    assert state.phase == DISCARD


def test_a_turtle_sent_back_hits_the_offerer_and_an_empty_army_only_discards_the_turtle():
    state = table({"red": [], "blue": ["blue-4"], "green": []})
    state, effects = give(state, "turtle-2", "blue", keep=False)
    assert "turtle_nothing" in keys(effects) and state.discard[-1] == "whales-turtle-2"
    assert state.phase == DISCARD and army(state, "red") == []


def test_superheroes_join_the_army_and_three_end_the_game_for_the_superspy():
    state = table({"red": ["red-1"], "blue": ["hero-net", "hero-sonar"], "green": []})
    state, effects = give(state, "hero-krill", "blue")
    assert army(state, "blue")[-1] == "hero-krill"
    assert "end_three_superheroes" in keys(effects) and state.phase == DECLARE and state.ender == "blue"


def test_two_whales_of_every_colour_end_the_game():
    state = table({"red": ["red-1", "red-2", "blue-1", "blue-2", "grey-1"], "blue": [], "green": []})
    state, effects = give(state, "grey-2", "green", keep=False)
    assert "end_six_whales" in keys(effects) and state.ender == "red"


def test_the_wild_card_takes_the_colour_chosen_on_arrival_and_keeps_it():
    state = table({"red": ["red-1"], "blue": ["blue-4"], "green": []}, expansion=True)
    state, _ = give(state, "wild", "blue")
    assert state.phase == WILD_SET and state.actor == "blue"
    assert set(GAME.legal_inputs(state)) == {Press("red"), Press("blue"), Press("white")}
    state, effects = press(state, "white")
    assert ("whales-wild", "grey") in state.armies[1] and "wild_placed" in keys(effects)
    assert state.phase == DISCARD


def test_the_wild_card_as_a_third_of_its_chosen_colour_overflows():
    state = table({"red": ["red-1"], "blue": ["blue-4", "blue-5"], "green": ["grey-1"]}, expansion=True)
    state, _ = give(state, "wild", "blue")
    state, effects = press(state, "blue")
    assert "overflow" in keys(effects) and army(state, "blue") == [] and state.phase == STEAL_FROM


def test_the_set_of_three_holds_three_and_a_fourth_overflows():
    # The placeholder prints the set of 3 as a blue card.
    state = table({"red": ["red-1"], "blue": ["blue-4", "blue-5"], "green": ["grey-1"]}, expansion=True)
    state, effects = give(state, "set-of-three", "blue")
    assert "overflow" not in keys(effects) and len(army(state, "blue")) == 3
    state = table({"red": ["red-1"], "blue": ["blue-4", "blue-5", "set-of-three"], "green": ["grey-1"]},
                  expansion=True)
    state, effects = give(state, "blue-6", "blue")
    assert "overflow" in keys(effects) and army(state, "blue") == []


def test_the_turtle_role_claims_the_win_with_no_whales_at_the_start_of_a_turn():
    state = table({"red": ["red-1"], "blue": ["hero-net"], "green": ["grey-1"]}, expansion=True, roles=["turtle"])
    assert Press("blue", hold=True) in GAME.legal_inputs(state)
    assert Press("red", hold=True) not in GAME.legal_inputs(state)
    state, effects = step(state, Press("blue", hold=True))
    assert state.phase == OVER and over(effects).winners == ("blue",)
    base = table({"red": ["red-1"], "blue": ["hero-net"], "green": ["grey-1"]})
    assert Press("blue", hold=True) not in GAME.legal_inputs(base)



def test_a_stolen_wild_card_is_placed_again_by_its_new_owner():
    state, _ = overflowed({"red": ["red-1", "red-2"], "blue": ["wild:grey", "grey-5"], "green": []}, expansion=True)
    state, _ = press(state, "blue")
    state, _ = scan(state, "wild")  # the lowest of blue's grey set (4 < 5)
    assert state.phase == WILD_SET and state.actor == "red"
    state, _ = press(state, "blue")
    assert ("whales-wild", "blue") in state.armies[0]


def test_a_stolen_superhero_can_be_the_third():
    state, _ = overflowed({"red": ["red-1", "red-2", "hero-net", "hero-aqua"], "blue": ["hero-sonar"],
                           "green": []})
    state, _ = press(state, "blue")
    state, effects = scan(state, "hero-sonar")
    assert "end_three_superheroes" in keys(effects) and state.ender == "red"


def test_a_turtle_may_take_the_shield_with_it():
    state = table({"red": ["red-1"], "blue": ["shield"], "green": []}, expansion=True)
    state, _ = give(state, "turtle-1", "blue")
    state, _ = scan(state, "shield")
    assert army(state, "blue") == [] and "whales-shield" in state.discard
