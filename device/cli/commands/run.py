"""`houston run`: the box itself — on real pins, or with `--sim` on a laptop keyboard."""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import sys
import threading
import time
from pathlib import Path
from typing import Any, TextIO

from device.box.config import ConfigError, config_dir, load_config
from device.box.jobs import SayJob
from device.box.journal import JournalError, open_journal
from games.registry import game_ids

log = logging.getLogger("houston.run")

SIM_KEYS = {
    "r": "red", "b": "blue", "g": "green", "y": "yellow", "p": "purple", "w": "white",
    "o": "ok", "u": "back", "a": "repeat",
}
SIM_HELP = """Keys (Enter after each line; several keys in one line are pressed in turn):
  r b g y p w   team buttons red blue green yellow purple white  (capital letter = long press)
  o / O         OK / long press OK
  u             BACK (undo)
  a / A         REPEAT / long press REPEAT (at idle: next game)
  :CARD         hold card CARD over the camera (e.g. :max); a lone : lists the cards
  !OPTION       choose OPTION as a display would (e.g. !flood)
  ?             this help        q  quit"""


def register(sub: Any) -> None:
    p = sub.add_parser("run", help="run the box (real pins, or --sim for a keyboard simulation)")
    p.add_argument("--sim", action="store_true", help="simulated hardware: keys are buttons")
    p.add_argument("--game", help="game selected at start (default from houston.toml)")
    p.add_argument("--data-dir", help="where the journal lives (default from houston.toml)")
    p.add_argument("--config", help="directory with houston.toml and pins.toml")
    p.add_argument("--mute", action="store_true", help="with --sim: print only, do not speak")
    p.add_argument("--dashboard", action="store_true",
                   help="with --sim: start a private broker, serve the dashboard and print its links")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from device.cli import default_data_dir

    directory = config_dir(args.config)
    load_config(directory)  # refuse a bad config before anything starts
    if args.game is not None and args.game not in game_ids():
        raise ConfigError(f"--game {args.game[:40]!r}: not an installed game ({', '.join(game_ids())})")
    data_dir = default_data_dir(args.data_dir, args.config)
    if args.sim:
        speak = not args.mute and os.environ.get("SDL_AUDIODRIVER") != "dummy"
        return run_sim(data_dir, args.game, sys.stdin, sys.stdout, speak=speak, config=directory,
                       dashboard=args.dashboard)
    if args.dashboard:
        print("houston: --dashboard goes with --sim (on the Pi, [mqtt] http_port serves the page)", file=sys.stderr)
        return 2
    return run_hardware(data_dir, args.game, directory)


def run_sim(data_dir: Path, game: str | None, keys: TextIO, out: TextIO, *, speak: bool = False,
            config: Path | None = None, dashboard: bool = False) -> int:
    """The box on mock pins, driven by keys; prints what it says and how its lights change, and
    speaks it too when `speak` and the laptop has an audio device (silently skipped otherwise).
    Settings come from `config` (houston.toml, pins.toml); `[mqtt]` is honoured, and `dashboard`
    brings a private broker and the dashboard page instead (device/cli/commands/laptop.py)."""
    from device.box.outlets import ConsoleOutlet
    from device.simulation.simbox import SimBox

    settings, pins = load_config(config_dir(config))
    try:
        box = SimBox(data_dir, game=game, settings=settings, pins=pins, start=False)
    except JournalError as exc:
        print(f"houston: {exc}", file=sys.stderr)
        return 2
    trace = _state_trace(box) if os.environ.get("HOUSTON_SIM_TRACE") else None
    box.service.outlets.append(ConsoleOutlet(box.panel.lights, out, trace))
    speaker = _sim_speaker(box, data_dir) if speak else None
    print(SIM_HELP, file=out, flush=True)
    box.service.start()
    network = None
    if dashboard or settings.mqtt.get("enabled"):
        from device.cli.commands.laptop import start_network  # MQTT only when asked for

        try:
            network = start_network(box.service, settings, data_dir, out, dashboard=dashboard)
        except Exception as exc:
            box.close()
            print(f"houston: cannot start the broker or the dashboard: {exc}", file=sys.stderr)
            return 2
    box.service.wait_idle()
    try:
        for line in keys:
            if not _sim_line(box, line.strip(), out):
                break
    except KeyboardInterrupt:
        pass
    finally:
        if network is not None:
            network.close()
        status = _close_journal(box.close)
        if speaker is not None:
            speaker.close(drain=True, timeout=5)
    return status


