"""Where a clear answer is due, the box gives one: one line naming the file or option and the
problem, a non-zero exit, no traceback and no side effect (issue 12, defect 6)."""

import json
import math
import os
import shutil
import subprocess
import sys

import cv2
import numpy as np
import pytest

from device.box.config import REPO_CONFIG_DIR
from device.hardware.vision.card_art import render_card
from device.network.mqtt.commands import CommandHandler
from device.network.mqtt.topics import Topics
from device.simulation.testing import make_box
from games.registry import load_game
from tests.support.lines import Lines

ENV = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", SDL_AUDIODRIVER="dummy", HOUSTON_CONFIG_DIR="")


def houston(*args, stdin="q\n", env=None):
    return subprocess.run(
        [sys.executable, "-m", "device.cli", *args], input=stdin, capture_output=True, text=True,
        timeout=120, env=env or ENV,
    )


def one_clear_line(proc, *words):
    assert proc.returncode != 0, proc.stdout
    assert "Traceback" not in proc.stderr, proc.stderr
    lines = [x for x in proc.stderr.splitlines() if x.strip()]
    assert len(lines) == 1, proc.stderr
    for word in words:
        assert word in lines[0], lines[0]
    return lines[0]


def config_with(tmp_path, box_lines="", pins=True):
    folder = tmp_path / "cfg"
    folder.mkdir()
    text = (REPO_CONFIG_DIR / "houston.toml").read_text()
    if box_lines:
        text = text.replace("[box]\n", f"[box]\n{box_lines}\n").replace('id = "houston-1"', "") \
            if "id =" in box_lines else text.replace('game = "dog"', "").replace("[box]\n", f"[box]\n{box_lines}\n")
    (folder / "houston.toml").write_text(text)
    if pins:
        shutil.copy(REPO_CONFIG_DIR / "pins.toml", folder / "pins.toml")
    return folder


# --- commands over MQTT ----------------------------------------------------------------------

def test_a_press_command_carrying_another_kind_is_answered_malformed(tmp_path):
    box = make_box(tmp_path, "hwhad", {"teams": ["red", "blue"]})
    try:
        reply = box.command("press", {"kind": "choose", "option": "flood"})
        assert reply["status"] == "error" and reply["error"] == "malformed_input"
    finally:
        box.close()


@pytest.mark.parametrize("number", [b"NaN", b"1e999", b"-Infinity"])
def test_a_transaction_that_is_not_a_json_number_is_not_echoed_as_one(number):
    sent = []
    handler = CommandHandler(Topics("b1"), post=lambda job: job.reply({"status": "ok"}),
                             publish=lambda topic, payload: sent.append(payload))
    handler.handle("houston/b1/cmd/red/repeat", b'{"transaction": ' + number + b"}")

    def strict(text):
        raise ValueError(f"not JSON: {text}")

    (payload,) = sent
    reply = json.loads(payload, parse_constant=strict)
    assert all(not isinstance(v, float) or math.isfinite(v) for v in reply.values())
    assert reply["status"] == "error" and reply["error"] == "malformed_input"


# --- configuration -------------------------------------------------------------------------

def test_an_unknown_game_in_the_config_is_one_line(tmp_path):
    cfg = config_with(tmp_path, 'game = "chess"')
    proc = houston("run", "--sim", "--mute", "--config", str(cfg), "--data-dir", str(tmp_path / "w"))
    one_clear_line(proc, "houston.toml", "box.game", "chess")
    assert not (tmp_path / "w").exists()


def test_an_unknown_game_option_is_one_line(tmp_path):
    proc = houston("run", "--sim", "--mute", "--game", "chess", "--data-dir", str(tmp_path / "w"))
    one_clear_line(proc, "--game", "chess")
    assert not (tmp_path / "w").exists()


def test_a_non_utf8_config_is_one_line(tmp_path):
    cfg = config_with(tmp_path)
    (cfg / "houston.toml").write_bytes((cfg / "houston.toml").read_bytes() + b'\n# caf\xe9\n')
    proc = houston("run", "--sim", "--mute", "--config", str(cfg), "--data-dir", str(tmp_path / "w"))
    one_clear_line(proc, "houston.toml", "UTF-8")
    assert not (tmp_path / "w").exists()


def test_pins_toml_being_a_folder_is_one_line(tmp_path):
    cfg = config_with(tmp_path, pins=False)
    (cfg / "pins.toml").mkdir()
    proc = houston("run", "--sim", "--mute", "--config", str(cfg), "--data-dir", str(tmp_path / "w"))
    one_clear_line(proc, "pins.toml")
    assert not (tmp_path / "w").exists()


def test_a_language_without_a_catalogue_is_refused(tmp_path):
    cfg = config_with(tmp_path, 'language = "fr"')
    cfg.joinpath("houston.toml").write_text(cfg.joinpath("houston.toml").read_text().replace(
        'language = "en"\n', ""))
    proc = houston("run", "--sim", "--mute", "--config", str(cfg), "--data-dir", str(tmp_path / "w"))
    one_clear_line(proc, "houston.toml", "box.language", "fr")


def test_a_box_id_too_long_for_a_topic_is_refused(tmp_path):
    cfg = config_with(tmp_path)
    text = cfg.joinpath("houston.toml").read_text().replace('id = "houston-1"', 'id = "' + "h" * 70_000 + '"')
    cfg.joinpath("houston.toml").write_text(text)
    proc = houston("run", "--sim", "--mute", "--config", str(cfg), "--data-dir", str(tmp_path / "w"))
    line = one_clear_line(proc, "houston.toml", "box.id")
    assert len(line) < 300


