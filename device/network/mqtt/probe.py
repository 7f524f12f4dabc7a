"""A plain MQTT client that records what it receives: the tests' and the benchmark's eyes.

It logs in as any broker user, so the ACL is what decides what it sees: a probe logged in as
`dashboard` sees exactly what a dashboard would.
"""

from __future__ import annotations

import itertools
import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from device.network.mqtt.guard import guarded

_ids = itertools.count(1)


@dataclass(frozen=True)
class Message:
    topic: str
    payload: bytes
    retain: bool
    at: float  # time.perf_counter() on arrival

    def json(self) -> Any:
        return json.loads(self.payload)


class Probe:
    """Connect, subscribe, record; `wait_for` blocks until a matching message arrives."""

    def __init__(self, port: int, user: str, password: str, subscribe: Sequence[str] = ("#",),
                 host: str = "127.0.0.1", timeout: float = 5.0) -> None:
        self.messages: list[Message] = []
        self._cond = threading.Condition()
        self._subscribed = threading.Event()
        self.topics = list(subscribe)
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=f"probe-{user}-{next(_ids)}")
        self.client.username_pw_set(user, password)
        self.client.on_connect = guarded(self._connected)
        self.client.on_subscribe = guarded(lambda *a: self._subscribed.set())
        self.client.on_message = guarded(self._message)
        self.client.connect(host, port, keepalive=30)
        self.client.loop_start()
        if self.topics and not self._subscribed.wait(timeout):
            self.close()
            raise TimeoutError(f"probe {user} did not subscribe")

    def _connected(self, client: mqtt.Client, *args: Any) -> None:
        if self.topics:
            client.subscribe([(t, 1) for t in self.topics])

    def _message(self, client: mqtt.Client, userdata: Any, message: mqtt.MQTTMessage) -> None:
        with self._cond:
            self.messages.append(Message(message.topic, bytes(message.payload), bool(message.retain),
                                         time.perf_counter()))
            self._cond.notify_all()

    def wait_for(self, match: Callable[[Message], bool], timeout: float = 2.0, start: int = 0) -> Message | None:
        """The first message from index `start` on that matches, waiting up to `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for message in self.messages[start:]:
                    if match(message):
                        return message
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return None
                self._cond.wait(remaining)

    def on(self, topic: str) -> list[Message]:
        with self._cond:
            return [m for m in self.messages if m.topic == topic]

    def mark(self) -> int:
        """The index the next message will get (for `wait_for(start=...)`)."""
        with self._cond:
            return len(self.messages)

    def publish(self, topic: str, payload: bytes | str, qos: int = 1, retain: bool = False) -> None:
        self.client.publish(topic, payload, qos=qos, retain=retain).wait_for_publish(2)

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()
