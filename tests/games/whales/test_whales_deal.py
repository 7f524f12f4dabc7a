"""The deal: two whales per army scanned face up, round the table; anything else is refused."""

import pytest
from whales_kit import army, cid, keys, scan

from games.core import RuleError, Scan, UnknownCard
from games.whales.rules import GAME
from games.whales.state import DEAL, DISCARD
from games.whales.text import catalogue_words

TEAMS = ["red", "blue", "green", "yellow"]


def dealing():
    return GAME.setup({"teams": TEAMS})


def test_whales_go_round_the_table_two_each_then_the_first_player_starts():
    state = dealing()
    assert state.phase == DEAL
    state, effects = scan(state, "red-1", "red-2", "blue-1", "blue-2", "grey-1", "grey-2", "red-3", "blue-3")
    assert army(state, "red") == ["red-1", "grey-1"]
    assert army(state, "yellow") == ["blue-2", "blue-3"]
    assert state.phase == DISCARD and state.player == 0
    assert "deal_done" in keys(effects)
    assert len(state.deck) == len(GAME.setup({"teams": TEAMS}).deck) - 8


@pytest.mark.parametrize("card", ["hero-harpoon", "turtle-1"])
def test_superheroes_and_turtles_are_put_aside_with_the_rulebooks_reason(card):
    with pytest.raises(RuleError) as err:
        scan(dealing(), card)
    assert err.value.key == "deal_put_aside"
    assert "shuffled back into the deck" in catalogue_words()["deal_put_aside"]


def test_expansion_specials_are_put_aside_while_dealing_and_dolphins_are_dealt():
    state = GAME.setup({"teams": TEAMS, "expansion": True})
    with pytest.raises(RuleError) as err:
        scan(state, "wild")
    assert err.value.key == "deal_put_aside"
    state, _ = scan(state, "dolphin-red-2")
    assert army(state, "red") == ["dolphin-red-2"]


def test_a_five_plus_card_is_refused_under_five_players_and_dealt_at_five():
    with pytest.raises(RuleError) as err:
        scan(dealing(), "red-7")
    assert err.value.key == "card_left_out"
    five = GAME.setup({"teams": [*TEAMS, "purple"]})
    state, _ = scan(five, "red-7")
    assert army(state, "red") == ["red-7"]


def test_a_card_already_dealt_or_unknown_is_refused():
    state, _ = scan(dealing(), "red-1")
    with pytest.raises(RuleError) as err:
        scan(state, "red-1")
    assert err.value.key == "card_not_in_deck"
    with pytest.raises(UnknownCard):
        GAME.validate(state, Scan("hwhad-glue"))
    assert all(isinstance(i, Scan) and cid(i.card) in state.deck for i in GAME.legal_inputs(state))
