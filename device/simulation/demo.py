"""`houston demo`: every installed game played on simulated hardware by its own demo policy,
then a replay check.

The real service loop, panel code and journal run on gpiozero mock pins; every announcement and
light change is printed as it happens. Each game starts with its `demo_options()`, and its pure
policy `demo_input(state, step)` says what the table does next: a press goes through the mock
pins (a press of `back` is the box's BACK), a scan is held up to the simulated camera (or typed
in), a choice is made as a display would. After each game the journal is replayed and the
rebuilt state compared with the live one — the same check the box relies on after a power cut.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

from device.box.outlets import ConsoleOutlet
from device.cli.commands.journal_tools import export_lines, replay_lines
from device.simulation.simbox import SimBox
from games.core import Game, digest
from games.registry import UnknownGame, describe, game_ids, load_game

MAX_DEMO_STEPS = 400  # a policy that never says "enough" is stopped here


def register(sub: Any) -> None:
    p = sub.add_parser("demo", help="play every game on simulated hardware by its demo policy, then verify its replay")
    p.add_argument("--data-dir", help="keep the journal here (default: a temporary directory)")
    p.add_argument("--games", nargs="*", help="games to play (default: every installed game)")
    p.add_argument("--game", action="append", dest="games", help="a game to play (repeatable)")
    p.add_argument("--no-camera", action="store_true", help="type card ids instead of holding cards up")
    p.add_argument("--max-steps", type=int, default=MAX_DEMO_STEPS, help="inputs per game at most")
    p.set_defaults(func=demo_command)


def play(box: SimBox, game: Game, max_steps: int = MAX_DEMO_STEPS) -> int:
    """Start `game` with its demo options and follow its demo policy until it says enough, the
    game ends, or `max_steps`; returns the number of inputs given."""
    reply = box.command("start_game", {"game": game.info.id, "options": game.demo_options()})
    if reply["status"] != "ok":
        raise RuntimeError(f"{game.info.id}: the demo options were refused: {reply}")
    steps = 0
    while steps < max_steps:
        session = box.session
        if session is None:  # the game is over
            break
        inp = game.demo_input(session.state, steps)
        if inp is None:
            break
        box.give(inp)
        steps += 1
    box.press("repeat")
    return steps


def run_demo(data_dir: Path, games: list[str] | None, out: TextIO, camera: bool = True,
             max_steps: int = MAX_DEMO_STEPS) -> int:
    # imported here, not at the top: every `houston` command builds its parser from this module,
    # and the camera simulation brings in OpenCV (half a second the box's own start should not pay)
    from device.network.mqtt.link import start_mqtt
    from device.simulation.demo_camera import attach_camera

    failures = 0
    for game_id in games or list(game_ids()):
        try:
            game = load_game(game_id)
        except UnknownGame as exc:
            print(describe(exc), file=out)
            return 2
        print(f"\n=== {game_id}: a demo table session ===", file=out, flush=True)
        box = SimBox(data_dir, game=game_id, start=False)
        box.service.outlets.append(ConsoleOutlet(box.panel.lights, out))
        link = start_mqtt(box.settings, box.service)  # None unless houston.toml enables [mqtt]
        deck = game.info.deck
        hand = attach_camera(box, deck, data_dir, out) if deck and camera else None
        box.service.start()
        box.service.wait_idle()
        try:
            before = len(box.journal.games())
            steps = play(box, game, max_steps)
            record = box.journal.games()[-1]
            live = box.service.finished or box.service.session
            if live is None or len(box.journal.games()) == before:
                print(f"!!! {game_id}: the demo did not play a game", file=out)
                failures += 1
                continue
            rebuilt = replay_lines(export_lines(box.journal, record.id))
            same = digest(rebuilt.state) == digest(live.state) and rebuilt.state == live.state
            entries = box.journal.count(record.id)
            verdict = "identical" if same else "DIFFERENT"
            ended = "to its end" if box.service.session is None else f"stopped after {steps} inputs"
            print(f"=== {game_id}: played {ended}; replay of journal game {record.id} ({entries} entries): "
                  f"rebuilt state is {verdict} (digest {digest(live.state)})", file=out, flush=True)
            if hand is not None:
                used = sorted(hand.frames_used)
                median = used[len(used) // 2] if used else None
                print(f"=== camera: {len(used)} cards recognised from synthetic captures (median {median} frames), "
                      f"{hand.typed_in} typed in", file=out, flush=True)
            failures += 0 if same else 1
            if box.service.session is not None:  # stopped by the step cap: the table leaves
                box.journal.end_game(record.id, {"reason": "demo_stopped", "winners": []})
        finally:
            if link is not None:
                link.stop()
            box.close()
    return 1 if failures else 0


def demo_command(args: argparse.Namespace) -> int:
    if args.data_dir:
        return run_demo(Path(args.data_dir), args.games, sys.stdout, not args.no_camera, args.max_steps)
    with tempfile.TemporaryDirectory(prefix="houston-demo-") as tmp:
        return run_demo(Path(tmp), args.games, sys.stdout, not args.no_camera, args.max_steps)
