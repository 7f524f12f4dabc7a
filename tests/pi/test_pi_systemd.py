"""systemd: sd_notify on a socket the test provides, `houston run` as systemd would start it, SIGTERM
leaving a clean journal and `offline` on the broker, and the unit checked by systemd-analyze."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from device.box.systemd_notify import Notifier, notify, watchdog_interval
from device.simulation.testing import make_box

ROOT = Path(__file__).resolve().parents[2]
UNIT = ROOT / "systemd" / "houston.service"
# systemd-analyze security scores exposure 0.0-10.0; --threshold takes tenths. The unit scores 1.4
# (devices, the local network and supplementary groups are needed); 15 fails any real weakening.
SECURITY_THRESHOLD = 15
STARTUP = 120  # seconds a box may take to start or stop (it ends the wait as soon as it has)


@pytest.fixture
def notify_socket():
    """A unix datagram socket in a short path (sun_path is limited to 108 bytes)."""
    where = Path(tempfile.mkdtemp(prefix="hn-", dir="/tmp"))
    path = where / "notify"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(str(path))
    sock.settimeout(0.2)
    yield sock, str(path)
    sock.close()
    shutil.rmtree(where, ignore_errors=True)


def drain(sock: socket.socket, until: float, stop=lambda msgs: False) -> list[str]:
    msgs: list[str] = []
    while time.monotonic() < until and not stop(msgs):
        with contextlib.suppress(TimeoutError):
            msgs.append(sock.recv(4096).decode())
    return msgs


def test_notifier_sends_ready_status_stopping_and_rate_limits_the_watchdog(notify_socket):
    sock, path = notify_socket
    now = [100.0]
    n = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "4000000"}, clock=lambda: now[0])
    assert n.interval == 2.0
    assert n.ready("refereeing dog")
    assert n.watchdog()
    now[0] += 1.0
    assert not n.watchdog()  # half the interval has not passed yet
    now[0] += 1.0
    assert n.watchdog()
    assert n.stopping()
    got = drain(sock, time.monotonic() + 1, lambda m: len(m) == 4)
    assert got == ["READY=1\nSTATUS=refereeing dog", "WATCHDOG=1", "WATCHDOG=1", "STOPPING=1"]


def test_outside_systemd_nothing_is_sent_and_nothing_fails():
    assert not notify("READY=1", {})
    n = Notifier({})
    assert not n.ready() and not n.watchdog() and n.interval is None


def test_an_abstract_socket_address_works():
    name = f"houston-test-{os.getpid()}"
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(b"\0" + name.encode())
    sock.settimeout(2)
    try:
        assert notify("READY=1", {"NOTIFY_SOCKET": "@" + name})
        assert sock.recv(100) == b"READY=1"
    finally:
        sock.close()


def test_watchdog_settings_meant_for_another_process_are_ignored():
    assert watchdog_interval({"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": str(os.getpid())}) == 0.5
    assert watchdog_interval({"WATCHDOG_USEC": "1000000", "WATCHDOG_PID": "1"}) is None
    assert watchdog_interval({"WATCHDOG_USEC": "0"}) is None


def _config(tmp_path: Path, mqtt: dict[str, object] | None = None) -> Path:
    conf = tmp_path / "conf"
    conf.mkdir()
    shutil.copy(ROOT / "firmware_config" / "pins.toml", conf / "pins.toml")
    lines = ['[box]', 'id = "pitest"', 'game = "dog"', '[camera]', 'source = "none"']
    if mqtt:
        lines.append("[mqtt]")
        lines += [f"{k} = {json.dumps(v)}" for k, v in mqtt.items()]
    (conf / "houston.toml").write_text("\n".join(lines) + "\n")
    return conf


def _env(path: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GPIOZERO_", "NOTIFY_", "WATCHDOG_"))}
    env.update(NOTIFY_SOCKET=path, WATCHDOG_USEC="1000000", GPIOZERO_PIN_FACTORY="mock",
               SDL_AUDIODRIVER="dummy", PYTHONPATH=str(ROOT))
    return env


def _game_in_progress(data: Path) -> list[tuple]:
    box = make_box(data, game="dog")
    box.press("ok")
    box.press("ok")
    box.close()
    return _rows(data)


def _rows(data: Path) -> list[tuple]:
    conn = sqlite3.connect(data / "journal.sqlite")
    try:
        return conn.execute("SELECT game_id, seq, kind, input, outcomes FROM entries ORDER BY game_id, seq").fetchall()
    finally:
        conn.close()


def test_houston_run_notifies_ready_pings_the_watchdog_and_stops_cleanly_on_sigterm(tmp_path, notify_socket):
    sock, path = notify_socket
    data = tmp_path / "data"
    before = _game_in_progress(data)
    proc = subprocess.Popen(
        [sys.executable, "-m", "device.cli", "run", "--config", str(_config(tmp_path)), "--data-dir", str(data)],
        env=_env(path), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        msgs = drain(sock, time.monotonic() + STARTUP, lambda m: sum(x == "WATCHDOG=1" for x in m) >= 2
                     and any(x.startswith("READY=1") for x in m))
        assert any(m.startswith("READY=1") for m in msgs), (msgs, proc.stderr.read() if proc.poll() else "")
        assert msgs.count("WATCHDOG=1") >= 2
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=STARTUP)
    finally:
        if proc.poll() is None:
            proc.kill()
    msgs += drain(sock, time.monotonic() + 0.5)
    assert proc.returncode == 0, err
    assert "STOPPING=1" in msgs
    assert "Resuming where we left off: Here Comes the Dog" in out
    wal = data / "journal.sqlite-wal"
    assert not wal.exists() or wal.stat().st_size == 0  # checkpointed: one self-contained file
    assert _rows(data) == before  # nothing lost, nothing half-written
    conn = sqlite3.connect(data / "journal.sqlite")
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert conn.execute("SELECT COUNT(*) FROM games WHERE ended_at IS NULL").fetchone()[0] == 1  # resumable
    finally:
        conn.close()


@pytest.mark.skipif(shutil.which("mosquitto") is None, reason="mosquitto not installed")
def test_sigterm_publishes_offline_after_an_acknowledged_press_is_journaled(tmp_path, notify_socket):
    from device.network.mqtt.broker import start_broker
    from tests.support.broker import Probe

    sock, path = notify_socket
    broker = start_broker(tmp_path / "broker")
    data = tmp_path / "data"
    conf = _config(tmp_path, {"enabled": True, "host": "127.0.0.1", "port": broker.port, "username": "box",
                              "password": broker.passwords["box"], "keepalive": 10})
    probe = Probe(broker.port, "admin", broker.passwords["admin"],
                  subscribe=("houston/pitest/availability", "houston/pitest/admin/cmd/+/reply",
                             "houston/pitest/cmd/admin/+/reply"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "device.cli", "run", "--config", str(conf), "--data-dir", str(data)],
        env=_env(path), cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        assert any(m.startswith("READY=1") for m in drain(sock, time.monotonic() + STARTUP,
                                                         lambda m: any(x.startswith("READY") for x in m)))
        online = probe.wait_for(lambda m: m.payload == b"online")
        assert online is not None, broker.log()
        for button in ("ok", "red"):  # OK starts the game, red takes the first place: each acknowledged
            mark = probe.mark()
            probe.publish("houston/pitest/cmd/admin/press", json.dumps({"button": button}))
            reply = probe.wait_for(lambda m: m.topic.endswith("/reply"), start=mark)
            assert reply is not None and reply.json()["status"] == "ok"
        mark = probe.mark()
        proc.send_signal(signal.SIGTERM)
        offline = probe.wait_for(lambda m: m.payload == b"offline", start=mark)
        _, err = proc.communicate(timeout=STARTUP)
    finally:
        if proc.poll() is None:
            proc.kill()
        probe.close()
        broker.stop()
    assert offline is not None, err
    assert proc.returncode == 0, err
    rows = _rows(data)
    assert len(rows) == 1 and json.loads(rows[0][3])["button"] == "red"  # the acknowledged press is kept
    wal = data / "journal.sqlite-wal"
    assert not wal.exists() or wal.stat().st_size == 0


needs_systemd_analyze = pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze")


def _unit_here(tmp_path: Path) -> Path:
    """The unit with ExecStart pointing at this checkout's houston (verify checks it exists)."""
    exe = Path(sys.executable).with_name("houston")
    if not exe.exists():
        exe = Path(shutil.which("true") or "/bin/true")
    unit = tmp_path / "houston.service"
    unit.write_text(UNIT.read_text().replace("/opt/houston/venv/bin/houston", str(exe)))
    return unit


