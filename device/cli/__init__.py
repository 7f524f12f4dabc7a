"""`houston`: run the box, play the demo, replay and export journals, and the tools of each part.

Each part of the box adds its own subcommands through a `register(subparsers)` function in its
module, listed in COMMAND_MODULES, so this file stays a table of contents.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Sequence
from pathlib import Path

from device import blas  # noqa: F401  (first of this package's imports: one BLAS thread before numpy)
from device.box.config import ConfigError, resolve_data_dir
from device.cli.image_check import too_small

# Modules that add subcommands: each defines register(subparsers).
COMMAND_MODULES: tuple[str, ...] = (
    "device.cli.commands.run",
    "device.cli.commands.journal_tools",
    "device.cli.commands.campaign",
    "device.cli.commands.bench",
    "device.simulation.demo",
    "device.hardware.vision.cli",
    "device.cli.doctor",
    "device.simulation.simulate",
)


def default_data_dir(explicit: str | None, config: str | None = None) -> Path:
    """--data-dir, else $HOUSTON_DATA_DIR, else the config's box.data_dir."""
    return resolve_data_dir(explicit, config)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="houston",
        description="Houston: the box in the middle of the table that referees your games.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue  # a part not installed in this checkout
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    if args.command == "identify" and (problem := too_small(args.images)):
        print(f"houston identify: {problem}", file=sys.stderr)
        return 2
    try:
        return int(args.func(args) or 0)
    except ConfigError as exc:
        print(f"houston: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


