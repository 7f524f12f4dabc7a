"""A link counts as connected only once it is subscribed: a command sent the moment
`wait_connected` returns must reach the box (it once did not, on two busy cores)."""

from __future__ import annotations

import threading
import time

from device.network.mqtt.broker import Broker
from device.network.mqtt.connection import Connection
from tests.support.broker import CONNECT_WAIT, Probe


def test_wait_connected_returns_after_the_subscription_and_its_callback(broker: Broker) -> None:
    got: list[bytes] = []
    arrived = threading.Event()
    announced = threading.Event()

    def on_connected() -> None:
        time.sleep(0.3)  # a slow republish: the old wait returned long before this ended
        announced.set()

    def on_message(topic: str, payload: bytes) -> None:
        got.append(payload)
        arrived.set()

    conn = Connection(host="127.0.0.1", port=broker.port, username="box", password=broker.passwords["box"],
                      client_id="ready-test", subscriptions=[("houston/ready/cmd/+/+", 1)],
                      on_connected=on_connected, on_message=on_message)
    conn.start()
    try:
        assert conn.wait_connected(CONNECT_WAIT)
        assert announced.is_set(), "wait_connected returned before the subscription was made"
        sender = Probe(broker.port, "admin", broker.passwords["admin"], subscribe=())
        try:
            sender.publish("houston/ready/cmd/admin/press", b'{"button": "ok"}')
            assert arrived.wait(CONNECT_WAIT) and got == [b'{"button": "ok"}']
        finally:
            sender.close()
        conn.stop()
        assert not conn.ready.is_set() and not conn.wait_connected(0.05)
    finally:
        conn.client.loop_stop()
