"""Properties over random reachable games: cards conserved, secrets kept, legal inputs exact,
every announcement has words, replay rebuilds the live state."""

import random
from dataclasses import replace

from hwhad_kit import draw, random_game
from hypothesis import given, settings
from hypothesis import strategies as st

from games.catalog import BADGES
from games.core import (
    OK,
    TEAM_COLOURS,
    Choose,
    Press,
    Reveal,
    RuleError,
    Say,
    Scan,
    canonical_json,
)
from games.data import plural_key
from games.hwhad.rules import GAME
from games.hwhad.state import OVER, HState
from games.hwhad.text import catalogue, render
from games.session import Entry, Session, replay

seeds = st.integers(0, 2**32 - 1)
team_counts = st.integers(2, 5)


def places(state: HState) -> list[str]:
    """Every card the state puts somewhere, with repeats if a card were in two places."""
    cards = [*state.stack, *state.void, *(c for c in state.modules if c), *(c for c, _ in state.slots)]
    if state.phase != "crewing":
        cards += [c for hand in state.hands for c in hand]
    return cards


@given(seeds, team_counts, st.booleans())
@settings(max_examples=150, deadline=None)
def test_every_card_is_in_exactly_one_place_after_every_input(seed, teams, unlock):
    for state, _, _ in random_game(seed, teams, unlock):
        if state.phase == "crewing":
            continue
        cards = places(state)
        assert sorted(cards) == sorted(state.deck)
        assert sum(state.tokens) + state.tray == 16 and min(state.tokens) >= 0 and state.tray >= 0
        if state.captain_card:
            owner = [t for t, h in zip(state.teams, state.hands, strict=True) if state.captain_card in h]
            on_slot = [t for c, t in state.slots if c == state.captain_card]
            assert (owner or on_slot) == [state.captain]


def reachable(seed: int, teams: int, steps: int) -> HState:
    """A state partway through a random game, before its end (any phase equally likely to be
    picked along the game)."""
    states = [s for s, _, _ in random_game(seed, teams, unlock=seed % 2 == 0) if s.phase != OVER]
    return states[steps % len(states)]


def hidden_change(state: HState, rng: random.Random) -> HState:
    """Change only facts the table may not know: who holds which hidden card, module contents,
    the void's contents, slot cards within their team, the deal plan, dolphinized teams,
    chance outcomes and how spacewalks went. Hand sizes and the open captain card stay."""
    hands = [list(h) for h in state.hands]
    modules = list(state.modules)
    void = list(state.void)
    slots = list(state.slots)
    secret = [(i, j) for i, h in enumerate(hands) for j, c in enumerate(h) if c != state.captain_card]
    for _ in range(rng.randrange(1, 6)):
        move = rng.randrange(6)
        if move == 0 and len(secret) >= 2:  # a card for a card between two hands
            (i1, j1), (i2, j2) = rng.sample(secret, 2)
            hands[i1][j1], hands[i2][j2] = hands[i2][j2], hands[i1][j1]
        elif move == 1:  # whole hands of equal size
            same = [(a, b) for a in range(len(hands)) for b in range(len(hands))
                    if a < b and len(hands[a]) == len(hands[b]) and state.captain_card not in hands[a] + hands[b]]
            if same:
                a, b = rng.choice(same)
                hands[a], hands[b] = hands[b], hands[a]
        elif move == 2:  # between modules
            full = [k for k, c in enumerate(modules) if c and c != state.captain_card]
            if len(full) >= 2:
                a, b = rng.sample(full, 2)
                modules[a], modules[b] = modules[b], modules[a]
        elif move == 3 and secret and void:  # between a hand and the void
            i, j = rng.choice(secret)
            k = rng.randrange(len(void))
            hands[i][j], void[k] = void[k], hands[i][j]
        elif move == 4 and slots:  # a slot card for another card of the same team
            k = rng.randrange(len(slots))
            card, team = slots[k]
            i = state.teams.index(team)
            mine = [j for j, c in enumerate(hands[i]) if c != state.captain_card]
            if card != state.captain_card and mine:
                j = rng.choice(mine)
                slots[k], hands[i][j] = (hands[i][j], team), card
        elif move == 5 and void and modules:  # between a module and the void
            full = [k for k, c in enumerate(modules) if c and c != state.captain_card]
            if full:
                a, k = rng.choice(full), rng.randrange(len(void))
                modules[a], void[k] = void[k], modules[a]
    plan = list(state.plan)
    if state.stack:
        idx = [state.deck.index(c) for c in state.stack]
        values = [plan[i] for i in idx]
        rng.shuffle(values)
        for i, v in zip(idx, values, strict=True):
            plan[i] = v
    return replace(
        state,
        hands=tuple(tuple(h) for h in hands),
        modules=tuple(modules),
        void=tuple(void),
        slots=tuple(slots),
        plan=tuple(plan),
        dolphinized=tuple(rng.random() < 0.5 for _ in state.teams),
        chances=(*state.chances, ("asteroid", rng.randrange(4))),
        history=(*state.history, ("dolphin:A>B",)),
    )


