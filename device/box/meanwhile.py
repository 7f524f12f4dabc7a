"""A helper thread that works while the service thread waits on the disk.

An input's journal commit spends most of its time in fsync, with the GIL released. What the box
will show for the input (narration, public and team views) depends only on the rules' new state,
so the service hands that work here just before the commit and picks it up after: the view is
made while the disk syncs, and nothing leaves the box before the commit is durable (the service
delivers only after `append` has returned). One daemon thread per process; a forked child makes
its own (the crash bench forks boxes).

The hand-off is not free (waking the helper, passing the interpreter's lock back and forth: ~0.1 ms
on the development machine when other threads are busy), and it hides nothing when the commit is
quick (tmpfs, a disk with a write cache). `Pace` keeps a running estimate of how long a commit
waits on the disk and of how long the work takes, and the service hands the work over only while
the wait is the longer of the two; otherwise it does the work itself right after the commit.
"""

from __future__ import annotations

import os
import queue
import threading
from collections import deque
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
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

WEIGHT = 0.25  # of each new sample in the running estimate of the work
WINDOW = 9  # the disk's last waits kept: their median decides, so one stall (a busy moment) does not
PROBE_EVERY = 16  # threaded inputs that said nothing of the disk before one is done inline to look
DISK_LAST_SECONDS = 100e-6  # the commit came back within this after the helper finished: it waited for it


@dataclass
class Pace:
    """Whether to hand the next input's work to the helper: yes while a commit's wait on the disk
    (the median of the last WINDOW waits, seconds) is longer than the work (a running estimate of
    the CPU seconds it takes). Inline, a commit's wait is the disk's alone. With the helper it is
    the disk's too, unless the commit came back just after the helper finished: then the service
    waited for the helper (for Python's lock) and the disk may have been quicker; such a wait says
    nothing, and when the helper keeps finishing just before, every PROBE_EVERY-th input is done
    inline to look. On a slow disk (an SD card) the commit comes back last, so the box never probes
    there and the helper stays in use."""

    work: float | None = None
    helper: bool = True
    unknown: int = 0  # threaded inputs in a row whose commit did not tell the disk's time
    waits: deque[float] = field(default_factory=lambda: deque(maxlen=WINDOW))

    @property
    def wait(self) -> float | None:
        """The median of the last waits (the upper one of an even count), None before any."""
        return sorted(self.waits)[len(self.waits) // 2] if self.waits else None

    def use_helper(self) -> bool:
        return self.helper and self.unknown < PROBE_EVERY

    def inline(self, wait: float, work: float) -> None:
        """An input done without the helper: `wait` is the disk's time alone."""
        self.unknown = 0
        self._note(wait, work)

    def threaded(self, wait: float, work: float, after_helper: float) -> None:
        """An input done with the helper; the commit returned `after_helper` seconds after the
        helper finished (negative: before it had)."""
        if 0 <= after_helper <= DISK_LAST_SECONDS:
            self.unknown += 1
            self.work = _mean(self.work, work)
        else:
            self.unknown = 0
            self._note(wait, work)

    def _note(self, wait: float, work: float) -> None:
        self.waits.append(wait)
        self.work = _mean(self.work, work)
        # a margin each way, so a disk as quick as the work does not flip the choice every input
        median = self.wait
        assert median is not None  # a wait was just noted
        self.helper = median > (0.75 if self.helper else 1.0) * self.work


def _mean(estimate: float | None, sample: float) -> float:
    return sample if estimate is None else estimate + WEIGHT * (sample - estimate)
