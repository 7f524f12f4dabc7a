"""`houston run --sim --dashboard`: the box on a laptop with its own broker and dashboard.

A newcomer needs one command: it starts a private Mosquitto (on free ports, with fresh random
passwords, from a generated config that runs on its own: `mosquitto -c <data-dir>/broker/
mosquitto.conf`), links the simulated box to it, serves the dashboard and prints the links —
the public page and one per team. Everything is stopped when the simulator quits. Without
`--dashboard`, `run --sim` links to the broker `[mqtt]` names when it is enabled, as the Pi does.
"""

from __future__ import annotations

import logging
import secrets
import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlencode

from device.box.config import Settings
from device.network.mqtt.broker import USERS, Broker, free_port
from device.network.mqtt.link import MqttLink, start_mqtt
from games.core import TEAM_COLOURS

log = logging.getLogger("houston.laptop")


@dataclass
class Network:
    """What `run --sim` started besides the box: a link, and maybe a private broker."""

    link: MqttLink | None = None
    broker: Broker | None = None
    links: dict[str, str] = field(default_factory=dict)

    def close(self) -> None:
        if self.link is not None:
            self.link.stop()
        if self.broker is not None:
            self.broker.stop()


def private_broker(directory: Path) -> Broker:
    """A Mosquitto of the box's own: free ports, random passwords, the project's ACL."""
    if directory.exists():
        shutil.rmtree(directory)  # last run's passwords and ports are not reused
    broker = Broker(directory, passwords={user: secrets.token_urlsafe(12) for user in USERS})
    broker.write_config()
    return broker.start()


def dashboard_links(base_url: str, broker: Broker) -> dict[str, str]:
    """'public' -> the page; each team colour -> the page logged in as that team."""
    links = {"public": base_url}
    for team in TEAM_COLOURS:
        links[team] = f"{base_url}?{urlencode({'team': team, 'user': team, 'pass': broker.passwords[team]})}"
    return links


def start_network(service: Any, settings: Settings, data_dir: Path, out: TextIO, *, dashboard: bool) -> Network:
    """With `dashboard`: a private broker, the link and the page, links printed. Else `[mqtt]`."""
    if not dashboard:
        return Network(link=start_mqtt(settings, service))
    broker = private_broker(data_dir / "broker")
    try:
        http_port = int(settings.mqtt.get("http_port") or 0) or free_port()
        page = {"ws_port": broker.ws_port, "username": "dashboard", "password": broker.passwords["dashboard"]}
        link = MqttLink(service, host="127.0.0.1", port=broker.port, username="box",
                        password=broker.passwords["box"], http_port=http_port, page_config=page,
                        dashboard_url=f"http://localhost:{http_port}/").start()
    except Exception:
        broker.stop()
        raise
    assert link.http is not None
    links = dashboard_links(f"http://localhost:{link.http.port}/", broker)
    print(f"Broker: mosquitto -c {broker.directory / 'mosquitto.conf'} (port {broker.port}, "
          f"WebSockets {broker.ws_port}); users and passwords in {broker.directory / 'users.txt'}", file=out)
    print("Dashboard (open on this laptop; on a phone use this laptop's address instead of localhost):", file=out)
    for name, url in links.items():
        print(f"  {name:<7} {url}", file=out)
    out.flush()
    (broker.directory / "users.txt").write_text(
        "".join(f"{user} {password}\n" for user, password in broker.passwords.items()), encoding="utf-8")
    (broker.directory / "users.txt").chmod(0o600)
    return Network(link=link, broker=broker, links=links)
