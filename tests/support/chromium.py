"""How the tests launch headless Chromium: Debian's build, no sandbox (the tests run as root), and
nothing that reaches out to the network or updates itself."""

from __future__ import annotations

import shutil

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
        "--disable-sync", "--no-first-run"]

# How long a page may take to show what a test waits for, in Playwright's milliseconds. Generous:
# the wait returns as soon as the page shows it, and on two busy cores Chromium's first paint or a
# reconnect can take many times what it takes on an idle machine.
SHOWN_MS = 30_000
