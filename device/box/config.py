"""Load and check the box's settings (houston.toml) and pin map (pins.toml).

A box that starts with a typo in its config misbehaves in ways nobody at the table can diagnose,
so anything unknown or out of range is refused at start with one line: file, key, problem.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games.core import PANEL_BUTTONS, SLOTS, TEAM_COLOURS

REPO_CONFIG_DIR = Path(__file__).resolve().parents[2] / "firmware_config"
CATALOGUE_DIR = Path(__file__).resolve().parent  # messages.<language>.toml: the languages the box speaks
MAX_BOX_ID = 64  # the box id is a level of every MQTT topic and a client id: keep it short


class ConfigError(ValueError):
    """A config file the box refuses; str() is the one line to print."""


def config_dir(explicit: str | os.PathLike[str] | None = None) -> Path:
    """Where houston.toml and pins.toml live: --config, $HOUSTON_CONFIG_DIR, /etc/houston, repo."""
    for candidate in (explicit, os.environ.get("HOUSTON_CONFIG_DIR"), "/etc/houston"):
        if candidate and (Path(candidate) / "houston.toml").is_file():
            return Path(candidate)
        if candidate == explicit and explicit:
            raise ConfigError(f"{explicit}: no houston.toml there")
    return REPO_CONFIG_DIR


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _str(v: Any) -> bool:
    return isinstance(v, str) and bool(v)


def _installed_game(v: Any) -> bool:
    from games.registry import game_ids

    return isinstance(v, str) and v in game_ids()


def languages() -> tuple[str, ...]:
    """Languages with a box catalogue (the box speaks only what it has words for)."""
    return tuple(sorted(p.name.split(".")[1] for p in CATALOGUE_DIR.glob("messages.*.toml")))


def _shown(value: Any) -> str:
    """A value as a config error names it: short, whatever was written."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _range(lo: float, hi: float) -> Callable[[Any], bool]:
    return lambda v: isinstance(v, int | float) and not isinstance(v, bool) and lo <= v <= hi


def _int_range(lo: int, hi: int) -> Callable[[Any], bool]:
    return lambda v: _is_int(v) and lo <= v <= hi


# section -> key -> (check, what it must be)
SETTINGS_SCHEMA: dict[str, dict[str, tuple[Callable[[Any], bool], str]]] = {
    "box": {
        "id": (
            lambda v: _str(v) and len(v) <= MAX_BOX_ID and all(c.isascii() and (c.isalnum() or c in "-_") for c in v),
            f"at most {MAX_BOX_ID} letters, digits, - or _",
        ),
        "game": (_installed_game, "an installed game (houston run --help lists them)"),
        "language": (lambda v: v in languages(), "a language the box has words for"),
        "data_dir": (_str, "a directory path"),
        "volume": (_range(0.0, 1.0), "a number from 0.0 to 1.0"),
    },
    "timing": {
        "debounce_ms": (_int_range(0, 500), "whole milliseconds 0..500"),
        "hold_ms": (_int_range(200, 5000), "whole milliseconds 200..5000"),
        "repeat_guard_ms": (_int_range(0, 2000), "whole milliseconds 0..2000"),
    },
    "camera": {
        "source": (
            lambda v: _str(v) and v.partition(":")[0] in ("auto", "none", "picamera", "usb", "folder", "video"),
            "auto, none, picamera, usb:N, folder:PATH or video:PATH",
        ),
        "stale_seconds": (_range(0.5, 30.0), "seconds 0.5..30"),
    },
    "voice": {
        "voice": (_str, "an espeak-ng voice such as en or en-us"),
        "speed": (_int_range(80, 400), "words per minute 80..400"),
    },
    "mqtt": {
        "enabled": (lambda v: isinstance(v, bool), "true or false"),
        "host": (_str, "a host name"),
        "port": (_int_range(1, 65535), "a port 1..65535"),
        "username": (_str, "a user name"),
        "password": (lambda v: isinstance(v, str), "text"),
        "password_file": (lambda v: isinstance(v, str), "a file path"),
        "keepalive": (_int_range(5, 3600), "seconds 5..3600"),
        "http_port": (_int_range(0, 65535), "a port 0..65535 (0: no dashboard server)"),
        "ws_url": (lambda v: isinstance(v, str), "a ws:// URL for the dashboard"),
        "dashboard_password": (lambda v: isinstance(v, str), "text"),
        "dashboard_url": (lambda v: isinstance(v, str), "the dashboard's address for Home Assistant"),
    },
}


