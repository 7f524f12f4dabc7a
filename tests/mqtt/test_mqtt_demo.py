"""`houston demo` publishes to a broker when [mqtt] is enabled, and runs the same without one."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest

from device.box.config import REPO_CONFIG_DIR
from device.simulation.demo import run_demo


def _config(directory: Path, mqtt: str) -> Path:
    directory.mkdir()
    shutil.copy(REPO_CONFIG_DIR / "pins.toml", directory / "pins.toml")
    (directory / "houston.toml").write_text(f'[box]\nid = "demo-box"\ngame = "dog"\n{mqtt}')
    return directory


def test_demo_publishes_when_mqtt_is_enabled(tmp_path: Path, broker, probes, monkeypatch: pytest.MonkeyPatch) -> None:
    config = _config(tmp_path / "etc", f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {broker.port}\n'
                                       f'username = "box"\npassword = "{broker.passwords["box"]}"\n')
    monkeypatch.setenv("HOUSTON_CONFIG_DIR", str(config))
    dash = probes("dashboard", ("houston/demo-box/#",))
    out = io.StringIO()
    assert run_demo(tmp_path / "data", ["dog"], out) == 0
    assert dash.wait_for(lambda m: m.topic.endswith("/events") and b'"say"' in m.payload) is not None
    assert dash.wait_for(lambda m: m.topic.endswith("/state") and b'"mode":"game"' in m.payload.replace(b" ", b""),
                         3) is not None
    assert dash.wait_for(lambda m: m.topic.endswith("/availability") and m.payload == b"offline") is not None


def test_demo_runs_without_a_broker(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from device.network.mqtt.broker import free_port

    config = _config(tmp_path / "etc", f'[mqtt]\nenabled = true\nhost = "127.0.0.1"\nport = {free_port()}\n')
    monkeypatch.setenv("HOUSTON_CONFIG_DIR", str(config))
    out = io.StringIO()
    assert run_demo(tmp_path / "data", ["dog"], out) == 0  # nothing listens: the box referees anyway
    assert "identical" in out.getvalue()
