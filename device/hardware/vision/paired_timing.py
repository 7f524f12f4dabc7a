"""Paired timing: this checkout's identifier against another revision's, on the same frames.

    houston bench vision-paired --base main --world held-out --json

Two bench runs of the same code differ by 5-10 % in their CPU ms (the machine, its neighbours,
cache contention), which is the size of most speed changes worth judging (stop 59). So both
versions run at once, each in a process of its own pinned to the same core, each enrolling the
world's deck with its own code; the bench's timing frames (the first frames of `cards` holds with
a card and of `empty` empty holds, evaluation seeds unless `--tuning-seeds`) go to one and then
the other, the order swapped every frame, for `passes` passes; each frame keeps its lowest CPU ms
per version. Reported: both versions' medians and p95 (as the bench computes them), their
ratios, and the paired median of what the change adds to a frame (empty frames' times are
bimodal, so a median of each moves by more than any one frame does: stop 60). Whether the two
give the same answers is counted too (a speed-only change must).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any

import numpy as np

from device.hardware.vision.bench import WORLDS, empty_timing_holds, percentile, presentation
from device.hardware.vision.captures import EVAL_SEED_BASE

# The worker, run with `python -c` in each version's tree (an older revision need not have this
# module): enrolls the world's deck with that tree's code (calibration options as JSON, null: the
# table's), then times `identify` on each frame file named on stdin, answering
# "cpu_ms<TAB>status<TAB>card".
_WORKER = """
import json, sys, time
from pathlib import Path
import cv2, numpy as np
cv2.setNumThreads(1)
from device.hardware.vision.bench import WORLDS
from device.hardware.vision.enrollment import enroll_from_folder
from device.hardware.vision.identifier import Identifier
from device.hardware.vision.references import load
world, store, calibration = WORLDS[sys.argv[1]], Path(sys.argv[2]), json.loads(sys.argv[3])
(store / "cards").mkdir(parents=True)
for card in world.cards():
    cv2.imwrite(str(store / "cards" / f"{card}.png"), world.render(card))
enroll_from_folder(world.deck, store / "cards", store / "data", calibration)
ident = Identifier([load(store / "data", world.deck)])
print("READY", flush=True)
for line in sys.stdin:
    frame = np.load(line.rstrip("\\n"))
    t = time.thread_time()
    r = ident.identify(frame)
    print(f"{(time.thread_time() - t) * 1000:.3f}\\t{r.status}\\t{r.card}", flush=True)
"""

_EXPORTED = ("device", "games")  # what the identifier's code imports
_LIGHT_CALIBRATION = {"folds": 1, "empty_scenes": 4, "other_cards": 2}  # as the bench's own smoke test


@dataclass(frozen=True)
class Answer:
    """One worker's reply for one frame."""

    cpu_ms: float
    status: str
    card: str

    @staticmethod
    def parse(line: str) -> Answer:
        """A worker's reply line, field by field (a worker that died answers nothing)."""
        fields = line.rstrip("\n").split("\t")
        if len(fields) != 3:
            raise RuntimeError(f"paired timing: a worker answered {line!r}")
        return Answer(float(fields[0]), fields[1], fields[2])


