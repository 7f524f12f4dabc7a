"""`houston doctor`: check every part of the box and say plainly what is wrong and what to do.

One line per check: `OK` or `PROBLEM`, the part, what was found, and for a problem what to do
about it. The exit status is non-zero when anything is wrong, so the installer and scripts can
rely on it. Run it with the service stopped (`sudo systemctl stop houston`): the service holds the
GPIO pins and the camera while it runs.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.box.config import ConfigError, PinMap, Settings, config_dir, load_config
from device.box.journal import inspect_journal, journal_path, latest_entry_time

MIN_FREE_MB = 200
EARLIEST_PLAUSIBLE = 1_735_689_600  # 2025-01-01: a clock before this has not been set


@dataclass(frozen=True)
class Check:
    part: str
    ok: bool
    found: str
    todo: str = ""

    def line(self) -> str:
        head = f"{'OK' if self.ok else 'PROBLEM':<8} {self.part}: {self.found}"
        return head if self.ok or not self.todo else f"{head} — {self.todo}"


def ok(part: str, found: str) -> Check:
    return Check(part, True, found)


def problem(part: str, found: str, todo: str) -> Check:
    return Check(part, False, found, todo)


# --- the checks ------------------------------------------------------------------------------


def check_gpio(pins: PinMap, interactive: bool, timeout: float, ask: Callable[[str], None]) -> Iterator[Check]:
    factory = os.environ.get("GPIOZERO_PIN_FACTORY", "")
    chips = sorted(glob.glob("/dev/gpiochip*"))
    if factory != "mock" and not chips:
        yield problem(
            "gpio", "no /dev/gpiochip* on this machine (not a Raspberry Pi, or the GPIO driver is missing)",
            "run the box on a Raspberry Pi; on a Pi, check `ls -l /dev/gpiochip*` and that the user is in group gpio",
        )
        return
    if chips and factory != "mock" and not all(os.access(c, os.R_OK | os.W_OK) for c in chips):
        yield problem(
            "gpio", f"{', '.join(chips)} not readable and writable by {_user()}",
            "add the user to group gpio (sudo usermod -aG gpio houston) and log in again",
        )
        return
    try:
        from gpiozero import Button
    except ImportError as exc:
        yield problem("gpio", f"gpiozero is not installed ({exc})", "reinstall: scripts/install-pi")
        return
    buttons: dict[str, Any] = {}
    try:
        for name, pin in pins.buttons.items():
            buttons[name] = Button(pin, pull_up=True)
    except Exception as exc:
        for device in buttons.values():
            device.close()
        yield problem(
            "gpio", f"cannot claim the button pins ({type(exc).__name__}: {exc})",
            "stop the service first (sudo systemctl stop houston); on a Pi 5 set GPIOZERO_PIN_FACTORY=lgpio",
        )
        return
    try:
        stuck = [name for name, device in buttons.items() if device.is_pressed]
        if stuck:
            yield problem(
                "gpio", f"buttons reading pressed with nobody touching them: {', '.join(stuck)}",
                "check those buttons are wired between the GPIO pin and ground (see docs/hardware.md)",
            )
        listed = ", ".join(f"{n}=GPIO{p}" for n, p in pins.buttons.items())
        if not interactive:
            yield ok("gpio", f"{len(buttons)} buttons claimed ({listed}); run in a terminal to test each press")
            return
        silent = []
        for name, device in buttons.items():
            ask(f"         press {name.upper()} (GPIO{pins.buttons[name]}) within {timeout:.0f} s ...")
            if not device.wait_for_press(timeout):
                silent.append(name)
            else:
                device.wait_for_release(timeout)
        if silent:
            yield problem(
                "gpio", f"no press seen on: {', '.join(silent)}",
                "check each of those buttons' two wires: one to its GPIO pin, one to ground",
            )
        else:
            yield ok("gpio", f"all {len(buttons)} buttons answered ({listed})")
    finally:
        for device in buttons.values():
            device.close()


def check_camera(settings: Settings, timeout: float = 3.0) -> Check:
    spec = settings.camera_source
    if spec == "none":
        return ok("camera", "disabled in houston.toml (camera.source = none): cards by buttons only")
    from device.hardware.camera.sources import CameraError, open_source

    try:
        source = open_source(spec)
    except CameraError as exc:
        return problem(
            "camera", f"{exc}",
            "connect the camera ribbon (power off first), keep camera_auto_detect=1 in /boot/firmware/config.txt, "
            "or plug in a USB webcam and set camera.source = usb:0",
        )
    try:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                frame = source.read()
            except CameraError as exc:
                return problem("camera", f"{source.name} opened but died: {exc}", "reseat the cable and try again")
            if frame is not None:
                h, w = frame.shape[:2]
                return ok("camera", f"{source.name} delivers {w}x{h} frames")
            time.sleep(0.05)
        return problem("camera", f"{source.name} opened but sent no frame in {timeout:.0f} s",
                       "reseat the cable; check `rpicam-hello --list-cameras`")
    finally:
        source.close()


def check_audio(settings: Settings) -> Check:
    driver = os.environ.get("SDL_AUDIODRIVER", "")
    if driver in ("dummy", "disk"):
        return problem("audio", f"SDL_AUDIODRIVER={driver}: nothing would be heard",
                       "unset SDL_AUDIODRIVER (the service uses alsa)")
    from device.hardware.voice.sounds import synthesise
    from device.hardware.voice.speaker import Mixer

    mixer = Mixer(settings.volume)
    if not mixer.ok:
        return problem("audio", mixer.problem,
                       "plug in the speaker (USB or the HAT), check `aplay -l`, add the user to group audio")
    try:
        sound = mixer.from_samples(synthesise("confirm"))
        channel = sound.play()
        deadline = time.monotonic() + sound.get_length() + 1.0
        while channel is not None and channel.get_busy() and time.monotonic() < deadline:
            time.sleep(0.02)
    finally:
        mixer.close()
    return ok("audio", f"played a test beep at volume {settings.volume} (you should have heard two notes)")


def check_voice(settings: Settings, data_dir: Path) -> Check:
    from device.hardware.voice.clips import ClipCache, VoiceStyle, espeak_binary
    from device.hardware.voice.prerender import phrases_for

    if espeak_binary() is None:
        return problem("voice", "espeak-ng is not installed: the box cannot speak",
                       "sudo apt install espeak-ng, then scripts/render-voice")
    clips = ClipCache(data_dir / "voice", VoiceStyle(settings.voice, settings.voice_speed))
    phrases = phrases_for(settings.language)
    missing = sum(1 for p in phrases if clips.cached(p) is None)
    if missing:
        return problem("voice", f"{missing} of {len(phrases)} phrases not pre-rendered in {clips.directory}",
                       "run scripts/render-voice (first announcements would be slow otherwise)")
    return ok("voice", f"all {len(phrases)} phrases pre-rendered")


def check_broker(settings: Settings) -> Check:
    mqtt = settings.mqtt
    if not mqtt.get("enabled"):
        return ok("broker", "MQTT disabled in houston.toml: the box referees without displays")
    password = mqtt.get("password")
    if password is None and mqtt.get("password_file"):
        try:
            password = Path(mqtt["password_file"]).read_text(encoding="utf-8").strip()
        except OSError as exc:
            return problem("broker", f"cannot read {mqtt['password_file']} ({exc.strerror})",
                           "re-run scripts/install-pi (it writes the box's broker password)")
    host, port = mqtt.get("host", "localhost"), int(mqtt.get("port", 1883))
    try:
        import paho.mqtt.client as paho
    except ImportError as exc:
        return problem("broker", f"paho-mqtt is not installed ({exc})", "reinstall: scripts/install-pi")
    result: dict[str, Any] = {}
    client = paho.Client(paho.CallbackAPIVersion.VERSION2, client_id=f"{settings.box_id}-doctor")
    if mqtt.get("username"):
        client.username_pw_set(mqtt["username"], password or None)
    client.on_connect = lambda c, u, f, rc, p=None: result.setdefault("rc", rc)
    try:
        client.connect(host, port, keepalive=10)
    except OSError as exc:
        return problem("broker", f"cannot reach {host}:{port} ({exc.strerror or exc})",
                       "sudo systemctl status mosquitto; check mqtt.host and mqtt.port")
    deadline = time.monotonic() + 5
    while "rc" not in result and time.monotonic() < deadline:
        client.loop(0.1)
    client.disconnect()
    rc = result.get("rc")
    if rc is None:
        return problem("broker", f"{host}:{port} did not answer the MQTT handshake", "is it really mosquitto?")
    if rc.is_failure:
        return problem("broker", f"{host}:{port} refused the box: {rc}",
                       "the password in mqtt.password_file must match the broker's; re-run scripts/install-pi")
    return ok("broker", f"connected to {host}:{port} as {mqtt.get('username', 'anonymous')}")


def check_data_dir(data_dir: Path) -> Check:
    if not data_dir.is_dir():
        return problem("data", f"{data_dir} does not exist", "run scripts/install-pi (or create it, owned by houston)")
    probe = data_dir / f".doctor-{os.getpid()}"
    try:
        probe.write_bytes(b"ok")
        probe.unlink()
    except OSError as exc:
        return problem("data", f"{data_dir} is not writable by {_user()} ({exc.strerror})",
                       f"sudo chown -R houston: {data_dir}")
    free_mb = shutil.disk_usage(data_dir).free // (1024 * 1024)
    if free_mb < MIN_FREE_MB:
        return problem("data", f"only {free_mb} MB free in {data_dir}", "free some space on the SD card")
    return ok("data", f"{data_dir} writable, {free_mb} MB free")


def check_clock(data_dir: Path, now: float | None = None) -> Check:
    now = time.time() if now is None else now
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(now))
    if now < EARLIEST_PLAUSIBLE:
        return problem("clock", f"reads {stamp}: never set",
                       "connect the box to a network once (the Pi has no clock battery); check timedatectl")
    latest = _latest_journal_time(data_dir)
    if latest is not None and latest > now + 3600:
        return problem("clock", f"reads {stamp}, earlier than the journal's last entry",
                       "the clock went backwards: check network time (timedatectl)")
    return ok("clock", f"reads {stamp}")


def check_journal(data_dir: Path) -> Check:
    path = journal_path(data_dir)
    if not path.exists():
        return ok("journal", "no journal yet (a fresh box)")
    health = inspect_journal(path)
    if not health.readable:
        return problem("journal", f"{path} is not readable ({health.detail})",
                       "the box sets a damaged journal aside at its next start; keep the file for a bug report")
    if not health.intact:
        return problem("journal", f"{path} failed its integrity check ({health.detail})",
                       "the box sets it aside at its next start; keep the file for a bug report")
    if not health.is_journal:
        return problem("journal", f"{path} is not a Houston journal", "move it away; the box starts a new one")
    return ok("journal", f"intact, {health.games} games recorded")


def _latest_journal_time(data_dir: Path) -> float | None:
    return latest_entry_time(journal_path(data_dir))


def _user() -> str:
    try:
        import pwd

        return pwd.getpwuid(os.geteuid()).pw_name
    except (ImportError, KeyError):
        return str(os.geteuid())


# --- the command -----------------------------------------------------------------------------


def register(sub: Any) -> None:
    p = sub.add_parser("doctor", help="check camera, buttons, audio, broker, storage, clock and journal")
    p.add_argument("--config", help="directory with houston.toml and pins.toml")
    p.add_argument("--data-dir", help="the box's data directory (default from houston.toml)")
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--interactive", dest="interactive", action="store_true", default=None,
                      help="ask for a press of each button (default when run in a terminal)")
    mode.add_argument("--no-input", dest="interactive", action="store_false", help="never wait for presses")
    p.add_argument("--press-timeout", type=float, default=10.0, help="seconds to wait for each button")
    p.set_defaults(func=doctor)


def doctor(args: argparse.Namespace) -> int:
    interactive = sys.stdin.isatty() if args.interactive is None else args.interactive
    checks = list(run_checks(args.config, args.data_dir, interactive, args.press_timeout))
    bad = [c for c in checks if not c.ok]
    print(f"{len(checks) - len(bad)} OK, {len(bad)} problem{'s' if len(bad) != 1 else ''}", flush=True)
    return 1 if bad else 0


def run_checks(config: str | None, data: str | None, interactive: bool, timeout: float) -> Iterator[Check]:
    """Run every check, printing each line as it comes (some take seconds), and yield them."""

    def emit(check: Check) -> Check:
        print(check.line(), flush=True)
        return check

    try:
        directory = config_dir(config)
        settings, pins = load_config(directory)
    except ConfigError as exc:
        yield emit(problem("config", str(exc), "fix that line; the box will not start until then"))
        return
    yield emit(ok("config", f"{directory}/houston.toml and pins.toml are valid"))
    from device.cli import default_data_dir

    data_dir = default_data_dir(data, config)
    for check in check_gpio(pins, interactive, timeout, lambda text: print(text, flush=True)):
        yield emit(check)
    for run in (
        lambda: check_camera(settings),
        lambda: check_audio(settings),
        lambda: check_voice(settings, data_dir),
        lambda: check_broker(settings),
        lambda: check_data_dir(data_dir),
        lambda: check_clock(data_dir),
        lambda: check_journal(data_dir),
    ):
        try:
            yield emit(run())
        except Exception as exc:  # a check must never hide the ones after it
            yield emit(problem("doctor", f"a check crashed: {type(exc).__name__}: {exc}", "please report this"))
