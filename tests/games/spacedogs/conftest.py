"""Fixtures for the Spacedogs tests on real parts: one Mosquitto (with WebSockets) for the folder,
boxes linked to it, recording clients (tests/support/broker.py), and one headless Chromium."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from tests.support.broker import broker, linked, probes
from tests.support.chromium import ARGS, CHROMIUM

__all__ = ["broker", "linked", "probes", "sd_chromium"]


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