@given(seeds, team_counts, st.integers(0, 120), seeds)
@settings(max_examples=200, deadline=None)
def test_public_view_is_identical_whatever_the_hidden_facts(seed, teams, steps, swap_seed):
    state = reachable(seed, teams, steps)
    changed = hidden_change(state, random.Random(swap_seed))
    assert canonical_json(GAME.public_view(changed)) == canonical_json(GAME.public_view(state))


def test_secrecy_in_every_phase():
    # Hypothesis samples states along games; this makes sure every phase (a detached module,
    # a succession...) is checked too, with a few hidden changes each.
    seen: dict[str, int] = {}
    rng = random.Random(99)
    for seed in range(400):
        for state, _, _ in random_game(seed, 2 + seed % 4, unlock=seed % 3 == 0):
            if state.phase == OVER or seen.get(state.phase, 0) >= 5:
                continue
            seen[state.phase] = seen.get(state.phase, 0) + 1
            view = canonical_json(GAME.public_view(state))
            for _ in range(5):
                assert canonical_json(GAME.public_view(hidden_change(state, rng))) == view
    assert set(seen) >= {"crewing", "boarding", "temp_captain", "spacewalk", "detach", "successor_tie",
                         "successor_card", "order", "threaten", "vote", "victim"}


def test_the_secrecy_check_notices_a_leak():
    # The comparison is sharp: moving a card between hands (sizes change) alters the view.
    state = reachable(7, 4, 60)
    hands = list(state.hands)
    giver = next(i for i, h in enumerate(hands) if h and state.captain_card not in h)
    taker = (giver + 1) % len(hands)
    card = hands[giver][0]
    hands[giver] = hands[giver][1:]
    hands[taker] = (*hands[taker], card)
    moved = replace(state, hands=tuple(hands))
    assert canonical_json(GAME.public_view(moved)) != canonical_json(GAME.public_view(state))


@given(seeds, team_counts)
@settings(max_examples=60, deadline=None)
def test_team_views_show_a_team_its_own_hand_and_nothing_else(seed, teams):
    state = reachable(seed, teams, 50)
    for i, team in enumerate(state.teams):
        view = GAME.team_view(state, team)
        if "hand" in view:
            assert [c["id"] for c in view["hand"]] == list(state.hands[i])
        others = {c for j, h in enumerate(state.hands) if j != i for c in h} | set(state.void)
        others |= {c for c in state.modules if c} | {c for c, t in state.slots if t != team}
        text = canonical_json(view)
        assert not any(f'"{card}"' in text for card in others)


ALL_INPUTS = [
    *(Press(c) for c in (*TEAM_COLOURS, OK)),
    *(Press(c, hold=True) for c in (*TEAM_COLOURS, OK)),
    *(Scan(c) for c in (*GAME.cards().ids, *BADGES, "hwhad-nobody")),
    *(Choose(o) for o in ("sacrifice", "flood", "reset", "no_order", "dance")),
]


@given(seeds, team_counts)
@settings(max_examples=40, deadline=None)
def test_legal_inputs_are_exactly_what_the_box_accepts(seed, teams):
    for n, (state, _, _) in enumerate(random_game(seed, teams, unlock=seed % 2 == 1)):
        if n % 3:
            continue
        session = Session(GAME, state)
        legal = set(GAME.legal_inputs(state))
        for inp in ALL_INPUTS:
            try:
                session.check(inp)
                accepted = True
            except RuleError as exc:
                accepted = False
                key = plural_key(catalogue(), exc.key, exc.params)
                assert key in catalogue() or key in ("not_expected", "unknown_card", "bad_option")
            assert accepted == (inp in legal), (state.phase, inp)


@given(seeds, team_counts)
@settings(max_examples=60, deadline=None)
def test_every_announcement_and_prompt_has_words(seed, teams):
    for state, _, effects in random_game(seed, teams, unlock=True):
        for effect in effects:
            if isinstance(effect, Say):
                assert render(effect)
        assert render(GAME.prompt(state).ask)


@given(seeds, team_counts)
@settings(max_examples=30, deadline=None)
def test_replaying_the_journal_rebuilds_the_live_state_with_undos(seed, teams):
    rng = random.Random(seed)
    options = GAME.simulation_options(teams)
    live = Session.start(GAME, options)
    entries: list[Entry] = []
    for seq in range(1, 400):
        if live.over:
            break
        if live.undo_stack and rng.random() < 0.1:
            before = live.undo_stack[-1].before
            live.undo()
            assert live.state == before
            entries.append(Entry(seq, "undo"))
            continue
        inp = rng.choice(GAME.legal_inputs(live.state))
        requests = live.check(inp)
        outcomes = {r.name: draw(r, rng) for r in requests}
        effects = live.submit(inp, outcomes, seq)
        if requests or any(isinstance(e, Reveal) for e in effects):
            assert not live.undo_stack
        entries.append(Entry(seq, "input", inp, outcomes))
    assert replay(GAME, options, entries).state == live.state
