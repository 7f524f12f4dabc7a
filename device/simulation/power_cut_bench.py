"""`houston bench powercut --cuts N --json`: cut the power under the journal N times.

The journal lives on a FUSE layer (device/simulation/lazyfs.py) that keeps every write in memory
until fsync. Each round mounts it, lets the box (the crash bench's child: real service, real
journal, random games of every installed game, BACK now and then) play for a random moment,
then kills the layer — every write not yet fsync'd is gone, as in a power cut — and the box with
it. The backing folder then holds what a disk would: it must pass integrity_check, hold every
input the box acknowledged before the cut (and replay to the state the box reported), and the
next round resumes from it. Needs root, /dev/fuse, fusermount3 (Debian fuse3) and mfusepy.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from device.box.journal import journal_path
from device.simulation.crash_bench import (
    acknowledged_lost,
    bench_parser,
    child_errors,
    fields,
    integrity_ok,
    journal_rows,
    one_life,
    print_figures,
)
from games.registry import game_ids


class FuseUnavailable(RuntimeError):
    """This machine cannot mount the lazy layer; str() says why."""


def fuse_problem() -> str | None:
    """Why the bench cannot run here, or None."""
    if not Path("/dev/fuse").exists():
        return "no /dev/fuse"
    if shutil.which("fusermount3") is None:
        return "no fusermount3 (apt-get install fuse3)"
    try:
        import mfusepy  # noqa: F401
    except (ImportError, OSError) as exc:
        return f"mfusepy cannot load ({exc})"
    return None


class LazyMount:
    """The lazy layer served by a process of its own; `cut()` kills it (the power goes)."""

    def __init__(self, backing: Path, mountpoint: Path) -> None:
        self.backing, self.mountpoint = backing, mountpoint
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self, timeout: float = 10.0) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "device.simulation.lazyfs", str(self.backing), str(self.mountpoint)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        )
        deadline = time.monotonic() + timeout
        while not os.path.ismount(self.mountpoint):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                err = self.proc.stderr.read().decode(errors="replace") if self.proc.stderr else ""
                self.cut()
                raise FuseUnavailable(f"the lazy layer did not mount: {err.strip()[-300:]}")
            time.sleep(0.02)

    def cut(self) -> None:
        if self.proc is not None:
            with contextlib.suppress(ProcessLookupError):
                self.proc.send_signal(signal.SIGKILL)
            self.proc.wait()
            self.proc = None
        subprocess.run(["fusermount3", "-u", "-z", str(self.mountpoint)], capture_output=True, check=False)


def run(cuts: int, seed: int, workdir: Path) -> dict[str, Any]:
    problem = fuse_problem()
    if problem:
        raise FuseUnavailable(problem)
    rng = random.Random(seed)
    backing, mountpoint = workdir / "disk", workdir / "mnt"
    backing.mkdir()
    mountpoint.mkdir()
    path = journal_path(backing)
    figures: dict[str, Any] = {
        "cuts": 0, "acknowledged_inputs": 0, "acknowledged_lost": 0, "integrity_failures": 0,
        "journaled_entries_changed": 0, "loss_reported_on_resume": 0, "stuck_boxes": 0, "child_errors": 0,
    }
    before = journal_rows(path)
    t0 = time.monotonic()
    mount = LazyMount(backing, mountpoint)
    try:
        for _ in range(cuts):
            mount.start()
            life = one_life(mountpoint, "external", rng.randrange(2**31), rng, cut=mount.cut, longest=0.8)
            mount.cut()  # (already cut; makes sure it is unmounted)
            figures["cuts"] += 1
            for resumed in [fields(line) for line in life.lines if line.startswith("RESUMED")]:
                figures["stuck_boxes"] += int(resumed["stuck"])
                figures["loss_reported_on_resume"] += int(resumed["lost"]) > 0
            # once its disk is gone the child may fail on it before the kill lands: only what it
            # said before the cut is the box's own error
            figures["child_errors"] += child_errors(life.lines[:life.before_cut], "powercut")
            if not integrity_ok(path):
                figures["integrity_failures"] += 1
            acks = [fields(line) for line in life.lines if line.startswith("ACK")]
            figures["acknowledged_inputs"] += len(acks)
            after = journal_rows(path)
            figures["acknowledged_lost"] += acknowledged_lost(path, acks, after)
            for key, row in before.items():
                now = after.get(key)
                if now is None or now[:3] != row[:3]:
                    figures["journaled_entries_changed"] += 1
            before = after
    finally:
        mount.cut()
    figures["entries_on_disk"] = len(before)
    figures["games"] = list(game_ids())
    figures["seconds"] = round(time.monotonic() - t0, 1)
    figures["seed"] = seed
    return figures


def main(argv: list[str]) -> int:
    args = bench_parser("powercut", "cuts", 200, "directory to work in (default: a temp dir)").parse_args(argv)
    if args.cuts < 1:
        print("houston bench powercut: --cuts must be at least 1", file=sys.stderr)
        return 2
    try:
        with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
            figures = run(args.cuts, args.seed, Path(tmp))
    except FuseUnavailable as exc:
        print(f"houston bench powercut: cannot run here: {exc}", file=sys.stderr)
        return 2
    print_figures(figures, args.json)
    bad = figures["acknowledged_lost"] + figures["integrity_failures"] + figures["stuck_boxes"]
    return 1 if bad + figures["journaled_entries_changed"] + figures["child_errors"] else 0
