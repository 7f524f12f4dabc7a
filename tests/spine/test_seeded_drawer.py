"""The simulator's seeded drawer: the numbers `random.Random.randrange` gives, and a request tuple
drawn by a plan gives the outcomes `draw_one` gives (the box's own code), in the same order."""

import random

import pytest

from device.box.chance import DrawPlan, SeededDrawer, draw_all, seeded_below
from games.core import BadOutcome, Chance, Shuffle, check_outcomes


@pytest.mark.parametrize("seed", [0, 1, 7, 2026])
def test_seeded_below_is_randrange(seed):
    ours, theirs = random.Random(seed), random.Random(seed)
    below = seeded_below(ours)
    sizes = [1, 2, 3, 5, 6, 7, 8, 9, 31, 32, 33, 100, 1000, 2**40 + 3]
    for i in range(3000):
        n = sizes[i % len(sizes)]
        assert below(n) == theirs.randrange(n)
    assert ours.getstate() == theirs.getstate()
    with pytest.raises(ValueError):
        below(0)


DICE = (Chance("die_A", (1,) * 6), Chance("die_B", (2, 2, 2)), Chance("die_C", (1,) * 6))
MIXED = (Chance("asteroid", (5, 0, 3, 92)), Shuffle("deck", 9), Chance("coin", (1, 1)))


@pytest.mark.parametrize("requests", [DICE, MIXED], ids=["dice", "mixed"])
def test_a_repeated_request_tuple_draws_what_draw_one_draws(requests):
    """The same tuple object, drawn 500 times: the plan takes over from the second draw and its
    outcomes are exactly the box's `draw_all` from a generator in the same state, and they pass
    `check_outcomes` (which the simulator skips for them)."""
    ours, theirs = random.Random(3), random.Random(3)
    drawer, reference = SeededDrawer(ours), SeededDrawer(theirs)
    for i in range(500):
        outcomes, valid = drawer.draw_all(requests)
        assert outcomes == draw_all(requests, reference)
        assert valid == (i > 0)  # the first draw is the box's draw_all, to be checked
        check_outcomes(requests, outcomes)
    assert ours.getstate() == theirs.getstate()


def test_requests_a_plan_cannot_vouch_for_are_checked():
    """Two requests of one name, or weights that are not odds: `valid` is False, so the simulator
    runs `check_outcomes`, which refuses them as the box would."""
    twice = (Chance("die", (1, 1)), Chance("die", (1, 1)))
    assert not DrawPlan(twice).valid
    drawer = SeededDrawer(random.Random(1))
    for _ in range(2):
        outcomes, valid = drawer.draw_all(twice)
        assert not valid
        with pytest.raises(BadOutcome):
            check_outcomes(twice, outcomes)
    assert not DrawPlan((Chance("odd", (1, -1, 2)),)).valid


@pytest.mark.parametrize("requests", [DICE, MIXED], ids=["dice", "mixed"])
def test_outcomes_are_draw_all_checked(requests):
    """`outcomes`, what the simulator applies, gives draw_all's outcomes in the same order."""
    ours, theirs = random.Random(4), random.Random(4)
    drawer, reference = SeededDrawer(ours), SeededDrawer(theirs)
    for _ in range(200):
        assert drawer.outcomes(requests) == draw_all(requests, reference)
    assert ours.getstate() == theirs.getstate()
    twice = (Chance("die", (1, 1)), Chance("die", (1, 1)))
    for _ in range(2):
        with pytest.raises(BadOutcome):
            drawer.outcomes(twice)
