"""Fixtures for the sixth-game test: the toy game installed from a temporary folder (and removed
after), one real Mosquitto with WebSockets (tests/support/broker.py). (Chromium runs in a process
of its own: Playwright's sync API allows one instance per process, and the dashboard tests hold it.)"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from games import registry
from tests.support.broker import broker

__all__ = ["broker", "toy_dir"]

TOY_SOURCE = Path(__file__).resolve().parent / "toygame"


@pytest.fixture(scope="module")
def toy_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A folder holding games/toygame/ (written from tests/sixth_game/toygame), put on sys.path
    and discovered; nothing in the repository lists it. Removed and forgotten afterwards."""
    root = tmp_path_factory.mktemp("sixth-game")
    shutil.copytree(TOY_SOURCE, root / "games" / "toygame", ignore=shutil.ignore_patterns("__pycache__"))
    sys.path.insert(0, str(root))
    registry.refresh()
    try:
        yield root
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m == "games.toygame" or m.startswith("games.toygame.")]:
            del sys.modules[name]
        registry.refresh()

