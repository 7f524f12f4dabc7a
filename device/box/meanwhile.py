"""A helper thread that works while the service thread waits on the disk.

An input's journal commit spends most of its time in fsync, with the GIL released. What the box
will show for the input (narration, public and team views) depends only on the rules' new state,
so the service hands that work here just before the commit and picks it up after: the view is
made while the disk syncs, and nothing leaves the box before the commit is durable (the service
delivers only after `append` has returned). One daemon thread per process; a forked child makes
its own (the crash bench forks boxes).
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Future
from typing import TypeVar

T = TypeVar("T")

_Work = tuple[Callable[[], object], "Future[object]"]


class Meanwhile:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._pid = -1
        self._jobs: queue.SimpleQueue[_Work] = queue.SimpleQueue()

    def submit(self, fn: Callable[[], T]) -> Future[T]:
        """Run `fn` on the helper thread; its Future carries the result or the exception."""
        future: Future[T] = Future()
        with self._lock:
            if self._pid != os.getpid():  # first use, or a forked child: the thread is not here
                self._jobs = queue.SimpleQueue()
                threading.Thread(target=self._run, args=(self._jobs,), name="houston-meanwhile",
                                 daemon=True).start()
                self._pid = os.getpid()
            self._jobs.put((fn, future))  # type: ignore[arg-type]
        return future

    @staticmethod
    def _run(jobs: queue.SimpleQueue[_Work]) -> None:
        while True:
            fn, future = jobs.get()
            try:
                future.set_result(fn())
            except BaseException as exc:  # the caller re-raises it on its own thread
                future.set_exception(exc)


MEANWHILE = Meanwhile()
