"""A journal that lost acknowledged entries (a damaged WAL drops every frame after the damage)
says so; and little ever lives only in the WAL (issue 12, defect 4)."""

import os
import shutil
import sqlite3
import time

from device.box.jobs import InputJob
from device.box.journal import UNSETTLED_MAX, journal_path
from device.box.service import SETTLE_IDLE_SECONDS
from device.simulation.crash_bench import table_options
from device.simulation.simbox import SimBox
from device.simulation.testing import make_box
from games.core import digest

GAME = "dog"


def step(box):
    """One input of the game's own random policy (a fixed choice: the first it offers)."""
    session = box.session
    legal = session.game.legal_inputs(session.state)
    box.submit(session.game.random_input(session.state, legal, lambda n: 0))


def entries_in_main_file(tmp_path, copy_to):
    """The entries the journal's main file holds on its own (as after losing the whole WAL)."""
    copy_to.mkdir()
    shutil.copy(journal_path(tmp_path), copy_to / "journal.sqlite")
    conn = sqlite3.connect(copy_to / "journal.sqlite")
    try:
        return conn.execute("SELECT COUNT(*) FROM entries").fetchone()[0]
    finally:
        conn.close()


def test_the_wal_is_folded_in_when_the_box_is_quiet(tmp_path):
    box = make_box(tmp_path, GAME, table_options(GAME))
    try:
        for n in range(1, 6):
            step(box)
            deadline = time.monotonic() + 5
            while box.journal.unsettled and time.monotonic() < deadline:
                time.sleep(SETTLE_IDLE_SECONDS)
            box.service.wait_idle()
            assert entries_in_main_file(tmp_path, tmp_path / f"copy{n}") == n
    finally:
        box.close()


def test_in_a_burst_at_most_a_bounded_number_of_entries_live_only_in_the_wal(tmp_path):
    box = SimBox(tmp_path, game=GAME, start=False)  # no loop, so no quiet moment: only the bound
    try:
        box.service.resume()
        box.service.start_game(GAME, table_options(GAME))
        seen = []
        for _ in range(3 * UNSETTLED_MAX):
            session = box.session
            if session is None:
                break
            legal = session.game.legal_inputs(session.state)
            box.service.handle(InputJob(session.game.random_input(session.state, legal, lambda n: 0)))
            seen.append(box.journal.unsettled)
        assert len(seen) > UNSETTLED_MAX and max(seen) == UNSETTLED_MAX - 1
        entries = box.journal.count(box.service.record.id)
        assert entries_in_main_file(tmp_path, tmp_path / "copy") >= entries - (UNSETTLED_MAX - 1)
    finally:
        box.close()


def test_acknowledged_entries_missing_from_the_journal_are_reported_aloud(tmp_path):
    box = make_box(tmp_path, GAME, table_options(GAME))
    step(box)
    step(box)
    kept = digest(box.session.state)
    saved = tmp_path / "saved"
    saved.mkdir()
    # The journal as a damaged WAL would leave it: without the entries acknowledged after this.
    for name in os.listdir(tmp_path):
        if name.startswith("journal.sqlite") and not name.endswith(".marks"):
            shutil.copy(tmp_path / name, saved / name)
    step(box)
    step(box)
    assert box.journal.count(box.service.record.id) == 4
    box.close()
    for name in os.listdir(saved):
        shutil.copy(saved / name, tmp_path / name)
    again = make_box(tmp_path, GAME)
    try:
        keys = [e.get("key") for e in again.recorder.events]
        assert "journal_entries_lost" in keys
        assert again.session is not None and digest(again.session.state) == kept
    finally:
        again.close()
    third = make_box(tmp_path, GAME)  # said once, not at every start
    try:
        assert "journal_entries_lost" not in [e.get("key") for e in third.recorder.events]
    finally:
        third.close()


def test_a_healthy_restart_reports_no_loss(tmp_path):
    box = make_box(tmp_path, GAME, table_options(GAME))
    step(box)
    box.close()
    again = make_box(tmp_path, GAME)
    try:
        assert "journal_entries_lost" not in [e.get("key") for e in again.recorder.events]
    finally:
        again.close()
