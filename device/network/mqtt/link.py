"""The box's MQTT link: connection, outlet, commands and discovery, wired to one service.

`start_mqtt(settings, service)` is what `houston run` calls. With `[mqtt] enabled = false` it
returns None and the box referees exactly as before; with a broker that is down it keeps trying in
the background (the box never waits for it). On every (re)connect it republishes the retained
state, every team view, the game log, the summary and Home Assistant discovery, and only then says
`online`: a subscriber that waits for `online` never takes the previous run's state as news.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from device.box.config import Settings
from device.box.jobs import CallJob
from device.box.service import Service, Update
from device.network.mqtt.commands import CommandHandler
from device.network.mqtt.connection import Connection, Will
from device.network.mqtt.discovery import STATUS_TOPIC, discovery_messages
from device.network.mqtt.http import DashboardServer
from device.network.mqtt.outlet import MqttOutlet
from device.network.mqtt.topics import OFFLINE, ONLINE, Topics, encode
from games.registry import game_ids, load_game

log = logging.getLogger("houston.mqtt")

DEFAULTS: dict[str, Any] = {
    "host": "localhost", "port": 1883, "username": "box", "password": "", "password_file": "",
    "keepalive": 30, "http_port": 0, "ws_url": "", "dashboard_password": "", "dashboard_url": "",
}


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("houston")
    except Exception:
        return "0"


class MqttLink:
    """Everything MQTT for one service; `start()` returns at once, `stop()` says offline first."""

    def __init__(
        self,
        service: Service,
        *,
        host: str,
        port: int,
        username: str | None,
        password: str | None,
        keepalive: int = 30,
        http_port: int | None = None,
        page_config: Mapping[str, Any] | None = None,
        reconnect: tuple[int, int] = (1, 8),
        dashboard_url: str = "",
    ) -> None:
        self.service = service
        self.topics = Topics(service.box_id)
        self.connection = Connection(
            host=host, port=port, username=username, password=password,
            client_id=f"houston-{service.box_id}", keepalive=keepalive,
            will=Will(self.topics.availability, OFFLINE),
            subscriptions=[(self.topics.commands, 1), (self.topics.admin_commands, 1), (STATUS_TOPIC, 1)],
            on_connected=self._on_connected, on_message=self._on_message, reconnect=reconnect,
        )
        self.outlet = MqttOutlet(self.topics, self.connection)
        self.commands = CommandHandler(self.topics, service.post, self._publish_reply)
        self.http: DashboardServer | None = None
        if http_port is not None:
            self.http = DashboardServer(http_port, {"box": service.box_id, **(page_config or {})})
        self._dashboard_url = dashboard_url

    @property
    def dashboard_url(self) -> str | None:
        """Where the dashboard is served (Home Assistant's `configuration_url`), if it is."""
        if self._dashboard_url:
            return self._dashboard_url
        if self.http is None:
            return None
        return f"http://{socket.gethostname()}:{self.http.port}/"

    def start(self) -> MqttLink:
        # the state ahead of the lights and the voice, the rest of the update after them
        self.service.outlets = [self.outlet.state_first, *self.service.outlets, self.outlet]
        self.service.post(CallJob(self._seed))
        if self.http is not None:
            self.http.start()
        self.connection.start()
        return self

    def stop(self) -> None:
        """Publish `offline` (paho sends no will on a clean disconnect), disconnect, stop serving."""
        self.service.outlets = [o for o in self.service.outlets
                                if o is not self.outlet and o is not self.outlet.state_first]
        self.outlet.flush()
        self.connection.stop([(self.topics.availability, OFFLINE, 1, True)])
        if self.http is not None:
            self.http.stop()

    # --- on the service thread ---------------------------------------------------------------

    def _seed(self) -> None:
        """The current state, computed on the service thread, so a late start has something to show."""
        spoken = self.service.narrator.last_spoken
        if spoken:  # what the box said before the link was up (e.g. on start) is the last announcement
            self.outlet.remember_announcement(spoken[-1])
        self.outlet.deliver(Update(0, self.service.public_view(), self.service.team_views(), []))

    # --- on paho's thread (guarded by Connection) ----------------------------------------------

    def _on_connected(self) -> None:
        self.outlet.republish()
        self.publish_discovery()
        self.connection.publish(self.topics.availability, ONLINE, qos=1, retain=True)

    def _on_message(self, topic: str, payload: bytes) -> None:
        if topic == STATUS_TOPIC:
            if payload.strip() == b"online":
                self.publish_discovery()
                self.outlet.republish()
            return
        self.commands.handle(topic, payload)

    def _publish_reply(self, topic: str, payload: bytes) -> None:
        self.connection.publish(topic, payload, qos=1, retain=False)

    def publish_discovery(self) -> None:
        games = [(g, load_game(g).info.title) for g in game_ids()]
        for topic, config in discovery_messages(self.topics, _version(), dashboard_url=self.dashboard_url,
                                                games=games):
            self.connection.publish(topic, encode(config), qos=1, retain=True)


def _password(mqtt: Mapping[str, Any]) -> str | None:
    if mqtt.get("password"):
        return str(mqtt["password"])
    path = mqtt.get("password_file") or ""
    if not path:
        return None
    try:
        return Path(path).read_text(encoding="utf-8").strip()
    except OSError as exc:
        log.error("MQTT password file %s unreadable (%s); connecting without a password", path, exc)
        return None


def start_mqtt(settings: Settings, service: Service) -> MqttLink | None:
    """The link for `settings.mqtt`, started; None when MQTT is not enabled."""
    mqtt = {**DEFAULTS, **settings.mqtt}
    if not mqtt.get("enabled", False):
        return None
    http_port = int(mqtt["http_port"]) or None
    page = {"ws_url": mqtt["ws_url"], "username": "dashboard", "password": mqtt["dashboard_password"]}
    link = MqttLink(
        service, host=mqtt["host"], port=int(mqtt["port"]), username=mqtt["username"],
        password=_password(mqtt), keepalive=int(mqtt["keepalive"]), http_port=http_port, page_config=page,
        dashboard_url=str(mqtt["dashboard_url"]),
    )
    return link.start()
