"""The MQTT outlet: each service update onto the public, event and team topics.

Only three things leave here: `update.public` (to the state topic), `update.events` (to the
events topic) and each entry of `update.teams` (to that team's own topic). The latest state and
team views are kept so a reconnect can republish them at once: retained messages in the broker
do not survive its restart, and nothing is sent while it is away.
"""

from __future__ import annotations

import threading
from typing import Any, Protocol

from device.box.service import Update
from device.network.mqtt.topics import Topics, event_payload, state_payload, team_payload


class Publisher(Protocol):
    def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> Any: ...


class MqttOutlet:
    """Publishes updates; thread-safe (the service thread delivers, paho's thread republishes)."""

    def __init__(self, topics: Topics, publisher: Publisher) -> None:
        self.topics = topics
        self.publisher = publisher
        self._lock = threading.Lock()
        self._public: dict[str, Any] | None = None
        self._state: bytes | None = None
        self._teams: dict[str, dict[str, Any]] = {}
        self._team_payloads: dict[str, bytes] = {}

    def deliver(self, update: Update) -> None:
        with self._lock:
            if update.public != self._public:
                self._public = update.public
                self._state = state_payload(update.seq, update.public)
                self.publisher.publish(self.topics.state, self._state, qos=1, retain=True)
            for event in update.events:
                self.publisher.publish(self.topics.events, event_payload(update.seq, event), qos=1, retain=False)
            self._deliver_teams(update)

    def _deliver_teams(self, update: Update) -> None:
        for team in [t for t in self._teams if t not in update.teams]:
            # a team no longer playing: clear its retained view so no stale screen shows it
            del self._teams[team], self._team_payloads[team]
            self.publisher.publish(self.topics.team(team), b"", qos=1, retain=True)
        for team, view in update.teams.items():
            if self._teams.get(team) == view:
                continue
            self._teams[team] = view
            self._team_payloads[team] = team_payload(update.seq, team, view)
            self.publisher.publish(self.topics.team(team), self._team_payloads[team], qos=1, retain=True)

    def republish(self) -> None:
        """The latest state and every team view again (after a (re)connect)."""
        with self._lock:
            if self._state is not None:
                self.publisher.publish(self.topics.state, self._state, qos=1, retain=True)
            for team, payload in self._team_payloads.items():
                self.publisher.publish(self.topics.team(team), payload, qos=1, retain=True)
