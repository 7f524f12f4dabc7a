"""The sixth-game test: a game written as one folder, outside the repository, runs everywhere.

The toy game (Gem Vault, tests/sixth_game/toygame: a secret, a chance roll, three cards, a phase
table, widgets, a demo policy and a secrecy oracle) is copied into a temporary folder as
`games/toygame/` and put on sys.path. Nothing in the repository names it: the registry discovers
it, and it runs through the service on mock pins, `houston demo`, `houston simulate`, the
never-secret check against a real broker, and the dashboard in headless Chromium.
docs/adding-a-game.md walks through the same folder.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from device.box.chance import SeededDrawer
from device.box.config import Settings
from device.network.mqtt.broker import Broker
from device.network.mqtt.link import MqttLink
from device.simulation.simbox import SimBox
from device.simulation.testing import SecretPublished, make_box, play_watching_secrets
from games.catalog import BADGES, card_name, deck_cards
from games.core import digest
from games.registry import game_ids, load_game
from tests.support.broker import Probe, link_box

GAME_ID = "toygame"
REPO = Path(__file__).resolve().parents[2]
HOUSTON = [sys.executable, "-m", "device.cli"]


def houston(toy_dir: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(toy_dir), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([*HOUSTON, *args], capture_output=True, text=True, timeout=300, env=env, cwd=REPO)


def test_it_is_discovered_from_its_folder_alone(toy_dir: Path) -> None:
    assert GAME_ID in game_ids()
    game = load_game(GAME_ID)
    assert game.info.order == 90  # from its own toygame.toml
    ordered = [load_game(g).info.order for g in game_ids()]
    assert ordered == sorted(ordered)
    assert deck_cards(GAME_ID) == ["toy-ruby", "toy-opal", "toy-jade", *BADGES]
    assert card_name("toy-opal") == "the opal"
    # nothing outside the toy's folder (and the docs that walk through it) names it
    listed = subprocess.run(["git", "grep", "-l", "-w", GAME_ID, "--", ".", ":!tests/sixth_game", ":!docs"],
                            capture_output=True, text=True, cwd=REPO)
    assert listed.stdout == ""


def test_the_box_on_mock_pins_referees_it(toy_dir: Path, tmp_path: Path) -> None:
    box = make_box(tmp_path, game=GAME_ID)
    try:
        bad = box.command("start_game", {"game": GAME_ID, "options": {"teams": ["red"]}})
        assert bad["status"] == "error" and bad["error"] == "toy_bad_teams" and bad["refused"] == "setup"
        assert box.journal.games() == []  # refused before anything is journaled
        assert box.recorder.refusals[-1] == ("toy_bad_teams", "setup")  # told apart from illegal inputs
        assert box.command("start_game", {"game": GAME_ID, "options": {"teams": ["red", "blue"]}})["status"] == "ok"
        box.press("ok")  # the box draws the gem: a chance roll, journaled
        assert box.said[-2:] == ["A gem is in the vault.", "red: hold up the gem you think is in the vault."]
        assert box.led("team:red")[0] == "on"
        box.press("back")
        assert box.errors[-1] == "nothing_to_undo"  # a draw cannot be taken back
        state = box.session.state
        wrong = next(c for c in ("toy-ruby", "toy-opal", "toy-jade") if c != state.gem)
        box.scan(wrong)
        assert box.said[-2].startswith("Not the ") and box.session.state.turn == 1
        box.scan(wrong)
        assert box.recorder.refusals[-1] == ("toy_already", "input")
        box.scan("badge-red")
        assert box.errors[-1] == "unknown_card"
        view = box.service.public_view()["game"]
        assert [w["kind"] for w in view["widgets"]] == ["teams", "counters", "log"]
        assert view["turn"] == "blue" and view["scores"] == {"red": 0, "blue": 0}
        live = digest(box.session.state)
    finally:
        box.close()
    again = SimBox(tmp_path, game=GAME_ID)  # a pulled plug: the journal rebuilds the game
    try:
        assert again.session is not None and digest(again.session.state) == live
        assert again.said[0].startswith("Resuming where we left off: Gem Vault")
    finally:
        again.close()


def test_houston_demo_plays_it_by_its_policy_and_replays_it(toy_dir: Path) -> None:
    proc = houston(toy_dir, "demo", "--game", GAME_ID)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    assert f"=== {GAME_ID}: played to its end" in proc.stdout
    assert "rebuilt state is identical" in proc.stdout
    assert "Nothing to undo" in proc.stdout or "nothing to undo" in proc.stdout.lower()  # its BACK step
    camera = [line for line in proc.stdout.splitlines() if line.startswith("=== camera:")]
    assert len(camera) == 1 and int(camera[0].split()[2]) >= 2  # its cards were held up, not typed


def test_houston_simulate_plays_it_reproducibly(toy_dir: Path) -> None:
    runs = [houston(toy_dir, "simulate", GAME_ID, "--games", "200", "--teams", "3", "--seed", "4", "--json")
            for _ in range(2)]
    assert all(r.returncode == 0 for r in runs), runs[0].stderr
    first, second = (json.loads(r.stdout) for r in runs)
    assert first["finished"] == 200
    assert set(first["rates"]["winner"]) == {"red", "blue", "green"}
    for key in ("rates", "means", "mean_steps"):
        assert first[key] == second[key]


def _linked(tmp_path: Path, broker: Broker, box_id: str, **kw: Any) -> tuple[SimBox, MqttLink]:
    box = make_box(tmp_path / box_id, game=GAME_ID, options=load_game(GAME_ID).simulation_options(3),
                   settings=Settings(box_id=box_id, game=GAME_ID), **kw)
    return box, link_box(box, broker, page=True)


def _public_probe(broker: Broker, link: MqttLink) -> Probe:
    return Probe(broker.port, "homeassistant", broker.passwords["homeassistant"],
                 (f"houston/{link.topics.box}/#", "homeassistant/#"))


def test_no_secret_of_it_is_ever_published(toy_dir: Path, tmp_path: Path, broker: Broker) -> None:
    game = load_game(GAME_ID)
    seen = 0
    for seed in (1, 2, 3):
        box, link = _linked(tmp_path, broker, f"toy-secret-{seed}", drawer=SeededDrawer(random.Random(seed)))
        probe = _public_probe(broker, link)
        try:
            inputs, secrets = play_watching_secrets(game, box, probe, seed)
            assert inputs > 0
            seen += secrets
        finally:
            probe.close()
            link.stop()
            box.close()
    assert seen > 0  # the oracle did name the hidden gem


def test_the_secrecy_check_catches_a_leaking_view(toy_dir: Path, tmp_path: Path, broker: Broker,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    game = load_game(GAME_ID)
    honest = type(game).public_view
    monkeypatch.setattr(type(game), "public_view", lambda self, state: {**honest(self, state), "vault": state.gem})
    box, link = _linked(tmp_path, broker, "toy-leak", drawer=SeededDrawer(random.Random(5)))
    probe = _public_probe(broker, link)
    try:
        with pytest.raises(SecretPublished, match="secret published"):
            play_watching_secrets(game, box, probe, 5)
    finally:
        probe.close()
        link.stop()
        box.close()


# The page in headless Chromium, driven from a process of its own (one Playwright per process).
# It prints `live` once connected, waits for the game's phase the test then brings about, and
# prints what the page shows as JSON. Its waits are generous (30 s): they end as soon as the page
# shows what they wait for, and two busy cores can make Chromium slow.
PAGE_SCRIPT = """
import json, shutil, sys
from playwright.sync_api import sync_playwright
url, phase, prompt = sys.argv[1:4]
args = ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"]
with sync_playwright() as p:
    browser = p.chromium.launch(executable_path=shutil.which("chromium") or "/usr/bin/chromium",
                                args=args, headless=True)
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    page.goto(url)
    page.wait_for_selector("#status[data-state=live]", timeout=30000)
    print("live", flush=True)
    page.wait_for_selector(f"#phase[data-phase={phase}]", timeout=30000)
    page.wait_for_function("t => document.getElementById('prompt').textContent === t", arg=prompt, timeout=30000)
    page.wait_for_selector("#widgets [data-kind=teams] [data-team]", timeout=30000)
    kinds = page.locator("#widgets [data-kind]").evaluate_all("els => els.map(e => e.dataset.kind)")
    teams = page.locator("#widgets [data-kind=teams] [data-team]").evaluate_all("els => els.map(e => e.dataset.team)")
    shown = {"kinds": kinds, "teams": teams, "title": page.locator("#title").text_content() or "",
             "widgets": page.locator("#widgets").text_content() or "",
             "news": page.locator("#log li").all_text_contents()}  # the game log, newest first
    print(json.dumps(shown), flush=True)
    browser.close()
