"""`houston run --sim --dashboard`: one command brings the box, a private broker and the page up,
prints the links, keeps keys working, and takes the broker down when it quits."""

from __future__ import annotations

import os
import queue
import re
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from tests.dashboard.conftest import PHONE, TV

HOUSTON = [sys.executable, "-m", "device.cli"]
ROOT = Path(__file__).resolve().parents[2]


def _lines(stream, out: queue.Queue[str]) -> None:
    for line in stream:
        out.put(line)


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_run_sim_dashboard_prints_links_that_load(tmp_path, browser) -> None:
    env = {**os.environ, "SDL_AUDIODRIVER": "dummy", "GPIOZERO_PIN_FACTORY": "mock"}
    proc = subprocess.Popen([*HOUSTON, "run", "--sim", "--dashboard", "--mute", "--data-dir", str(tmp_path / "data")],
                            cwd=ROOT, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, bufsize=1)
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=_lines, args=(proc.stdout, lines), daemon=True).start()
    links: dict[str, str] = {}
    broker_port = 0
    seen: list[str] = []
    try:
        deadline = time.monotonic() + 20
        while len(links) < 7 and time.monotonic() < deadline:
            try:
                line = lines.get(timeout=0.5)
            except queue.Empty:
                continue
            seen.append(line)
            if m := re.match(r"Broker: .*\(port (\d+),", line):
                broker_port = int(m.group(1))
            if m := re.match(r"\s+(public|red|blue|green|yellow|purple|white)\s+(http://\S+)", line):
                links[m.group(1)] = m.group(2)
        assert len(links) == 7, "".join(seen)
        assert broker_port and _port_open(broker_port)
        public = browser.new_page(viewport=TV)
        red = browser.new_page(viewport=PHONE)
        try:
            public.goto(links["public"])
            public.wait_for_selector("#status[data-state=live]", timeout=8000)
            assert parse_qs(urlparse(links["red"]).query)["user"] == ["red"]
            red.goto(links["red"])
            red.wait_for_selector("#status[data-state=live]", timeout=8000)
            assert public.locator("#phase").text_content() == "idle"
            assert proc.stdin is not None
            proc.stdin.write("o\n")  # keys keep working: OK starts the selected game
            proc.stdin.flush()
            public.wait_for_function("document.getElementById('phase').textContent !== 'idle'", timeout=5000)
            red.wait_for_function("document.getElementById('phase').textContent !== 'idle'", timeout=5000)
        finally:
            public.close()
            red.close()
        proc.stdin.write("q\n")
        proc.stdin.flush()
        assert proc.wait(15) == 0
        deadline = time.monotonic() + 5
        while _port_open(broker_port) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not _port_open(broker_port), "the private broker outlived the box"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
