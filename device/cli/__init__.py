"""`houston`: run the box, play the demo, replay and export journals, and the tools of each part.

Each part of the box adds its own subcommands through a `register(subparsers)` function in its
module, listed in COMMAND_MODULES by the commands it adds, so this file stays a table of contents.
A command imports only its own module: `houston identify` does not load the games, the box
service and gpiozero (~0.35 s of its start-up, which outside evaluations pay per call).
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

# Modules that add subcommands, by the commands each adds: each defines register(subparsers).
COMMAND_MODULES: dict[str, tuple[str, ...]] = {
    "device.cli.commands.run": ("run",),
    "device.cli.commands.journal_tools": ("export", "replay"),
    "device.cli.commands.campaign": ("campaign",),
    "device.cli.commands.bench": ("bench",),
    "device.simulation.demo": ("demo",),
    "device.hardware.vision.cli": ("enroll", "identify"),
    "device.cli.doctor": ("doctor",),
    "device.simulation.simulate": ("simulate",),
}


def default_data_dir(explicit: str | None, config: str | None = None) -> Path:
    """--data-dir, else $HOUSTON_DATA_DIR, else the config's box.data_dir."""
    return resolve_data_dir(explicit, config)


def _command_in(argv: Sequence[str]) -> str | None:
    """The subcommand an argument list names (its first word that is not an option), if any."""
    return next((a for a in argv if not a.startswith("-")), None)


def build_parser(argv: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The parser for an argument list: with only the module of the command it names, when it
    names a known one; with every module for help, no command or a misspelt one."""
    parser = argparse.ArgumentParser(
        prog="houston",
        description="Houston: the box in the middle of the table that referees your games.",
    )
    parser.add_argument("-v", "--verbose", action="store_true", help="log debug messages")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    command = _command_in(argv) if argv is not None else None
    modules = [m for m, commands in COMMAND_MODULES.items() if command in commands] or list(COMMAND_MODULES)
    for name in modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                continue  # a part not installed in this checkout
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(argv)
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


