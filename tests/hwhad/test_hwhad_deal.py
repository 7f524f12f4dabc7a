"""Rule 2 (crewing) and rule 3 (boarding: the guided deal and the Captain's appearance)."""

import random
from collections import Counter

import pytest
from hwhad_kit import GLUE, draw, step, words

from games.core import Chance, IllegalInput, Light, Press, Reveal, Scan, Shuffle, UnknownCard
from games.hwhad.cards import catalogue, numbers
from games.hwhad.deal import destinations, plan_deal, special_positions
from games.hwhad.rules import GAME
from games.hwhad.state import BOARDING, CREWING, SPACEWALK, TEMP_CAPTAIN, VOID, holder


def boarded(teams, seed=0, unlock=()):
    state = GAME.setup({"teams": teams, "unlockables": list(unlock)})
    rng = random.Random(seed)
    requests = GAME.validate(state, Press("ok"))
    return GAME.apply(state, Press("ok"), {r.name: draw(r, rng) for r in requests})[0]


def deal_all(state):
    said = []
    for card in list(state.stack):
        state, effects = step(state, Scan(card))
        said += words(effects)
    return state, said


# --- Crewing --------------------------------------------------------------------------------


def test_teams_join_by_button_or_badge_and_ok_starts_boarding():
    state = GAME.setup({})
    state, effects = step(state, Press("red"))
    assert words(effects) == ["Red joins the crew."] and Light("team:red", "on") in effects
    state, _ = step(state, Scan("badge-blue"))
    assert state.teams == ("red", "blue") and state.phase == CREWING
    requests = GAME.validate(state, Press("ok"))
    assert [type(r) for r in requests] == [Chance, Shuffle]
    state, _ = step(state, Press("ok"))
    assert state.phase == BOARDING and len(state.stack) == 20


@pytest.mark.parametrize(("inp", "key"), [
    (Press("red"), "already_joined"),
    (Scan("badge-red"), "already_joined"),
    (Scan("hwhad-lou"), "scan_badge_first"),
])
def test_crewing_refusals(inp, key):
    state, _ = step(GAME.setup({}), Press("red"))
    with pytest.raises(IllegalInput) as err:
        GAME.validate(state, inp)
    assert err.value.key == key


def test_crewing_needs_two_teams_and_takes_at_most_five():
    state, _ = step(GAME.setup({}), Press("red"))
    with pytest.raises(IllegalInput, match="need_teams"):
        GAME.validate(state, Press("ok"))
    for colour in ("blue", "green", "yellow", "purple"):
        state, _ = step(state, Press(colour))
    with pytest.raises(IllegalInput, match="too_many_teams"):
        GAME.validate(state, Press("white"))
    with pytest.raises(UnknownCard):
        GAME.validate(GAME.setup({}), Scan("badge-orange"))


# --- Boarding -------------------------------------------------------------------------------


@pytest.mark.parametrize("teams", [2, 3, 4, 5])
def test_hand_sizes_modules_and_void_follow_the_table(teams):
    colours = ("red", "blue", "green", "yellow", "purple")[:teams]
    state, _ = deal_all(boarded(colours, seed=teams))
    hand = numbers().hand_size[teams]
    assert [len(h) for h in state.hands] == [hand] * teams
    assert all(state.modules) and len(state.void) == 20 - teams * hand - 3


def test_the_dealer_hears_each_destination_and_the_team_button_lights():
    state = boarded(("red", "blue", "green"), seed=3)
    card = state.stack[5]
    where = state.plan[state.deck.index(card)]
    state, effects = step(state, Scan(card))
    expected = {"void": "The void.", "module1": "Module 1.", "module2": "Module 2.", "module3": "Module 3."}
    assert words(effects) == [expected.get(where, f"{where.capitalize()}.")]
    if where in state.teams:
        assert Light(f"team:{where}", "on", "flash") in effects
    with pytest.raises(IllegalInput, match="already_dealt"):
        GAME.validate(state, Scan(card))
    with pytest.raises(IllegalInput, match="not_in_this_game"):
        GAME.validate(state, Scan("hwhad-doggo"))
    with pytest.raises(UnknownCard):
        GAME.validate(state, Scan("badge-red"))


