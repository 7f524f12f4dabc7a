"""How the tests launch headless Chromium: Debian's build, no sandbox (the tests run as root), and
nothing that reaches out to the network or updates itself."""

from __future__ import annotations

import shutil

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]
