"""The campaign store: each game's campaign snapshot, kept across games and sessions.

A campaign (a legacy or campaign game's progress) outlives one game's journal, so it has its own
SQLite file beside the journal: WAL, synchronous=FULL, a versioned schema. The store is generic —
it knows game ids and JSON objects, never what a snapshot means; the game's `campaign_check`
parses a snapshot field by field before anything uses it. Every saved snapshot is also kept in a
bounded history, so a table can go back to an earlier one by export and import.
"""

from __future__ import annotations

import json
import re
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

SCHEMA_VERSION = 1
FILE_NAME = "campaigns.sqlite"
MAX_SNAPSHOT_BYTES = 256 * 1024
HISTORY_PER_GAME = 50
GAME_ID = re.compile(r"^[a-z][a-z0-9_]{0,31}$")

SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS campaigns (
    game TEXT PRIMARY KEY,
    snapshot TEXT NOT NULL,
    saved_at REAL NOT NULL,
    source TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS history (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    snapshot TEXT NOT NULL,
    saved_at REAL NOT NULL,
    source TEXT NOT NULL
);
"""

# version -> SQL that brings a store of the previous version up to it. Never edit a released step.
MIGRATIONS: dict[int, str] = {}


class CampaignError(Exception):
    """The store or a snapshot cannot be used; str() is the one-line reason."""


@dataclass(frozen=True)
class Snapshot:
    """One stored campaign: the game, its JSON object, when and from what it was saved."""

    game: str
    data: dict[str, Any]
    saved_at: float
    source: str


def store_path(data_dir: Path) -> Path:
    return Path(data_dir) / FILE_NAME


def check_game_id(game: Any) -> str:
    if not isinstance(game, str) or not GAME_ID.match(game):
        raise CampaignError(f"not a game id: {game!r}")
    return game


def encode(data: Any) -> str:
    """The stored (and exported) text of a snapshot: sorted keys, stable bytes."""
    if not isinstance(data, dict):
        raise CampaignError("a campaign snapshot must be a JSON object")
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    if len(text.encode()) > MAX_SNAPSHOT_BYTES:
        raise CampaignError(f"a campaign snapshot is at most {MAX_SNAPSHOT_BYTES} bytes")
    return text


def decode(text: Any) -> dict[str, Any]:
    if not isinstance(text, str) or len(text.encode()) > MAX_SNAPSHOT_BYTES:
        raise CampaignError("stored snapshot is not text of a sane size")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise CampaignError(f"stored snapshot is not JSON ({exc.msg})") from exc
    if not isinstance(data, dict):
        raise CampaignError("stored snapshot is not a JSON object")
    return data


class CampaignStore:
    """One SQLite file holding the current campaign of every game that has one."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=5.0)
            self._conn.execute("PRAGMA journal_mode=WAL")
            self._conn.execute("PRAGMA synchronous=FULL")
            self._migrate()
        except sqlite3.DatabaseError as exc:
            raise CampaignError(f"cannot use the campaign store {self.path}: {exc}") from exc

    def _migrate(self) -> None:
        version = int(self._conn.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            raise CampaignError(f"campaign store {self.path} is schema {version}; this box knows {SCHEMA_VERSION}")
        if version == 0:
            self._conn.executescript(SCHEMA_V1)
            self._conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")
            return
        for step in range(version + 1, SCHEMA_VERSION + 1):
            self._conn.executescript(MIGRATIONS[step])
            self._conn.execute(f"PRAGMA user_version={step}")

    def close(self) -> None:
        self._conn.close()

    def load(self, game: str) -> Snapshot | None:
        """The game's current snapshot, read field by field (a damaged row raises)."""
        check_game_id(game)
        row = self._conn.execute(
            "SELECT game, snapshot, saved_at, source FROM campaigns WHERE game = ?", (game,)).fetchone()
        if row is None:
            return None
        name, text, saved_at, source = row
        if name != game or not isinstance(saved_at, float | int) or not isinstance(source, str):
            raise CampaignError(f"campaign store row for {game!r} is damaged")
        return Snapshot(game, decode(text), float(saved_at), source)

    def save(self, game: str, data: dict[str, Any], source: str) -> None:
        """Replace the game's snapshot durably (committed when this returns); keep the history."""
        check_game_id(game)
        text = encode(data)
        if not isinstance(source, str) or len(source) > 200:
            raise CampaignError("source must be a short text")
        now = time.time()
        with self._conn:
            self._conn.execute("BEGIN IMMEDIATE")
            self._conn.execute(
                "INSERT INTO campaigns (game, snapshot, saved_at, source) VALUES (?, ?, ?, ?) "
                "ON CONFLICT(game) DO UPDATE SET snapshot = excluded.snapshot, saved_at = excluded.saved_at, "
                "source = excluded.source", (game, text, now, source))
            self._conn.execute("INSERT INTO history (game, snapshot, saved_at, source) VALUES (?, ?, ?, ?)",
                               (game, text, now, source))
            self._conn.execute(
                "DELETE FROM history WHERE game = ? AND id NOT IN "
                "(SELECT id FROM history WHERE game = ? ORDER BY id DESC LIMIT ?)",
                (game, game, HISTORY_PER_GAME))

    def history(self, game: str) -> list[Snapshot]:
        check_game_id(game)
        rows = self._conn.execute(
            "SELECT game, snapshot, saved_at, source FROM history WHERE game = ? ORDER BY id", (game,)).fetchall()
        return [Snapshot(g, decode(t), float(at), str(src)) for g, t, at, src in rows]
