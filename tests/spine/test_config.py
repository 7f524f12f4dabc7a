"""Bad config is refused at start with one line naming the file, the key and the problem."""

import shutil
import subprocess
import sys

import pytest

from device.box.config import REPO_CONFIG_DIR, ConfigError, load_pins, load_settings


@pytest.fixture
def conf(tmp_path):
    for name in ("houston.toml", "pins.toml"):
        shutil.copy(REPO_CONFIG_DIR / name, tmp_path / name)
    return tmp_path


def test_shipped_config_loads():
    settings = load_settings(REPO_CONFIG_DIR / "houston.toml")
    pins = load_pins(REPO_CONFIG_DIR / "pins.toml")
    assert settings.game == "dog" and 0 <= settings.volume <= 1
    assert len(pins.all_pins()) == len({p for _, p in pins.all_pins()})


@pytest.mark.parametrize(
    ("file", "old", "new", "message"),
    [
        ("houston.toml", 'language = "en"', 'language = "en"\nlanguge = "de"', "box.languge: unknown key"),
        ("houston.toml", "volume = 0.8", "volume = 1.5", "box.volume = 1.5: must be a number from 0.0 to 1.0"),
        ("houston.toml", "[timing]", "[timings]", "[timings]: unknown section"),
        ("houston.toml", "hold_ms = 800", 'hold_ms = "long"', "timing.hold_ms = 'long'"),
        ("pins.toml", "blue = 17", "blue = 4", "GPIO4 is used twice: button red and button blue"),
        ("pins.toml", "ok = 13", "ok = 40", "buttons.ok = 40: must be a BCM GPIO number 2..27"),
        ("pins.toml", "repeat = 26", "", "buttons.repeat: missing"),
        ("pins.toml", "[buzzer]", "[buzzer]\nvolume = 3", "buzzer: unknown key volume"),
    ],
)
def test_bad_config_is_refused_naming_file_key_and_problem(conf, file, old, new, message):
    path = conf / file
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new, 1))
    loader = load_settings if file == "houston.toml" else load_pins
    with pytest.raises(ConfigError) as err:
        loader(path)
    assert str(err.value).startswith(f"{path}: ")
    assert message in str(err.value)


def test_the_cli_prints_the_one_line_and_exits_non_zero(conf, tmp_path):
    (conf / "houston.toml").write_text((conf / "houston.toml").read_text().replace("volume = 0.8", "volume = -1"))
    proc = subprocess.run([sys.executable, "-m", "device.cli", "run", "--sim", "--config", str(conf),
                           "--data-dir", str(tmp_path / "d")], input="", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0
    assert "houston.toml: box.volume = -1: must be a number from 0.0 to 1.0" in proc.stderr
