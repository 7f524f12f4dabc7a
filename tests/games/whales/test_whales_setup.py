"""Set-up: options refused with SetupError, joining by buttons, the 6-button limit."""

import pytest
from whales_kit import keys, press

from games.core import OK, Press, RuleError, SetupError
from games.whales.rules import GAME
from games.whales.state import DEAL, JOIN
from games.whales.text import catalogue_words


@pytest.mark.parametrize("options", [
    {"teams": ["red", "blue"]},
    {"teams": ["red", "red", "blue"]},
    {"teams": ["red", "blue", "pink"]},
    {"teams": "red"},
    {"expansion": "yes"},
    {"roles": ["sidekick"]},
    {"expansion": True, "roles": ["ninja"]},
    {"expansion": True, "roles": ["werewhale"], "teams": ["red", "blue", "green", "yellow"]},
    {"colour": "red"},
])
def test_bad_options_raise_setup_error(options):
    with pytest.raises(SetupError):
        GAME.setup(options)


def test_seven_or_eight_players_are_refused_because_the_panel_has_six_buttons():
    with pytest.raises(SetupError) as err:
        GAME.setup({"teams": ["red", "blue", "green", "yellow", "purple", "white", "red"]})
    assert err.value.key == "too_many_teams"
    assert err.value.params["max"] == 6 and err.value.params["rulebook_max"] == 8
    assert "the panel has {max} team buttons, though the expansion allows {rulebook_max}" in (
        catalogue_words()["too_many_teams"])


def test_teams_join_by_button_then_ok_with_three_to_six():
    state = GAME.setup({})
    assert state.phase == JOIN
    state, _ = press(state, "red", "blue")
    with pytest.raises(RuleError) as err:
        press(state, OK)
    assert err.value.key == "join_count"
    state, effects = press(state, "green", "green", "green", OK)
    assert "team_left" in keys(effects)
    assert state.phase == DEAL and state.teams == ("red", "blue", "green")
    assert Press(OK) not in GAME.legal_inputs(GAME.setup({}))


def test_werewhale_needs_five_players_when_joining():
    state = GAME.setup({"expansion": True, "roles": ["werewhale"]})
    state, _ = press(state, "red", "blue", "green", "yellow")
    with pytest.raises(RuleError) as err:
        press(state, OK)
    assert err.value.key == "werewhale_needs"
    state, _ = press(state, "purple", OK)
    assert state.phase == DEAL
