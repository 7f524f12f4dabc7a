"""The screen of `houston bench mqtt`: a dashboard client in a process of its own.

A real screen (a browser on a TV or a phone) is another process, usually on another machine. A
client inside the box's process would need the box's interpreter lock (the GIL) to read each
state from its socket, so the bench would time how long the box's threads keep that lock after
the state has already arrived, not the box's latency. This process logs in as the `dashboard`
user, subscribes to the public state and prints one line per state that arrives:
`state <seq> <ns>`, the time read from CLOCK_MONOTONIC, which every process on the machine shares.

It reads its settings as one JSON line on stdin (so the password is not on a command line) and
leaves when stdin closes. `Screen` is the bench's side: it starts the process and waits for a seq.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from collections import deque
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import paho.mqtt.client as mqtt

from device.network.mqtt.probe import Probe


def now_ns() -> int:
    """The clock both sides stamp with: CLOCK_MONOTONIC is one clock for every process."""
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


@dataclass(frozen=True)
class Settings:
    host: str
    port: int
    username: str
    password: str
    topic: str

    @classmethod
    def parse(cls, line: str) -> Settings:
        """The settings line, field by field; ValueError names what is wrong."""
        raw = json.loads(line)
        if not isinstance(raw, dict):
            raise ValueError("settings must be a JSON object")
        text = {key: raw.get(key) for key in ("host", "username", "password", "topic")}
        for key, value in text.items():
            if not isinstance(value, str) or not value:
                raise ValueError(f"{key} must be a non-empty string")
        port = raw.get("port")
        if not isinstance(port, int) or isinstance(port, bool) or not 0 < port < 65536:
            raise ValueError("port must be an integer from 1 to 65535")
        return cls(str(text["host"]), port, str(text["username"]), str(text["password"]), str(text["topic"]))


def _seq_of(payload: bytes | bytearray) -> int | None:
    try:
        seq = json.loads(payload).get("seq")
    except (ValueError, AttributeError):
        return None
    return seq if isinstance(seq, int) and not isinstance(seq, bool) else None


class _StatePrinter(Probe):
    """The tests' recording client, printing each state's seq and arrival instead of keeping it
    (a bench run would otherwise keep every payload)."""

    def _message(self, client: Any, userdata: Any, message: mqtt.MQTTMessage) -> None:
        arrived = now_ns()
        seq = _seq_of(message.payload)
        if seq is not None:
            sys.stdout.write(f"state {seq} {arrived}\n")
            sys.stdout.flush()


def run(settings: Settings) -> int:
    """Print each arriving state's seq and time until stdin closes."""
    screen = _StatePrinter(settings.port, settings.username, settings.password, (settings.topic,),
                           host=settings.host, timeout=30.0)
    try:
        sys.stdin.read()  # until the bench closes it
    finally:
        screen.close()
    return 0


def main() -> int:
    try:
        settings = Settings.parse(sys.stdin.readline())
    except ValueError as exc:
        print(f"error {exc}", flush=True)
        return 2
    return run(settings)


def _arrival_of(line: str) -> tuple[int, int] | None:
    """(seq, ns) from a `state <seq> <ns>` line; None for anything else (an error line)."""
    parts = line.split()
    if len(parts) != 3 or parts[0] != "state":
        return None
    try:
        return int(parts[1]), int(parts[2])
    except ValueError:
        return None


ARRIVALS_KEPT = 64  # states remembered until the bench asks: it asks for each one in turn


class Screen:
    """The bench's handle on the screen process: when did the state with a given seq arrive."""

    def __init__(self, settings: Settings) -> None:
        root = str(Path(__file__).resolve().parents[3])  # where `device` is importable from
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
        self._process = subprocess.Popen(
            [sys.executable, "-m", "device.network.mqtt.bench_screen"], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, text=True, env=env)
        assert self._process.stdin is not None and self._process.stdout is not None
        self._process.stdin.write(json.dumps(asdict(settings)) + "\n")
        self._process.stdin.flush()
        self._arrivals: deque[tuple[int, int]] = deque(maxlen=ARRIVALS_KEPT)
        self._latest = -1
        self._error: str | None = None
        self._changed = threading.Condition()
        self._reader = threading.Thread(target=self._read, args=(self._process.stdout,),
                                        name="bench-screen-reader", daemon=True)
        self._reader.start()

    @property
    def pid(self) -> int:
        return self._process.pid

    def _read(self, stream: Any) -> None:
        for line in stream:
            arrival = _arrival_of(line)
            with self._changed:
                if arrival is not None:
                    self._arrivals.append(arrival)
                    self._latest = max(self._latest, arrival[0])
                else:
                    self._error = line.strip()[:200]
                self._changed.notify_all()
        with self._changed:
            self._error = self._error or "the screen process ended"
            self._changed.notify_all()

    def arrival(self, seq: int, timeout: float) -> int:
        """When (now_ns) the first state with a seq of at least `seq` arrived at the screen."""
        with self._changed:
            if not self._changed.wait_for(lambda: self._latest >= seq or self._error is not None, timeout):
                raise TimeoutError(f"state {seq} never reached the screen")
            if self._latest < seq:
                raise RuntimeError(f"bench screen: {self._error}")
            for got, at in self._arrivals:
                if got >= seq:
                    return at
            raise RuntimeError(f"state {seq} arrived but is no longer remembered")

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        try:
            self._process.wait(5)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        self._reader.join(5)


if __name__ == "__main__":
    sys.exit(main())