@needs_systemd_analyze
def test_systemd_analyze_verify_accepts_every_unit(tmp_path):
    for original in sorted((ROOT / "systemd").glob("*.service")):
        unit = _unit_here(tmp_path) if original == UNIT else original
        done = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True, timeout=60)
        assert done.returncode == 0 and not done.stderr.strip(), done.stderr


@needs_systemd_analyze
def test_the_unit_scores_within_the_documented_security_threshold(tmp_path):
    unit = _unit_here(tmp_path)
    cmd = ["systemd-analyze", "security", "--offline=yes", f"--threshold={SECURITY_THRESHOLD}", str(unit)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout[-2000:]
    assert f"--threshold={SECURITY_THRESHOLD}" in (ROOT / "docs" / "hardware.md").read_text()


def test_the_unit_keeps_the_devices_the_box_needs_and_is_of_type_notify():
    text = UNIT.read_text()
    for line in ("Type=notify", "Restart=on-failure", "StateDirectory=houston",
                 "WorkingDirectory=/var/lib/houston", "User=houston", "SupplementaryGroups=gpio video audio",
                 "DevicePolicy=closed", "DeviceAllow=char-gpiochip rw", "DeviceAllow=char-video4linux rw",
                 "DeviceAllow=char-media rw", "DeviceAllow=char-alsa rw", "Environment=SDL_AUDIODRIVER=alsa"):
        assert line in text.splitlines(), line
    assert "PrivateDevices=yes" not in text  # it would hide /dev/gpiochip*, the camera and the sound card
    assert any(line.startswith("WatchdogSec=") for line in text.splitlines())
    assert "Wants=mosquitto.service" in text and "After=mosquitto.service" in text
