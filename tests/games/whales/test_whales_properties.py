"""Properties over random legal games: cards conserved, army limits kept, replay = live, and the
public stream the same for games that differ only in what the table cannot see."""

import json
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from whales_kit import random_game, words_exist

from games.core import Input, Press, Say, Scan, to_data
from games.session import Entry, Session, replay
from games.whales.cards import SET_OF_THREE, catalogue, deck_for
from games.whales.rules import GAME
from games.whales.state import OFFER_CARD, TURTLE, WILD_SET, WState
from games.whales.text import render

seeds = st.integers(0, 2**32 - 1)


@st.composite
def tables(draw):
    teams = draw(st.integers(3, 6))
    expansion = draw(st.booleans())
    roles = []
    if expansion:
        allowed = ["sidekick", "dolphin", "turtle", *(["werewhale"] if teams >= 5 else [])]
        roles = draw(st.lists(st.sampled_from(allowed), unique=True))
    return teams, expansion, roles


def places(state: WState) -> list[str]:
    cards = [*state.deck, *state.out, *state.discard, *(c for a in state.armies for c, _ in a)]
    if state.offered:
        cards.append(state.offered)
    if state.phase in (WILD_SET, TURTLE):
        cards.append(state.pending)
    return cards


@given(seeds, tables())
@settings(max_examples=60, deadline=None)
def test_every_card_is_in_exactly_one_place_and_no_army_holds_three_of_a_colour(seed, table):
    teams, expansion, roles = table
    all_cards = sorted(c for c in catalogue() if expansion or not catalogue()[c].expansion)
    for state, _, effects in random_game(seed, teams, expansion, roles):
        assert words_exist(effects)
        if not state.armies:
            continue
        assert sorted(places(state)) == all_cards
        assert set(state.out) == set(deck_for(teams, expansion)[1])
        for army in state.armies:
            for colour in ("red", "blue", "grey"):
                held = [c for c, col in army if col == colour]
                limit = 3 if any(catalogue()[c].special == SET_OF_THREE for c in held) else 2
                assert len(held) <= limit


def play_with_undos(seed: int, teams: int, expansion: bool, roles: list[str]) -> tuple[Session, list[Entry], dict]:
    rng = random.Random(seed)
    options = {"teams": list(("red", "blue", "green", "yellow", "purple", "white")[:teams]),
               "expansion": expansion, "roles": roles}
    session = Session.start(GAME, options)
    entries: list[Entry] = []
    for seq in range(1, 3000):
        if session.over is not None:
            break
        if session.undo_stack and rng.random() < 0.1:
            session.undo()
            entries.append(Entry(seq, "undo"))
            continue
        legal = GAME.legal_inputs(session.state)
        inp = GAME.random_input(session.state, legal, rng.randrange)
        session.submit(inp, {}, seq)
        entries.append(Entry(seq, "input", inp, {}))
    return session, entries, options


@given(seeds, tables())
@settings(max_examples=40, deadline=None)
def test_replay_rebuilds_the_live_game_with_its_undos(seed, table):
    session, entries, options = play_with_undos(seed, *table)
    assert session.over is not None
    rebuilt = replay(GAME, options, entries)
    assert rebuilt.state == session.state and rebuilt.over == session.over


def public_stream(states_and_effects) -> list[str]:
    """What the table sees after each input: the public view, the words said, the prompt."""
    out = []
    for state, effects in states_and_effects:
        said = [render(e) for e in effects if isinstance(e, Say)]
        out.append(json.dumps([GAME.public_view(state), said, render(GAME.prompt(state).ask)], sort_keys=True))
    return out


def run(state: WState, inputs: list[Input]) -> list[tuple[WState, list]]:
    steps = []
    for inp in inputs:
        GAME.validate(state, inp)
        state, effects = GAME.apply(state, inp, {})
        steps.append((state, effects))
    return steps


@given(seeds, tables(), st.integers(0, 10**6))
@settings(max_examples=60, deadline=None)
def test_the_public_stream_is_the_same_whatever_card_lies_face_down(seed, table, pick):
    """Two games, identical but for the card offered face down: the same public views, words and
    prompts until that card is flipped face up."""
    game = list(random_game(seed, *table))
    offers = [i for i, (s, _, _) in enumerate(game[:-1]) if s.phase == OFFER_CARD]
    if not offers:
        return
    at = offers[pick % len(offers)]
    state = game[at][0]
    chosen = game[at + 1][1]
    others = [c for c in state.deck if Scan(c) != chosen]
    if not others:
        return  # the last card of the deck: nothing else could lie face down
    other = others[pick % len(others)]
    # Inputs from the face-down scan to the reveal (the reveal itself is a scan of the offered card).
    after: list[Input] = []
    for _, inp, _ in game[at + 2:]:
        if isinstance(inp, Scan):
            break
        after.append(inp)
    live = run(state, [chosen, *after])
    twin = run(state, [Scan(other), *after])
    assert public_stream(live) == public_stream(twin)
    assert live[-1][0].offered != twin[-1][0].offered


@given(seeds, tables())
@settings(max_examples=40, deadline=None)
def test_the_public_stream_before_the_declaration_does_not_depend_on_the_roles(seed, table):
    """The box holds no role before the table declares it: two tables whose roles differ give the
    same inputs until the declaration, so everything published until then is the same; the
    declaration is where they part."""
    game = list(random_game(seed, *table))
    first = next((i for i, (s, _, _) in enumerate(game) if s.phase in ("guess", "declare")), None)
    if first is None:
        return
    state = game[first][0]
    assert not state.declared and not any("role" in k for k in to_data(GAME.public_view(state)) if k != "roles_in_deck")
    a = run(state, [Press(state.teams[0])])
    b = run(state, [Press(state.teams[-1])])
    assert public_stream(a) != public_stream(b)


@given(seeds, tables())
@settings(max_examples=40, deadline=None)
def test_no_secret_reaches_anything_public(seed, table):
    for state, _, effects in random_game(seed, *table):
        secrets = GAME.secrets(state)
        if not secrets:
            continue
        public = json.dumps(GAME.public_view(state)) + json.dumps([render(e) for e in effects if isinstance(e, Say)])
        public += render(GAME.prompt(state).ask)
        for secret in secrets:
            assert not re.search(rf"\b{re.escape(secret)}\b", public), secret
