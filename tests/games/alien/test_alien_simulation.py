"""Seeded random tables through `houston simulate`: verdict rates match the exact binomial odds."""

from __future__ import annotations

import random
from math import comb

import pytest

from device.simulation.simulate import play_one
from games.alien.errors import BadOption
from games.alien.state import COMMANDER
from games.registry import load_game

GAME = load_game("alien")


def exact_rates(players: int) -> dict[str, float]:
    """Random guessers: each crew member finds the alien with chance 1/(players-1), independently."""
    crew, p = players - 1, 1 / (players - 1)
    rate = {"rounds_exposed": 0.0, "rounds_tied": 0.0, "rounds_escaped": 0.0}
    for found in range(crew + 1):
        chance = comb(crew, found) * p**found * (1 - p) ** (crew - found)
        key = "rounds_exposed" if 2 * found > crew else "rounds_escaped" if 2 * found < crew else "rounds_tied"
        rate[key] += chance
    return rate


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_random_tables_score_with_the_exact_odds(players: int) -> None:
    rng = random.Random(players)
    games, rounds = 60, 10
    totals = dict.fromkeys(exact_rates(players), 0)
    for _ in range(games):
        played = play_one(GAME, {"players": list(GAME.simulation_options(players)["players"]),
                                 "rounds": rounds}, rng)
        assert played.finished
        for key in totals:
            totals[key] += played.stats[key]
    n = games * rounds
    for key, expected in exact_rates(players).items():
        sd = (expected * (1 - expected) / n) ** 0.5
        assert abs(totals[key] / n - expected) <= 5 * sd + 1e-9, (key, totals[key] / n, expected)


def test_a_display_may_seat_the_players_at_the_start() -> None:
    state = GAME.setup({"players": ["blue", "red", "white"], "rounds": 2})
    assert (state.phase, state.players, state.totals) == (COMMANDER, ("blue", "red", "white"), (0, 0, 0))


@pytest.mark.parametrize(
    "players", [["red", "blue"], ["red", "red", "blue"], ["red", "blue", "pink"], "red,blue,green",
                ["red", "blue", "green", "yellow", "purple", "white", "red"]],
)
def test_bad_seatings_are_refused(players: object) -> None:
    with pytest.raises(BadOption) as caught:
        GAME.setup({"players": players})
    assert caught.value.params["option"] == "players"
