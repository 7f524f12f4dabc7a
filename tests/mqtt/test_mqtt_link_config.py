"""start_mqtt: off by default, on from [mqtt] settings, serving the dashboard with its config."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path

from device.box.config import Settings, load_settings
from device.network.mqtt.broker import free_port
from device.network.mqtt.link import start_mqtt
from device.simulation.testing import make_box
from tests.support.broker import CONNECT_WAIT, DELIVERED


def test_disabled_mqtt_returns_none_and_adds_no_outlet(tmp_path: Path) -> None:
    box = make_box(tmp_path, game="dog")
    try:
        before = list(box.service.outlets)
        assert start_mqtt(Settings(mqtt={"enabled": False}), box.service) is None
        assert start_mqtt(Settings(), box.service) is None
        assert box.service.outlets == before
    finally:
        box.close()


def test_enabled_link_connects_with_a_password_file_and_serves_the_dashboard(tmp_path: Path, broker, probes) -> None:
    secret = tmp_path / "box.secret"
    secret.write_text(broker.passwords["box"] + "\n")
    toml = tmp_path / "houston.toml"
    toml.write_text(
        '[box]\nid = "configured"\n'
        f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {broker.port}\nusername = "box"\n'
        f'password_file = "{secret}"\nkeepalive = 10\nhttp_port = {free_port()}\n'
        f'ws_url = "ws://127.0.0.1:{broker.ws_port}"\ndashboard_password = "{broker.passwords["dashboard"]}"\n'
    )
    settings = load_settings(toml)
    box = make_box(tmp_path / "data", game="dog", settings=settings)
    link = start_mqtt(settings, box.service)
    assert link is not None
    try:
        assert link.connection.wait_connected(CONNECT_WAIT)
        assert link.outlet in box.service.outlets
        dash = probes("dashboard", ("houston/configured/#",))
        state = dash.wait_for(lambda m: m.topic == "houston/configured/state")
        assert state is not None and state.json()["box"] == "configured"  # seeded at start, retained
        assert link.http is not None
        assert link.http.port == settings.mqtt["http_port"]
        base = f"http://127.0.0.1:{link.http.port}/"
        config = json.load(urllib.request.urlopen(base + "config.json", timeout=DELIVERED))
        assert config == {"box": "configured", "ws_url": f"ws://127.0.0.1:{broker.ws_port}",
                          "username": "dashboard", "password": broker.passwords["dashboard"]}
        page = urllib.request.urlopen(base, timeout=DELIVERED).read().decode()
        assert "vendor/mqtt.min.js" in page and "dashboard.js" in page
        assert urllib.request.urlopen(base + "vendor/mqtt.min.js", timeout=DELIVERED).status == 200
    finally:
        link.stop()
        box.close()
    assert link.outlet not in box.service.outlets
