"""Fixtures for the Spacedogs tests on real parts: one Mosquitto (with WebSockets) for the folder,
boxes linked to it, recording clients, and one headless Chromium."""

from __future__ import annotations

import itertools
import shutil
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from device.box.config import Settings
from device.network.mqtt.broker import Broker, start_broker
from device.network.mqtt.link import MqttLink
from device.network.mqtt.probe import Probe
from device.simulation.simbox import SimBox
from device.simulation.testing import make_box

_ids = itertools.count(1)
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def sd_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    b = start_broker(tmp_path_factory.mktemp("mosquitto-spacedogs"))
    yield b
    b.stop()


@pytest.fixture
def sd_linked(tmp_path: Path, sd_broker: Broker) -> Iterator[Callable[..., tuple[SimBox, MqttLink]]]:
    """make(options) -> (box, link): a Spacedogs box on mock pins linked to the broker, serving
    the dashboard page."""
    made: list[tuple[SimBox, MqttLink]] = []

    def make(options: dict[str, Any]) -> tuple[SimBox, MqttLink]:
        box_id = f"sd-{next(_ids)}"
        box = make_box(tmp_path / box_id, game="spacedogs", options=options,
                       settings=Settings(box_id=box_id, game="spacedogs"))
        page = {"ws_url": f"ws://127.0.0.1:{sd_broker.ws_port}", "username": "dashboard",
                "password": sd_broker.passwords["dashboard"]}
        link = MqttLink(box.service, host="127.0.0.1", port=sd_broker.port, username="box",
                        password=sd_broker.passwords["box"], http_port=0, page_config=page).start()
        assert link.connection.wait_connected(5), sd_broker.log()
        made.append((box, link))
        return box, link

    yield make
    for box, link in made:
        link.stop()
        box.close()


@pytest.fixture
def sd_probes(sd_broker: Broker) -> Iterator[Callable[..., Probe]]:
    made: list[Probe] = []

    def probe(user: str, subscribe: tuple[str, ...] = ("#",)) -> Probe:
        p = Probe(sd_broker.port, user, sd_broker.passwords[user], subscribe)
        made.append(p)
        return p

    yield probe
    for p in made:
        p.close()


class ChromiumThread:
    """Headless Chromium owned by a thread of its own: Playwright's sync API refuses to start in a
    thread where another folder's Playwright (tests/dashboard's, session-wide) already runs its
    loop, so this folder's pages live on a worker thread. `run(fn)` calls fn(browser) there."""

    def __init__(self) -> None:
        self.pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="sd-chromium")
        self.pool.submit(self._start).result(timeout=60)

    def _start(self) -> None:
        from playwright.sync_api import sync_playwright

        self.playwright = sync_playwright().start()
        self.browser = self.playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)

    def run(self, fn: Callable[[Any], Any]) -> Any:
        return self.pool.submit(fn, self.browser).result(timeout=120)

    def close(self) -> None:
        def stop() -> None:
            self.browser.close()
            self.playwright.stop()

        self.pool.submit(stop).result(timeout=60)
        self.pool.shutdown()


@pytest.fixture(scope="module")
def sd_chromium() -> Iterator[ChromiumThread]:
    chromium = ChromiumThread()
    yield chromium
    chromium.close()
