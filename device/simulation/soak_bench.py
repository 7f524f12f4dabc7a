"""`houston bench soak --minutes M --json`: hours of play in minutes; memory and descriptors flat.

One process holds a whole box on mock pins (the real service, panel, journal, recording outlet and
a speaker whose device is missing, so every announcement still goes through its queue and record),
and plays every installed game in turn with each game's random policy, as fast as it can, BACK
now and then; between games it floods the service with commands as a display would send them
(REPEAT, a press carrying another kind, a choice out of turn, undo, select), posted without
waiting so the service queue fills. Every few seconds it samples its own resident memory and
open file descriptors. After a warm-up (the first fifth of the time) both must stay flat: growth
≤ 5 % from the end of the warm-up to the end.

What grows during the warm-up is bounded: the recorder's last updates, each mock pin's last state
changes (device/simulation/mock_pins.py) and the games' `lru_cache`s, which random play fills
slowly (some hold 4,096 entries). The figures say how full those caches were at the end of the
warm-up and at the end, so a reader can see how much of any growth is a cache still filling.
"""

from __future__ import annotations

import argparse
import gc
import json
import logging
import os
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from device.box.commands import User, parse_command
from device.box.jobs import CommandJob, RefuseJob, RepeatJob
from device.simulation.crash_bench import table_options
from games.core import RuleError
from games.registry import game_ids

FLOOD = 400  # commands per flood
GROWTH_LIMIT = 0.05
FLOOD_COMMANDS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("repeat", {}),
    ("press", {"kind": "choose", "option": "flood"}),
    ("press", {"button": "repeat"}),
    ("choose", {"option": "flood"}),
    ("undo", {}),
    ("select_game", {"game": "no-such-game"}),
    ("start_game", {}),
)