"""


def test_the_dashboard_shows_it(toy_dir: Path, tmp_path: Path, broker: Broker) -> None:
    box, link = _linked(tmp_path, broker, "toy-dash")
    assert link.http is not None
    proc = None
    try:
        # what the page must show once OK is pressed: the guessing phase and its prompt
        prompt = "red: hold up the gem you think is in the vault."
        proc = subprocess.Popen([sys.executable, "-c", PAGE_SCRIPT, f"http://127.0.0.1:{link.http.port}/", "guess",
                                 prompt], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "live", proc.stderr.read() if proc.stderr else ""
        box.press("ok")  # the mock OK button: the box hides a gem
        assert box.service.public_view()["prompt"]["text"] == prompt
        out, err = proc.communicate(timeout=180)
        assert proc.returncode == 0, err
        shown = json.loads(out.strip().splitlines()[-1])
        # the page draws the kinds the toy's view declares (no JavaScript knows the toy)
        assert shown["kinds"] == [w["kind"] for w in box.service.public_view()["game"]["widgets"]]
        assert shown["kinds"] == ["teams", "counters", "log"]
        assert shown["teams"] == ["red", "blue", "green"]
        assert "Gem Vault" in shown["title"] and "gems tried" in shown["widgets"]
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
        link.stop()
        box.close()
