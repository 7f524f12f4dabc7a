"""The Pi's broker config (firmware_config/mosquitto/houston.conf) loads in the real Mosquitto."""

from __future__ import annotations

import socket
import subprocess
from pathlib import Path

from device.network.mqtt.broker import REPO_ACL, free_port
from tests.support.wait import until

CONF = REPO_ACL.parent / "houston.conf"


def _open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_pi_config_starts_both_listeners_with_auth_and_acl(tmp_path: Path) -> None:
    text = CONF.read_text()
    assert "allow_anonymous false" in text and "protocol websockets" in text and "user root" not in text
    mqtt, ws = free_port(), free_port()
    subprocess.run(["mosquitto_passwd", "-c", "-b", str(tmp_path / "passwd"), "box", "x"], check=True)
    conf = (text.replace("/etc/mosquitto/houston.passwd", str(tmp_path / "passwd"))
                .replace("/etc/mosquitto/houston.acl", str(REPO_ACL))
                .replace("listener 1883", f"listener {mqtt}").replace("listener 9001", f"listener {ws}"))
    (tmp_path / "houston.conf").write_text(conf + "\nuser root\n")  # tests only: see broker.py
    process = subprocess.Popen(["mosquitto", "-c", str(tmp_path / "houston.conf")],
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        assert until(lambda: (_open(mqtt) and _open(ws)) or process.poll() is not None)
        assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
    finally:
        process.terminate()
        process.wait(5)
        if process.stderr:
            process.stderr.close()
