"""Rule 4 (filling the slots) and rule 5 (resolution in the rulebook's order)."""

import pytest
from hwhad_kit import check, cid, step, table, walk, words

from games.core import Chance, IllegalInput, Light, Press, Scan, Sound, UnknownCard, canonical_json
from games.hwhad.resolution import report, resolve
from games.hwhad.rules import GAME
from games.hwhad.state import ORDER, SPACEWALK
from games.hwhad.text import render

HANDS = {"red": ["glue", "max", "lou"], "blue": ["paul", "jimmy", "bubbles"], "green": ["sheila", "dowell"]}


def scanned(state, *cards):
    for card in cards:
        state, _ = step(state, Scan(cid(card)))
    return state


# --- Rule 4: filling the slots --------------------------------------------------------------


def test_a_slot_confirms_with_a_beep_and_its_led_never_the_card_name():
    state = table(HANDS)
    state, effects = step(state, Scan(cid("paul")))
    assert effects == [Sound("confirm"), Light("slot:A", "white")]
    assert state.slots == ((cid("paul"), "blue"),) and cid("paul") not in state.hands[1]
    assert "Paul" not in canonical_json(GAME.public_view(state))


@pytest.mark.parametrize(("before", "card", "key"), [
    ((), "glue", "captain_calls_other"),        # slot A: not the captain's team
    ((), "brave", "not_in_a_hand"),             # a card waiting in a module
    ((), "torque", "not_in_a_hand"),            # a card in the void
    (("paul",), "paul", "already_on_spacewalk"),
    (("paul",), "jimmy", "no_calling_yourself"),  # slot B: not A's team
    (("paul", "max"), "lou", "no_calling_yourself"),  # slot C: not B's team
])
def test_refused_scans_change_nothing(before, card, key):
    state = scanned(table(HANDS), *before)
    with pytest.raises(IllegalInput) as err:
        check(state, Scan(cid(card)))
    assert err.value.key == key


def test_unknown_cards_and_buttons_are_refused():
    state = table(HANDS)
    with pytest.raises(UnknownCard):
        check(state, Scan("hwhad-nobody"))
    with pytest.raises(IllegalInput, match="not_expected"):
        check(state, Press("red"))


def test_a_scan_that_would_strand_the_next_slot_is_refused():
    # Red (captain, empty-handed) cannot fill B or C: if green fills A, blue fills B and nobody
    # may fill C. Blue must go first.
    state = table({"red": [], "blue": ["paul", "jimmy"], "green": ["dowell"]}, captain="red", captain_card="")
    assert {i.card for i in GAME.legal_inputs(state)} == {cid("paul"), cid("jimmy")}
    with pytest.raises(IllegalInput) as err:
        check(state, Scan(cid("dowell")))
    assert err.value.key == "no_team_next"
    state = scanned(state, "paul")
    assert {i.card for i in GAME.legal_inputs(state)} == {cid("dowell")}


def test_with_no_possible_spacewalk_the_captain_gives_orders_at_once():
    state = table({"red": ["glue", "max"], "blue": ["paul"], "green": []}, dolphinized=("blue",))
    assert state.phase == ORDER and state.spacewalks == 0


def test_the_revealed_captain_is_played_openly():
    state = scanned(table(HANDS), "paul", "glue")
    slot_b = GAME.public_view(state)["slots"][1]
    assert slot_b["filled"] and slot_b["team"] == "red" and slot_b["open_card"]["name"] == "Cpt. E. Glue"
    assert GAME.public_view(state)["slots"][0]["open_card"] is None


def test_third_scan_asks_for_the_asteroid_with_the_data_odds():
    state = scanned(table(HANDS), "paul", "max")
    assert check(state, Scan(cid("jimmy"))) == (Chance("asteroid", (240, 20, 20, 20)),)
    no_dolphins = scanned(table({"red": ["glue", "max"], "blue": ["paul", "jimmy"], "green": ["dowell"]}),
                          "paul", "max")
    assert check(no_dolphins, Scan(cid("jimmy"))) == (Chance("asteroid", (150, 50, 50, 50)),)


