"""Two small marks kept beside the journal: the last entry acknowledged, the last one announced.

SQLite drops every WAL frame after one with a bad checksum, silently and by design, so a damaged
WAL would lose acknowledged inputs without a word. The `acked` mark is written and fsync'd after
each commit, in a file of its own: on open, a journal that ends before the mark has lost entries,
and the box says so. The `announced` mark is written after the outlets have shown an entry: on
resume, what lies between it and the journal's end was committed but never heard by the table.

The file is one fixed-size record overwritten in place (a single sector), so a write is never
half a record on the storage the box uses; an unreadable file counts as "no marks". Because the
record never changes size or place, `fdatasync` makes it durable without a file-system journal
commit (only the file's times change, which fdatasync may leave): the cheapest durable write
there is. The service syncs an entry's `acked` record once the table has the answer and no other
job waits; in a burst, the journal syncs it while the next entry's commit syncs (or when it
settles). Either way it adds no wait of its own between an input and its acknowledgement
(docs/faults.md, defect 4, says what that gives up).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

RECORD_BYTES = 64


@dataclass(frozen=True)
class Mark:
    """A position in the journal: game row id and entry sequence number (0: the game began)."""

    game: int
    seq: int


@dataclass(frozen=True)
class Marks:
    acked: Mark | None = None
    announced: Mark | None = None


def marks_path(journal_file: Path) -> Path:
    return Path(str(journal_file) + ".marks")


def _encode(marks: Marks) -> bytes:
    def one(mark: Mark | None) -> str:
        return f"{mark.game}:{mark.seq}" if mark is not None else "-"

    text = f"houston-marks 1 {one(marks.acked)} {one(marks.announced)}\n".encode("ascii")
    if len(text) > RECORD_BYTES:
        raise ValueError("marks record too long")
    return text.ljust(RECORD_BYTES, b" ")


def _decode(data: bytes) -> Marks:
    try:
        magic, version, acked, announced = data.decode("ascii").split()
    except (UnicodeDecodeError, ValueError):
        return Marks()
    if magic != "houston-marks" or version != "1":
        return Marks()

    def one(text: str) -> Mark | None:
        game, _, seq = text.partition(":")
        if not (game.isdigit() and seq.isdigit()):
            return None
        return Mark(int(game), int(seq))

    return Marks(one(acked), one(announced))


class MarkFile:
    """The marks of one journal, read once at open and rewritten in place."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        created = not self.path.exists()
        self._fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        self.marks = _decode(os.pread(self._fd, RECORD_BYTES, 0))
        self.unsynced = False  # an `acked` record written but not yet synced
        if created:  # the record's place on disk and the file's name, made durable once
            self.write(self.marks, sync=True)
            _sync_directory(self.path.parent)

    def write(self, marks: Marks, *, sync: bool) -> None:
        """Overwrite the record; `sync` waits until it is on the storage (acknowledged inputs)."""
        os.pwrite(self._fd, _encode(marks), 0)
        if sync:
            os.fdatasync(self._fd)
            self.unsynced = False
        self.marks = marks

    def acked(self, mark: Mark) -> None:
        """Written, not waited for: the record reaches the disk with the next commit's `sync` (in
        parallel with it) or when the box settles. Written only after the entry's commit is
        durable, so the mark on disk never runs ahead of the journal."""
        self.write(Marks(mark, self.marks.announced), sync=False)
        self.unsynced = True

    def sync(self) -> None:
        """Make the record on the storage what `marks` says (a no-op if it already is)."""
        if self.unsynced and self._fd >= 0:
            os.fdatasync(self._fd)
            self.unsynced = False

    def announced(self, mark: Mark) -> None:
        # Not synced: after a power cut a stale mark only makes the box repeat a result it said.
        self.write(Marks(self.marks.acked, mark), sync=False)

    def close(self) -> None:
        if self._fd >= 0:
            self.sync()
            os.close(self._fd)
            self._fd = -1


def _sync_directory(path: Path) -> None:
    """Make a new file's directory entry durable (a power cut could otherwise lose the name)."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
