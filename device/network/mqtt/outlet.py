"""The MQTT outlet: each service update onto the public, event and team topics.

What leaves here: `update.public` (to the state topic, and digested for Home Assistant on the
summary topic), `update.events` (to the events topic; the public ones also to the retained game
log; results to the results topic) and each entry of `update.teams` (to that team's own topic).
When a game starts or ends, and on the first update after the box starts, every team topic that
has no view in the update is cleared (an empty retained message), so a phone never shows a seat
from another game, even one from before a restart. The latest retained payloads are kept so a
reconnect can republish them at once: retained messages in the broker do not survive its
restart, and nothing is sent while it is away.
"""

from __future__ import annotations

import os
import threading
from typing import Any, Protocol

from device.box.service import PUBLIC_SCHEMA, Update
from device.network.mqtt.gamelog import GameLog
from device.network.mqtt.summary import Results, summary
from device.network.mqtt.topics import Topics, encode, event_payload, state_payload, team_payload
from games.core import TEAM_COLOURS

ANNOUNCED = ("say", "prompt", "error")


def _let_it_go() -> None:
    """Screens wait for the state: give the CPU (and with it the GIL) up once, so paho's network
    thread writes the state to the broker now rather than after the rest of this update (team
    views, log, summary, events) is made. Python's GIL passes to a waiting thread only when the
    holder blocks or after 5 ms, and paho writes every message on its own thread."""
    os.sched_yield()


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
        self._game_key: tuple[Any, Any] | None = None  # (mode, game id): a change clears team topics
        self.log = GameLog()
        self._log: bytes | None = None
        self.results = Results()
        self._announcement: str | None = None
        self._digest: dict[str, Any] | None = None
        self._summary: bytes | None = None
        self.state_first = StateFirst(self)

    @property
    def last_state(self) -> bytes | None:
        """The state payload published last (what a new subscriber receives, retained)."""
        with self._lock:
            return self._state

    def remember_announcement(self, text: str) -> None:
        """The last thing the box said, for the summary (before any update carried it)."""
        with self._lock:
            self._announcement = text

    def deliver(self, update: Update) -> None:
        """The state first (screens wait for it), then the team views, the log, the summary and
        the results, and the events last: a subscriber waiting for an update's last event has
        all of it. An update without events sends its state last instead, for the same reason."""
        with self._lock:
            for event in update.events:
                if event.get("type") in ANNOUNCED and event.get("text"):
                    self._announcement = str(event["text"])
            if update.events:
                self._deliver_state(update)
            self._deliver_teams(update)
            if self.log.update(update.seq, update.public, update.events):
                self._log = encode({**self.log.payload(), "schema": PUBLIC_SCHEMA, "seq": update.seq})
                self.publisher.publish(self.topics.log, self._log, qos=1, retain=True)
            digest = summary(update.public, self._announcement)
            if digest != self._digest:
                self._digest = digest
                self._summary = encode({**digest, "schema": PUBLIC_SCHEMA, "seq": update.seq})
                self.publisher.publish(self.topics.summary, self._summary, qos=1, retain=True)
            for result in self.results.events(update.public, update.events):
                payload = encode({**result, "schema": PUBLIC_SCHEMA, "seq": update.seq})
                self.publisher.publish(self.topics.results, payload, qos=1, retain=False)
            if not update.events:
                self._deliver_state(update)
            for event in update.events:
                self.publisher.publish(self.topics.events, event_payload(update.seq, event), qos=1, retain=False)

    def deliver_state_first(self, update: Update) -> None:
        """An update's state alone, ahead of the box's other outlets (StateFirst): `deliver`, later,
        then finds it sent. Only for an update with events: one without sends its state last."""
        if update.events:
            with self._lock:
                self._deliver_state(update)

    def _deliver_state(self, update: Update) -> None:
        if update.public != self._public:
            self._public = update.public
            self._state = update.public_json or state_payload(update.seq, update.public)
            self.publisher.publish(self.topics.state, self._state, qos=1, retain=True)
            _let_it_go()

    def _deliver_teams(self, update: Update) -> None:
        game = update.public.get("game")
        key = (update.public.get("mode"), game.get("game") if isinstance(game, dict) else None)
        if key != self._game_key:
            # a game started or ended, or the box just started: no team topic keeps an old view
            self._game_key = key
            for team in {*TEAM_COLOURS, *self._teams}:
                if team not in update.teams:
                    self._teams.pop(team, None)
                    self._team_payloads.pop(team, None)
                    self.publisher.publish(self.topics.team(team), b"", qos=1, retain=True)
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
        """The latest state, every team view, the log and the summary again (after a (re)connect).
        Results are never republished: a result fires once."""
        with self._lock:
            if self._state is not None:
                self.publisher.publish(self.topics.state, self._state, qos=1, retain=True)
            for team in TEAM_COLOURS:
                if team not in self._team_payloads:  # what a previous run left there goes
                    self.publisher.publish(self.topics.team(team), b"", qos=1, retain=True)
            for team, payload in self._team_payloads.items():
                self.publisher.publish(self.topics.team(team), payload, qos=1, retain=True)
            if self._log is not None:
                self.publisher.publish(self.topics.log, self._log, qos=1, retain=True)
            if self._summary is not None:
                self.publisher.publish(self.topics.summary, self._summary, qos=1, retain=True)


class StateFirst:
    """The MQTT outlet's state, delivered before the panel and the voice (MqttLink puts it first
    among the service's outlets, the MqttOutlet itself last): a screen waits for the state, while
    the lights and the speaker lose only that one publish. Driving the lights (~0.2-0.4 ms of pin
    writes a Dog update) had come between the durable commit and the state (`houston bench mqtt`,
    docs/mqtt.md)."""

    def __init__(self, outlet: MqttOutlet) -> None:
        self.outlet = outlet

    def deliver(self, update: Update) -> None:
        self.outlet.deliver_state_first(update)
