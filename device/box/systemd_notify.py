"""Tell systemd how the box is doing (sd_notify), with no library beyond the standard one.

Under `Type=notify` systemd waits for `READY=1` before it calls the box started, and with
`WatchdogSec=` it restarts the box when `WATCHDOG=1` stops arriving. The protocol is one datagram
of `KEY=value` lines sent to the unix socket named by $NOTIFY_SOCKET (a leading `@` means an
abstract socket). Outside systemd the variable is unset and every call here does nothing.
"""

from __future__ import annotations

import logging
import os
import socket
import time
from collections.abc import Callable, Mapping

SENT_KEPT = 256

log = logging.getLogger("houston.systemd")


def _address(raw: str) -> str | bytes:
    return b"\0" + raw[1:].encode() if raw.startswith("@") else raw


def notify(message: str, environ: Mapping[str, str] | None = None) -> bool:
    """Send one sd_notify message; False when not under systemd or the socket is gone."""
    env = os.environ if environ is None else environ
    raw = env.get("NOTIFY_SOCKET", "")
    if not raw:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC) as sock:
            sock.connect(_address(raw))
            sock.sendall(message.encode())
    except OSError as exc:
        log.warning("sd_notify %r failed: %s", message.split("\n", 1)[0], exc)
        return False
    return True


def watchdog_interval(environ: Mapping[str, str] | None = None) -> float | None:
    """Seconds between WATCHDOG=1 pings (half of WatchdogSec, as sd_watchdog_enabled advises),
    or None when systemd is not watching this process."""
    env = os.environ if environ is None else environ
    usec = env.get("WATCHDOG_USEC", "")
    pid = env.get("WATCHDOG_PID", "")
    if not usec.isdigit() or int(usec) <= 0:
        return None
    if pid and pid.isdigit() and int(pid) != os.getpid():
        return None  # meant for another process (we were started by a wrapper)
    return int(usec) / 1_000_000 / 2


class Notifier:
    """READY / WATCHDOG / STOPPING / STATUS for one process. `watchdog()` may be called as often as
    you like (the service calls it every loop turn); it sends at most once per interval."""

    def __init__(
        self,
        environ: Mapping[str, str] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.environ = dict(os.environ if environ is None else environ)
        self.clock = clock
        self.interval = watchdog_interval(self.environ)
        self.enabled = bool(self.environ.get("NOTIFY_SOCKET"))
        self._last_ping: float | None = None
        self.sent: list[str] = []  # the latest messages, at most SENT_KEPT (tests read them)

    def _send(self, message: str) -> bool:
        if not self.enabled:
            return False
        self.sent.append(message)
        del self.sent[:-SENT_KEPT]
        return notify(message, self.environ)

    def ready(self, status: str = "") -> bool:
        return self._send("READY=1" + (f"\nSTATUS={status}" if status else ""))

    def status(self, text: str) -> bool:
        return self._send(f"STATUS={text}")

    def stopping(self) -> bool:
        return self._send("STOPPING=1")

    def watchdog(self) -> bool:
        """Ping the watchdog if half its timeout has passed since the last ping."""
        if self.interval is None:
            return False
        now = self.clock()
        if self._last_ping is not None and now - self._last_ping < self.interval:
            return False
        self._last_ping = now
        return self._send("WATCHDOG=1")
