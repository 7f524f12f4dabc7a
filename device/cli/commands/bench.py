"""`houston bench TARGET`: the benchmarks that print their figures as JSON."""

from __future__ import annotations

import argparse
import importlib
from typing import Any

# target -> module with main(argv) -> int
BENCHES: dict[str, str] = {
    "vision": "device.hardware.vision.bench",
    "vision-paired": "device.hardware.vision.paired_timing",
    "mqtt": "device.network.mqtt.bench",
    "voice": "device.hardware.voice.bench",
    "journal": "device.box.journal_bench",
    "crash": "device.simulation.crash_bench",
    "powercut": "device.simulation.power_cut_bench",
    "soak": "device.simulation.soak_bench",
}


def register(sub: Any) -> None:
    p = sub.add_parser("bench", help="run a benchmark and print its figures (JSON with --json)")
    p.add_argument("target", choices=sorted(BENCHES))
    p.add_argument("rest", nargs=argparse.REMAINDER, help="options for that benchmark, e.g. --json")
    p.set_defaults(func=bench)


def bench(args: argparse.Namespace) -> int:
    try:
        module = importlib.import_module(BENCHES[args.target])
    except ModuleNotFoundError as exc:
        print(f"houston: benchmark {args.target} is not installed ({exc.name})")
        return 2
    return int(module.main(list(args.rest)))
