"""The houston command: help, export and replay, the keyboard simulator, the demo."""

import json
import subprocess
import sys

import pytest

from device.simulation.testing import make_box
from games.registry import game_ids, load_game
from tests.support.lines import Lines

HOUSTON = [sys.executable, "-m", "device.cli"]
DEMO_QUIET = 120  # seconds the demo may go without printing a line before it counts as hung


def run(*args, **kw):
    return subprocess.run([*HOUSTON, *args], capture_output=True, text=True, timeout=120, **kw)


def test_help_lists_the_main_commands():
    out = run("--help").stdout
    for command in ("run", "demo", "replay", "export"):
        assert f"    {command} " in out


def test_each_command_is_listed_under_the_module_that_adds_it():
    """The command table is what lets a command load only its own module: a module adding a
    command the table does not list (or not adding one it lists) would lose that command."""
    import argparse
    import importlib

    from device.cli import COMMAND_MODULES

    for name, commands in COMMAND_MODULES.items():
        sub = argparse.ArgumentParser().add_subparsers()
        importlib.import_module(name).register(sub)
        assert tuple(sub.choices) == commands, name


def _heavy_modules_after_parsing(argv):
    probe = (
        f"import sys; from device.cli import build_parser; build_parser({argv!r}); "
        "print(sorted(m for m in sys.modules if m.startswith(('games.dog', 'device.box.service', 'gpiozero'))))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    return out.stdout.strip()


def test_identify_loads_neither_the_games_nor_the_box_service():
    """`houston identify` is started once per batch by outside evaluations: its start-up should
    be the identifier's, not every command's imports."""
    assert _heavy_modules_after_parsing(["identify", "x.png"]) == "[]"
    # a name it does not know builds the whole parser (to list every command)
    assert "games.dog" in _heavy_modules_after_parsing(["nosuch"])


def test_export_then_replay_rebuilds_the_final_public_view(tmp_path):
    box = make_box(tmp_path / "data")
    for button in ("ok", "red", "blue", "ok", "ok"):  # start, seat red and blue, roll
        box.press(button)
    view = box.session.game.public_view(box.session.state)
    box.close()
    export = run("export", "--data-dir", str(tmp_path / "data"), "-o", str(tmp_path / "game.jsonl"))
    assert export.returncode == 0, export.stderr
    lines = [json.loads(x) for x in (tmp_path / "game.jsonl").read_text().splitlines()]
    assert lines[0]["type"] == "game" and lines[0]["schema"] == 1 and lines[0]["game"] == "dog"
    assert [x["kind"] for x in lines[1:]] == ["input", "input", "input", "input"]
    replayed = run("replay", str(tmp_path / "game.jsonl"))
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout)["public"] == view
    direct = run("replay", str(tmp_path / "data" / "journal.sqlite"))
    assert json.loads(direct.stdout)["public"] == view


def test_replay_of_a_tampered_export_says_where_it_breaks(tmp_path):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({"type": "game", "schema": 1, "game": "dog", "options": {"teams": ["red", "blue"]}})
                    + "\n"
                    + json.dumps({"type": "entry", "seq": 1, "kind": "input",
                                  "input": {"kind": "press", "button": "ok", "hold": False},
                                  "outcomes": {"die_A": 9, "die_B": 0, "die_C": 0}}) + "\n")
    proc = run("replay", str(path))
    assert proc.returncode == 2 and "bad_outcome" in proc.stderr
    path.write_text("{not json\n")
    proc = run("replay", str(path))
    assert proc.returncode == 2 and "not JSON" in proc.stderr


def test_run_sim_takes_keys_and_prints_words_and_lights(tmp_path):
    proc = run("run", "--sim", "--data-dir", str(tmp_path), input="o\nr\nb\nu\nb\no\nx\no\nq\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "o / O         OK / long press OK" in out  # the key map is printed on start
    assert "SAY  Starting: Here Comes the Dog" in out
    assert "LED  slot:A=" in out
    assert "no button on key 'x'" in out
    assert "SAY  Undone: the Blue press." in out


@pytest.mark.timeout(1200)
def test_demo_plays_every_game_and_checks_its_replay():
    # The demo plays every game (a minute on an idle machine, several on busy cores): it is given
    # as long as it needs while it keeps printing, and fails only if it falls silent (a hang).
    proc = subprocess.Popen([*HOUSTON, "demo"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines, errs = Lines(proc.stdout), Lines(proc.stderr)
    try:
        talking = lines.follow(quiet=DEMO_QUIET)
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
    errs.wait_closed(DEMO_QUIET)
    out = lines.text()
    assert talking, f"the demo printed nothing for {DEMO_QUIET} s:\n{out[-2000:]}"
    assert proc.returncode == 0, out[-2000:] + errs.text()
    for game in game_ids():
        assert f"=== {game}: a demo table session ===" in out
    assert out.count("rebuilt state is identical") == len(game_ids()) and "DIFFERENT" not in out
    # the cards of every game with a deck were held up to the simulated camera, not typed in
    camera = [line for line in out.splitlines() if line.startswith("=== camera:")]
    assert len(camera) == sum(1 for g in game_ids() if load_game(g).info.deck)
    for line in camera:
        recognised, typed = int(line.split()[2]), int(line.split(", ")[1].split()[0])
        assert recognised >= 1 and typed <= recognised // 10
