"""Property tests over random games: points per round, totals, refusals, replay equals live."""

from __future__ import annotations

import contextlib

from alien_play import GAME, Table
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.alien.state import JOIN, OVER
from games.core import TEAM_COLOURS, GameOver, Press, RuleError, canonical_json
from games.session import Entry, NothingToUndo, replay

ANY_PRESS = [Press(c) for c in TEAM_COLOURS] + [Press("ok"), Press("ok", hold=True)]


def drive(data: st.DataObject, rounds: int, max_steps: int = 150) -> Table:
    """Play a random game to its end: legal inputs, stray presses and BACK, as a clumsy table would."""
    table = Table(rounds)
    for _ in range(max_steps):
        if table.state.phase == OVER:
            break
        legal = GAME.legal_inputs(table.state)
        move = data.draw(st.sampled_from(["legal"] * 6 + ["stray", "back"]))
        if move == "back":
            with contextlib.suppress(NothingToUndo):
                table.back()
            continue
        inp = data.draw(st.sampled_from(legal if move == "legal" else ANY_PRESS))
        before = table.state
        try:
            table.press(inp.button, inp.hold)
        except RuleError:
            assert inp not in legal, f"{inp} is listed legal but was refused"
            assert table.state == before
            continue
        assert inp in legal, f"{inp} was accepted but is not listed legal"
        canonical_json(GAME.public_view(table.state))  # every view is plain data
    while table.state.phase != OVER:  # finish without detours, should the walk run out of steps
        finish_step(table)
    return table


def finish_step(table: Table) -> None:
    """One step straight towards the end: fill the table to three, then the first legal input."""
    state = table.state
    if state.phase == JOIN and len(state.players) < 3:
        table.press(next(c for c in TEAM_COLOURS if c not in state.players))
    elif state.phase == JOIN:
        table.press("ok")
    else:
        table.press(GAME.legal_inputs(state)[0].button)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), rounds=st.integers(min_value=1, max_value=4))
def test_random_games_keep_the_rulebook_invariants(data: st.DataObject, rounds: int) -> None:
    table = drive(data, rounds)
    state = table.state
    assert len(state.history) == state.rounds  # holding OK may have changed the option
    seats = list(state.players)
    for result in state.history:
        alien_points = result.points[seats.index(result.alien)]
        assert alien_points in (0, 2)
        crew_points = [pts for p, pts in zip(seats, result.points, strict=True) if p != result.alien]
        assert all(0 <= pts <= 2 for pts in crew_points)
        # a crew member's point for guessing is exactly whether their rocket stood on the alien
        for (player, guess), pts in zip(result.guesses, result.points, strict=True):
            if player != result.alien:
                assert pts - (result.verdict == "exposed") == (guess == result.alien)
            assert guess != player
    assert state.totals == tuple(sum(r.points[i] for r in state.history) for i in range(len(seats)))
    commanders = [r.commander for r in state.history]
    aliens = [r.alien for r in state.history]
    assert commanders[1:] == aliens[:-1]  # each round's alien commands the next
    over = [e for e in table.effects if isinstance(e, GameOver)]
    assert len(over) == 1 and set(over[0].winners) == {
        p for p, t in zip(seats, state.totals, strict=True) if t == max(state.totals)
    }


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), rounds=st.integers(min_value=1, max_value=3))
def test_replay_of_the_journaled_inputs_equals_the_live_game(data: st.DataObject, rounds: int) -> None:
    table = drive(data, rounds)
    entries = [
        Entry(seq=i, kind=kind, inp=inp) for i, (kind, inp) in enumerate(table.entries)
    ]
    replayed = replay(GAME, {"rounds": rounds}, entries)
    assert replayed.state == table.state
    assert canonical_json(GAME.public_view(replayed.state)) == canonical_json(GAME.public_view(table.state))
    assert replayed.over == table.session.over
