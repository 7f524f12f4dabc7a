"""`houston simulate`: reproducible random legal games through the real rules, any game."""

import argparse
import json
import random

import pytest

from device.simulation.simulate import play_one, prompted_inputs, register, simulate
from games.hwhad.rules import GAME
from games.registry import load_game

TIMING = ("seconds", "games_per_second", "cpu_seconds", "games_per_cpu_second", "load_average_1min")


def run(argv, capsys):
    parser = argparse.ArgumentParser()
    register(parser.add_subparsers())
    args = parser.parse_args(argv)
    code = args.func(args)
    return code, capsys.readouterr()


def without_timing(summary):
    return {k: v for k, v in summary.items() if k not in TIMING}


def test_simulate_subcommand_prints_json_with_rates_and_speed(capsys):
    code, out = run(["simulate", "hwhad", "--games", "40", "--teams", "4", "--seed", "5", "--json"], capsys)
    assert code == 0
    summary = json.loads(out.out)
    assert summary["finished"] == 40 and summary["teams"] == 4 and summary["games_per_second"] > 0
    assert sum(summary["rates"]["side"].values()) == pytest.approx(1.0)
    assert set(summary["rates"]["side"]) <= {"humans", "dolphins", "nobody"}
    assert summary["means"]["spacewalks"] > 0


def test_a_seed_makes_the_run_reproducible():
    a, b = simulate("hwhad", 30, 3, seed=11), simulate("hwhad", 30, 3, seed=11)
    assert without_timing(a) == without_timing(b)
    assert without_timing(simulate("hwhad", 30, 3, seed=12)) != without_timing(a)


def test_readable_output_and_bad_arguments(capsys):
    code, out = run(["simulate", "hwhad", "--games", "5", "--teams", "2", "--seed", "1"], capsys)
    assert code == 0 and "games per second" in out.out and "side:" in out.out
    assert run(["simulate", "chess", "--games", "5"], capsys)[0] == 2
    assert run(["simulate", "hwhad", "--games", "5", "--teams", "9"], capsys)[0] == 2
    assert run(["simulate", "hwhad", "--games", "0"], capsys)[0] == 2


def test_any_registered_game_plays_to_its_end():
    dog = load_game("dog")
    played = play_one(dog, {}, random.Random(3))
    assert played.finished and played.steps >= 5
    assert {type(i).__name__ for i in prompted_inputs(dog, dog.setup({}))} == {"Press"}


@pytest.mark.parametrize("teams", [2, 3, 5])
def test_games_with_unlockables_and_every_team_count_finish(teams):
    options = {**GAME.simulation_options(teams), "unlockables": ["doggo", "microwave"]}
    rng = random.Random(teams)
    for _ in range(30):
        played = play_one(GAME, options, rng)
        assert played.finished and played.stats["side"] in ("humans", "dolphins", "nobody")


def test_houston_cli_offers_simulate(capsys):
    from device.cli import main

    assert main(["simulate", "hwhad", "--games", "3", "--teams", "5", "--seed", "2", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["finished"] == 3
