"""`houston bench journal`: what durability costs — commit latency and resume time.

Every input waits for a synced SQLite commit before the box acknowledges it, so that commit is on
the path a player feels. This measures it on the data directory's own disk, and how long a
restart takes to replay a long game.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from device.box.journal import Journal, journal_path
from device.box.service import Service
from games.core import Press


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


OPTIONS = {"teams": ["red", "blue", "green", "yellow"], "rounds": 20}  # a long game of the dice game


def measure(directory: Path, inputs: int) -> dict[str, object]:
    journal = Journal(journal_path(directory))
    service = Service(journal, default_game="dog")
    service.resume()
    service.start_game("dog", OPTIONS)
    commit_ms: list[float] = []
    handle_ms: list[float] = []
    game_id = service.record.id if service.record else 0
    for i in range(inputs):
        t0 = time.perf_counter()
        journal.append(game_id, "input", Press("ok"), {"die_A": i % 6, "die_B": 0, "die_C": 1})
        commit_ms.append((time.perf_counter() - t0) * 1000)
    journal.conn.execute("DELETE FROM entries")
    for step in range(inputs):  # the game's demo policy plays, until the game ends or `inputs`
        session = service.session
        inp = session.game.demo_input(session.state, step) if session else None
        if inp is None:
            break
        t0 = time.perf_counter()
        service.submit(inp)
        handle_ms.append((time.perf_counter() - t0) * 1000)
    live = service.session or service.finished
    journal.close()
    t0 = time.perf_counter()
    journal = Journal(journal_path(directory))
    resumed = Service(journal, default_game="dog")
    resumed.resume()
    resume_ms = (time.perf_counter() - t0) * 1000
    if service.session is not None:
        assert resumed.session is not None and live is not None and resumed.session.state == live.state
    journal.close()
    return {
        "inputs": inputs,
        "inputs_played": len(handle_ms),
        "commit_ms_p50": round(statistics.median(commit_ms), 3),
        "commit_ms_p99": round(percentile(commit_ms, 99), 3),
        "input_to_effects_ms_p50": round(statistics.median(handle_ms), 3),
        "input_to_effects_ms_p99": round(percentile(handle_ms, 99), 3),
        "resume_ms_for_game_of_that_length": round(resume_ms, 1),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="houston bench journal")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--inputs", type=int, default=1000)
    parser.add_argument("--dir", help="directory on the disk to measure (default: a temp dir)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        result = measure(Path(tmp), args.inputs)
    result["directory"] = args.dir or tempfile.gettempdir()
    print(json.dumps(result) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0
