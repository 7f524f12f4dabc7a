"""The rulebook's two worked examples, exactly."""

from __future__ import annotations

import pytest
from spacedogs_kit import Driver

from games.core import Choose, SetupError
from games.spacedogs import damage, loadout
from games.spacedogs.catalog import Loadout, catalog
from games.spacedogs.rules import GAME


def test_orion_example_numbers() -> None:
    # "will receive 3 damage. He is already in cover which reduced the damage to 2. He chooses to
    # play a passive Shield(4) card, to reduce the incoming damage to zero."
    assert damage.received(3, cover=True) == 2
    assert damage.received(3, cover=True, shields=4) == 0
    # "another attack with 2 damage. He is still in cover, reducing the incoming damage to 1 ...
    # he has to suffer 1 damage" — the Shield(4)'s excess did not carry over.
    assert damage.received(2, cover=True) == 1


def test_orion_example_through_the_game() -> None:
    d = Driver({"dogs": ["orion"]})
    d.to_activation()
    full = catalog().numbers.max_health
    d.send(Choose("damage:orion:3:receive:1:4"))
    assert d.state.dog("orion").health == full
    d.send(Choose("damage:orion:2:receive:1:0"))
    assert d.state.dog("orion").health == full - 1


AURORA = Loadout("repeater_rifle", "heavy_metal", "runners", ("aurora_acid", "aurora_hack"),
                 ("aurora_experiment", "aurora_analyse"))


def test_aurora_loadout_example() -> None:
    cat = catalog()
    # Equipment 4, two powers 2, a wild and a tame stance 2: 8 against her 9 loadout points.
    assert sum(cat.equipment[e].cost for e in AURORA.equipment()) == 4
    assert sum(cat.dogs["aurora"].powers[p] for p in AURORA.powers) == 2
    assert sum(cat.dogs["aurora"].stances[s].cost for s in AURORA.stances) == 2
    assert loadout.check(cat, "aurora", AURORA, 9, tuple(cat.equipment)) == 8
    # "This is less, so she decides to take an extra Stance with the cost of 1."
    extra = Loadout(*AURORA.equipment(), AURORA.powers, (*AURORA.stances, "aurora_tinker"))
    assert loadout.check(cat, "aurora", extra, 9, tuple(cat.equipment)) == 9


def test_aurora_loadout_over_the_points_is_refused_at_setup() -> None:
    over = {"weapon": "repeater_rifle", "armor": "heavy_metal", "tool": "runners",
            "powers": ["aurora_acid", "aurora_overclock"], "stances": ["aurora_experiment", "aurora_analyse",
                                                                     "aurora_tinker"]}
    with pytest.raises(SetupError) as err:
        GAME.setup({"dogs": ["aurora"], "loadouts": {"aurora": over}})
    assert err.value.key == "loadout_points" and err.value.params["cost"] == 10