def _close_journal(close: Any) -> int:
    """Close the box's journal; a disk that refuses the last write is one line and exit 1."""
    try:
        close()
    except JournalError as exc:
        print(f"houston: {exc}", file=sys.stderr)
        return 1
    return 0


def _sim_speaker(box: Any, data_dir: Path) -> Any:
    """A speaker for the simulator when the laptop can play sound; None (print only) otherwise."""
    from device.hardware.voice.clips import ClipCache, VoiceStyle
    from device.hardware.voice.outlet import SpeakerOutlet
    from device.hardware.voice.speaker import Speaker

    speaker = Speaker(ClipCache(data_dir / "voice", VoiceStyle()), volume=box.settings.volume)
    if not speaker.mixer.ok:
        speaker.close()
        return None
    box.service.outlets.append(SpeakerOutlet(speaker))
    return speaker


def _state_trace(box: Any) -> Any:
    """`game=<journal game> seq=<last entry> digest=<state>` after each update, for crash tests."""
    from games.core import digest

    def line() -> str | None:
        service = box.service
        if service.session is None or service.record is None:
            return None
        seq = service.journal.last_seq(service.record.id)
        return f"game={service.record.id} seq={seq} digest={digest(service.session.state)}"

    return line


def _card_list(box: Any) -> str:
    """The cards of the current game's deck, to pick one to 'hold over the camera'."""
    from games.catalog import deck_cards

    session = box.service.session
    deck = session.game.info.deck if session is not None else None
    cards = deck_cards(deck) if deck else None
    if not cards:
        return "  ???  this game has no cards to scan"
    return "  CARDS " + " ".join(cards)


def _sim_line(box: Any, line: str, out: TextIO) -> bool:
    if not line:
        return True
    if line.startswith(":"):
        card = line[1:].strip()
        if card in ("", "?"):
            print(_card_list(box), file=out, flush=True)
        else:
            box.scan(card)
        return True
    if line.startswith("!"):
        box.choose(line[1:].strip())
        return True
    for key in line:
        if key == "q":
            return False
        if key == "?":
            print(SIM_HELP, file=out, flush=True)
            continue
        button = SIM_KEYS.get(key.lower())
        if button is None:
            print(f"  ???  no button on key {key!r} (? for help)", file=out, flush=True)
            continue
        box.press(button, hold=key.isupper())
    return True


