"""A journal that lost acknowledged entries (a damaged WAL drops every frame after the damage)
says so; and little ever lives only in the WAL (issue 12, defect 4)."""

import os
import shutil

from device.box.journal import journal_path
from device.simulation.crash_bench import table_options
from device.simulation.testing import make_box
from games.core import digest

GAME = "dog"


def step(box):
    """One input of the game's own random policy (a fixed choice: the first it offers)."""
    session = box.session
    legal = session.game.legal_inputs(session.state)
    box.submit(session.game.random_input(session.state, legal, lambda n: 0))


def test_the_wal_is_folded_in_after_every_commit(tmp_path):
    box = make_box(tmp_path, GAME, table_options(GAME))
    try:
        for _ in range(5):
            step(box)
            wal = journal_path(tmp_path).with_name("journal.sqlite-wal")
            assert not wal.exists() or wal.stat().st_size == 0
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
