"""`houston simulate dog`: random legal players finish every game; win and event rates reported."""

import argparse
import json
import random

import pytest

from device.simulation.simulate import register, simulate

TIMING = ("seconds", "games_per_second", "cpu_seconds", "games_per_cpu_second", "load_average_1min")


def run(argv, capsys):
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(argv)
    code = args.func(args)
    return code, capsys.readouterr()


def test_simulate_dog_reports_win_and_event_rates(capsys):
    code, out = run(["simulate", "dog", "--games", "60", "--teams", "4", "--seed", "1", "--json"], capsys)
    assert code == 0
    summary = json.loads(out.out)
    assert summary["finished"] == 60 and summary["games_per_second"] > 0
    assert sum(summary["rates"]["winner"].values()) == pytest.approx(1.0)
    assert set(summary["rates"]["winner"]) <= {"red", "blue", "green", "yellow", "shared", "nobody"}
    means = summary["means"]
    rounds = means["round_end_feed"] + means["round_end_assault"] + means["round_end_none"]
    assert rounds == pytest.approx(5.0, abs=0.2)  # every game plays 5 rounds (a few end early: all out)
    for key in ("incident_feed", "incident_assault", "incident_fire_fest", "theft", "stole", "exchanged"):
        assert means[key] > 0, key


@pytest.mark.parametrize("teams", [2, 3])
def test_two_and_three_players_finish(teams):
    summary = simulate("dog", 20, teams, seed=teams)
    assert summary["finished"] == 20


def test_five_players_are_refused(capsys):
    code, out = run(["simulate", "dog", "--games", "1", "--teams", "5"], capsys)
    assert code == 2 and "too_many_players" in out.err


def test_a_seed_makes_the_run_reproducible():
    def strip(s):
        return {k: v for k, v in s.items() if k not in TIMING}
    assert strip(simulate("dog", 20, 4, seed=3)) == strip(simulate("dog", 20, 4, seed=3))


PHASES = {"order", "turn", "take", "victim", "steal", "exchange", "over"}


def drawer(r):
    """Dice drawn from `r`, as the simulator's drawer answers a request tuple."""
    return lambda asked: {q.name: r.randrange(len(q.weights)) for q in asked}


def apply_drawn(state, inp, rng):
    """`inp` applied with chance drawn from `rng`."""
    from games.dog.rules import GAME

    requests = GAME.validate(state, inp)
    return GAME.apply(state, inp, {r.name: rng.randrange(len(r.weights)) for r in requests})[0]


def walk_comparing(fast_step, default_step, follow):
    """Twelve seeded Dog games of up to 400 inputs. At every state the fast and the default path
    run from two copies of one random stream and must agree, and leave the stream in the same place;
    the game then goes on by `follow(state, fast, rng)`, or now and then by any legal input, so
    menus, cycling and victims' buttons are visited. Returns the phases seen."""
    from games.dog.rules import GAME

    phases_seen = set()
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.setup({} if seed % 4 == 0 else GAME.simulation_options(2 + seed % 3))
        for _ in range(400):
            phases_seen.add(state.phase)
            ours, theirs = random.Random(rng.random()), random.Random()
            theirs.setstate(ours.getstate())
            fast = fast_step(state, ours)
            assert fast == default_step(state, theirs), state.phase
            assert ours.getstate() == theirs.getstate(), state.phase
            if fast is None:
                break
            if rng.randrange(3) == 0:
                legal = GAME.legal_inputs(state)
                state = apply_drawn(state, legal[rng.randrange(len(legal))], rng)
            else:
                state = follow(state, fast, rng)
    return phases_seen


def test_random_step_is_random_input_over_legal_inputs_then_validate():
    """Dog's one-call `random_step` gives, state by state, the input the contract's default picks
    (random_input over legal_inputs) from the same picks, and the chance its validate asks for;
    and it leaves the pick stream where the default leaves it."""
    from games.core import Game
    from games.dog.rules import GAME

    assert type(GAME).random_step is not Game.random_step  # Dog answers in one call
    seen = walk_comparing(lambda state, r: GAME.random_step(state, r.randrange),
                          lambda state, r: Game.random_step(GAME, state, r.randrange),
                          lambda state, fast, rng: apply_drawn(state, fast[0], rng))
    assert seen >= PHASES


def test_simulation_step_is_random_step_then_apply():
    """Dog's one-call `simulation_step` gives, state by state, the state and effects the contract's
    default gives (random_step, the drawer, apply) from the same picks and draws."""
    from games.core import Game
    from games.dog.rules import GAME

    assert type(GAME).simulation_step is not Game.simulation_step
    seen = walk_comparing(lambda state, r: GAME.simulation_step(state, r.randrange, drawer(r)),
                          lambda state, r: Game.simulation_step(GAME, state, r.randrange, drawer(r)),
                          lambda state, fast, rng: fast[0])
    assert seen >= PHASES
