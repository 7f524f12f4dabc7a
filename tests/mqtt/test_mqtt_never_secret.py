"""Never a secret in public, end to end, for every installed game: random legal games through the
real service and a real broker.

A `homeassistant` client (it reads every public topic: availability, state, events and the
discovery configs) records everything the box publishes. After each input the test asks the
game's secrecy oracle (`Game.secrets(state)`: card ids in hands, roles, hidden outcomes) what is
secret in the state that input produced, and no public message published for that input may
contain any of it. The oracle is the game's own; nothing here knows any game.
"""

from __future__ import annotations

import random

import pytest

from device.box.chance import SeededDrawer
from device.simulation.testing import play_watching_secrets
from games.registry import game_ids, load_game

SEEDS = (1, 2)


@pytest.mark.parametrize("game_id", game_ids())
def test_random_games_publish_no_secret(game_id: str, linked, probes) -> None:
    game = load_game(game_id)
    secrets_seen = 0
    for seed in SEEDS:
        teams = max(game.info.min_teams, min(4, game.info.max_teams))
        box, link = linked(game_id, game.simulation_options(teams), drawer=SeededDrawer(random.Random(seed)))
        probe = probes("homeassistant", (f"houston/{link.topics.box}/#", "homeassistant/#"))
        inputs, seen = play_watching_secrets(game, box, probe, seed)
        assert inputs > 0
        secrets_seen += seen
    if game.info.hidden_information:
        assert secrets_seen > 0, f"{game_id} hides information but its oracle never named a secret"

