"""`houston demo`: a scripted table session on simulated hardware, then a replay check.

The real service loop, panel code and journal run on gpiozero mock pins; every announcement and
light change is printed as it happens. After each game the journal is replayed and the rebuilt
state compared with the live one — the same check the box relies on after a power cut.
"""

from __future__ import annotations

import argparse
import importlib
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

from device.box.outlets import ConsoleOutlet
from device.cli.commands.journal_tools import export_lines, replay_lines
from device.network.mqtt.link import start_mqtt
from device.simulation.demo_camera import attach_camera
from device.simulation.simbox import SimBox
from games.core import Choose, Game, Scan, digest
from games.registry import game_ids, load_game


def register(sub: Any) -> None:
    p = sub.add_parser("demo", help="play a scripted session on simulated hardware, then verify its replay")
    p.add_argument("--data-dir", help="keep the journal here (default: a temporary directory)")
    p.add_argument("--games", nargs="*", help="games to play (default: every game with a demo script)")
    p.add_argument("--no-camera", action="store_true", help="type card ids instead of holding cards up")
    p.set_defaults(func=demo_command)


def play_dog(box: SimBox) -> None:
    """Here Comes the Dog's dice: roll until a triple or a theft shows, undo a slip, play 5 rounds."""
    box.press("ok")  # start the game
    for round_number in range(1, 6):
        for _ in range(3 if round_number > 1 else 8):
            box.press("ok")
        box.press("red")  # a slip: refused, nothing changes
        box.hold("ok")  # end the round
        if round_number == 2:
            box.press("back")  # undo the round's end...
            box.hold("ok")  # ...and end it again
    box.press("repeat")


def policy_script(game_id: str) -> Any:
    """play(box) for a game whose demo is a policy (`Game.demo_input`): start it with its demo
    options, then give the box each input the policy names (scans held up to the camera)."""
    game = load_game(game_id)

    def play(box: SimBox) -> None:
        box.command("start_game", {"game": game_id, "options": game.demo_options()})
        step = 0
        while box.session is not None:
            inp = game.demo_input(box.session.state, step)
            if inp is None:
                return
            step += 1
            if isinstance(inp, Scan):
                box.scan(inp.card)
            elif isinstance(inp, Choose):
                box.choose(inp.option)
            else:
                box.press(inp.button, hold=inp.hold)

    return play


def demo_scripts() -> dict[str, Any]:
    """game id -> play(box): the dice here, other games from device/simulation/demos/<id>.py, or
    the game's own demo policy when it has one."""
    scripts: dict[str, Any] = {"dog": play_dog}
    for game in game_ids():
        if game in scripts:
            continue
        try:
            module = importlib.import_module(f"device.simulation.demos.{game}")
        except ModuleNotFoundError:
            if getattr(type(load_game(game)), "demo_input", Game.demo_input) is not Game.demo_input:
                scripts[game] = policy_script(game)
            continue
        scripts[game] = module.play
    return scripts


def run_demo(data_dir: Path, games: list[str] | None, out: TextIO, camera: bool = True) -> int:
    scripts = demo_scripts()
    failures = 0
    for game in games or list(scripts):
        if game not in scripts:
            print(f"no demo script for {game!r}", file=out)
            return 2
        print(f"\n=== {game}: a scripted table session ===", file=out, flush=True)
        box = SimBox(data_dir, game=game, start=False)
        box.service.outlets.append(ConsoleOutlet(box.panel.lights, out))
        link = start_mqtt(box.settings, box.service)  # None unless houston.toml enables [mqtt]
        deck = load_game(game).info.deck
        hand = attach_camera(box, deck, data_dir, out) if deck and camera else None
        box.service.start()
        box.service.wait_idle()
        try:
            before = len(box.journal.games())
            scripts[game](box)
            record = box.journal.games()[-1]
            live = box.service.finished or box.service.session
            if live is None or len(box.journal.games()) == before:
                print(f"!!! {game}: the script did not play a game", file=out)
                failures += 1
                continue
            rebuilt = replay_lines(export_lines(box.journal, record.id))
            same = digest(rebuilt.state) == digest(live.state) and rebuilt.state == live.state
            entries = box.journal.count(record.id)
            verdict = "identical" if same else "DIFFERENT"
            print(f"=== replay of journal game {record.id} ({entries} entries): rebuilt state is {verdict} "
                  f"(digest {digest(live.state)})", file=out, flush=True)
            if hand is not None:
                used = sorted(hand.frames_used)
                median = used[len(used) // 2] if used else None
                print(f"=== camera: {len(used)} cards recognised from synthetic captures (median {median} frames), "
                      f"{hand.typed_in} typed in", file=out, flush=True)
            failures += 0 if same else 1
        finally:
            if link is not None:
                link.stop()
            box.close()
    return 1 if failures else 0


def demo_command(args: argparse.Namespace) -> int:
    if args.data_dir:
        return run_demo(Path(args.data_dir), args.games, sys.stdout, not args.no_camera)
    with tempfile.TemporaryDirectory(prefix="houston-demo-") as tmp:
        return run_demo(Path(tmp), args.games, sys.stdout, not args.no_camera)
