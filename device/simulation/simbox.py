"""A whole box on simulated hardware: the real service, panel and journal on gpiozero mock pins.

`houston run --sim`, `houston demo` and the tests all use this, so what they exercise is the
same code the Pi runs; only the pin factory and the clock differ. Presses drive the mock pins
(drive_low / drive_high) with a virtual clock, so a long press takes no real time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from device.box.commands import User, parse_command
from device.box.config import PinMap, Settings, config_dir, load_config
from device.box.jobs import CommandJob, InputJob, RefuseJob, SayJob
from device.box.journal import open_journal
from device.box.outlets import PanelOutlet, RecordingOutlet
from device.box.service import Outlet, Service
from device.hardware.panel import Panel
from device.simulation.mock_pins import mock_factory
from games.core import Choose, Input, Press, RuleError, Scan, say
from games.session import Session


class VirtualClock:
    """Monotonic time moved by hand: press lengths and gaps without sleeping."""

    def __init__(self, start: float = 1000.0) -> None:
        self.now = start
        self._lock = threading.Lock()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        with self._lock:
            self.now += seconds


class SimBox:
    """A box with mock pins. Drive it with press/hold/scan/choose; read what it said and lit."""

    PRESS_SECONDS = 0.08
    HOLD_SECONDS = 1.2
    GAP_SECONDS = 0.4

    def __init__(
        self,
        data_dir: Path,
        *,
        game: str | None = None,
        settings: Settings | None = None,
        pins: PinMap | None = None,
        outlets: list[Outlet] | None = None,
        drawer: Any = None,
        start: bool = True,
    ) -> None:
        default_settings, default_pins = load_config(config_dir())
        self.settings = settings or default_settings
        self.pins = pins or default_pins
        self.clock = VirtualClock()
        self.factory = mock_factory()  # bounded pin records: a simulated box runs for hours
        self.data_dir = Path(data_dir)
        self.journal, notes = open_journal(self.data_dir)
        self.recorder = RecordingOutlet()
        self.service = Service(
            self.journal,
            box_id=self.settings.box_id,
            default_game=game or self.settings.game,
            language=self.settings.language,
            drawer=drawer,
            notes=notes,
        )
        self.panel = Panel(
            self.pins,
            self.settings,
            self.service.post_press,
            clock=self.clock,
            pin_factory=self.factory,
            on_mash=lambda name: self.service.post(SayJob([say("slow_down")])),
        )
        self.panel_outlet = PanelOutlet(self.panel.lights)
        self.service.outlets = [self.panel_outlet, self.recorder, *(outlets or [])]
        self._closed = False
        self.scanner: Callable[[str], None] | None = None
        if start:
            self.service.start()
            self.service.wait_idle()

    # --- driving -----------------------------------------------------------------------------

    def _pin(self, button: str) -> Any:
        return self.factory.pin(self.pins.buttons[button])

    def press(self, button: str, *, hold: bool = False, wait: bool = True) -> None:
        """Press and release a panel button through its mock pin (pull-up: pressed = low)."""
        pin = self._pin(button)
        self.clock.advance(self.GAP_SECONDS)
        pin.drive_low()
        self.clock.advance(self.HOLD_SECONDS if hold else self.PRESS_SECONDS)
        pin.drive_high()
        if wait:
            self.service.wait_idle()

    def hold(self, button: str, *, wait: bool = True) -> None:
        self.press(button, hold=True, wait=wait)

    def bounce(self, button: str, edges: int = 6, spacing: float = 0.002) -> None:
        """Contact bounce: a burst of edges a few milliseconds apart, then a clean press."""
        pin = self._pin(button)
        self.clock.advance(self.GAP_SECONDS)
        for _ in range(edges):
            pin.drive_low()
            self.clock.advance(spacing)
            pin.drive_high()
            self.clock.advance(spacing)
        pin.drive_low()
        self.clock.advance(self.PRESS_SECONDS)
        pin.drive_high()
        self.service.wait_idle()

    def submit(self, inp: Input) -> None:
        self.service.post(InputJob(inp))
        self.service.wait_idle()

    def scan(self, card: str) -> None:
        """The dealer holds `card` over the lid: through `scanner` (the demo's simulated camera)
        when one is attached, else as the Scan input the camera adapter would post."""
        if self.scanner is not None:
            self.scanner(card)
        else:
            self.scan_direct(card)

    def scan_direct(self, card: str) -> None:
        """A card recognised by the camera (the camera adapter posts exactly this)."""
        self.submit(Scan(card))

    def choose(self, option: str) -> None:
        self.submit(Choose(option))

    def give(self, inp: Input) -> None:
        """An input where a table gives it: a press through the panel's pins (`back` is the box's
        BACK, `repeat` its REPEAT), a scan held up to the camera, a choice made on a display."""
        if isinstance(inp, Press):
            self.press(inp.button, hold=inp.hold)
        elif isinstance(inp, Scan):
            self.scan(inp.card)
        elif isinstance(inp, Choose):
            self.choose(inp.option)

    def command(self, name: str, payload: Mapping[str, Any], privileged: bool = False,
                sender: str | None = None) -> dict[str, Any]:
        """A command as MQTT would deliver it: parsed at the edge, then handled by the service.
        `sender`: the broker user whose own command topic carried it."""
        replies: list[dict[str, Any]] = []
        user = User.ADMIN if privileged else User.DISPLAY
        try:
            command = parse_command(name, dict(payload), user, sender)
        except RuleError as exc:
            self.service.post(RefuseJob(exc, replies.append))
        else:
            self.service.post(CommandJob(command, replies.append))
        self.service.wait_idle()
        return replies[0]

    # --- reading -----------------------------------------------------------------------------

    @property
    def session(self) -> Session | None:
        return self.service.session

    @property
    def said(self) -> list[str]:
        return self.recorder.said

    @property
    def errors(self) -> list[str]:
        return self.recorder.errors

    @property
    def public_views(self) -> list[dict[str, Any]]:
        return self.recorder.public_views

    def led(self, target: str) -> tuple[str, str]:
        """(colour, pattern) the panel shows on a light."""
        return self.panel.lights.state[target]

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        self.service.stop()
        self.panel.close()
        self.service.campaigns.close()
        try:
            self.journal.close()  # may raise JournalError (a full disk): the caller says so
        finally:
            self.factory.reset()

    def __enter__(self) -> SimBox:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
