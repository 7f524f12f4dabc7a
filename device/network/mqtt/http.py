"""A small static file server for the dashboard (stdlib, one daemon thread).

It serves device/network/dashboard/ and a generated `config.json` telling the page where the broker's
WebSockets listener is and the `dashboard` credentials. Those credentials only read public
topics (the ACL), so handing them to every browser on the table's network reveals nothing secret.
"""

from __future__ import annotations

import functools
import json
import logging
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

log = logging.getLogger("houston.mqtt.http")

DASHBOARD_DIR = Path(__file__).resolve().parent.parent / "dashboard"


class _Handler(SimpleHTTPRequestHandler):
    page_config: bytes = b"{}"

    def do_GET(self) -> None:
        if self.path.split("?", 1)[0] == "/config.json":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Cache-Control", "no-store")
            self.send_header("Content-Length", str(len(self.page_config)))
            self.end_headers()
            self.wfile.write(self.page_config)
            return
        super().do_GET()

    def end_headers(self) -> None:
        self.send_header("X-Content-Type-Options", "nosniff")
        super().end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        log.debug("%s " + format, self.address_string(), *args)


class DashboardServer:
    """Serve the dashboard on `port` (0: any free port; read `.port` after start)."""

    def __init__(self, port: int, page_config: dict[str, Any], host: str = "",
                 directory: Path = DASHBOARD_DIR) -> None:
        handler = type("DashboardHandler", (_Handler,), {"page_config": json.dumps(page_config).encode()})
        self.server = ThreadingHTTPServer((host, port), functools.partial(handler, directory=str(directory)))
        self.server.daemon_threads = True
        self.port = int(self.server.server_address[1])
        self._thread = threading.Thread(target=self.server.serve_forever, name="houston-dashboard", daemon=True)

    def start(self) -> DashboardServer:
        self._thread.start()
        return self

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(2)
