"""The journal: every accepted input and chance outcome, committed before the box shows it.

SQLite in WAL mode with synchronous=FULL, so a commit has reached the disk when `append` returns;
the box acknowledges (beep, LED, words) only after that. Replaying the entries through the rules
rebuilds the exact state: this is how the box survives a pulled plug.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import time
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.box.marks import Mark, MarkFile, Marks, marks_path
from device.box.meanwhile import Meanwhile
from games.core import Input, input_from_data, input_to_data
from games.session import Entry

log = logging.getLogger("houston.journal")

SCHEMA_VERSION = 1

# SQLite drops every WAL frame after a damaged one, so what lives only in the WAL is what a damaged
# WAL can cost (the `acked` mark in device/box/marks.py makes any such loss known and said). The
# service folds the WAL into the main file with `settle()` after answering, never between an input
# and its answer: when no job has come for a moment (at a table that is before every next input)
# and, in a burst of inputs, at the latest after UNSETTLED_MAX commits. A caller that never
# settles (a tool, a test) still gets a fold from `append` itself after UNSETTLED_LIMIT commits.
UNSETTLED_MAX = 16
# The `acked` mark of entry N is never synced between N's commit and its answer: the service syncs
# it after answering when no other job waits (`sync_mark_soon`), and in a burst it is synced on a thread
# of its own while entry N+1's commit syncs (or when the box settles): one wait on the disk per input.
MARK_SYNC = Meanwhile()
UNSETTLED_LIMIT = 4 * UNSETTLED_MAX

SCHEMA_V1 = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL,
    options TEXT NOT NULL,
    started_at REAL NOT NULL,
    ended_at REAL,
    result TEXT
);
CREATE TABLE IF NOT EXISTS entries (
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('input', 'undo')),
    input TEXT,
    outcomes TEXT NOT NULL DEFAULT '{}',
    at REAL NOT NULL,
    void INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (game_id, seq)
);
"""

# version -> SQL that brings a journal of version-1 up to it. Never edit a step once released.
MIGRATIONS: dict[int, str] = {}


class JournalError(Exception):
    """The journal cannot be used (unwritable directory, damaged file); str() is the reason."""


class JournalDamaged(JournalError):
    """The file exists but is not a readable journal."""


@dataclass(frozen=True)
class GameRecord:
    id: int
    game: str
    options: dict[str, Any]
    started_at: float
    ended_at: float | None
    result: dict[str, Any] | None


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False, timeout=5.0)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("PRAGMA synchronous=FULL")
    conn.execute("PRAGMA foreign_keys=ON")
    return conn


def _collect_mark_sync(syncing: Future[None]) -> None:
    """Wait for a mark sync on the mark thread. A failure is logged, never raised: the entry it
    names is already durable (raising would refuse an input the journal holds), and the record
    stays marked unsynced, so the next sync retries it."""
    try:
        syncing.result()
    except OSError as exc:
        log.error("journal mark not synced: %s", exc)


