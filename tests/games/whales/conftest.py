"""Fixtures: one real Mosquitto for the folder (as tests/mqtt does), and boxes linked to it."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from device.box.config import Settings
from device.network.mqtt.broker import Broker, start_broker
from device.network.mqtt.link import MqttLink
from device.network.mqtt.probe import Probe
from device.simulation.simbox import SimBox
from device.simulation.testing import make_box

_box_ids = itertools.count(1)


@pytest.fixture(scope="session")
def whales_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    b = start_broker(tmp_path_factory.mktemp("mosquitto-whales"))
    yield b
    b.stop()


@pytest.fixture
def linked_whales(tmp_path: Path, whales_broker: Broker) -> Iterator[Callable[..., tuple[SimBox, MqttLink]]]:
    """make(options) -> (box, link): a whales box with its own box id, linked to the broker."""
    made: list[tuple[SimBox, MqttLink]] = []

    def make(options: dict[str, Any]) -> tuple[SimBox, MqttLink]:
        n = next(_box_ids)
        box = make_box(tmp_path / f"box{n}", game="whales", options=options,
                       settings=Settings(box_id=f"whales-{n}", game="whales"))
        link = MqttLink(box.service, host="127.0.0.1", port=whales_broker.port, username="box",
                        password=whales_broker.passwords["box"]).start()
        assert link.connection.wait_connected(5), whales_broker.log()
        made.append((box, link))
        return box, link

    yield make
    for box, link in made:
        link.stop()
        box.close()


@pytest.fixture
def whales_probes(whales_broker: Broker) -> Iterator[Callable[..., Probe]]:
    """probe(user, subscribe) -> a connected recording client, closed after the test."""
    made: list[Probe] = []

    def probe(user: str, subscribe: tuple[str, ...]) -> Probe:
        p = Probe(whales_broker.port, user, whales_broker.passwords[user], subscribe)
        made.append(p)
        return p

    yield probe
    for p in made:
        p.close()
