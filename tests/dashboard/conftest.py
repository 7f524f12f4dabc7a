"""Fixtures: a real broker (with WebSockets), and one headless Chromium for the folder."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from device.network.mqtt.broker import Broker, start_broker

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def ws_broker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Broker]:
    b = start_broker(tmp_path_factory.mktemp("mosquitto-ws"))
    yield b
    b.stop()


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()
