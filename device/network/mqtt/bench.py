"""`houston bench mqtt`: input-to-screen latency through the real service and a real broker.

For each input: the time from posting a press to the service's queue (where the panel and the
camera post theirs) until the updated public state arrives at a screen: a client subscribed as the
`dashboard` user on loopback, in a process of its own as every real screen is (bench_screen.py;
both sides read CLOCK_MONOTONIC). That path includes the rules, the durable journal commit and
the broker. Each input waits for the previous one's state, so the figures are not queueing.
`service_*` is the part up to the service handing the update to its outlets (rules + journal).
`--pause-ms` waits that long (untimed) before each input, as a table does between presses: the box
then folds its journal's WAL in between inputs (device/box/journal.py), which back-to-back inputs
(the default, 0) leave for later.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from device.box.jobs import InputJob, PressJob
from device.box.service import Update
from device.network.mqtt.bench_screen import Screen, Settings, now_ns
from device.network.mqtt.broker import start_broker
from device.network.mqtt.link import MqttLink
from device.simulation.simbox import SimBox
from games.core import Input, Press
from games.registry import load_game

TARGET_P99_MS = 20.0


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile: the smallest value with at least q% of the values at or below it."""
    ordered = sorted(values)
    rank = math.ceil(q / 100 * len(ordered))
    return ordered[min(len(ordered), max(1, rank)) - 1]


class _Stamp:
    """An outlet that notes when the service hands out each update (rules and journal done), its
    seq, and whether the public state changed (only then is a new state published)."""

    def __init__(self) -> None:
        self.last = 0  # now_ns()
        self.seq = 0
        self.changed = False
        self._public: dict[str, Any] | None = None
        self.handled = threading.Condition()

    def deliver(self, update: Update) -> None:
        with self.handled:
            self.last = now_ns()
            self.changed = update.public != self._public
            self._public = update.public
            self.seq = update.seq
            self.handled.notify_all()

    def wait_after(self, seq: int, timeout: float) -> bool:
        with self.handled:
            return self.handled.wait_for(lambda: self.seq > seq, timeout)


def _post(box: SimBox, inp: Input) -> None:
    """An input where its adapter posts it: a press as the panel does, anything else as the camera."""
    box.service.post(PressJob(inp) if isinstance(inp, Press) else InputJob(inp))


def measure(inputs: int, directory: Path, game_id: str | None = None, seed: int = 1,
            pause_ms: float = 0.0) -> dict[str, Any]:
    """`inputs` inputs of the game's seeded random player; only those that change the public state
    are timed (the others publish nothing a screen could wait for) and counted in `skipped`."""
    broker = start_broker(directory / "broker")
    box = SimBox(directory / "data", game=game_id)
    game = load_game(box.service.selected)
    rng = random.Random(seed)
    link: MqttLink | None = None
    screen: Screen | None = None
    try:
        box.command("start_game", {"game": game.info.id, "options": game.demo_options()})
        link = MqttLink(box.service, host="127.0.0.1", port=broker.port, username="box",
                        password=broker.passwords["box"]).start()
        if not link.connection.wait_connected(10):
            raise RuntimeError("the box did not connect to the broker")
        screen = Screen(Settings("127.0.0.1", broker.port, "dashboard", broker.passwords["dashboard"],
                                 link.topics.state))
        screen.arrival(0, 30)  # the retained state: the screen is up and subscribed
        stamp = _Stamp()
        box.service.outlets = [stamp, *box.service.outlets]
        latencies: list[float] = []
        in_service: list[float] = []
        skipped = 0
        while len(latencies) < inputs:
            session = box.session
            if session is None:
                box.command("start_game", {"game": game.info.id, "options": game.demo_options()})
                continue
            legal = game.legal_inputs(session.state)
            inp = game.random_input(session.state, legal, rng.randrange)
            if pause_ms > 0:
                time.sleep(pause_ms / 1000)
            before = stamp.seq
            start = now_ns()
            _post(box, inp)
            if not stamp.wait_after(before, 5):
                raise RuntimeError("the service did not handle an input")
            if not stamp.changed:
                skipped += 1
                box.service.wait_idle()
                continue
            latencies.append((screen.arrival(stamp.seq, 5) - start) / 1e6)
            in_service.append((stamp.last - start) / 1e6)
            box.service.wait_idle()
        p99 = percentile(latencies, 99)
        return {
            "bench": "mqtt",
            "path": "service queue -> rules -> journal commit -> broker -> dashboard client (own process)",
            "game": game.info.id,
            "inputs": inputs,
            "skipped": skipped,
            "pause_ms": pause_ms,
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
        if screen is not None:
            screen.close()
        if link is not None:
            link.stop()
        box.close()
        broker.stop()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="houston bench mqtt", description=__doc__)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--inputs", type=int, default=1000, help="inputs to measure (default 1000)")
    parser.add_argument("--game", help="game to play (default: the configured game)")
    parser.add_argument("--pause-ms", type=float, default=0.0,
                        help="untimed pause before each input, as between presses at a table (default 0)")
    parser.add_argument("--data-dir", help="journal directory (default: a temp dir; use the SD card on a Pi)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="houston-bench-mqtt-") as tmp:
        directory = Path(args.data_dir) if args.data_dir else Path(tmp)
        result = measure(max(1, args.inputs), directory, args.game, pause_ms=max(0.0, args.pause_ms))
    if args.json:
        print(json.dumps(result, indent=2))
    else:
        print(f"MQTT input-to-screen latency over {result['inputs']} inputs: p50 {result['p50_ms']} ms, "
              f"p99 {result['p99_ms']} ms (target {TARGET_P99_MS} ms: "
              f"{'met' if result['meets_target'] else 'MISSED'})")
    return 0 if result["meets_target"] else 1
