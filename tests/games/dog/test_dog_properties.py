"""Properties over random legal play: sticks and dogs conserved, villagers within 0–3, BACK never
crosses a roll, every announcement has words, and a replay of the journal rebuilds the live game."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from games.core import TEAM_COLOURS, Say
from games.data import messages
from games.dog.rules import GAME
from games.dog.state import OVER
from games.session import Entry, Session, replay

TEXTS = messages("games.dog")


def check_invariants(s):
    if not s.hands:
        return
    totals = tuple(s.bonfire[k] + sum(h[k] for h in s.hands) for k in range(3))
    assert totals == (9, 7, 5), totals
    assert all(min(h) >= 0 for h in s.hands) and min(s.bonfire) >= 0
    assert s.pack + sum(s.dogs) == 25 and s.pack >= 0 and min(s.dogs) >= 0
    assert all(0 <= v <= 3 for v in s.villagers)
    assert all(d == 0 and v == 0 for d, v, f in zip(s.dogs, s.villagers, s.faints, strict=True) if f >= 3)
    if s.phase != OVER:
        assert not s.out(s.current)
        assert s.bonfire[0] > 0 and s.bonfire[1] > 0  # a round never goes on without meat or charcoal


def play(seed: int, teams: int, steps: int, back_odds: int = 6):
    """A random game with BACK pressed now and then; returns the session and its journal entries."""
    rng = random.Random(seed)
    options = {"teams": list(TEAM_COLOURS[:teams])} if teams else {}
    live = Session.start(GAME, options)
    entries: list[Entry] = []
    seq = 0
    for _ in range(steps):
        if live.over:
            break
        if live.undo_stack and rng.randrange(back_odds) == 0:
            seq += 1
            live.undo()
            entries.append(Entry(seq, "undo"))
            check_invariants(live.state)
            continue
        legal = GAME.legal_inputs(live.state)
        assert legal
        # the simulation's player, and now and then any legal input (cycling, hold OK, a victim's button)
        uniform = rng.randrange(3) == 0
        inp = legal[rng.randrange(len(legal))] if uniform else GAME.random_input(live.state, legal, rng.randrange)
        requests = live.check(inp)
        outcomes = {r.name: rng.randrange(len(r.weights)) for r in requests}
        seq += 1
        effects = live.submit(inp, outcomes, seq)
        entries.append(Entry(seq, "input", inp, outcomes))
        if requests:
            assert not live.undo_stack  # BACK never crosses a roll
        for e in effects:
            if isinstance(e, Say):
                assert e.key in TEXTS, e.key
        check_invariants(live.state)
    return live, entries, options


@given(st.integers(0, 2**32 - 1), st.sampled_from([0, 2, 3, 4]))
@settings(max_examples=60, deadline=None)
def test_random_play_keeps_the_counts_and_replays(seed, teams):
    live, entries, options = play(seed, teams, 400)
    rebuilt = replay(GAME, options, entries)
    assert rebuilt.state == live.state
    assert [u.before for u in rebuilt.undo_stack] == [u.before for u in live.undo_stack]
    assert rebuilt.over == live.over


@given(st.integers(0, 2**32 - 1), st.sampled_from([2, 3, 4]))
@settings(max_examples=30, deadline=None)
def test_legal_inputs_are_exactly_what_the_session_accepts(seed, teams):
    live, _entries, _ = play(seed, teams, 60)
    if live.over:
        return
    legal = GAME.legal_inputs(live.state)
    prompt = GAME.prompt(live.state)
    for inp in legal:
        assert prompt.allows(inp)
        live.check(inp)  # raises if refused
    assert set(GAME.prompted_inputs(live.state)) == set(legal)


def test_random_games_end():
    for seed in range(30):
        live, _entries, _ = play(seed, 2 + seed % 3, 5000, back_odds=50)
        assert live.over is not None, seed