# --- Rule 5: resolution ---------------------------------------------------------------------


def said(cards, hit=-1, modules_left=True):
    return [render(s) for s in report(resolve(tuple(cid(c) for c in cards), hit, modules_left))]


def test_asteroid_hits_one_slot_and_is_never_named():
    assert said(("paul", "max", "jimmy"), hit=0) == ["Astronaut A disappeared in the void."]
    assert resolve(tuple(cid(c) for c in ("paul", "max", "jimmy")), 0, True).how == ("asteroid:A",)


def test_observers_name_their_neighbour_or_the_asteroid_or_nothing_off_the_edge():
    assert said(("peeper", "max", "jimmy")) == ["Max was seen."]
    assert said(("peeper", "max", "jimmy"), hit=1) == ["An asteroid was seen and Astronaut B disappears in the void."]
    assert said(("eagle", "max", "jimmy")) == ["Nothing happened out there."]  # looks left, off the edge
    assert said(("max", "paul", "peeper")) == ["Nothing happened out there."]  # looks right, off the edge
    assert said(("max", "paul", "peeper"), hit=2) == ["Astronaut C disappeared in the void."]  # hit: no look


def test_the_dolphin_seen_and_killing_is_one_sentence():
    assert said(("peeper", "flipper", "jimmy")) == ["The dolphin was seen and Astronaut A disappears in the void."]


def test_engineering_needs_two_living_wrenches_acting_towards_the_middle():
    assert said(("max", "paul", "jimmy")) == ["Astronaut B disappeared in the void."]
    assert said(("max", "paul", "jimmy"), hit=0) == ["Astronaut A disappeared in the void."]  # a wrench is gone
    assert said(("paul", "max", "jimmy")) == ["Nothing happened out there."]  # A's wrench faces away
    assert said(("glue", "dowell", "number5")) == ["A module was opened."]  # the Captain's wrench counts
    assert said(("max", "dowell", "jimmy"), modules_left=False) == ["Astronaut B disappeared in the void."]


def test_doggo_survives_engineers_mr_microwave_takes_everyone():
    assert said(("max", "doggo", "jimmy")) == ["Nothing happened out there."]
    assert said(("max", "microwave", "jimmy")) == ["Astronauts A, B and C disappeared in the void."]
    assert said(("bubbles", "doggo", "jimmy")) == ["Astronaut B disappeared in the void."]  # dolphins do


def test_dolphins_attack_their_printed_side_if_still_alive():
    assert said(("bubbles", "max", "jimmy")) == ["Astronaut B disappeared in the void."]
    assert resolve(tuple(cid(c) for c in ("bubbles", "max", "jimmy")), -1, True).lost == (1,)
    assert resolve(tuple(cid(c) for c in ("flipper", "max", "jimmy")), -1, True).lost == ()  # off the edge
    assert resolve(tuple(cid(c) for c in ("max", "bubbles", "jimmy")), -1, True).lost == (1,)  # encircled first
    assert resolve(tuple(cid(c) for c in ("bubbles", "max", "jimmy")), 0, True).lost == (0,)  # hit first
    both = resolve(tuple(cid(c) for c in ("bubbles", "flipper", "jimmy")), -1, True)
    assert both.lost == (0, 1) and both.how == ("dolphin:A>B", "dolphin:B>A")  # they strike together


def test_resolution_through_the_rules_moves_lost_cards_to_the_void_and_lights_slots():
    state = table(HANDS)
    state, effects = walk(state, "bubbles", "max", "jimmy")
    assert state.phase == ORDER and cid("max") in state.void and cid("max") not in state.hands[0]
    assert Light("slot:B", "red", "blink") in effects and Light("slot:A", "green") in effects
    assert "Slot B goes to the void; everyone else returns to their team." in words(effects)
    assert state.chances[-1] == ("asteroid", 0)
    assert state.phase != SPACEWALK