@pytest.mark.parametrize("teams", [("red", "blue"), ("red", "blue", "green"), ("red", "blue", "green", "yellow"),
                                   ("red", "blue", "green", "yellow", "purple")])
def test_every_possible_special_placement_keeps_the_rulebook_promises(teams):
    # Exhaustive over the Captain/dolphin placements the deal can draw, for 20 and 22 cards.
    for size in (20, 22):
        dest = destinations(teams, size)
        need = 2 if len(teams) >= 4 else 1
        triples = special_positions(teams, size)
        assert len(set(triples)) == len(triples)
        for captain, d1, d2 in triples:
            assert dest[captain] != VOID
            assert (dest[d1] != VOID) + (dest[d2] != VOID) >= need
            assert not {dest[d1], dest[d2]} >= set(teams)


def test_the_plan_is_uniform_over_valid_layouts_for_each_special_card():
    # Each valid triple is one outcome with weight 1, and the two dolphins are placed in both
    # orders: Flipper and Bubbles are equally likely to be on the ship.
    teams = ("red", "blue", "green")
    dest = destinations(teams, 20)
    triples = special_positions(teams, 20)
    first = Counter(dest[d1] == VOID for _, d1, _ in triples)
    second = Counter(dest[d2] == VOID for _, _, d2 in triples)
    assert first == second


def test_plan_from_outcomes_is_deterministic_and_complete():
    state = GAME.setup({"teams": ["red", "blue", "green", "yellow"]})
    outcomes = {"deal_specials": 17, "deal_order": list(range(17))}
    plan = plan_deal(state.teams, state.deck, outcomes)
    assert plan == plan_deal(state.teams, state.deck, outcomes)
    assert Counter(plan) == {"red": 4, "blue": 4, "green": 4, "yellow": 4, "module1": 1, "module2": 1,
                             "module3": 1, "void": 1}


def test_the_captain_appears_and_every_other_team_takes_a_panic_token():
    for seed in range(40):
        state = boarded(("red", "blue", "green", "yellow"), seed=seed)
        if state.plan[state.deck.index(GLUE)] in state.teams:
            break
    state, said = deal_all(state)
    team = holder(state, GLUE)
    assert state.phase == SPACEWALK and state.captain == team and state.captain_card == GLUE
    assert f"{team.capitalize()} has the Captain! Put Cpt. E. Glue face up in front of you." in said
    assert [state.tokens[i] for i, t in enumerate(state.teams) if t != team] == [1, 1, 1]
    assert state.tokens[state.teams.index(team)] == 0 and state.tray == 13
    assert any(w.startswith("Spacewalk 1. Captain") for w in said)


def test_captain_in_a_module_the_first_button_names_a_temporary_captain():
    for seed in range(200):
        state = boarded(("red", "blue", "green"), seed=seed)
        if state.plan[state.deck.index(GLUE)].startswith("module"):
            break
    else:
        pytest.fail("no seed put the Captain in a module")
    state, _said = deal_all(state)
    assert state.phase == TEMP_CAPTAIN and GLUE in state.modules
    assert GAME.prompt(state).ask.key == "dont_panic"
    state, effects = step(state, Press("green"))
    assert state.captain == "green" and state.captain_card == ""
    assert words(effects)[0] == "Green is the temporary captain."
    assert state.tokens == (1, 1, 0) and state.phase == SPACEWALK
    assert not any(isinstance(e, Reveal) for e in effects)


def test_deal_reveals_nothing_but_the_captain():
    state = boarded(("red", "blue"), seed=11)
    for card in list(state.stack)[:-1]:
        state, effects = step(state, Scan(card))
        assert not any(isinstance(e, Reveal) for e in effects)
        assert not any(catalogue()[card].name in w for w in words(effects))