class Journal:
    """One SQLite file holding every game the box has refereed."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._open()
        self._unsettled = 0  # commits since the WAL was last folded in
        self._last: tuple[int, int] | None = None  # (game, its last seq): the one writer's own count
        # the last append's wait for the disk (commit and mark, seconds) and when it ended
        # (perf_counter): the service's running estimate (device/box/meanwhile.py, Pace) reads it
        self.last_sync = (0.0, 0.0)
        self.marks: MarkFile | None = MarkFile(marks_path(self.path))
        self._mark_syncing: Future[None] | None = None  # `sync_mark_soon`'s sync, until waited for
        self.lost_entries = self._compare_marks()

    def _mark_file(self) -> MarkFile:
        """The marks file of a writable journal (a read-only one has none)."""
        if self.marks is None:
            raise JournalError(f"{self.path}: opened read-only")
        return self.marks

    def _compare_marks(self) -> int:
        """How many acknowledged entries the journal no longer holds (0: none); then the marks are
        moved to the journal's real end, so the loss is reported once."""
        acked, announced = self._mark_file().marks.acked, self._mark_file().marks.announced
        if acked is None:
            return 0
        exists = self.conn.execute("SELECT 1 FROM games WHERE id=?", (acked.game,)).fetchone()
        last = self.last_seq(acked.game) if exists else -1
        if last >= acked.seq:
            return 0
        latest = self.conn.execute("SELECT MAX(id) FROM games").fetchone()[0]
        end = Mark(latest, self.last_seq(latest)) if latest is not None else None
        if announced is not None and end is not None and (announced.game, announced.seq) > (end.game, end.seq):
            announced = end
        self._mark_file().write(Marks(end, announced), sync=True)
        return acked.seq - max(last, 0) + (1 if last < 0 else 0)


    def _open(self) -> None:
        if not self.path.parent.is_dir():
            raise JournalError(f"data directory {self.path.parent} does not exist")
        try:
            self.conn = _connect(self.path)
            check = self.conn.execute("PRAGMA quick_check").fetchone()
            if check is None or check[0] != "ok":
                raise JournalDamaged(f"{self.path}: integrity check failed: {check}")
            self._migrate()
        except sqlite3.OperationalError as exc:
            if "readonly" in str(exc) or "unable to open" in str(exc):
                raise JournalError(f"cannot write the journal in {self.path.parent}: {exc}") from exc
            raise JournalDamaged(f"{self.path}: {exc}") from exc
        except sqlite3.DatabaseError as exc:
            raise JournalDamaged(f"{self.path}: not a readable journal ({exc})") from exc

    def _migrate(self) -> None:
        tables = {r[0] for r in self.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        if not tables:
            self.conn.executescript(
                f"BEGIN IMMEDIATE;{SCHEMA_V1}"
                f"INSERT OR REPLACE INTO meta VALUES ('schema_version', '{SCHEMA_VERSION}');COMMIT;"
            )
            return
        if not {"meta", "games", "entries"} <= tables:
            raise JournalDamaged(f"{self.path}: not a Houston journal (tables: {sorted(tables)})")
        row = self.conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        version = int(row[0]) if row else 0
        if version > SCHEMA_VERSION:
            raise JournalError(f"{self.path}: written by a newer Houston (schema {version}); update the box")
        for step in range(version + 1, SCHEMA_VERSION + 1):
            self.conn.executescript(MIGRATIONS[step])
        if version != SCHEMA_VERSION:
            self.conn.execute("UPDATE meta SET value=? WHERE key='schema_version'", (str(SCHEMA_VERSION),))

    @classmethod
    def read_only(cls, path: Path) -> Journal:
        """Open an existing journal for reading only (export, replay): creates, migrates and
        writes nothing, so pointing a tool at the wrong file cannot make a journal of it."""
        path = Path(path)
        try:
            if path.read_bytes()[:16] != b"SQLite format 3\x00":
                raise JournalDamaged(f"{path}: not an SQLite journal")
        except OSError as exc:
            raise JournalError(f"{path}: {exc.strerror or exc}") from exc
        journal = cls.__new__(cls)
        journal.path = path
        journal.marks = None
        journal.lost_entries = 0
        journal._last = None
        journal.last_sync = (0.0, 0.0)
        try:
            journal.conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, check_same_thread=False)
            tables = {r[0] for r in journal.conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.DatabaseError as exc:
            raise JournalDamaged(f"{path}: not a readable journal ({exc})") from exc
        if not {"meta", "games", "entries"} <= tables:
            journal.conn.close()
            raise JournalDamaged(f"{path}: not a Houston journal")
        return journal

    @staticmethod
    def set_aside(path: Path) -> Path:
        """Move a damaged journal (and its WAL) out of the way, keeping it for inspection."""
        stamp = time.strftime("%Y%m%d-%H%M%S")
        target = path.with_name(f"{path.name}.damaged-{stamp}")
        for suffix in ("", "-wal", "-shm", ".marks"):
            src = Path(str(path) + suffix)
            if src.exists():
                src.rename(Path(str(target) + suffix))
        return target

    def close(self) -> None:
        """Checkpoint the WAL into the main file and close: a clean shutdown leaves one file."""
        if self.marks is None:  # read-only
            self.conn.close()
            return
        try:
            self.conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error as exc:
            raise JournalError(
                f"{self.path}: could not fold the WAL in at shutdown ({exc}); nothing is lost, "
                "the next start does it"
            ) from exc
        finally:
            self.conn.close()
            self.wait_mark()
            self.marks.close()

    def _committed(self) -> None:
        self._unsettled += 1
        if self._unsettled >= UNSETTLED_LIMIT:
            self.settle()

    @property
    def unsettled(self) -> int:
        """Commits that live only in the WAL (not yet folded into the main file)."""
        return self._unsettled

    def settle(self) -> None:
        """Fold every WAL frame into the main file (synced), if anything was committed since the
        last fold. PASSIVE: it never waits for a reader; what a reader held back is folded next
        time. The WAL file is kept, not truncated: the next commits overwrite it in place, which
        costs the disk less than growing a file again (close() truncates it)."""
        if self.marks is None:
            return
        self.wait_mark()
        self.marks.sync()
        if not self._unsettled:
            return
        busy, frames, folded = self.conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
        if not busy and folded == frames:
            self._unsettled = 0

    # --- writing -----------------------------------------------------------------------------

    def begin_game(self, game: str, options: dict[str, Any]) -> int:
        with self.conn:
            cur = self.conn.execute(
                "INSERT INTO games (game, options, started_at) VALUES (?, ?, ?)",
                (game, json.dumps(options, sort_keys=True), time.time()),
            )
        game_id = int(cur.lastrowid or 0)
        self._last = (game_id, 0)
        self._committed()
        self._mark_file().write(Marks(Mark(game_id, 0), Mark(game_id, 0)), sync=True)  # nothing to announce yet
        return game_id

    def next_seq(self, game_id: int) -> int:
        """The sequence number the next entry of `game_id` will get (one writer: the service)."""
        return self.last_seq(game_id) + 1

    def append(
        self,
        game_id: int,
        kind: str,
        inp: Input | None,
        outcomes: dict[str, Any],
        *,
        end: dict[str, Any] | None = None,
        meanwhile: Callable[[], object] | None = None,
    ) -> int:
        """Commit one entry durably and return its sequence number. With `end`, the game's end
        is recorded in the same commit: a kill can never leave a finished game marked open.
        `meanwhile` is called once the entry is written, just before the commit that syncs it:
        the caller may start work on another thread that the disk's wait then hides. `last_sync`
        then says how long the commit took from there."""
        mark_synced: Future[None] | None = None
        try:
            with self.conn:
                self.conn.execute("BEGIN IMMEDIATE")
                seq = self.last_seq(game_id) + 1
                at = time.time()
                self.conn.execute(
                    "INSERT INTO entries (game_id, seq, kind, input, outcomes, at) VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        game_id,
                        seq,
                        kind,
                        json.dumps(input_to_data(inp)) if inp is not None else None,
                        json.dumps(outcomes, sort_keys=True),
                        at,
                    ),
                )
                if end is not None:
                    self.conn.execute("UPDATE games SET ended_at=?, result=? WHERE id=?",
                                      (at, json.dumps(end), game_id))
                if meanwhile is not None:
                    meanwhile()
                marks = self._mark_file()
                if marks.unsynced and self._mark_syncing is None:  # the previous mark: synced while this commit syncs
                    mark_synced = MARK_SYNC.submit(marks.sync)
                syncing = time.perf_counter()
        except BaseException:
            self._last = None  # whatever happened, the next count comes from the file
            raise
        finally:
            if mark_synced is not None:
                _collect_mark_sync(mark_synced)
        synced = time.perf_counter()
        self.last_sync = (synced - syncing, synced)
        self._last = (game_id, seq)
        self._committed()
        self.wait_mark()  # a sync still running from `sync_mark_soon` ends before the record changes
        self._mark_file().acked(Mark(game_id, seq))
        return seq

    def sync_mark_soon(self) -> None:
        """Start making the last `acked` mark durable on the mark thread and return at once (the
        service calls this once an answer is out and nothing waits): the sync overlaps whatever the
        service does next, and `wait_mark` (called before the record next changes) collects it."""
        if self.marks is not None and self.marks.unsynced and self._mark_syncing is None:
            self._mark_syncing = MARK_SYNC.submit(self.marks.sync)

    def wait_mark(self) -> None:
        """Wait for a sync `sync_mark_soon` started (a failure is logged: `_collect_mark_sync`)."""
        syncing, self._mark_syncing = self._mark_syncing, None
        if syncing is not None:
            _collect_mark_sync(syncing)

    def mark_announced(self, game_id: int, seq: int) -> None:
        """The outlets have shown entry `seq`: the table has heard it."""
        self._mark_file().announced(Mark(game_id, seq))

    def announced(self, game_id: int) -> int | None:
        """The last entry of `game_id` the table heard, if the marks know (None: unknown)."""
        mark = self._mark_file().marks.announced
        if mark is None:
            return None
        if mark.game == game_id:
            return mark.seq
        return 0 if mark.game < game_id else None

    def end_game(self, game_id: int, result: dict[str, Any]) -> None:
        with self.conn:
            self.conn.execute(
                "UPDATE games SET ended_at=?, result=? WHERE id=?", (time.time(), json.dumps(result), game_id)
            )
        self._committed()

    def void_from(self, game_id: int, seq: int) -> None:
        """Mark entries from `seq` on as unreadable: kept for inspection, skipped by replay."""
        with self.conn:
            self.conn.execute("UPDATE entries SET void=1 WHERE game_id=? AND seq>=?", (game_id, seq))
        self._committed()

    # --- reading -----------------------------------------------------------------------------

    def _record(self, row: tuple[Any, ...]) -> GameRecord:
        return GameRecord(
            id=row[0],
            game=row[1],
            options=json.loads(row[2]),
            started_at=row[3],
            ended_at=row[4],
            result=json.loads(row[5]) if row[5] else None,
        )

    def games(self) -> list[GameRecord]:
        rows = self.conn.execute("SELECT id, game, options, started_at, ended_at, result FROM games ORDER BY id")
        return [self._record(r) for r in rows]

    def game(self, game_id: int) -> GameRecord | None:
        row = self.conn.execute(
            "SELECT id, game, options, started_at, ended_at, result FROM games WHERE id=?", (game_id,)
        ).fetchone()
        return self._record(row) if row else None

    def last_finished(self) -> GameRecord | None:
        """The game that ended last (its result names the winners), if any."""
        row = self.conn.execute(
            "SELECT id, game, options, started_at, ended_at, result FROM games "
            "WHERE ended_at IS NOT NULL AND result IS NOT NULL ORDER BY ended_at DESC, id DESC LIMIT 1"
        ).fetchone()
        return self._record(row) if row else None

    def unfinished(self) -> GameRecord | None:
        """The game that was running when the box stopped, if any."""
        row = self.conn.execute(
            "SELECT id, game, options, started_at, ended_at, result FROM games "
            "WHERE ended_at IS NULL ORDER BY id DESC LIMIT 1"
        ).fetchone()
        return self._record(row) if row else None

    def raw_entries(self, game_id: int, include_void: bool = False) -> list[dict[str, Any]]:
        """Entries as stored (JSON text decoded), for export. A row whose text does not decode
        comes out as {"seq", "kind", "unreadable": reason, "raw": {...}}: kept, never a crash."""
        rows = self.conn.execute(
            "SELECT seq, kind, input, outcomes, at, void FROM entries WHERE game_id=? ORDER BY seq", (game_id,)
        )
        out = []
        for seq, kind, inp, outcomes, at, void in rows:
            if void and not include_void:
                continue
            try:
                item = {"seq": seq, "kind": kind, "input": json.loads(inp) if inp else None}
                item |= {"outcomes": json.loads(outcomes), "at": at}
            except (ValueError, TypeError, RecursionError) as exc:
                raw = {"input": _printable(inp), "outcomes": _printable(outcomes)}
                item = {"seq": seq, "kind": kind, "unreadable": f"not JSON ({exc})", "raw": raw, "at": at}
            if void:
                item["void"] = True
            out.append(item)
        return out

    def entries(self, game_id: int) -> Iterator[Entry]:
        """Entries as the rules see them; a row that cannot be parsed raises EntryUnreadable."""
        for raw in self.raw_entries(game_id):
            yield entry_from_data(raw)

    def readable_entries(self, game_id: int) -> tuple[list[Entry], EntryUnreadable | None]:
        """The entries up to the first that does not parse, and that failure (None if all parse)."""
        entries: list[Entry] = []
        try:
            for entry in self.entries(game_id):
                entries.append(entry)
        except EntryUnreadable as exc:
            return entries, exc
        return entries, None

    def count(self, game_id: int) -> int:
        row = self.conn.execute("SELECT COUNT(*) FROM entries WHERE game_id=? AND void=0", (game_id,)).fetchone()
        return int(row[0])

    def last_seq(self, game_id: int) -> int:
        """The sequence number of the game's last entry (0 before the first). The journal has one
        writer (this object), so after its first look it counts its own commits instead of asking
        the file before every input (a read-only journal always asks)."""
        if self._last is not None and self._last[0] == game_id and self.marks is not None:
            return self._last[1]
        row = self.conn.execute("SELECT COALESCE(MAX(seq), 0) FROM entries WHERE game_id=?", (game_id,)).fetchone()
        seq = int(row[0])
        if self.marks is not None:
            self._last = (game_id, seq)
        return seq