class Worker:
    """One version's identifier in a process of its own. It enrolls on any core; `ready` then
    pins it to the core it is timed on."""

    def __init__(self, tree: Path, world: str, store: Path, calibration: dict[str, int] | None = None):
        env = dict(os.environ, PYTHONPATH=str(tree), OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
        cmd = [sys.executable, "-c", _WORKER, world, str(store), json.dumps(calibration)]
        self._tree = tree
        self._proc = subprocess.Popen(
            cmd, cwd=tree, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1
        )

    def ready(self, core: int | None) -> None:
        """Wait for its enrollment, then pin it to `core` (None: leave it where it is)."""
        said = self._stdout.readline().strip()
        if said != "READY":
            self.close()
            raise RuntimeError(f"paired timing: the worker in {self._tree} did not start (said {said!r})")
        if core is not None and hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(self._proc.pid, {core})

    @property
    def _stdout(self) -> IO[str]:
        assert self._proc.stdout is not None
        return self._proc.stdout

    def time(self, frame_file: Path) -> Answer:
        assert self._proc.stdin is not None
        self._proc.stdin.write(f"{frame_file}\n")
        return Answer.parse(self._stdout.readline())

    def close(self) -> None:
        """End its input and wait for it (killed after 30 s: an enrollment still running)."""
        if self._proc.stdin is not None:
            self._proc.stdin.close()
        try:
            self._proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self._proc.kill()
            self._proc.wait()


def export_revision(repo: Path, rev: str, dest: Path) -> str:
    """The identifier's code at `rev` (any name git resolves to a commit) written under `dest`;
    returns the commit's full hash."""
    sha = subprocess.run(
        ["git", "-C", str(repo), "rev-parse", "--verify", "--end-of-options", f"{rev}^{{commit}}"],
        capture_output=True,
        text=True,
    )
    if sha.returncode != 0:
        raise ValueError(f"paired timing: {rev!r} is not a commit of {repo}")
    commit = sha.stdout.strip()
    dest.mkdir(parents=True, exist_ok=True)
    archive = subprocess.Popen(["git", "-C", str(repo), "archive", commit, *_EXPORTED], stdout=subprocess.PIPE)
    subprocess.run(["tar", "-x", "-C", str(dest)], stdin=archive.stdout, check=True)
    assert archive.stdout is not None
    archive.stdout.close()
    if archive.wait() != 0:
        raise RuntimeError(f"paired timing: git archive of {commit} failed")
    return commit


def timing_frames(world: str, seed_base: int, cards: int, empty: int, folder: Path) -> list[Path]:
    """The bench's timing frames of a world (first frames of holds with a card 0..cards-1, then of
    the empty holds the bench times), saved as .npy files in `folder`."""
    w = WORLDS[world]
    paths = []
    empties = empty_timing_holds(empty) if empty else []
    for kind, i in [("pos", i) for i in range(cards)] + [("neg", i) for i in empties]:
        path = folder / f"{kind}-{i:05d}.npy"
        np.save(path, next(presentation(w, w.render, seed_base, kind, i)[1]))
        paths.append(path)
    return paths


def _figures(ms: np.ndarray, cards: int) -> dict[str, float | None]:
    """The bench's figures over one version's per-frame CPU ms (None where there are no frames)."""
    with_card, empty, every = ms[:cards].tolist(), ms[cards:].tolist(), ms.tolist()
    return {
        "median_with_card": percentile(with_card, 50),
        "median_empty": percentile(empty, 50),
        "p95_all": percentile(every, 95),
        "mean": round(float(ms.mean()), 2),
    }


def _ratio(head: float | None, base: float | None) -> float | None:
    return round(head / base, 3) if head is not None and base else None


def compare(base: Worker, head: Worker, frames: list[Path], cards: int, passes: int) -> dict[str, Any]:
    """Both versions on every frame, in turn (the order swapped every frame and every pass); per
    frame each version's lowest CPU ms. Answers are compared on the first pass (`identify` is
    deterministic, so later passes repeat them)."""
    for f in frames[:5]:  # warm both (caches, lazy imports)
        base.time(f)
        head.time(f)
    t_base = np.full((passes, len(frames)), np.inf)
    t_head = t_base.copy()
    differ: list[str] = []
    for p in range(passes):
        for n, f in enumerate(frames):
            order = (base, head) if (n + p) % 2 == 0 else (head, base)
            first, second = order[0].time(f), order[1].time(f)
            a, b = (first, second) if order[0] is base else (second, first)
            t_base[p, n], t_head[p, n] = a.cpu_ms, b.cpu_ms
            if (a.status, a.card) != (b.status, b.card) and p == 0:
                differ.append(f"{f.stem}: {a.status} {a.card} -> {b.status} {b.card}")
    a_ms, b_ms = t_base.min(axis=0), t_head.min(axis=0)
    fa, fb = _figures(a_ms, cards), _figures(b_ms, cards)
    return {
        "base": fa,
        "head": fb,
        "ratio_head_to_base": {k: _ratio(fb[k], fa[k]) for k in fa},
        "paired_median_added_ms": {
            "with_card": round(float(np.median(b_ms[:cards] - a_ms[:cards])), 2) if cards else None,
            "empty": round(float(np.median(b_ms[cards:] - a_ms[cards:])), 2) if len(frames) > cards else None,
        },
        "answers_differ": len(differ),
        "answers_differ_examples": differ[:10],
    }


def _default_core() -> int | None:
    """The last core this process may run on (None where the platform cannot pin)."""
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    return cores[-1] if cores else None


def _run(repo: Path, args: argparse.Namespace, seed_base: int, core: int | None) -> tuple[str, dict[str, Any]]:
    """The base revision exported, the frames written, both versions enrolled and compared."""
    with tempfile.TemporaryDirectory(prefix="houston-paired-") as tmp:
        root = Path(tmp)
        commit = export_revision(repo, args.base, root / "base")
        (root / "frames").mkdir()
        frames = timing_frames(args.world, seed_base, args.cards, args.empty, root / "frames")
        print(f"[paired] {len(frames)} frames; enrolling {args.world} with both versions", file=sys.stderr)
        calibration = _LIGHT_CALIBRATION if args.light_calibration else None
        base = Worker(root / "base", args.world, root / "store-base", calibration)
        head = Worker(repo, args.world, root / "store-head", calibration)
        try:
            base.ready(core)
            head.ready(core)
            return commit, compare(base, head, frames, args.cards, args.passes)
        finally:
            head.close()
            base.close()


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="houston bench vision-paired", description=__doc__.split("\n\n")[0])
    p.add_argument("--base", required=True, help="the revision to compare this checkout with (e.g. main)")
    p.add_argument("--world", default="held-out", choices=("own", "held-out"))
    p.add_argument("--cards", type=int, default=200, help="frames with a card (the bench's timing frames)")
    p.add_argument("--empty", type=int, default=100, help="empty frames")
    p.add_argument("--passes", type=int, default=2)
    p.add_argument("--tuning-seeds", action="store_true", help="frames from tuning seeds, not evaluation ones")
    p.add_argument("--core", type=int, default=None, help="the core both run on (default: the last usable)")
    p.add_argument(
        "--light-calibration", action="store_true", help="a quick calibration (a smoke run: not the table's thresholds)"
    )
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    if args.cards < 0 or args.empty < 0 or args.cards + args.empty == 0 or args.passes < 1:
        p.error("--cards and --empty must be >= 0 with at least one frame, --passes >= 1")
    repo = Path(__file__).resolve().parents[3]  # this checkout: the head version, and where --base is resolved
    seed_base = 0 if args.tuning_seeds else EVAL_SEED_BASE
    core = args.core if args.core is not None else _default_core()
    try:
        commit, result = _run(repo, args, seed_base, core)
    except (ValueError, RuntimeError, OSError) as exc:  # a bad revision, a worker that died
        print(f"houston bench vision-paired: {exc}", file=sys.stderr)
        return 2
    out = {
        "bench": "vision-paired",
        "world": args.world,
        "seeds": "tuning" if args.tuning_seeds else "evaluation",
        "base_revision": {"rev": args.base, "commit": commit},
        "frames": {"with_card": args.cards, "empty": args.empty, "passes": args.passes},
        "core": core,
        "calibration": "light" if args.light_calibration else "the table's",
        "clock": "thread CPU ms, the lowest of the passes per frame",
        **result,
    }
    print(json.dumps(out, sort_keys=True) if args.json else json.dumps(out, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