def rss_kib() -> int:
    with open("/proc/self/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def open_fds() -> int:
    return len(os.listdir("/proc/self/fd"))


def game_caches() -> tuple[int, int, int]:
    """(entries in the games' bounded lru_caches, their total bound, entries in unbounded ones).
    Unbounded `@cache`s are only for small fixed domains (a game's cards, its settings): their
    count must not grow once every game has been played."""
    bounded = bound = unbounded = 0
    seen: set[int] = set()
    for name, module in list(sys.modules.items()):
        if not name.startswith("games.") or module is None:
            continue
        for obj in list(vars(module).values()):
            info = getattr(obj, "cache_info", None)
            if info is None or id(obj) in seen or not callable(info):
                continue
            seen.add(id(obj))
            stats = info()
            if stats.maxsize is None:
                unbounded += stats.currsize
            else:
                bounded += stats.currsize
                bound += stats.maxsize
    return bounded, bound, unbounded


def _flood(box: Any, rng: random.Random, answered: list[int]) -> None:
    def count(_reply: dict[str, Any]) -> None:
        answered[0] += 1

    service = box.service
    for _ in range(FLOOD):
        name, payload = FLOOD_COMMANDS[rng.randrange(len(FLOOD_COMMANDS))]
        try:
            service.post(CommandJob(parse_command(name, dict(payload), User.DISPLAY), count))
        except RuleError as exc:
            service.post(RefuseJob(exc, count))
        if rng.random() < 0.2:
            service.post(RepeatJob(count))
    service.wait_idle(60)


def _play_one_game(box: Any, game_id: str, rng: random.Random, step_limit: int = 2000) -> int:
    service = box.service
    if service.session is None:
        box.command("start_game", {"game": game_id, "options": table_options(game_id)})
    steps = 0
    while service.session is not None and steps < step_limit:
        session = service.session
        if session.undo_stack and rng.random() < 0.1:
            box.press("back")
        else:
            legal = session.game.legal_inputs(session.state)
            box.submit(session.game.random_input(session.state, legal, rng.randrange))
        steps += 1
    return steps


def run(
    minutes: float, seed: int, data_dir: Path, sample_seconds: float = 5.0, warmup: float = 0.2
) -> dict[str, Any]:
    """Soak for `minutes`; growth is measured from the end of the warm-up (`warmup` of the time:
    bounded caches, such as the recorder's last updates, fill first)."""
    from device.hardware.voice.clips import ClipCache, VoiceStyle
    from device.hardware.voice.outlet import SpeakerOutlet
    from device.hardware.voice.speaker import Mixer, Speaker
    from device.simulation.simbox import SimBox

    logging.getLogger("houston").setLevel(logging.ERROR)
    os.environ["SDL_AUDIODRIVER"] = "disk-less-soak"  # no device: the speaker logs, keeps its queue
    rng = random.Random(seed)
    box = SimBox(data_dir)
    speaker = Speaker(ClipCache(data_dir / "voice", VoiceStyle()), mixer=Mixer(0.8))
    box.service.outlets.append(SpeakerOutlet(speaker))
    ids = game_ids()
    samples: list[tuple[float, int, int, tuple[int, int, int]]] = []
    answered = [0]
    games = inputs = floods = 0
    t0 = time.monotonic()
    end = t0 + minutes * 60
    next_sample = t0
    try:
        while time.monotonic() < end:
            inputs += _play_one_game(box, ids[games % len(ids)], rng)
            games += 1
            _flood(box, rng, answered)
            floods += 1
            if time.monotonic() >= next_sample:
                gc.collect()
                samples.append((round(time.monotonic() - t0, 1), rss_kib(), open_fds(), game_caches()))
                next_sample += sample_seconds
    finally:
        speaker.close()
        box.close()
    gc.collect()
    samples.append((round(time.monotonic() - t0, 1), rss_kib(), open_fds(), game_caches()))
    warm = [s for s in samples if s[0] >= minutes * 60 * warmup] or samples[-1:]
    base_rss, base_fds = warm[0][1], warm[0][2]
    last_rss, last_fds = samples[-1][1], samples[-1][2]
    base_caches, last_caches = warm[0][3], samples[-1][3]
    return {
        "minutes": minutes,
        "games_played": games,
        "inputs": inputs,
        "commands_flooded": floods * FLOOD,
        "replies": answered[0],
        "speaker_items_queued": speaker.queued,
        "rss_kib_after_warmup": base_rss,
        "rss_kib_end": last_rss,
        "rss_kib_max": max(s[1] for s in samples),
        "rss_growth": round((last_rss - base_rss) / base_rss, 4) if base_rss else None,
        "fds_after_warmup": base_fds,
        "fds_end": last_fds,
        "fds_growth": round((last_fds - base_fds) / base_fds, 4) if base_fds else None,
        "game_cache_entries_after_warmup": base_caches[0],
        "game_cache_entries_end": last_caches[0],
        "game_cache_bound": last_caches[1],
        "game_unbounded_cache_entries_after_warmup": base_caches[2],
        "game_unbounded_cache_entries_end": last_caches[2],
        "samples": len(samples),
        "seconds_after_warmup": round(samples[-1][0] - warm[0][0], 1),
        "rss_kib_samples": [s[1] for s in samples],
        "flat": last_rss <= base_rss * (1 + GROWTH_LIMIT) and last_fds <= base_fds * (1 + GROWTH_LIMIT),
        "games": list(ids),
        "seed": seed,
    }


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="houston bench soak")
    parser.add_argument("--minutes", type=float, default=30.0)
    parser.add_argument("--seed", type=int, default=20261201)
    parser.add_argument("--dir", help="directory for the journal (default: a temp dir)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    if args.minutes <= 0:
        print("houston bench soak: --minutes must be positive", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        figures = run(args.minutes, args.seed, Path(tmp), sample_seconds=max(1.0, args.minutes * 60 / 100))
    print(json.dumps(figures) if args.json else "\n".join(f"{k}: {v}" for k, v in figures.items()))
    return 0 if figures["flat"] else 1
