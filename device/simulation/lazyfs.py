"""A FUSE pass-through that keeps every write in memory until fsync: a power cut in a process.

kill -9 cannot show what a power cut does, because the kernel's page cache survives the process.
Mounted over a backing folder, this layer holds each file's unsynced content in its own memory
(the LazyFS idea); `fsync` writes a file's content through to the backing file and syncs it.
Killing this process is the cut: everything not fsync'd is gone, the backing folder holds exactly
what a disk would after the power came back. Creating, renaming and deleting files reach the
backing folder at once (the model is kind to metadata; SQLite's WAL does not rely on it).

Run as `python -m device.simulation.lazyfs BACKING MOUNTPOINT` (root, fuse3 and mfusepy needed);
it serves in the foreground until killed.
"""

from __future__ import annotations

import errno
import os
import stat
import sys
import threading
from typing import Any

from mfusepy import FUSE, FuseOSError, Operations


class LazyFS(Operations):  # type: ignore[misc]
    """Files whose unsynced content lives only here; everything else is the backing folder."""

    use_ns = True  # times in nanoseconds (utimens is a no-op here anyway)

    def __init__(self, backing: str) -> None:
        self.backing = os.path.realpath(backing)
        self.pending: dict[str, bytearray] = {}  # path -> whole content, not yet synced
        self._mutex = threading.Lock()
        self._fh = 0

    def _real(self, path: str) -> str:
        return os.path.join(self.backing, path.lstrip("/"))

    def _content(self, path: str) -> bytearray:
        """The file's current content, taken into memory for changing."""
        if path not in self.pending:
            try:
                with open(self._real(path), "rb") as f:
                    self.pending[path] = bytearray(f.read())
            except FileNotFoundError as exc:
                raise FuseOSError(errno.ENOENT) from exc
        return self.pending[path]

    def _next_fh(self) -> int:
        self._fh += 1
        return self._fh

    # --- metadata ------------------------------------------------------------------------------

    def getattr(self, path: str, fh: int | None = None) -> dict[str, Any]:
        try:
            st = os.lstat(self._real(path))
        except FileNotFoundError as exc:
            raise FuseOSError(errno.ENOENT) from exc
        attrs = {key: getattr(st, key) for key in (
            "st_mode", "st_nlink", "st_uid", "st_gid", "st_size", "st_atime", "st_mtime", "st_ctime")}
        with self._mutex:
            if path in self.pending and stat.S_ISREG(st.st_mode):
                attrs["st_size"] = len(self.pending[path])
        return attrs

    def readdir(self, path: str, fh: int) -> list[str]:
        return [".", "..", *os.listdir(self._real(path))]

    def access(self, path: str, amode: int) -> int:
        if not os.path.exists(self._real(path)):
            raise FuseOSError(errno.ENOENT)
        return 0

    def mkdir(self, path: str, mode: int) -> int:
        os.mkdir(self._real(path), mode)
        return 0

    def rmdir(self, path: str) -> int:
        os.rmdir(self._real(path))
        return 0

    def unlink(self, path: str) -> int:
        with self._mutex:
            self.pending.pop(path, None)
            try:
                os.unlink(self._real(path))
            except FileNotFoundError as exc:
                raise FuseOSError(errno.ENOENT) from exc
        return 0

    def rename(self, old: str, new: str) -> int:
        with self._mutex:
            os.rename(self._real(old), self._real(new))
            if old in self.pending:
                self.pending[new] = self.pending.pop(old)
            else:
                self.pending.pop(new, None)
        return 0

    def chmod(self, path: str, mode: int) -> int:
        os.chmod(self._real(path), mode)
        return 0

    def chown(self, path: str, uid: int, gid: int) -> int:
        os.chown(self._real(path), uid, gid)
        return 0

    def utimens(self, path: str, times: tuple[int, int] | None = None) -> int:
        return 0

    def statfs(self, path: str) -> dict[str, int]:
        sv = os.statvfs(self.backing)
        return {key: getattr(sv, key) for key in (
            "f_bavail", "f_bfree", "f_blocks", "f_bsize", "f_favail", "f_ffree", "f_files", "f_flag",
            "f_frsize", "f_namemax")}

    # --- content -------------------------------------------------------------------------------

    def create(self, path: str, mode: int, fi: Any = None) -> int:
        with self._mutex:
            fd = os.open(self._real(path), os.O_WRONLY | os.O_CREAT, mode)
            os.close(fd)
            self._content(path)
        return self._next_fh()

    def open(self, path: str, flags: int) -> int:
        if not os.path.exists(self._real(path)):
            raise FuseOSError(errno.ENOENT)
        if flags & os.O_TRUNC:
            self.truncate(path, 0)
        return self._next_fh()

    def read(self, path: str, size: int, offset: int, fh: int) -> bytes:
        with self._mutex:
            if path in self.pending:
                return bytes(self.pending[path][offset:offset + size])
        with open(self._real(path), "rb") as f:
            f.seek(offset)
            return f.read(size)

    def write(self, path: str, data: bytes, offset: int, fh: int) -> int:
        with self._mutex:
            content = self._content(path)
            if offset > len(content):
                content.extend(b"\0" * (offset - len(content)))
            content[offset:offset + len(data)] = data
        return len(data)

    def truncate(self, path: str, length: int, fh: int | None = None) -> int:
        with self._mutex:
            content = self._content(path)
            if length < len(content):
                del content[length:]
            else:
                content.extend(b"\0" * (length - len(content)))
        return 0

    def fsync(self, path: str, datasync: int, fh: int) -> int:
        """The only way content reaches the backing folder."""
        with self._mutex:
            content = self.pending.pop(path, None)
            if content is None:
                return 0
            fd = os.open(self._real(path), os.O_WRONLY)
            try:
                os.ftruncate(fd, len(content))
                os.pwrite(fd, bytes(content), 0)
                os.fsync(fd)
            finally:
                os.close(fd)
        return 0

    def flush(self, path: str, fh: int) -> int:
        return 0  # close() is not a sync

    def release(self, path: str, fh: int) -> int:
        return 0

    def fsyncdir(self, path: str, datasync: int, fh: int) -> int:
        return 0


def main(argv: list[str]) -> int:
    backing, mountpoint = argv
    FUSE(LazyFS(backing), mountpoint, foreground=True, nothreads=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
