"""`houston bench voice`: from an announcement reaching the voice to its sound starting.

Budget: 150 ms for a pre-rendered clip. Measured from `SpeakerOutlet.deliver` (the service has
turned the effect into words) to pygame's `Sound.play` returning, plus the mixer's buffer (the
time the first samples wait in the device buffer). "cold" clips are on disk but not yet loaded;
"warm" ones were played before. "service" is the whole way from a `Say` effect posted to the real
service loop (on mock pins, with a real journal) to the sound starting. With no audio device the
dummy driver is used and said so.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from device.hardware.voice.clips import ClipCache
from device.hardware.voice.sounds import RATE

BUDGET_MS = 150.0
BUFFER_FRAMES = 512
PHRASES = ["Ready.", "Red.", "Blue.", "Green.", "Yellow.", "Purple.", "White.", "Not now."]


def _stats(values: list[float]) -> dict[str, float]:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    return {"median": round(statistics.median(ordered), 2), "p95": round(p95, 2), "max": round(ordered[-1], 2)}


def measure(runs: int, cache_dir: Path, cold_count: int = len(PHRASES)) -> dict[str, object]:
    from device.box.service import Update
    from device.hardware.voice.outlet import SpeakerOutlet
    from device.hardware.voice.speaker import Mixer, Speaker

    phrases = PHRASES[: max(1, cold_count)]
    clips = ClipCache(cache_dir)
    clips.render_all(phrases)  # pre-rendered, as the installer does; not part of the figure
    mixer = Mixer(1.0)
    driver = os.environ.get("SDL_AUDIODRIVER", "default")
    if not mixer.ok:
        os.environ["SDL_AUDIODRIVER"] = driver = "dummy"
        mixer = Mixer(1.0)
    speaker = Speaker(clips, mixer=mixer)
    outlet = SpeakerOutlet(speaker)
    buffer_ms = BUFFER_FRAMES / RATE * 1000
    cold: list[float] = []
    warm: list[float] = []
    service: list[float] = []
    try:
        for i in range(len(phrases) + runs):
            text = phrases[i] if i < len(phrases) else phrases[i % len(phrases)]
            update = Update(i, {}, {}, [{"type": "say", "key": "bench", "text": text}])
            before = speaker.played
            t0 = time.perf_counter()
            outlet.deliver(update)
            speaker.wait_done(10)
            if speaker.played == before:
                raise RuntimeError("the clip never started")
            item = speaker.started[-1]
            assert item.started_at is not None
            ms = (item.started_at - t0) * 1000 + buffer_ms
            (cold if i < len(phrases) else warm).append(ms)
        service = [ms + buffer_ms for ms in _through_service(speaker, runs, cache_dir)]
    finally:
        speaker.close()
    worst = max(cold + warm + service)
    return {
        "bench": "voice",
        "driver": driver,
        "buffer_ms": round(buffer_ms, 2),
        "cold_ms": _stats(cold),
        "warm_ms": _stats(warm),
        "service_ms": _stats(service),
        "runs": len(cold) + len(warm),
        "budget_ms": BUDGET_MS,
        "within_budget": worst <= BUDGET_MS,
    }


def _through_service(speaker: Any, runs: int, work_dir: Path) -> list[float]:
    """Milliseconds from posting a Say to the service loop to the clip starting (buffer excluded)."""
    from device.box.jobs import SayJob
    from device.hardware.voice.outlet import SpeakerOutlet
    from device.hardware.voice.render import render
    from device.simulation.simbox import SimBox
    from games.core import say

    words = say("ok")
    speaker.clips.render(render(words, None))  # pre-rendered, as the installer does
    box = SimBox(work_dir / "box")  # started: its greeting is not part of the measurement
    box.service.outlets.append(SpeakerOutlet(speaker))
    times: list[float] = []
    try:
        for _ in range(max(1, runs)):
            before = speaker.played
            t0 = time.perf_counter()
            box.service.post(SayJob([words]))
            box.service.wait_idle()
            speaker.wait_done(10)
            if speaker.played == before:
                raise RuntimeError("the clip never started")
            times.append((speaker.started[-1].started_at - t0) * 1000)
    finally:
        box.close()
    return times


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="houston bench voice", description=__doc__)
    parser.add_argument("--runs", type=int, default=20, help="warm runs (default 20)")
    parser.add_argument("--cold", type=int, default=len(PHRASES), help="clips played for the first time")
    parser.add_argument("--json", action="store_true", help="JSON only (the default output is JSON too)")
    parser.add_argument("--cache-dir", help="clip cache to use (default: a temporary directory)")
    args = parser.parse_args(argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if args.cache_dir:
        result = measure(args.runs, Path(args.cache_dir), args.cold)
    else:
        with tempfile.TemporaryDirectory(prefix="houston-voice-bench-") as tmp:
            result = measure(args.runs, Path(tmp), args.cold)
    print(json.dumps(result, sort_keys=True))
    return 0 if result["within_budget"] else 1
