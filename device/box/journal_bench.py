"""`houston bench journal`: what durability costs — commit latency and resume time.

Every input waits for a synced SQLite commit before the box acknowledges it, so that commit is on
the path a player feels. This measures it on the data directory's own disk, and how long a
restart takes to replay a long game.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import time
from pathlib import Path

from device.box.config import config_dir, load_config, selected_game
from device.box.journal import Journal, journal_path
from device.box.service import Service
from games.core import digest
from games.registry import load_game


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def measure(directory: Path, inputs: int, game_id: str, seed: int = 1) -> dict[str, object]:
    """Commit latency on a scratch game, then `inputs` inputs of `game_id` (its random player,
    seeded) through the service, then a restart that replays the game in progress."""
    game = load_game(game_id)
    journal = Journal(journal_path(directory))
    scratch = journal.begin_game(game_id, {})
    sample = game.legal_inputs(game.setup(game.demo_options()))[0]
    commit_ms: list[float] = []
    for i in range(inputs):
        t0 = time.perf_counter()
        journal.append(scratch, "input", sample, {"die_A": i % 6, "die_B": 0, "die_C": 1})
        commit_ms.append((time.perf_counter() - t0) * 1000)
    journal.end_game(scratch, {"reason": "bench"})
    service = Service(journal, default_game=game_id)
    service.resume()
    rng = random.Random(seed)
    handle_ms: list[float] = []
    for _ in range(inputs):
        if service.session is None:
            service.start_game(game_id, game.demo_options())
        session = service.session
        assert session is not None
        legal = game.legal_inputs(session.state)
        inp = game.random_input(session.state, legal, rng.randrange)
        t0 = time.perf_counter()
        service.submit(inp)
        handle_ms.append((time.perf_counter() - t0) * 1000)
    if service.session is None:
        service.start_game(game_id, game.demo_options())
    live = service.session
    assert live is not None and service.record is not None
    length = journal.count(service.record.id)
    journal.close()
    t0 = time.perf_counter()
    journal = Journal(journal_path(directory))
    resumed = Service(journal, default_game=game_id)
    resumed.resume()
    resume_ms = (time.perf_counter() - t0) * 1000
    if resumed.session is None or digest(resumed.session.state) != digest(live.state):
        raise RuntimeError("the resumed game differs from the live one")
    journal.close()
    return {
        "game": game_id,
        "inputs": inputs,
        "commit_ms_p50": round(statistics.median(commit_ms), 3),
        "commit_ms_p99": round(percentile(commit_ms, 99), 3),
        "input_to_effects_ms_p50": round(statistics.median(handle_ms), 3),
        "input_to_effects_ms_p99": round(percentile(handle_ms, 99), 3),
        "resumed_game_entries": length,
        "resume_ms": round(resume_ms, 1),
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="houston bench journal")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--inputs", type=int, default=1000)
    parser.add_argument("--game", help="game to play (default: the configured game)")
    parser.add_argument("--dir", help="directory on the disk to measure (default: a temp dir)")
    args = parser.parse_args(argv)
    game_id = args.game or selected_game(load_config(config_dir())[0])
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        result = measure(Path(tmp), args.inputs, game_id)
    result["directory"] = args.dir or tempfile.gettempdir()
    print(json.dumps(result) if args.json else "\n".join(f"{k}: {v}" for k, v in result.items()))
    return 0
