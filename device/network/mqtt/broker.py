"""A real Mosquitto on free loopback ports, with users, passwords and the box's ACL, in a temp dir.

Tests and `houston bench mqtt` use it so they exercise the real broker and the real ACL file
(firmware_config/mosquitto/acl), not a fake. `user root` is in this generated config only: as
root, mosquitto would otherwise drop to user `mosquitto` and fail to read the 0700 temp dir.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

from games.core import TEAM_COLOURS

REPO_ACL = Path(__file__).resolve().parents[3] / "firmware_config" / "mosquitto" / "acl"
# `gr`: a game runner's phone (a private audience with its own command topic, like a team).
USERS: tuple[str, ...] = ("box", "dashboard", "admin", "homeassistant", *TEAM_COLOURS, "gr")


class BrokerError(RuntimeError):
    """Mosquitto is missing or did not start."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _port_open(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(0.2)
        return s.connect_ex(("127.0.0.1", port)) == 0


@dataclass
class Broker:
    """One Mosquitto process; `stop()` and `start()` again keep the same ports and users."""

    directory: Path
    port: int = 0
    ws_port: int = 0
    passwords: dict[str, str] = field(default_factory=dict)
    process: subprocess.Popen[bytes] | None = None

    @property
    def log_path(self) -> Path:
        return self.directory / "mosquitto.log"

    def write_config(self, acl: Path = REPO_ACL) -> Path:
        if shutil.which("mosquitto_passwd") is None:
            raise BrokerError("mosquitto_passwd not found (apt-get install mosquitto)")
        self.directory.mkdir(parents=True, exist_ok=True)
        self.port = self.port or free_port()
        self.ws_port = self.ws_port or free_port()
        pwfile = self.directory / "passwd"
        pwfile.unlink(missing_ok=True)
        for user in USERS:
            self.passwords.setdefault(user, f"{user}-secret-{self.port}")
            flag = ["-c"] if not pwfile.exists() else []
            subprocess.run(["mosquitto_passwd", *flag, "-b", str(pwfile), user, self.passwords[user]],
                           check=True, capture_output=True)
        shutil.copy(acl, self.directory / "acl")
        config = self.directory / "mosquitto.conf"
        config.write_text(
            "# generated for tests and benchmarks only\n"
            "user root\n"
            "persistence false\n"
            f"log_dest file {self.log_path}\n"
            "log_type error\nlog_type warning\nlog_type notice\nlog_type information\n"
            "per_listener_settings false\n"
            "allow_anonymous false\n"
            f"password_file {pwfile}\n"
            f"acl_file {self.directory / 'acl'}\n"
            f"listener {self.port} 127.0.0.1\n"
            f"listener {self.ws_port}\nprotocol websockets\n",
            encoding="utf-8",
        )
        return config

    def start(self, timeout: float = 5.0) -> Broker:
        if shutil.which("mosquitto") is None:
            raise BrokerError("mosquitto not found (apt-get install mosquitto)")
        config = self.directory / "mosquitto.conf"
        if not config.exists():
            self.write_config()
        self.process = subprocess.Popen(["mosquitto", "-c", str(config)],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                err = self.process.stderr.read().decode() if self.process.stderr else ""
                raise BrokerError(f"mosquitto exited: {err.strip()} {self.log()}")
            if _port_open(self.port) and _port_open(self.ws_port):
                return self
            time.sleep(0.02)
        self.stop()
        raise BrokerError("mosquitto did not open its ports")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(5)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process is not None and self.process.stderr:
            self.process.stderr.close()
        self.process = None
        deadline = time.monotonic() + 5
        while _port_open(self.port) and time.monotonic() < deadline:
            time.sleep(0.02)

    def log(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace") if self.log_path.exists() else ""

    def __enter__(self) -> Broker:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


def start_broker(directory: Path | None = None) -> Broker:
    """A started broker in `directory` (default: a new temp dir)."""
    where = Path(directory) if directory else Path(tempfile.mkdtemp(prefix="houston-mosquitto-"))
    broker = Broker(where)
    broker.write_config()
    return broker.start()