def test_run_sim_plays_with_the_config_it_was_given(tmp_path):
    cfg = config_with(tmp_path)
    text = cfg.joinpath("houston.toml").read_text().replace('game = "dog"', 'game = "alien"')
    cfg.joinpath("houston.toml").write_text(text)
    proc = houston("run", "--sim", "--mute", "--config", str(cfg), "--data-dir", str(tmp_path / "w"))
    assert proc.returncode == 0, proc.stderr
    assert load_game("alien").info.title in proc.stdout


# --- replay and export ---------------------------------------------------------------------

HEADER = {"type": "game", "schema": 1, "game": "dog", "options": {}}


@pytest.mark.parametrize("content", [
    bytes(range(256)) * 4,
    json.dumps({**HEADER, "schema": "abc"}).encode(),
    (json.dumps(HEADER) + "\n" + json.dumps({"type": "entry", "seq": "x", "kind": "input",
                                             "input": {"kind": "press", "button": "ok"}})).encode(),
    (json.dumps(HEADER) + "\n[1, 2, 3]\n").encode(),
    b"[1, 2, 3]\n",
    b"\"just a string\"\n",
], ids=["random-bytes", "schema-abc", "seq-x", "entry-not-object", "header-not-object", "string"])
def test_replay_of_a_bad_export_is_one_line(tmp_path, content):
    path = tmp_path / "bad.jsonl"
    path.write_bytes(content)
    one_clear_line(houston("replay", str(path)), str(path))


def test_replay_of_a_missing_journal_creates_nothing(tmp_path):
    target = tmp_path / "new.db"
    one_clear_line(houston("replay", str(target)), "new.db")
    assert not target.exists() and list(tmp_path.iterdir()) == []


def test_replay_of_a_journal_that_is_not_sqlite_is_one_line(tmp_path):
    target = tmp_path / "j.sqlite"
    target.write_bytes(b"hello")
    one_clear_line(houston("replay", str(target)), "j.sqlite")
    assert target.read_bytes() == b"hello"


def test_export_into_a_missing_folder_is_one_line(tmp_path):
    box = make_box(tmp_path / "w", "dog", {})
    box.press("ok")
    box.close()
    proc = houston("export", "--data-dir", str(tmp_path / "w"), "-o", str(tmp_path / "nowhere" / "x.jsonl"))
    one_clear_line(proc, "nowhere")
    assert not (tmp_path / "nowhere").exists()


# --- identify ------------------------------------------------------------------------------

def test_identify_of_a_one_pixel_image_is_one_line(tmp_path):
    photos = tmp_path / "photos"
    photos.mkdir()
    for card in ("engineer-ada", "pilot-otto"):
        cv2.imwrite(str(photos / f"{card}.png"), render_card("synthetic", card))
    data = tmp_path / "data"
    assert houston("enroll", "--deck", "table", "--from", str(photos), "--data-dir", str(data)).returncode == 0
    tiny = tmp_path / "tiny.png"
    cv2.imwrite(str(tiny), np.zeros((1, 1, 3), np.uint8))
    one_clear_line(houston("identify", "--deck", "table", "--data-dir", str(data), str(tiny)), "tiny.png")


# --- a full disk ---------------------------------------------------------------------------

@pytest.fixture
def small_disk(tmp_path):
    mount = tmp_path / "disk"
    mount.mkdir()
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", str(mount)],
                      capture_output=True).returncode != 0:
        pytest.skip("cannot mount a small tmpfs here (needs root)")
    yield mount
    subprocess.run(["umount", "-l", str(mount)], check=False)


def test_quitting_on_a_full_disk_is_one_line_and_keeps_the_journal(small_disk):
    data = small_disk / "w"
    proc = subprocess.Popen(
        [sys.executable, "-m", "device.cli", "run", "--sim", "--mute", "--data-dir", str(data)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env=dict(ENV, HOUSTON_SIM_TRACE="1"),
    )
    out, errs = Lines(proc.stdout), Lines(proc.stderr)
    proc.stdin.write("o\no\no\n")
    proc.stdin.flush()
    # the box has taken its three keys (a game started and journaled, two refusals) once it has
    # printed a trace line for each: only then is the disk filled
    assert out.wait_for(lambda lines: sum(x.strip().startswith("TRC") for x in lines) >= 3, timeout=120), out.text()
    filler = small_disk / "filler"
    with open(filler, "wb", buffering=0) as f:
        try:
            while True:
                f.write(b"\0" * 4096)
        except OSError:
            pass
    proc.stdin.write("o\no\nq\n")
    proc.stdin.close()
    proc.wait(timeout=120)
    assert out.wait_closed(30) and errs.wait_closed(30)
    err = errs.text()
    assert "Traceback" not in err, err
    filler.unlink()
    if proc.returncode != 0:  # the last write was refused: one line says so
        assert err.splitlines()[-1].startswith("houston: ") and "journal" in err.splitlines()[-1]
    from device.box.journal import Journal, journal_path

    journal = Journal(journal_path(data))
    try:
        assert journal.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert journal.conn.execute("SELECT COUNT(*) FROM games").fetchone()[0] >= 1
    finally:
        journal.close()
