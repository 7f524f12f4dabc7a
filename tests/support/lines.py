"""A child process's output read line by line on a thread of its own, so that a test waits for
the line it needs (with a generous deadline) instead of sleeping a fixed time and hoping the child
got that far: on two busy cores a child can take many times longer than on an idle machine."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import IO


class Lines:
    """Every line `stream` gives, kept in order (the pipe never fills while the test waits)."""

    def __init__(self, stream: IO[str]) -> None:
        self.lines: list[str] = []
        self.closed = False
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._read, args=(stream,), daemon=True)
        self._thread.start()

    def _read(self, stream: IO[str]) -> None:
        try:
            for line in stream:
                with self._cond:
                    self.lines.append(line.rstrip("\n"))
                    self._cond.notify_all()
        except (OSError, ValueError):
            pass  # the stream was closed under us
        finally:
            with self._cond:
                self.closed = True
                self._cond.notify_all()

    def wait_for(self, enough: Callable[[list[str]], bool], timeout: float) -> bool:
        """Wait until `enough(lines so far)` holds; False if the stream ended or `timeout` passed first."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while not enough(self.lines):
                remaining = deadline - time.monotonic()
                if self.closed or remaining <= 0:
                    return False
                self._cond.wait(remaining)
            return True

    def wait_closed(self, timeout: float) -> bool:
        """Wait until the stream ends (the child closed it or died); False if `timeout` passed first."""
        self._thread.join(timeout)
        return not self._thread.is_alive()

    def follow(self, quiet: float) -> bool:
        """Wait until the stream ends, however long that takes, as long as the child keeps printing:
        False once `quiet` seconds pass without a new line (it hangs)."""
        while not self.closed:
            with self._cond:
                seen = len(self.lines)
            if not self.wait_for(lambda lines, n=seen: len(lines) > n, quiet) and not self.closed:
                return False
        return self.wait_closed(quiet)

    def text(self) -> str:
        with self._cond:
            return "\n".join(self.lines)
