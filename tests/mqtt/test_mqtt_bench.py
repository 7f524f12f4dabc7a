"""`houston bench mqtt --json` runs end to end and reports its figures (a short run here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from typing import Any

import pytest

from device.network.mqtt.bench import main, percentile
from device.network.mqtt.bench_screen import Screen, Settings, now_ns
from device.network.mqtt.broker import Broker
from tests.support.broker import CONNECT_WAIT, DELIVERED


def test_bench_reports_latency_percentiles(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--json", "--inputs", "60"])
    result = json.loads(capsys.readouterr().out)
    assert result["inputs"] == 60
    assert 0 < result["service_p50_ms"] <= result["p50_ms"] <= result["p99_ms"] <= result["max_ms"]
    assert code == (0 if result["meets_target"] else 1)


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 99) == 99.0
    assert percentile([5.0], 99) == 5.0


def test_screen_runs_in_its_own_process_on_the_shared_clock(linked: Any, broker: Broker) -> None:
    """The bench's screen is another process (as a real dashboard is) and stamps each state as it
    arrives on the clock the bench stamps its posts with: the arrival lies between the press and
    the moment the bench is told of it."""
    box, link = linked(game="dog")  # at idle: OK starts the game, a new state
    screen = Screen(Settings("127.0.0.1", broker.port, "dashboard", broker.passwords["dashboard"],
                             link.topics.state))
    try:
        first = screen.arrival(0, CONNECT_WAIT)  # the retained state
        assert screen.pid != os.getpid()
        seq = json.loads(link.outlet.last_state or b"{}")["seq"]
        pressed = now_ns()
        box.press("ok")
        arrived = screen.arrival(seq + 1, DELIVERED)
        told = now_ns()
        assert first < pressed < arrived < told
    finally:
        screen.close()


def test_screen_settings_are_parsed_field_by_field() -> None:
    good = {"host": "127.0.0.1", "port": 1883, "username": "dashboard", "password": "pw", "topic": "t"}
    assert Settings.parse(json.dumps(good)) == Settings("127.0.0.1", 1883, "dashboard", "pw", "t")
    for bad in ({**good, "port": "1883"}, {**good, "port": True}, {**good, "port": 0},
                {**good, "port": 70000}, {**good, "host": ""}, {k: v for k, v in good.items() if k != "topic"},
                {**good, "password": 5}):
        with pytest.raises(ValueError):
            Settings.parse(json.dumps(bad))
    with pytest.raises(ValueError):
        Settings.parse("[1, 2]")
    with pytest.raises(ValueError):
        Settings.parse("not json")


def test_screen_process_refuses_bad_settings_with_an_error_line() -> None:
    done = subprocess.run([sys.executable, "-m", "device.network.mqtt.bench_screen"], input='{"port": "x"}\n',
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stdout.startswith("error ")
