"""`houston run --sim --dashboard`: one command brings the box, a private broker and the page up,
prints the links, keeps keys working, and takes the broker down when it quits."""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from tests.dashboard.conftest import PHONE, TV
from tests.support.chromium import SHOWN_MS
from tests.support.lines import Lines

HOUSTON = [sys.executable, "-m", "device.cli"]
ROOT = Path(__file__).resolve().parents[2]


LINK = re.compile(r"\s+(public|red|blue|green|yellow|purple|white)\s+(http://\S+)")
STARTUP = 120  # seconds the box, its broker and its page server may take to come up on busy cores


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_run_sim_dashboard_prints_links_that_load(tmp_path, browser) -> None:
    env = {**os.environ, "SDL_AUDIODRIVER": "dummy", "GPIOZERO_PIN_FACTORY": "mock"}
    proc = subprocess.Popen([*HOUSTON, "run", "--sim", "--dashboard", "--mute", "--data-dir", str(tmp_path / "data")],
                            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, bufsize=1)
    out = Lines(proc.stdout)
    try:
        out.wait_for(lambda lines: sum(bool(LINK.match(x)) for x in lines) >= 7, timeout=STARTUP)
        links = {m.group(1): m.group(2) for m in map(LINK.match, out.lines) if m}
        ports = [int(m.group(1)) for m in (re.match(r"Broker: .*\(port (\d+),", x) for x in out.lines) if m]
        broker_port = ports[0] if ports else 0
        assert len(links) == 7, out.text()
        assert broker_port and _port_open(broker_port)
        public = browser.new_page(viewport=TV)
        red = browser.new_page(viewport=PHONE)
        try:
            public.goto(links["public"])
            public.wait_for_selector("#status[data-state=live]", timeout=SHOWN_MS)
            assert parse_qs(urlparse(links["red"]).query)["user"] == ["red"]
            red.goto(links["red"])
            red.wait_for_selector("#status[data-state=live]", timeout=SHOWN_MS)
            assert public.locator("#phase").text_content() == "idle"
            assert proc.stdin is not None
            proc.stdin.write("o\n")  # keys keep working: OK starts the selected game
            proc.stdin.flush()
            public.wait_for_function("document.getElementById('phase').textContent !== 'idle'", timeout=SHOWN_MS)
            red.wait_for_function("document.getElementById('phase').textContent !== 'idle'", timeout=SHOWN_MS)
        finally:
            public.close()
            red.close()
        proc.stdin.write("q\n")
        proc.stdin.flush()
        assert proc.wait(STARTUP) == 0
        deadline = time.monotonic() + 5
        while _port_open(broker_port) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _port_open(broker_port), "the private broker outlived the box"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