class EntryUnreadable(JournalError):
    """One journal entry that no longer parses; `seq` says which."""

    def __init__(self, seq: int, reason: str) -> None:
        super().__init__(f"entry {seq}: {reason}")
        self.seq = seq


def _printable(value: Any) -> Any:
    """A stored value as text an export can carry (bytes from a damaged row included)."""
    if isinstance(value, bytes):
        return value.decode("utf-8", "backslashreplace")
    return value


def entry_from_data(raw: Any) -> Entry:
    """One entry from its stored/exported form; anything malformed raises EntryUnreadable."""
    if not isinstance(raw, dict):
        raise EntryUnreadable(0, "an entry must be a JSON object")
    seq = raw.get("seq", 0)
    if not isinstance(seq, int) or isinstance(seq, bool):
        raise EntryUnreadable(0, f"seq must be a whole number, not {seq!r}")
    if raw.get("unreadable"):
        raise EntryUnreadable(seq, str(raw["unreadable"]))
    try:
        kind = raw["kind"]
        if kind == "undo":
            return Entry(seq=seq, kind="undo")
        if kind != "input":
            raise ValueError(f"unknown kind {kind!r}")
        outcomes = raw.get("outcomes") or {}
        if not isinstance(outcomes, dict):
            raise ValueError("outcomes must be an object")
        return Entry(seq=seq, kind="input", inp=input_from_data(raw["input"]), outcomes=outcomes)
    except (KeyError, ValueError, TypeError) as exc:
        raise EntryUnreadable(seq, str(exc)) from exc


