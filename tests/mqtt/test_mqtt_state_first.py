"""The state reaches the broker before the box drives its lights (a screen waits for it; the
lights lose one publish), and only once: real Mosquitto, mock pins."""

from __future__ import annotations

import json
import random
from typing import Any

from device.box.jobs import InputJob, PressJob
from games.core import Press
from games.registry import load_game


def test_the_panel_sees_an_update_after_its_state_is_published(linked, probes) -> None:
    game, rng = load_game("dog"), random.Random(3)
    box, link = linked("dog", options=game.demo_options())
    screen = probes("dashboard", (link.topics.state,))
    seen: list[tuple[int, int | None]] = []  # (update seq, seq of the state published by then)
    last: list[Any] = [None]
    panel = box.panel_outlet
    deliver = panel.deliver

    def watching(update: Any) -> None:
        if update.events and update.public != last[0]:
            state = link.outlet.last_state
            seen.append((update.seq, json.loads(state)["seq"] if state else None))
        last[0] = update.public
        deliver(update)

    panel.deliver = watching  # type: ignore[method-assign]
    outlets = box.service.outlets
    assert outlets.index(link.outlet.state_first) < outlets.index(panel) < outlets.index(link.outlet)
    for _ in range(12):
        session = box.session
        assert session is not None
        inp = game.random_input(session.state, game.legal_inputs(session.state), rng.randrange)
        box.service.post(PressJob(inp) if isinstance(inp, Press) else InputJob(inp))
        box.service.wait_idle()
    assert len(seen) >= 6 and all(state == seq for seq, state in seen), seen
    assert screen.wait_for(lambda m: m.json().get("seq") == seen[-1][0]) is not None
    # each played update's state published once (the link's first state may come twice: once
    # seeded, once republished when the connection comes up)
    played = {seq for seq, _ in seen}
    states = [m.json()["seq"] for m in screen.on(link.topics.state) if m.json()["seq"] in played]
    assert sorted(states) == sorted(played), states
