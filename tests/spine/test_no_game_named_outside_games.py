"""A game is one folder: no file outside games/ (and the tests, docs and the Pi's configuration,
which may name the default game) names a particular game. The box, the CLI, the dashboard and
the scripts work from the registry, the configuration and command-line arguments."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from games.registry import game_ids

REPO = Path(__file__).resolve().parents[2]
ALLOWED = ("games/", "tests/", "docs/", "firmware_config/")
KNOWN = {"dog", "hwhad", "alien", "whales", "spacedogs"}  # the games written and being written
VENDOR = "/vendor/"


def repository_files() -> list[str]:
    listed = subprocess.run(["git", "ls-files", "--cached", "--others", "--exclude-standard"],
                            capture_output=True, text=True, cwd=REPO, check=True).stdout.split()
    return [f for f in listed if not f.startswith(ALLOWED) and VENDOR not in f and (REPO / f).is_file()]


def test_no_file_outside_games_names_a_game() -> None:
    ids = KNOWN | set(game_ids())
    word = re.compile(rf"\b({'|'.join(sorted(ids))})\b")  # ids are lower case; titles in prose may stay
    offenders = []
    for name in repository_files():
        try:
            text = (REPO / name).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # a binary file
        offenders += [f"{name}:{n}: {line.strip()}" for n, line in enumerate(text.splitlines(), 1)
                      if word.search(line)]
    assert offenders == []


def test_the_check_sees_device_files() -> None:
    files = repository_files()
    assert "device/box/service.py" in files and "device/network/dashboard/dashboard.js" in files
