"""Rule 2 (crewing) and rule 3 (boarding: the guided deal and the Captain's appearance)."""

import random
from collections import Counter

import pytest
from hwhad_kit import GLUE, check, draw, step, words

from games.core import Chance, IllegalInput, Light, Press, Reveal, Scan, Shuffle, UnknownCard
from games.hwhad.cards import CAPTAIN_ID, catalogue, numbers
from games.hwhad.deal import deal_requests, destinations, plan_deal, special_positions
from games.hwhad.rules import GAME
from games.hwhad.state import BOARDING, CREWING, MODULES, SPACEWALK, TEMP_CAPTAIN, VOID, holder


def boarded(teams, seed=0, unlock=()):
    state = GAME.setup({"teams": teams, "unlockables": list(unlock)})
    rng = random.Random(seed)
    requests = check(state, Press("ok"))
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
    requests = check(state, Press("ok"))
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
        check(state, inp)
    assert err.value.key == key


def test_crewing_needs_two_teams_and_takes_at_most_five():
    state, _ = step(GAME.setup({}), Press("red"))
    with pytest.raises(IllegalInput, match="need_teams"):
        check(state, Press("ok"))
    for colour in ("blue", "green", "yellow", "purple"):
        state, _ = step(state, Press(colour))
    with pytest.raises(IllegalInput, match="too_many_teams"):
        check(state, Press("white"))
    with pytest.raises(UnknownCard):
        check(GAME.setup({}), Scan("badge-orange"))


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
        check(state, Scan(card))
    with pytest.raises(IllegalInput, match="not_in_this_game"):
        check(state, Scan("hwhad-doggo"))
    with pytest.raises(UnknownCard):
        check(state, Scan("badge-red"))


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


def _rejection_layout(teams, deck, rng):
    """A layout drawn the slow, obviously fair way: shuffle every card into the destinations and
    start again until the rulebook's promises hold (D3). Uniform over valid layouts by construction,
    and independent of special_positions."""
    dest = destinations(teams, len(deck))
    need = numbers().dolphins_on_ship[len(teams)]
    cards = catalogue()
    while True:
        order = list(deck)
        rng.shuffle(order)
        where = dict(zip(order, dest, strict=True))
        dolphins = [c for c in deck if cards[c].role == "dolphin"]
        on_ship = sum(where[d] != VOID for d in dolphins)
        if where[CAPTAIN_ID] != VOID and on_ship >= need and not {where[d] for d in dolphins} >= set(teams):
            return where


def _chi_square(a, b):
    """Pearson's statistic for two samples being drawn from one distribution, and its degrees of
    freedom (categories seen in either sample, minus one)."""
    keys = sorted(set(a) | set(b))
    na, nb = sum(a.values()), sum(b.values())
    stat = 0.0
    for k in keys:
        total = a[k] + b[k]
        for count, n in ((a[k], na), (b[k], nb)):
            expected = total * n / (na + nb)
            stat += (count - expected) ** 2 / expected
    return stat, len(keys) - 1


def _critical(df, z=3.09):
    """The chi-square value a fair sample exceeds with probability 0.001 (Wilson-Hilferty)."""
    return df * (1 - 2 / (9 * df) + z * (2 / (9 * df)) ** 0.5) ** 3


@pytest.mark.parametrize("teams", [("red", "blue"), ("red", "blue", "green", "yellow")])
def test_the_deal_is_uniform_over_valid_layouts(teams):
    # Deals drawn through the box's chance requests (uniform special triple, uniform shuffle) against
    # deals drawn by rejection. For the Captain, a dolphin, an engineer and the teams' dolphin
    # count, the destinations must look alike: a chi-square test at p = 0.001 for each.
    deck = GAME.setup({}).deck
    rng = random.Random(20261201)
    box, fair = {k: Counter() for k in range(4)}, {k: Counter() for k in range(4)}
    watched = (CAPTAIN_ID, "hwhad-flipper", "hwhad-lou")
    requests = deal_requests(teams, deck)
    for _ in range(6000):
        plan = plan_deal(teams, deck, {r.name: draw(r, rng) for r in requests})
        where = dict(zip(deck, plan, strict=True))
        fair_where = _rejection_layout(teams, deck, rng)
        for k, card in enumerate(watched):
            box[k][where[card]] += 1
            fair[k][fair_where[card]] += 1
        box[3][len({where[d] for d in ("hwhad-flipper", "hwhad-bubbles")} - {VOID, *MODULES})] += 1
        fair[3][len({fair_where[d] for d in ("hwhad-flipper", "hwhad-bubbles")} - {VOID, *MODULES})] += 1
    for k in range(4):
        stat, df = _chi_square(box[k], fair[k])
        assert df >= 1 and stat < _critical(df), (k, stat, df, box[k], fair[k])


def test_the_chi_square_check_would_see_a_biased_deal():
    # The same statistic on a deal that puts the Captain in a team twice as often as it should.
    rng = random.Random(7)
    teams, deck = ("red", "blue"), GAME.setup({}).deck
    fair, biased = Counter(), Counter()
    for _ in range(6000):
        fair[_rejection_layout(teams, deck, rng)[CAPTAIN_ID]] += 1
        where = _rejection_layout(teams, deck, rng)[CAPTAIN_ID]
        if where in MODULES and rng.random() < 0.5:
            where = "red"
        biased[where] += 1
    stat, df = _chi_square(fair, biased)
    assert stat > _critical(df)


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