@dataclass(frozen=True)
class Settings:
    box_id: str = "houston-1"
    game: str = ""  # "" selects the first installed game
    language: str = "en"
    data_dir: str = "/var/lib/houston"
    volume: float = 0.8
    debounce_ms: int = 5
    hold_ms: int = 800
    repeat_guard_ms: int = 250
    mqtt: Mapping[str, Any] = field(default_factory=dict)
    source: str = ""
    camera_source: str = "auto"
    camera_stale_seconds: float = 2.0
    voice: str = "en"
    voice_speed: int = 160


def selected_game(settings: Settings) -> str:
    """The game selected at start: houston.toml's box.game, else the first installed game."""
    from games.registry import game_ids

    return settings.game or game_ids()[0]


@dataclass(frozen=True)
class PinMap:
    buttons: Mapping[str, int]
    team_leds: Mapping[str, int]
    slot_leds: Mapping[str, tuple[int, int, int]]
    status_led: int
    buzzer: int = 0
    source: str = ""

    def all_pins(self) -> list[tuple[str, int]]:
        """(name, pin) of every pin in use, for wiring tables and the duplicate check."""
        pins = [(f"button {k}", v) for k, v in self.buttons.items()]
        pins += [(f"team LED {k}", v) for k, v in self.team_leds.items()]
        for slot, rgb in self.slot_leds.items():
            pins += [(f"slot {slot} LED {c}", p) for c, p in zip("RGB", rgb, strict=True)]
        pins.append(("status LED", self.status_led))
        if self.buzzer:
            pins.append(("buzzer", self.buzzer))
        return pins


def _choices(key: str) -> tuple[str, ...]:
    from games.registry import game_ids

    return game_ids() if key == "game" else languages()


def _read(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise ConfigError(f"{path}: file not found") from exc
    except IsADirectoryError as exc:
        raise ConfigError(f"{path}: is a folder, not a file") from exc
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start} cannot be read)") from exc
    except OSError as exc:
        raise ConfigError(f"{path}: cannot be read ({exc.strerror or exc})") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML ({exc})") from exc


def load_settings(path: Path) -> Settings:
    """houston.toml, checked key by key against SETTINGS_SCHEMA."""
    data = _read(path)
    flat: dict[str, Any] = {}
    for section, values in data.items():
        schema = SETTINGS_SCHEMA.get(section)
        if schema is None or not isinstance(values, dict):
            raise ConfigError(f"{path}: [{section}]: unknown section (known: {', '.join(SETTINGS_SCHEMA)})")
        for key, value in values.items():
            if key not in schema:
                raise ConfigError(f"{path}: {section}.{key}: unknown key")
            check, what = schema[key]
            if not check(value):
                if key == "game" or key == "language":
                    what += f" ({', '.join(_choices(key))})"
                raise ConfigError(f"{path}: {section}.{key} = {_shown(value)}: must be {what}")
            flat[f"{section}.{key}"] = value
    box = data.get("box", {})
    timing = data.get("timing", {})
    defaults = Settings()
    return Settings(
        box_id=box.get("id", defaults.box_id),
        game=box.get("game", defaults.game),
        language=box.get("language", defaults.language),
        data_dir=box.get("data_dir", defaults.data_dir),
        volume=float(box.get("volume", defaults.volume)),
        debounce_ms=timing.get("debounce_ms", defaults.debounce_ms),
        hold_ms=timing.get("hold_ms", defaults.hold_ms),
        repeat_guard_ms=timing.get("repeat_guard_ms", defaults.repeat_guard_ms),
        mqtt=dict(data.get("mqtt", {})),
        source=str(path),
        camera_source=data.get("camera", {}).get("source", defaults.camera_source),
        camera_stale_seconds=float(data.get("camera", {}).get("stale_seconds", defaults.camera_stale_seconds)),
        voice=data.get("voice", {}).get("voice", defaults.voice),
        voice_speed=data.get("voice", {}).get("speed", defaults.voice_speed),
    )


