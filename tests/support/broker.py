"""Fixtures on a real Mosquitto: the broker on a free port, boxes linked to it, recording clients.

A folder's conftest imports the ones it uses:

    from tests.support.broker import broker, linked, probes  # noqa: F401 (fixtures)

pytest keeps one instance of a fixture per conftest that defines it, so each such folder gets a
broker of its own: one folder's retained messages never reach another folder's '#' subscribers.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from device.box.config import Settings
from device.network.mqtt import probe
from device.network.mqtt.broker import Broker, start_broker
from device.network.mqtt.link import MqttLink
from device.simulation import testing
from device.simulation.simbox import SimBox
from device.simulation.testing import make_box

# How long a link or client may take to connect, and a message the test must get to arrive.
# Generous: the waits return as soon as it happens, and only a broken test waits this long (on two
# busy cores a connect or a delivery can take seconds). A test that expects silence passes its own
# short timeout.
CONNECT_WAIT = 30.0
DELIVERED = testing.DELIVERED

_box_ids = itertools.count(1)


class Probe(probe.Probe):
    """The recording client, with waits for a loaded machine: connecting may take CONNECT_WAIT, and
    `wait_for` waits DELIVERED unless told otherwise."""

    def __init__(self, port: int, user: str, password: str, subscribe: Sequence[str] = ("#",),
                 **kw: Any) -> None:
        super().__init__(port, user, password, subscribe, **{"timeout": CONNECT_WAIT, **kw})

    def wait_for(self, match: Callable[[probe.Message], bool], timeout: float = DELIVERED,
                 start: int = 0) -> probe.Message | None:
        return super().wait_for(match, timeout, start)


def public_stream(probe: Probe, box_id: str) -> list[tuple[str, bytes]]:
    """What `probe` got, as (topic, payload) with the box id written <box>, so two boxes' streams
    can be compared."""
    return [(m.topic.replace(box_id, "<box>"), m.payload.replace(box_id.encode(), b"<box>"))
            for m in probe.messages]


def by_topic(stream: list[tuple[str, bytes]]) -> dict[str, list[bytes]]:
    """Each topic's payloads in the order they came: MQTT keeps the order within a topic, not
    across topics (the retained messages a new subscriber gets come in any order). A payload
    repeated at once on its topic counts once: the link republishes every retained topic when it
    connects, so a subscriber whose subscription lands between the first publish and the
    republish gets the message twice (retained, then live), one that lands later only once."""
    topics: dict[str, list[bytes]] = {}
    for topic, payload in stream:
        seen = topics.setdefault(topic, [])
        if not seen or seen[-1] != payload:
            seen.append(payload)
    return topics


def page_config(broker: Broker) -> dict[str, Any]:
    """What a box's dashboard page needs to reach `broker` over WebSockets as the dashboard user."""
    return {"ws_url": f"ws://127.0.0.1:{broker.ws_port}", "username": "dashboard",
            "password": broker.passwords["dashboard"]}


def link_box(box: SimBox, broker: Broker, *, page: bool = False, **kw: Any) -> MqttLink:
    """Link `box` to `broker` as the box user and wait until it is connected. With `page`, the link
    also serves the dashboard page on a free HTTP port. `kw` goes to MqttLink."""
    if page:
        kw = {"http_port": 0, "page_config": page_config(broker), **kw}
    link = MqttLink(box.service, host="127.0.0.1", port=broker.port, username="box",
                    password=broker.passwords["box"], **kw).start()
    assert link.connection.wait_connected(CONNECT_WAIT), broker.log()
    return link


@pytest.fixture(scope="session")
def broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    b = start_broker(tmp_path_factory.mktemp("mosquitto"))
    yield b
    b.stop()


@pytest.fixture
def linked(tmp_path: Path, broker: Broker) -> Iterator[Callable[..., tuple[SimBox, MqttLink]]]:
    """make(game=None, options=None, page=False, **box_kw) -> (box, link): a box with a box id of its
    own (started with `options` as make_box does; `box_kw` such as drawer= go to it), linked to the
    broker; with `page`, serving the dashboard page too. Closed after the test."""
    made: list[tuple[SimBox, MqttLink]] = []

    def make(game: str | None = None, options: dict[str, Any] | None = None, page: bool = False,
             **box_kw: Any) -> tuple[SimBox, MqttLink]:
        box_id = f"{game or 'box'}-{next(_box_ids)}"
        box = make_box(tmp_path / box_id, game=game, options=options,
                       settings=Settings(box_id=box_id, game=game or ""), **box_kw)
        try:
            link = link_box(box, broker, page=page)
        except BaseException:
            box.close()
            raise
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

    def make(user: str, subscribe: tuple[str, ...] = ("#",)) -> Probe:
        p = Probe(broker.port, user, broker.passwords[user], subscribe)
        made.append(p)
        return p

    yield make
    for p in made:
        p.close()
