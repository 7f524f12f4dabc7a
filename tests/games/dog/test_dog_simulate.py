"""`houston simulate dog`: random legal players finish every game; win and event rates reported."""

import argparse
import json

import pytest

from device.simulation.simulate import register, simulate


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
        return {k: v for k, v in s.items() if k not in ("seconds", "games_per_second")}
    assert strip(simulate("dog", 20, 4, seed=3)) == strip(simulate("dog", 20, 4, seed=3))