def run_hardware(data_dir: Path, game: str | None, directory: Path) -> int:
    """The box on its real panel: gpiozero picks the pin factory (GPIOZERO_PIN_FACTORY).

    Start order matters to systemd: READY=1 is sent once the panel is up, the journal is open and
    the game resumed (the broker may come later); the service loop pings the watchdog, so a hung
    loop gets the box restarted. SIGTERM finishes the input in hand, publishes `offline`, and
    closes the journal cleanly (WAL checkpointed into the main file)."""
    from device.box.outlets import ConsoleOutlet, PanelOutlet
    from device.box.service import Service
    from device.box.systemd_notify import Notifier
    from device.hardware.camera.feed import start_camera
    from device.hardware.panel import Panel
    from device.hardware.panel.lights import StatusLight
    from device.hardware.voice.clips import ClipCache, VoiceStyle
    from device.hardware.voice.outlet import SpeakerOutlet
    from device.hardware.voice.speaker import Speaker
    from games.core import say

    notifier = Notifier()
    settings, pins = load_config(directory)
    if os.environ.get("GPIOZERO_PIN_FACTORY") == "mock":
        os.environ.setdefault("GPIOZERO_MOCK_PIN_CLASS", "mockpwmpin")  # PWM and RGB LEDs need it
    try:
        journal, notes = open_journal(data_dir)
    except JournalError as exc:
        print(f"houston: {exc}", file=sys.stderr)
        return 2
    service = Service(
        journal, box_id=settings.box_id, default_game=game or settings.game,
        language=settings.language, notes=notes,
    )
    try:
        panel = Panel(
            pins, settings, service.post_press, clock=time.monotonic,
            on_mash=lambda name: service.post(SayJob([say("slow_down")])),
        )
    except Exception as exc:  # no GPIO (not a Pi, no permission, wrong pin factory)
        journal.close()
        print(f"houston: cannot use the GPIO pins ({type(exc).__name__}: {exc}); run houston doctor", file=sys.stderr)
        return 2
    status = StatusLight(panel.lights, time.monotonic)
    status.show()
    speaker = Speaker(
        ClipCache(data_dir / "voice", VoiceStyle(settings.voice, settings.voice_speed)),
        volume=settings.volume,
        on_silent=lambda why: service.post(SayJob([say("no_speaker")])),
    )
    outlets: list[Any] = [PanelOutlet(panel.lights), status, SpeakerOutlet(speaker), ConsoleOutlet(panel.lights)]
    buzzer = None
    if pins.buzzer:
        from device.hardware.panel.buzzer import BuzzerOutlet

        buzzer = BuzzerOutlet(pins.buzzer)
        outlets.append(buzzer)
    service.outlets = outlets
    stop = threading.Event()
    with contextlib.suppress(ValueError):  # not in the main thread (tests)
        signal.signal(signal.SIGTERM, lambda *_: stop.set())
        signal.signal(signal.SIGINT, lambda *_: stop.set())
    service.tick_hooks += [notifier.watchdog, status.tick]
    service.start()
    camera = start_camera(
        settings.camera_source, service, data_dir, stale_after=settings.camera_stale_seconds,
        on_scanning=lambda seeing: status.update(scanning=seeing),
    )
    link = _start_mqtt(settings, service)
    if link is not None:
        service.tick_hooks.append(lambda: _broker_status(link, status))
    service.wait_idle()
    status.update(busy=False)
    notifier.ready(f"refereeing {service.selected}")
    try:
        while not stop.wait(0.5):
            pass
    finally:
        notifier.stopping()
        if camera is not None:
            camera.stop()
        service.stop()  # the input in hand is finished (journaled and shown) before this returns
        if link is not None:
            _stop_quietly(link)  # publishes `offline` before disconnecting
        speaker.close()
        if buzzer is not None:
            buzzer.close()
        panel.close()
    return _close_journal(journal.close)


def _start_mqtt(settings: Any, service: Any) -> Any:
    """The MQTT link (device/network/mqtt), if enabled and installed; the box referees without it."""
    if not settings.mqtt.get("enabled"):
        return None
    from device.network.mqtt.link import start_mqtt

    try:
        return start_mqtt(settings, service)
    except Exception:
        log.exception("MQTT link failed to start; refereeing without displays")
        return None


def _broker_status(link: Any, status: Any) -> None:
    """Keep the status light's broker condition in step with the link's connection."""
    connected = getattr(getattr(link, "connection", link), "connected", None)
    if isinstance(connected, threading.Event):
        connected = connected.is_set()
    elif callable(connected):
        connected = connected()
    if isinstance(connected, bool) and connected != status.broker_online:
        status.update(broker_online=connected)


def _stop_quietly(link: Any) -> None:
    try:
        link.stop()
    except Exception:
        log.exception("MQTT link did not stop cleanly")
