"""Helpers for tests: a whole box on mock pins with a real journal in a temporary directory, and
the never-secret check any game's tests run against a real broker."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from device.network.mqtt.probe import Message, Probe
from device.simulation.simbox import SimBox
from games.core import Game


def make_box(data_dir: Path, game: str | None = None, options: Mapping[str, Any] | None = None,
             **kw: Any) -> SimBox:
    """A started SimBox with `game` selected (default: the configured game). With `options` (even
    {}), that game is also started with those options, as the MQTT start_game command would;
    without, the box waits at idle and a press of OK starts it."""
    box = SimBox(Path(data_dir), game=game, **kw)
    if options is not None:
        reply = box.command("start_game", {"game": box.service.selected, "options": dict(options)})
        if reply["status"] != "ok":
            box.close()
            raise ValueError(f"could not start {game}: {reply}")
    return box


class SecretPublished(AssertionError):
    """A public message named something the game's secrecy oracle said was secret."""


def leaks(messages: Iterable[Message], secrets: frozenset[str]) -> list[tuple[str, str]]:
    """(topic, secret) for every message whose text names a secret as a whole token."""
    if not secrets:
        return []
    longest_first = sorted(secrets, key=len, reverse=True)
    pattern = re.compile("|".join(rf"(?<![\w-]){re.escape(s)}(?![\w-])" for s in longest_first))
    found: list[tuple[str, str]] = []
    for message in messages:
        text = message.payload.decode("utf-8", "replace")
        found += [(message.topic, m.group(0)) for m in pattern.finditer(text)]
    return found


# How long a message the test must get may take to arrive. Generous: the wait ends as soon as it
# is there, and on two busy cores a delivery can take seconds.
DELIVERED = 30.0


def wait_delivered(probe: Probe, box: SimBox, timeout: float = DELIVERED) -> None:
    """Wait until the probe has the box's last published message (one publisher, one subscriber:
    MQTT keeps their order)."""
    box.service.wait_idle()
    last = box.recorder.updates[-1]
    if last.events:
        want = {**last.events[-1], "seq": last.seq}
        match = probe.wait_for(lambda m: m.topic.endswith("/events") and
                               {k: v for k, v in m.json().items() if k != "schema"} == want, timeout)
    else:
        match = probe.wait_for(lambda m: m.topic.endswith("/state") and m.json()["seq"] >= last.seq, timeout)
    if match is None:
        raise TimeoutError("the box's last message never reached the probe")


def play_watching_secrets(game: Game, box: SimBox, probe: Probe, seed: int, max_inputs: int = 250) -> tuple[int, int]:
    """Random legal inputs (the game's random player, seeded) until the game ends or
    `max_inputs`; after each, no public message published for it may name any of
    `game.secrets(state)` of the state it produced. Returns (inputs given, secrets seen).
    `probe` must read every public topic of the box; raises SecretPublished on a leak."""
    rng = random.Random(seed)
    seen: set[str] = set()
    box.service.wait_idle()
    if probe.wait_for(lambda m: m.topic.endswith("/state"), DELIVERED) is None:  # retained: arrives on subscribing
        raise TimeoutError("no public state reached the probe")
    session = box.session
    if session is None:
        raise ValueError("start the game before watching it")
    checked = len(probe.messages)
    leaked = leaks(probe.messages, game.secrets(session.state))
    if leaked:
        raise SecretPublished(f"{game.info.id}: secret published at the start: {leaked[:3]}")
    inputs = 0
    while box.session is not None and inputs < max_inputs:
        state = box.session.state
        legal = game.legal_inputs(state)
        if not legal:
            break
        box.give(game.random_input(state, legal, rng.randrange))
        inputs += 1
        wait_delivered(probe, box)
        now = box.service.session
        if now is None:
            break  # the game is over: what it reveals at the end is no longer secret
        secrets = game.secrets(now.state)
        seen |= secrets
        new = probe.messages[checked:]
        checked += len(new)
        leaked = leaks(new, secrets)
        if leaked:
            raise SecretPublished(f"{game.info.id} (seed {seed}, input {inputs}): secret published: {leaked[:3]}")
    return inputs, len(seen)
