"""One paho-mqtt 2.x client that keeps itself connected.

`connect_async` + `loop_start` so a broker that is down at start is simply retried; a last will
marks the box offline if it vanishes; subscriptions are (re)made in on_connect so they survive
reconnects; every callback is guarded (an exception would kill paho's network thread).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from device.network.mqtt.guard import guarded

log = logging.getLogger("houston.mqtt")


@dataclass(frozen=True)
class Will:
    topic: str
    payload: bytes
    qos: int = 1
    retain: bool = True


MAX_QUEUED = 1000  # messages paho may hold for a slow or vanished broker


class Connection:
    """A connected-when-possible MQTT client; `publish` is a no-op while the broker is away."""

    def __init__(
        self,
        *,
        host: str,
        port: int,
        username: str | None,
        password: str | None,
        client_id: str,
        keepalive: int = 30,
        will: Will | None = None,
        subscriptions: Sequence[tuple[str, int]] = (),
        on_connected: Callable[[], None] | None = None,
        on_message: Callable[[str, bytes], None] | None = None,
        reconnect: tuple[int, int] = (1, 8),
        transport: Literal["tcp", "websockets", "unix"] = "tcp",
    ) -> None:
        self.host, self.port, self.keepalive = host, port, keepalive
        self.subscriptions = list(subscriptions)
        self._on_connected = on_connected
        self._on_message = on_message
        self.connected = threading.Event()  # CONNACK came: publishing is possible
        self.ready = threading.Event()  # ... and the SUBACK too: commands sent now reach the box
        self.connects = 0  # successful connections so far (tests and the bench read it)
        self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id, transport=transport)
        if username:
            self.client.username_pw_set(username, password or None)
        if will is not None:
            self.client.will_set(will.topic, will.payload, qos=will.qos, retain=will.retain)
        self.client.reconnect_delay_set(*reconnect)
        self.client.max_queued_messages_set(MAX_QUEUED)  # paho's default is unlimited
        self.client.on_connect = guarded(self._connected)
        self.client.on_disconnect = guarded(self._disconnected)
        self.client.on_message = guarded(self._message)
        self.client.on_subscribe = guarded(self._subscribed)
        self._subscribe_mid: int | None = None

    def start(self) -> None:
        """Begin connecting in the background; returns at once."""
        self.client.connect_async(self.host, self.port, self.keepalive)
        self.client.loop_start()

    def wait_connected(self, timeout: float) -> bool:
        """Connected and subscribed. Waiting only for the CONNACK let a client that connected
        just after see its command dropped: the broker had the box's session but not yet its
        subscriptions (a flake on two busy cores)."""
        return self.ready.wait(timeout)

    def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> mqtt.MQTTMessageInfo | None:
        """Send if connected; otherwise drop it (the latest retained state is republished on connect)."""
        if not self.connected.is_set():
            return None
        return self.client.publish(topic, payload, qos=qos, retain=retain)

    def stop(self, last_words: Sequence[tuple[str, bytes, int, bool]] = (), timeout: float = 2.0) -> None:
        """Publish `last_words` (the will is not sent on a clean disconnect), then disconnect."""
        infos = [self.publish(t, p, q, r) for t, p, q, r in last_words]
        for info in infos:
            if info is None:
                continue
            try:
                info.wait_for_publish(timeout)
            except (RuntimeError, ValueError) as exc:
                log.warning("last message not sent: %s", exc)
        self.connected.clear()  # a clean stop is not a lost connection: no warning
        self.ready.clear()
        self.client.disconnect()
        self.client.loop_stop()

    # --- paho callbacks (network thread; each guarded) ----------------------------------------

    def _connected(self, client: mqtt.Client, userdata: object, flags: object, reason: object,
                   properties: object = None) -> None:
        if getattr(reason, "is_failure", False):
            log.warning("MQTT connection to %s:%s refused: %s", self.host, self.port, reason)
            return
        log.info("MQTT connected to %s:%s", self.host, self.port)
        self.connected.set()
        if self.subscriptions:
            _, self._subscribe_mid = client.subscribe(self.subscriptions)
        else:
            self._ready()

    def _subscribed(self, client: mqtt.Client, userdata: object, mid: int, reasons: object,
                    properties: object = None) -> None:
        if mid == self._subscribe_mid:
            self._ready()

    def _ready(self) -> None:
        """Connected and subscribed. This runs when the SUBACK arrives, i.e. after paho has re-sent
        the QoS 1 messages left in flight by the lost connection, so what `on_connected` publishes
        now lands after them: stale retained state cannot overwrite the fresh one."""
        self.connects += 1
        try:
            if self._on_connected is not None:
                self._on_connected()
        finally:
            self.ready.set()

    def _disconnected(self, client: mqtt.Client, userdata: object, flags: object, reason: object,
                      properties: object = None) -> None:
        if self.connected.is_set():
            log.warning("MQTT disconnected from %s:%s: %s", self.host, self.port, reason)
        self.connected.clear()
        self.ready.clear()

    def _message(self, client: mqtt.Client, userdata: object, message: mqtt.MQTTMessage) -> None:
        if self._on_message is not None:
            self._on_message(message.topic, bytes(message.payload))
