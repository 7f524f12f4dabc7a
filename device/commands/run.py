"""`houston run`: the box itself — on real pins, or with `--sim` on a laptop keyboard."""

from __future__ import annotations

import argparse
import contextlib
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, TextIO

from device.config import config_dir, load_config
from device.journal import JournalError, open_journal

SIM_KEYS = {
    "r": "red", "b": "blue", "g": "green", "y": "yellow", "p": "purple", "w": "white",
    "o": "ok", "u": "back", "a": "repeat",
}
SIM_HELP = """Keys (Enter after each line; several keys in one line are pressed in turn):
  r b g y p w   team buttons red blue green yellow purple white  (capital letter = long press)
  o / O         OK / long press OK
  u             BACK (undo)
  a / A         REPEAT / long press REPEAT (at idle: next game)
  :CARD         hold card CARD over the camera (e.g. :max)
  !OPTION       choose OPTION as a display would (e.g. !flood)
  ?             this help        q  quit"""


def register(sub: Any) -> None:
    p = sub.add_parser("run", help="run the box (real pins, or --sim for a keyboard simulation)")
    p.add_argument("--sim", action="store_true", help="simulated hardware: keys are buttons")
    p.add_argument("--game", help="game selected at start (default from houston.toml)")
    p.add_argument("--data-dir", help="where the journal lives (default from houston.toml)")
    p.add_argument("--config", help="directory with houston.toml and pins.toml")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from device.cli import default_data_dir

    directory = config_dir(args.config)
    load_config(directory)  # refuse a bad config before anything starts
    data_dir = default_data_dir(args.data_dir, args.config)
    if args.sim:
        return run_sim(data_dir, args.game, sys.stdin, sys.stdout)
    return run_hardware(data_dir, args.game, directory)


def run_sim(data_dir: Path, game: str | None, keys: TextIO, out: TextIO) -> int:
    """The box on mock pins, driven by keys; prints what it says and how its lights change."""
    from device.outlets import ConsoleOutlet
    from device.simbox import SimBox

    try:
        box = SimBox(data_dir, game=game, start=False)
    except JournalError as exc:
        print(f"houston: {exc}", file=sys.stderr)
        return 2
    box.service.outlets.append(ConsoleOutlet(box.panel.lights, out))
    print(SIM_HELP, file=out, flush=True)
    box.service.start()
    box.service.wait_idle()
    try:
        for line in keys:
            if not _sim_line(box, line.strip(), out):
                break
    except KeyboardInterrupt:
        pass
    finally:
        box.close()
    return 0


def _sim_line(box: Any, line: str, out: TextIO) -> bool:
    if not line:
        return True
    if line.startswith(":"):
        box.scan(line[1:].strip())
        return True
    if line.startswith("!"):
        box.choose(line[1:].strip())
        return True
    for key in line:
        if key == "q":
            return False
        if key == "?":
            print(SIM_HELP, file=out, flush=True)
            continue
        button = SIM_KEYS.get(key.lower())
        if button is None:
            print(f"  ???  no button on key {key!r} (? for help)", file=out, flush=True)
            continue
        box.press(button, hold=key.isupper())
    return True


def run_hardware(data_dir: Path, game: str | None, directory: Path) -> int:
    """The box on its real panel: gpiozero picks the pin factory (GPIOZERO_PIN_FACTORY)."""
    from device.outlets import ConsoleOutlet, PanelOutlet
    from device.panel import Panel
    from device.service import Job, Service
    from games.core import say

    settings, pins = load_config(directory)
    try:
        journal, notes = open_journal(data_dir)
    except JournalError as exc:
        print(f"houston: {exc}", file=sys.stderr)
        return 2
    service = Service(
        journal, box_id=settings.box_id, default_game=game or settings.game,
        language=settings.language, notes=notes,
    )
    panel = Panel(
        pins, settings, service.post_press, clock=time.monotonic,
        on_mash=lambda name: service.post(Job("say", [say("slow_down")])),
    )
    service.outlets = [PanelOutlet(panel.lights), ConsoleOutlet(panel.lights)]
    stop = threading.Event()
    with contextlib.suppress(ValueError):  # not in the main thread (tests)
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        signal.signal(signal.SIGINT, lambda *_: stop.set())
    service.start()
    try:
        while not stop.wait(0.5):
            pass
    finally:
        service.stop()
        panel.close()
        journal.close()
    return 0
