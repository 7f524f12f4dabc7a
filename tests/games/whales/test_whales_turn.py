"""A turn: draw 2, discard 1 face up, offer the other face down, keep it or send it back."""

import pytest
from whales_kit import army, give, keys, over, press, scan, table

from games.core import Reveal, RuleError, Scan
from games.session import Session
from games.whales.rules import GAME
from games.whales.state import DECIDE, DISCARD, OFFER_CARD, OFFER_TO, RETURN
from games.whales.views import deck_count

ARMIES = {"red": ["red-1", "blue-1"], "blue": ["red-2", "grey-1"], "green": ["blue-2", "grey-2"]}


def test_the_discard_is_scanned_face_up_and_the_deck_counts_both_drawn_cards():
    state = table(ARMIES)
    before = deck_count(state)
    state, effects = scan(state, "red-5")
    assert state.phase == OFFER_CARD and state.discard[-1] == "whales-red-5"
    assert deck_count(state) == before - 2
    assert "discarded" in keys(effects)


def test_the_offered_card_is_scanned_face_down_and_named_nowhere():
    state, _ = scan(table(ARMIES), "red-5")
    state, effects = scan(state, "blue-4")
    assert state.phase == OFFER_TO and state.offered == "whales-blue-4"
    assert keys(effects) == ["offer_noted"] and not any(e.params for e in effects if hasattr(e, "params"))
    assert "blue-4" not in repr(GAME.public_view(state)) and "Blue Whale 4" not in repr(GAME.public_view(state))
    assert GAME.secrets(state) == {"whales-blue-4", "Blue Whale 4"}
    assert GAME.team_view(state, "red")["offering"]["name"] == "Blue Whale 4"
    assert "offering" not in GAME.team_view(state, "blue")


def test_a_card_not_drawn_from_the_deck_is_refused_without_naming_it():
    state, _ = scan(table(ARMIES), "red-5")
    with pytest.raises(RuleError) as err:
        scan(state, "red-1")  # in red's army
    assert err.value.key == "offer_not_drawn" and err.value.params == {}


def test_the_card_is_offered_to_another_player_by_button():
    state, _ = scan(table(ARMIES), "red-5", "blue-4")
    with pytest.raises(RuleError):
        press(state, "red")  # not to yourself: the prompt offers only the others
    with pytest.raises(RuleError):
        press(state, "yellow")  # nobody plays yellow
    state, _ = press(state, "green")
    assert state.phase == DECIDE and state.receiver == "green"
    assert GAME.public_view(state)["offer"] == {"from": "red", "to": "green", "refused": False}


def test_keeping_flips_the_card_face_up_into_the_receivers_army_and_the_next_player_starts():
    state, effects = give(table(ARMIES), "blue-4", "green")
    assert army(state, "green") == ["blue-2", "grey-2", "blue-4"]
    assert any(isinstance(e, Reveal) for e in effects)
    assert state.phase == DISCARD and state.player == 1 and state.offered == ""


def test_refusing_sends_the_card_to_the_offerers_army():
    state, _ = scan(table(ARMIES), "red-5", "blue-4")
    state, _ = press(state, "green")
    state, effects = press(state, "red")
    assert state.phase == RETURN and "refused" in keys(effects)
    assert "blue-4" not in repr(GAME.public_view(state))
    state, effects = scan(state, "blue-4")
    assert army(state, "red") == ["red-1", "blue-1", "blue-4"]
    assert "returned" in keys(effects)


def test_a_face_up_scan_of_another_card_is_refused_without_naming_the_offered_one():
    state, _ = scan(table(ARMIES), "red-5", "blue-4")
    state, _ = press(state, "green")
    with pytest.raises(RuleError) as err:
        scan(state, "blue-5")
    assert err.value.key == "not_offered_card" and err.value.params == {}


def test_back_undoes_until_the_card_is_revealed():
    state, _ = scan(table(ARMIES), "red-5", "blue-4")
    session = Session(GAME, state)
    session.submit(GAME.legal_inputs(state)[0], {}, 1)
    assert session.undo_stack
    session.undo()
    session.submit(GAME.legal_inputs(state)[1], {}, 2)
    session.submit(Scan("whales-blue-4"), {}, 3)
    assert not session.undo_stack  # the reveal is a barrier


def test_the_game_ends_when_the_deck_cannot_give_two_cards():
    state = table(ARMIES, deck=["red-5", "blue-4", "grey-4"])
    state, effects = give(state, "blue-4", "green", discard="red-5")
    assert "end_deck_short" in keys(effects) and state.phase == "declare"
    assert over(effects) is None  # the roles are declared first