def _pin(path: Path, key: str, value: Any) -> int:
    if not _is_int(value) or not 2 <= value <= 27:
        raise ConfigError(f"{path}: {key} = {value!r}: must be a BCM GPIO number 2..27")
    return int(value)


def _names(path: Path, data: dict[str, Any], section: str, known: tuple[str, ...], required: bool) -> dict[str, Any]:
    """A section keyed by names from `known`: none unknown, and (if required) none missing."""
    values = data.get(section, {})
    for name in values:
        if name not in known:
            raise ConfigError(f"{path}: {section}.{name}: unknown name (known: {', '.join(known)})")
    for name in known if required else ():
        if name not in values:
            raise ConfigError(f"{path}: {section}.{name}: missing")
    return dict(values)


def load_pins(path: Path) -> PinMap:
    """pins.toml: every button and LED named, every pin a GPIO number, no pin used twice."""
    data = _read(path)
    known = {"buttons", "team_leds", "slot_leds", "status_led", "buzzer"}
    for section in data:
        if section not in known:
            raise ConfigError(f"{path}: [{section}]: unknown section (known: {', '.join(sorted(known))})")
    buttons = _names(path, data, "buttons", PANEL_BUTTONS, required=True)
    team_leds = _names(path, data, "team_leds", TEAM_COLOURS, required=False)
    slots = _names(path, data, "slot_leds", SLOTS, required=True)
    slot_pins: dict[str, tuple[int, int, int]] = {}
    for name, rgb in slots.items():
        if not isinstance(rgb, list) or len(rgb) != 3:
            raise ConfigError(f"{path}: slot_leds.{name} = {rgb!r}: must be [red, green, blue] pins")
        r, g, b = (_pin(path, f"slot_leds.{name}", p) for p in rgb)
        slot_pins[name] = (r, g, b)
    status = data.get("status_led", {})
    if set(status) - {"pin"}:
        raise ConfigError(f"{path}: status_led: unknown key {sorted(set(status) - {'pin'})[0]}")
    buzzer = data.get("buzzer", {})
    if set(buzzer) - {"pin"}:
        raise ConfigError(f"{path}: buzzer: unknown key {sorted(set(buzzer) - {'pin'})[0]}")
    buzzer_pin = buzzer.get("pin", 0)
    pins = PinMap(
        buttons={k: _pin(path, f"buttons.{k}", v) for k, v in buttons.items()},
        team_leds={k: _pin(path, f"team_leds.{k}", v) for k, v in team_leds.items()},
        slot_leds=slot_pins,
        status_led=_pin(path, "status_led.pin", status.get("pin")),
        buzzer=0 if buzzer_pin == 0 else _pin(path, "buzzer.pin", buzzer_pin),
        source=str(path),
    )
    seen: dict[int, str] = {}
    for name, pin in pins.all_pins():
        if pin in seen:
            raise ConfigError(f"{path}: GPIO{pin} is used twice: {seen[pin]} and {name}")
        seen[pin] = name
    return pins


def load_config(directory: Path) -> tuple[Settings, PinMap]:
    return load_settings(directory / "houston.toml"), load_pins(directory / "pins.toml")


def resolve_data_dir(explicit: str | os.PathLike[str] | None = None, config: str | None = None) -> Path:
    """Where the box keeps its journal and card references, the same for every command:
    --data-dir, else $HOUSTON_DATA_DIR, else houston.toml's box.data_dir."""
    if explicit:
        return Path(explicit)
    if os.environ.get("HOUSTON_DATA_DIR"):
        return Path(os.environ["HOUSTON_DATA_DIR"])
    return Path(load_settings(config_dir(config) / "houston.toml").data_dir)
