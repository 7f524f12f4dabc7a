"""The box referees with the broker down and, when it returns, republishes everything within 2 s."""

from __future__ import annotations

import socket
import time
from pathlib import Path

from device.box.config import Settings
from device.network.mqtt.broker import Broker
from device.network.mqtt.link import MqttLink
from device.simulation.simbox import SimBox
from device.simulation.testing import make_box
from tests.support.broker import CONNECT_WAIT, Probe
from tests.support.wait import until

TEAMS = ["red", "blue", "green"]


def _box(tmp_path: Path, box_id: str) -> SimBox:
    return make_box(tmp_path / "data", game="hwhad", options={"teams": TEAMS},
                    settings=Settings(box_id=box_id, game="hwhad"))


def _link(box: SimBox, broker: Broker, reconnect: tuple[int, int] = (1, 8)) -> MqttLink:
    return MqttLink(box.service, host="127.0.0.1", port=broker.port, username="box",
                    password=broker.passwords["box"], reconnect=reconnect).start()


def _deal(box: SimBox, cards: int) -> None:
    for _ in range(cards):
        box.scan(box.session.state.stack[0])


def _wait_connects(link: MqttLink, n: int) -> float:
    assert until(lambda: link.connection.connects >= n, every=0.005), "the box did not reconnect"
    return time.perf_counter()


def test_broker_restart_mid_game_republishes_within_two_seconds(tmp_path: Path) -> None:
    broker = Broker(tmp_path / "broker")
    broker.write_config()
    broker.start()
    box = _box(tmp_path, "resilient")
    link = _link(box, broker)
    try:
        assert link.connection.wait_connected(CONNECT_WAIT)
        box.press("ok")
        _deal(box, 3)
        broker.stop()  # retained messages die with it (persistence false)
        _deal(box, 4)  # the box referees on: the deal goes on while the broker is away
        assert box.session.state.deck and len(box.session.state.stack) == len(box.session.state.deck) - 7
        assert box.errors == []
        broker.start()
        reconnected = _wait_connects(link, 2)
        screens = {user: Probe(broker.port, user, broker.passwords[user]) for user in ("dashboard", *TEAMS)}
        try:
            dash = screens["dashboard"]
            online = dash.wait_for(lambda m: m.topic == link.topics.availability and m.payload == b"online")
            # the latest state, made while the broker was down (paho may first deliver an older one it
            # had queued while the broker was away; what counts is that the latest arrives in time)
            state = dash.wait_for(lambda m: m.topic == link.topics.state and m.json()["game"]["deal"]["dealt"] == 7)
            assert online is not None and state is not None
            assert state.at - reconnected <= 2.0 and online.at - reconnected <= 2.0
            latest = box.service.team_views()
            for team in TEAMS:
                # the same for a team's view: an older one paho queued may come first, the latest in time
                view = screens[team].wait_for(
                    lambda m, t=team: m.topic == link.topics.team(t) and m.json()["view"] == latest[t])
                assert view is not None and view.at - reconnected <= 2.0
            # and the latest is what stays retained: a screen that comes later sees it first
            late = Probe(broker.port, "red", broker.passwords["red"], (link.topics.team("red"),))
            try:
                first = late.wait_for(lambda m: True)
                assert first is not None and first.retain and first.json()["view"] == latest["red"]
            finally:
                late.close()
        finally:
            for probe in screens.values():
                probe.close()
    finally:
        link.stop()
        box.close()
        broker.stop()


def test_box_starts_without_a_broker_and_connects_when_it_appears(tmp_path: Path) -> None:
    broker = Broker(tmp_path / "broker")
    broker.write_config()  # ports chosen, nothing listening yet
    box = _box(tmp_path, "early")
    started = time.monotonic()
    link = _link(box, broker, reconnect=(1, 1))  # retry every second while nothing listens
    try:
        assert time.monotonic() - started < 0.5  # start never waits for the broker
        box.press("ok")
        _deal(box, 2)
        broker.start()
        assert link.connection.wait_connected(CONNECT_WAIT)
        probe = Probe(broker.port, "dashboard", broker.passwords["dashboard"])
        try:
            state = probe.wait_for(lambda m: m.topic == link.topics.state)
            assert state is not None and state.json()["game"]["deal"]["dealt"] == 2
        finally:
            probe.close()
    finally:
        link.stop()
        box.close()
        broker.stop()


def test_lost_connection_sends_the_will_and_clean_stop_says_offline(tmp_path: Path, broker: Broker) -> None:
    box = make_box(tmp_path / "data", game="dog", settings=Settings(box_id="willing"))
    link = _link(box, broker)
    probe = Probe(broker.port, "dashboard", broker.passwords["dashboard"], ("houston/willing/availability",))
    try:
        assert link.connection.wait_connected(CONNECT_WAIT)
        assert probe.wait_for(lambda m: m.payload == b"online") is not None
        start = probe.mark()
        link.connection.client.socket().shutdown(socket.SHUT_RDWR)  # the network vanishes, no DISCONNECT
        assert probe.wait_for(lambda m: m.payload == b"offline", start=start) is not None  # the broker's will
        assert probe.wait_for(lambda m: m.payload == b"online", start=start) is not None  # back by itself
        start = probe.mark()
        link.stop()
        assert probe.wait_for(lambda m: m.payload == b"offline", start=start) is not None  # said before leaving
    finally:
        probe.close()
        box.close()


def test_an_exception_in_a_callback_does_not_kill_the_network_thread(broker: Broker) -> None:
    from device.network.mqtt.connection import Connection

    seen: list[bytes] = []

    def on_message(topic: str, payload: bytes) -> None:
        seen.append(payload)
        if payload == b"boom":
            raise RuntimeError("a bug in a handler")

    conn = Connection(host="127.0.0.1", port=broker.port, username="box", password=broker.passwords["box"],
                      client_id="guard-test", subscriptions=[("houston/guard/cmd/+/+", 1)], on_message=on_message)
    conn.start()
    admin = Probe(broker.port, "admin", broker.passwords["admin"], ())
    try:
        assert until(lambda: conn.connects >= 1)  # subscribed
        admin.publish("houston/guard/cmd/admin/x", b"boom")
        admin.publish("houston/guard/cmd/admin/x", b"after")
        assert until(lambda: seen == [b"boom", b"after"]), seen
        assert conn.client.is_connected()
    finally:
        admin.close()
        conn.stop()
