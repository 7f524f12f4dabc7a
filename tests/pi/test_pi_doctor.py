"""`houston doctor`: one line per check, plain about what is missing, non-zero when anything is."""

from __future__ import annotations

import glob
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from device.box.config import Settings
from device.cli import doctor

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.skipif(bool(glob.glob("/dev/gpiochip*")), reason="this machine has GPIO: not the no-hardware case")
def test_doctor_on_this_machine_reports_the_missing_hardware_and_exits_non_zero(tmp_path):
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GPIOZERO_", "SDL_", "HOUSTON_"))}
    env["PYTHONPATH"] = str(ROOT)
    done = subprocess.run([sys.executable, "-m", "device.cli", "doctor", "--no-input", "--data-dir", str(tmp_path)],
                          capture_output=True, text=True, env=env, cwd=ROOT, timeout=60)
    assert done.returncode == 1
    lines = done.stdout.strip().splitlines()
    checks = lines[:-1]
    assert all(line.startswith(("OK       ", "PROBLEM  ")) for line in checks), checks
    parts = [line.split()[1].rstrip(":") for line in checks]
    assert parts == ["config", "gpio", "camera", "audio", "voice", "broker", "data", "clock", "journal"]
    gpio = next(line for line in checks if " gpio:" in line)
    assert gpio.startswith("PROBLEM") and "no /dev/gpiochip" in gpio and " — " in gpio
    camera = next(line for line in checks if " camera:" in line)
    assert camera.startswith("PROBLEM") and "camera" in camera and " — " in camera
    assert next(line for line in checks if " data:" in line).startswith("OK")
    problems = sum(line.startswith("PROBLEM") for line in checks)
    assert lines[-1] == f"{len(checks) - problems} OK, {problems} problems"


def test_a_bad_config_is_the_first_and_only_problem(tmp_path):
    shutil.copy(ROOT / "firmware_config" / "pins.toml", tmp_path / "pins.toml")
    (tmp_path / "houston.toml").write_text("[box]\nvolume = 3\n")
    checks = list(doctor.run_checks(str(tmp_path), str(tmp_path), False, 1.0))
    assert len(checks) == 1 and not checks[0].ok and "box.volume = 3" in checks[0].found


def test_gpio_on_mock_pins_claims_every_button(monkeypatch):
    from device.box.config import REPO_CONFIG_DIR, load_pins

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    from gpiozero import Device

    Device.pin_factory = None  # let gpiozero pick the mock factory from the environment
    try:
        checks = list(doctor.check_gpio(load_pins(REPO_CONFIG_DIR / "pins.toml"), False, 0.1, print))
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.reset()
        Device.pin_factory = None
    assert [c.ok for c in checks] == [True] and "9 buttons claimed" in checks[0].found


def test_the_data_check_names_a_missing_directory(tmp_path):
    check = doctor.check_data_dir(tmp_path / "nowhere")
    assert not check.ok and "does not exist" in check.found and "install-pi" in check.todo
    assert doctor.check_data_dir(tmp_path).ok


def test_a_clock_that_was_never_set_is_a_problem(tmp_path):
    check = doctor.check_clock(tmp_path, now=86400.0)
    assert not check.ok and "1970-01-02" in check.found and "network" in check.todo
    assert doctor.check_clock(tmp_path).ok


def test_a_damaged_journal_is_a_problem_and_a_good_one_is_ok(tmp_path):
    assert doctor.check_journal(tmp_path).found == "no journal yet (a fresh box)"
    (tmp_path / "journal.sqlite").write_bytes(b"this is not a database" * 100)
    bad = doctor.check_journal(tmp_path)
    assert not bad.ok and "bug report" in bad.todo
    (tmp_path / "journal.sqlite").unlink()
    from device.box.journal import open_journal

    journal, _ = open_journal(tmp_path)
    journal.begin_game("dog", {})
    journal.close()
    good = doctor.check_journal(tmp_path)
    assert good.ok and "1 games" in good.found


def test_audio_on_the_dummy_driver_is_not_taken_for_a_speaker(monkeypatch):
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    check = doctor.check_audio(Settings())
    assert not check.ok and "nothing would be heard" in check.found


def test_camera_disabled_in_config_is_fine_and_a_folder_camera_is_read(tmp_path):
    import cv2
    import numpy as np

    assert doctor.check_camera(Settings(camera_source="none")).ok
    cv2.imwrite(str(tmp_path / "a.png"), np.zeros((48, 64), np.uint8))
    check = doctor.check_camera(Settings(camera_source=f"folder:{tmp_path}"))
    assert check.ok and "64x48" in check.found


@pytest.mark.skipif(shutil.which("mosquitto") is None, reason="mosquitto not installed")
def test_broker_credentials_right_and_wrong(tmp_path):
    from device.network.mqtt.broker import start_broker

    broker = start_broker(tmp_path)
    try:
        base = {"enabled": True, "host": "127.0.0.1", "port": broker.port, "username": "box"}
        good = doctor.check_broker(Settings(mqtt={**base, "password": broker.passwords["box"]}))
        wrong = doctor.check_broker(Settings(mqtt={**base, "password": "guess"}))
        secret = tmp_path / "missing.secret"
        unreadable = doctor.check_broker(Settings(mqtt={**base, "password_file": str(secret)}))
    finally:
        broker.stop()
    assert good.ok and "connected" in good.found
    assert not wrong.ok and "refused" in wrong.found and "password" in wrong.todo
    assert not unreadable.ok and "missing.secret" in unreadable.found
    down = doctor.check_broker(Settings(mqtt={**base, "password": "x"}))
    assert not down.ok and "cannot reach" in down.found


def test_doctor_journal_check_reads_without_writing(tmp_path):
    from device.box.journal import open_journal

    journal, _ = open_journal(tmp_path)
    journal.close()
    before = (tmp_path / "journal.sqlite").stat().st_mtime_ns
    doctor.check_journal(tmp_path)
    assert (tmp_path / "journal.sqlite").stat().st_mtime_ns == before
    assert sqlite3.connect(tmp_path / "journal.sqlite").execute("PRAGMA integrity_check").fetchone()[0] == "ok"


def test_interactive_gpio_check_asks_for_each_button_and_names_the_silent_ones(monkeypatch):
    import threading

    from gpiozero import Device

    from device.box.config import REPO_CONFIG_DIR, load_pins

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    pins = load_pins(REPO_CONFIG_DIR / "pins.toml")
    asked: list[str] = []

    def player(text: str) -> None:  # a person at the box, who skips BACK
        asked.append(text)
        name = text.split()[1].lower()
        if name != "back":
            pin = Device.pin_factory.pin(pins.buttons[name])
            pin.drive_low()
            threading.Timer(0.02, pin.drive_high).start()

    Device.pin_factory = None
    try:
        checks = list(doctor.check_gpio(pins, True, 0.3, player))
    finally:
        if Device.pin_factory is not None:
            Device.pin_factory.reset()
        Device.pin_factory = None
    assert len(asked) == 9 and asked[0].strip().startswith("press RED (GPIO4)")
    assert len(checks) == 1 and not checks[0].ok and checks[0].found == "no press seen on: back"
