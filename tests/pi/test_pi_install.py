"""The installer, the wiring table in the docs, config.txt and the Pi's config keys."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from device.box.config import ConfigError, load_settings

ROOT = Path(__file__).resolve().parents[2]
INSTALL = ROOT / "scripts" / "install-pi"


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck not installed")
def test_shell_scripts_are_shellcheck_clean():
    done = subprocess.run(["shellcheck", str(INSTALL), str(ROOT / "scripts" / "render-voice")],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout


def test_dry_run_prints_every_step_and_changes_nothing():
    watched = [Path(p) for p in ("/opt/houston", "/etc/houston", "/etc/systemd/system/houston.service",
                                 "/etc/mosquitto/houston.passwd", "/var/lib/houston")]
    existed = {p: p.exists() for p in watched}
    done = subprocess.run([str(INSTALL), "--dry-run"], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    steps = [line[3:] for line in out.splitlines() if line.startswith("== ")]
    assert len(steps) >= 9
    for needle in ("python3-picamera2", "python3-lgpio", "espeak-ng", "mosquitto", "useradd --system",
                   "gpio,video,audio", "venv --system-site-packages", "--constraint", "render-voice",
                   "houston.service", "systemctl enable houston.service", "houston doctor"):
        assert needle in out, needle
    assert "pip install picamera2" not in out  # it comes from Debian, built against Debian's numpy
    assert {p: p.exists() for p in watched} == existed


def test_installer_refuses_unknown_options_and_needs_root_to_act():
    bad = subprocess.run([str(INSTALL), "--frobnicate"], capture_output=True, text=True, timeout=30)
    assert bad.returncode == 2 and "unknown option" in bad.stderr


def test_the_numpy_constraint_keeps_debians_picamera2_importable():
    assert "numpy<2" in INSTALL.read_text()


@pytest.mark.parametrize("doc", ["docs/hardware.md", "README.md"])
def test_docs_carry_the_wiring_table_generated_from_pins_toml(doc):
    table = subprocess.run([str(ROOT / "scripts" / "wiring-table")], capture_output=True, text=True,
                           check=True, timeout=30).stdout.strip()
    docs = (ROOT / doc).read_text()
    start, end = "<!-- wiring-table: begin -->", "<!-- wiring-table: end -->"
    embedded = docs.split(start, 1)[1].split(end, 1)[0].strip()
    assert embedded == table, "regenerate: scripts/wiring-table, paste between the markers in " + doc
    assert "| button ok | GPIO13 | 33 |" in table


def test_build_your_own_box_section_has_what_the_issue_asks():
    docs = (ROOT / "docs" / "hardware.md").read_text()
    section = docs.split("## Build your own box", 1)[1]
    for needle in ("Parts", "Wide", "10–12 cm", "ring", "window", "sudo scripts/install-pi", "houston doctor"):
        assert needle in section, needle


def test_config_txt_block_is_marked_for_the_installer():
    text = (ROOT / "firmware_config" / "config.txt").read_text()
    assert text.count("# >>> houston >>>") == 1 and text.count("# <<< houston <<<") == 1
    assert "camera_auto_detect=1" in text


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('[camera]\nsource = "webcam"\n', "camera.source = 'webcam': must be auto, none, picamera"),
        ("[camera]\nstale_seconds = 0\n", "camera.stale_seconds = 0: must be seconds 0.5..30"),
        ("[voice]\nspeed = 1000\n", "voice.speed = 1000: must be words per minute 80..400"),
        ('[voice]\npitch = 40\n', "voice.pitch: unknown key"),
        ("[box]\nvolume = 1.5\n", "box.volume = 1.5: must be a number from 0.0 to 1.0"),
    ],
)
def test_pi_settings_are_checked_with_one_line_naming_file_and_key(tmp_path, toml, message):
    path = tmp_path / "houston.toml"
    path.write_text(toml)
    with pytest.raises(ConfigError) as err:
        load_settings(path)
    assert str(err.value).startswith(f"{path}: ") and message in str(err.value)
    assert "\n" not in str(err.value)


def test_pi_settings_are_read(tmp_path):
    path = tmp_path / "houston.toml"
    path.write_text('[camera]\nsource = "usb:1"\nstale_seconds = 3\n[voice]\nvoice = "en-us"\nspeed = 150\n')
    s = load_settings(path)
    assert (s.camera_source, s.camera_stale_seconds, s.voice, s.voice_speed) == ("usb:1", 3.0, "en-us", 150)


def test_the_settings_a_first_install_writes_are_valid_and_point_at_the_pi(tmp_path):
    done = subprocess.run([str(INSTALL), "--print-config"], capture_output=True, text=True, check=True, timeout=30)
    path = tmp_path / "houston.toml"
    path.write_text(done.stdout)
    settings = load_settings(path)  # a duplicate key or a typo would be refused here
    assert settings.data_dir == "/var/lib/houston"
    assert settings.mqtt["enabled"] is True and settings.mqtt["password_file"] == "/etc/houston/mqtt/box.secret"
    assert settings.mqtt["http_port"] == 8080 and settings.mqtt["dashboard_password"]
