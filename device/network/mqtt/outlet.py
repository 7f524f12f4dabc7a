"""The MQTT outlet: each service update onto the public, event and team topics.

What leaves here: `update.public` (to the state topic, and digested for Home Assistant on the
summary topic), `update.events` (to the events topic; the public ones also to the retained game
log; results to the results topic) and each entry of `update.teams` (to that team's own topic).
When a game starts or ends, and on the first update after the box starts, every team topic that
has no view in the update is cleared (an empty retained message), so a phone never shows a seat
from another game, even one from before a restart. The latest retained payloads are kept so a
reconnect can republish them at once: retained messages in the broker do not survive its
restart, and nothing is sent while it is away.

The summary is Home Assistant's, and Home Assistant records every change of every sensor: it gets
at most one digest per `SUMMARY_INTERVAL`. At a table (inputs seconds apart) each update's digest
goes at once; in a burst (a replayed or simulated game) the first goes at once and the latest is
sent when the interval is up, from a timer, so the sensors always end on the box's latest state.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any, Protocol

from device.box.service import PUBLIC_SCHEMA, Update
from device.network.mqtt.gamelog import GameLog
from device.network.mqtt.summary import Results, summary
from device.network.mqtt.topics import Topics, encode, event_payload, state_payload, team_payload
from games.core import TEAM_COLOURS

ANNOUNCED = ("say", "prompt", "error")
SUMMARY_INTERVAL = 0.5  # seconds between two summaries at most: Home Assistant records each one


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
        self._summary_source: tuple[int, dict[str, Any]] | None = None  # the latest (seq, public)
        self._summary_sent = -SUMMARY_INTERVAL  # time.monotonic() of the last summary published
        self._summary_timer: threading.Timer | None = None  # the trailing summary, when one is due
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
        all of it, but for a summary held back in a burst (`_deliver_summary`). An update
        without events sends its state last instead, for the same reason."""
        with self._lock:
            for event in update.events:
                if event.get("type") in ANNOUNCED and event.get("text"):
                    self._announcement = str(event["text"])
            if update.events:
                self._deliver_state(update)
            self._deliver_teams(update)
            if self.log.update(update.seq, update.public, update.events):
                self._log = self.log.encoded(PUBLIC_SCHEMA, update.seq)
                self.publisher.publish(self.topics.log, self._log, qos=1, retain=True)
            self._deliver_summary(update)
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

    def _deliver_summary(self, update: Update) -> None:
        """Now, or (in a burst) from the timer when the interval is up; the latest update wins."""
        self._summary_source = (update.seq, update.public)
        if self._summary_timer is not None:
            return  # a trailing summary is due: it will take this update
        wait = self._summary_sent + SUMMARY_INTERVAL - time.monotonic()
        if wait <= 0:
            self._publish_summary()
            return
        self._summary_timer = threading.Timer(wait, self._trailing_summary)
        self._summary_timer.daemon = True
        self._summary_timer.start()

    def _trailing_summary(self) -> None:
        with self._lock:
            if self._summary_timer is not threading.current_thread():
                return  # cancelled: the summary went out some other way (republish, flush)
            self._summary_timer = None
            self._publish_summary()

    def _publish_summary(self) -> None:
        """The digest of the latest update, if it changed (lock held)."""
        if self._refresh_summary():
            assert self._summary is not None
            self.publisher.publish(self.topics.summary, self._summary, qos=1, retain=True)
            self._summary_sent = time.monotonic()

    def _refresh_summary(self) -> bool:
        """The summary payload made from the latest update; whether it changed (lock held)."""
        if self._summary_source is None:
            return False
        seq, public = self._summary_source
        digest = summary(public, self._announcement)
        if digest == self._digest:
            return False
        self._digest = digest
        self._summary = encode({**digest, "schema": PUBLIC_SCHEMA, "seq": seq})
        return True

    def flush(self) -> None:
        """Send a summary that is waiting for its interval now (before the link goes down)."""
        with self._lock:
            if self._cancel_trailing_summary():
                self._publish_summary()

    def _cancel_trailing_summary(self) -> bool:
        """Whether a trailing summary was due (it is not any more; lock held)."""
        timer, self._summary_timer = self._summary_timer, None
        if timer is not None:
            timer.cancel()
        return timer is not None

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
            if self._cancel_trailing_summary():
                self._refresh_summary()  # the latest digest, sent below with the rest
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
