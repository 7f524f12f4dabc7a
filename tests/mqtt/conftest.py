"""Fixtures: one real Mosquitto for the folder, and boxes linked to it under unique box ids."""

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
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    b = start_broker(tmp_path_factory.mktemp("mosquitto"))
    yield b
    b.stop()


def link_box(box: SimBox, broker: Broker, **kw: Any) -> MqttLink:
    link = MqttLink(box.service, host="127.0.0.1", port=broker.port, username="box",
                    password=broker.passwords["box"], **kw).start()
    assert link.connection.wait_connected(5), broker.log()
    return link


@pytest.fixture
def linked(tmp_path: Path, broker: Broker) -> Iterator[Callable[..., tuple[SimBox, MqttLink]]]:
    """make(game=..., options=..., drawer=...) -> (box, link), each with its own box id."""
    made: list[tuple[SimBox, MqttLink]] = []

    def make(game: str | None = None, options: dict[str, Any] | None = None, **kw: Any) -> tuple[SimBox, MqttLink]:
        n = next(_box_ids)
        settings = Settings(box_id=f"test-{n}", game=game or "")
        box = make_box(tmp_path / f"box{n}", game=game, options=options, settings=settings, **kw)
        link = link_box(box, broker)
        made.append((box, link))
        return box, link

    yield make
    for box, link in made:
        link.stop()
        box.close()


@pytest.fixture
def probes(broker: Broker) -> Iterator[Callable[..., Probe]]:
    """probe(user, subscribe=('#',)) -> a connected recording client, closed after the test."""
    made: list[Probe] = []

    def probe(user: str, subscribe: tuple[str, ...] = ("#",)) -> Probe:
        p = Probe(broker.port, user, broker.passwords[user], subscribe)
        made.append(p)
        return p

    yield probe
    for p in made:
        p.close()
