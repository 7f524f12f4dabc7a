"""The camera's deck follows the game in progress, also after a restart (issue 11's resume bug).

The box was configured for one game while the journal held an unfinished game of another: on
resume the camera kept the configured game's deck, so the resumed game's cards were not its own.
Here a hwhad game is resumed on a box configured for dog, and a hwhad card held up to the camera
(synthetic captures through the real scan session) is accepted as that game's input.
"""

from __future__ import annotations

import itertools
from pathlib import Path

from device.box.jobs import InputJob
from device.hardware.vision.camera_feed import _deck_of_running_game, make_scan_session, service_message
from device.hardware.vision.captures import iter_hold
from device.hardware.vision.card_art import render_card
from device.hardware.vision.scan_session import CARD
from device.simulation.demo_camera import enroll_deck
from device.simulation.simbox import SimBox
from device.simulation.testing import make_box
from games.core import Scan

TEAMS = ["red", "blue", "green", "yellow"]


def test_a_resumed_game_keeps_its_own_deck_and_its_cards_are_accepted(tmp_path: Path) -> None:
    box = make_box(tmp_path, game="hwhad", options={"teams": TEAMS})
    box.press("ok")  # the layout is drawn: the dealer scans the stack next
    assert box.session is not None and box.session.state.phase == "boarding"
    card = box.session.state.stack[0]
    box.close()  # the plug is pulled

    box = SimBox(tmp_path, game="dog")  # houston.toml says dog
    try:
        assert box.session is not None and box.session.game.info.id == "hwhad"
        assert box.service.game_id == "hwhad"
        assert _deck_of_running_game(box.service) == "hwhad"
        enroll_deck("hwhad", tmp_path)
        scanner = make_scan_session(box.service, tmp_path, clock=box.clock)
        decision = None
        for frame in itertools.islice(iter_hold(render_card("hwhad", card), 7_100_000, "medium"), 30):
            box.clock.advance(1 / 30)
            decision = scanner.feed(frame)
            if decision is not None:
                break
        assert decision is not None and decision.kind == CARD and decision.card == card
        entries = box.journal.count(box.service.record.id)
        message = service_message(decision)
        assert message == Scan(card)
        box.service.post(InputJob(message))
        box.service.wait_idle()
        assert box.journal.count(box.service.record.id) == entries + 1  # accepted and journaled
        assert box.errors == []
    finally:
        box.close()
