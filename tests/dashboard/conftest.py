"""Fixtures: a real broker (with WebSockets), one headless Chromium for the folder, and boxes
linked to the broker serving the dashboard. Screenshots go to test-artifacts/dashboard/."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from device.box.config import Settings
from device.network.mqtt.broker import Broker
from device.simulation.simbox import SimBox
from device.simulation.testing import make_box
from tests.support.broker import broker, link_box
from tests.support.chromium import ARGS, CHROMIUM, SHOWN_MS

__all__ = ["broker", "browser", "table"]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "dashboard"
TV = {"width": 1920, "height": 1080}
PHONE = {"width": 390, "height": 844}
_ids = itertools.count(1)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """One Chromium per module: Playwright's sync API allows one instance at a time, and other
    folders (tests/sixth_game) start their own."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


class Table:
    """A box on mock pins linked to the broker, serving the dashboard page."""

    def __init__(self, tmp_path: Path, broker: Broker, game: str, options: dict[str, Any] | None,
                 box_id: str) -> None:
        self.broker = broker
        self.box: SimBox = make_box(tmp_path / box_id, game=game, options=options,
                                    settings=Settings(box_id=box_id, game=game))
        self.box_id = box_id
        self.link = link_box(self.box, broker, page=True, reconnect=(1, 1))
        assert self.link.http is not None
        self.url = f"http://127.0.0.1:{self.link.http.port}/"

    def team_url(self, team: str) -> str:
        return f"{self.url}?team={team}&user={team}&pass={self.broker.passwords[team]}"

    def state_seq(self) -> int:
        """The seq of the state the box last published (the page shows it in body[data-seq])."""
        self.box.service.wait_idle()
        payload = self.link.outlet.last_state
        return int(json.loads(payload)["seq"]) if payload else 0

    def close(self) -> None:
        self.link.stop()
        self.box.close()


@pytest.fixture
def table(tmp_path: Path, broker: Broker) -> Iterator[Callable[..., Table]]:
    made: list[Table] = []

    def make(game: str, options: dict[str, Any] | None = None, own_broker: Broker | None = None) -> Table:
        t = Table(tmp_path, own_broker or broker, game, options, f"dash-{game}-{next(_ids)}")
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()


def open_page(browser: Any, url: str, viewport: dict[str, int], state: str = "live") -> Any:
    page = browser.new_page(viewport=viewport)
    page.goto(url)
    page.wait_for_selector(f"#status[data-state={state}]", timeout=SHOWN_MS)
    return page


def synced(page: Any, table: Table, timeout: float = SHOWN_MS) -> None:
    """Wait until the page shows the state the box published last."""
    seq = table.state_seq()
    page.wait_for_function("seq => Number(document.body.dataset.seq || -1) >= seq", arg=seq, timeout=timeout)


def shot(page: Any, name: str) -> Path:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=True)
    return path
