"""`houston bench mqtt`: input-to-screen latency through the real service and a real broker.

For each input (the game's demo policy: rolls, takes, thefts, exchanges): the time from posting
it to the service's queue (where the panel and the camera post theirs) until the updated public
state arrives at a client subscribed as the `dashboard` user on loopback. That path includes the
rules, the durable journal commit and the broker. Each input waits for the previous one's state,
so the figures are not queueing. `service_*` is the part up to the service handing the update to
its outlets (rules + journal).
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from device.box.service import Job, Update
from device.network.mqtt.broker import start_broker
from device.network.mqtt.link import MqttLink
from device.simulation.simbox import SimBox
from games.core import Input

TARGET_P99_MS = 20.0
OPTIONS = {"teams": ["red", "blue", "green", "yellow"], "rounds": 20}  # a long game of the dice game


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile: the smallest value with at least q% of the values at or below it."""
    ordered = sorted(values)
    rank = math.ceil(q / 100 * len(ordered))
    return ordered[min(len(ordered), max(1, rank)) - 1]


class _StateWatcher:
    """A dashboard-like client that counts each change of the game's public view."""

    def __init__(self) -> None:
        self.changes = 0
        self.last: Any = None
        self.arrived = threading.Condition()

    def on_message(self, client: Any, userdata: Any, message: mqtt.MQTTMessage) -> None:
        try:
            game = json.loads(message.payload).get("game")
        except ValueError:
            return
        with self.arrived:
            if game != self.last:
                self.last = game
                self.changes += 1
                self.arrived.notify_all()

    def wait_for(self, changes: int, timeout: float) -> bool:
        with self.arrived:
            return self.arrived.wait_for(lambda: self.changes >= changes, timeout)


def next_input(box: SimBox, step: int) -> Input:
    """What a table would do next: the game's demo policy (each of its inputs changes the view)."""
    session = box.service.session
    assert session is not None
    inp = session.game.demo_input(session.state, step)
    assert inp is not None
    return inp


class _Stamp:
    """An outlet that notes when the service hands out each update (rules and journal done)."""

    def __init__(self) -> None:
        self.last = 0.0

    def deliver(self, update: Update) -> None:
        self.last = time.perf_counter()


def measure(inputs: int, directory: Path) -> dict[str, Any]:
    broker = start_broker(directory / "broker")
    box = SimBox(directory / "data", game="dog")
    link: MqttLink | None = None
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="houston-bench")
    try:
        box.command("start_game", {"game": "dog", "options": OPTIONS})
        link = MqttLink(box.service, host="127.0.0.1", port=broker.port, username="box",
                        password=broker.passwords["box"]).start()
        if not link.connection.wait_connected(10):
            raise RuntimeError("the box did not connect to the broker")
        watcher = _StateWatcher()
        client.username_pw_set("dashboard", broker.passwords["dashboard"])
        client.on_message = watcher.on_message
        client.on_connect = lambda c, *a: c.subscribe(link.topics.state if link else "", qos=1)
        client.connect("127.0.0.1", broker.port)
        client.loop_start()
        if not watcher.wait_for(1, 10):
            raise RuntimeError("no state arrived")
        stamp = _Stamp()
        box.service.outlets = [stamp, *box.service.outlets]
        latencies: list[float] = []
        in_service: list[float] = []
        for n in range(1, inputs + 1):
            box.service.wait_idle()
            if box.service.session is None:  # the game ended: start another, unmeasured
                seen = watcher.changes
                box.command("start_game", {"game": "dog", "options": OPTIONS})
                if not watcher.wait_for(seen + 1, 5):
                    raise RuntimeError("the new game's state never arrived")
            inp = next_input(box, n)
            seen = watcher.changes
            start = time.perf_counter()
            box.service.post(Job("input", inp))
            if not watcher.wait_for(seen + 1, 5):
                raise RuntimeError(f"state for input {n} never arrived")
            latencies.append((time.perf_counter() - start) * 1000)
            in_service.append((stamp.last - start) * 1000)
        p99 = percentile(latencies, 99)
        return {
            "bench": "mqtt",
            "path": "service queue -> rules -> journal commit -> broker -> dashboard client",
            "inputs": inputs,
            "p50_ms": round(percentile(latencies, 50), 3),
            "p90_ms": round(percentile(latencies, 90), 3),
            "p99_ms": round(p99, 3),
            "max_ms": round(max(latencies), 3),
            "mean_ms": round(statistics.fmean(latencies), 3),
            "service_p50_ms": round(percentile(in_service, 50), 3),
            "service_p99_ms": round(percentile(in_service, 99), 3),
            "target_p99_ms": TARGET_P99_MS,
            "meets_target": p99 <= TARGET_P99_MS,
            "data_dir": str(directory / "data"),
        }
    finally:
        client.loop_stop()
        client.disconnect()
        if link is not None:
            link.stop()
        box.close()
        broker.stop()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="houston bench mqtt", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--inputs", type=int, default=1000, help="inputs to measure (default 1000)")
    parser.add_argument("--data-dir", help="journal directory (default: a temp dir; use the SD card on a Pi)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="houston-bench-mqtt-") as tmp:
        directory = Path(args.data_dir) if args.data_dir else Path(tmp)
        result = measure(max(1, args.inputs), directory)
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"MQTT input-to-screen latency over {result['inputs']} inputs: p50 {result['p50_ms']} ms, "
              f"p99 {result['p99_ms']} ms (target {TARGET_P99_MS} ms: "
              f"{'met' if result['meets_target'] else 'MISSED'})")
    return 0 if result["meets_target"] else 1