def journal_path(data_dir: Path) -> Path:
    return Path(data_dir) / "journal.sqlite"


def prepare_data_dir(data_dir: Path) -> Path:
    """Create the data directory if needed and prove it writable; raises JournalError otherwise."""
    data_dir = Path(data_dir)
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
        probe = data_dir / ".write-test"
        probe.write_bytes(b"ok")
        probe.unlink()
    except OSError as exc:
        raise JournalError(f"data directory {data_dir} is not writable ({exc.strerror or exc})") from exc
    return data_dir


def open_journal(data_dir: Path) -> tuple[Journal, list[str]]:
    """Open the journal in `data_dir`, setting a damaged one aside so the box can still start.

    Returns the journal and message keys to announce (e.g. that a damaged file was kept aside).
    An unusable data directory raises JournalError: the box refuses to start without one.
    """
    prepare_data_dir(data_dir)
    path = journal_path(data_dir)
    try:
        journal = Journal(path)
    except JournalDamaged:
        Journal.set_aside(path)
        return Journal(path), ["journal_damaged"]
    return journal, ["journal_entries_lost"] if journal.lost_entries else []


@dataclass(frozen=True)
class JournalHealth:
    """What a read-only look at a journal file found (for `houston doctor`)."""

    readable: bool
    intact: bool
    is_journal: bool
    games: int
    detail: str = ""


def inspect_journal(path: Path) -> JournalHealth:
    """Open `path` read-only (never creating or migrating it) and check it, as a doctor would."""
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            result = conn.execute("PRAGMA integrity_check").fetchone()
            tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            games = conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] if "games" in tables else 0
        finally:
            conn.close()
    except sqlite3.DatabaseError as exc:
        return JournalHealth(readable=False, intact=False, is_journal=False, games=0, detail=str(exc))
    intact = bool(result) and result[0] == "ok"
    detail = "" if intact else (str(result[0]) if result else "?")
    return JournalHealth(True, intact, {"meta", "games", "entries"} <= tables, int(games), detail)


def latest_entry_time(path: Path) -> float | None:
    """When the last entry of any game was written (read-only; None without a readable journal)."""
    if not path.exists():
        return None
    try:
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)
        try:
            row = conn.execute("SELECT MAX(at) FROM entries").fetchone()
        finally:
            conn.close()
    except sqlite3.DatabaseError:
        return None
    return float(row[0]) if row and row[0] is not None else None
