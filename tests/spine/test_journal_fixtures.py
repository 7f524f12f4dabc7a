"""Journals written by earlier versions still replay: a file written by main at c9015c3 (before the
service split and the registry by discovery) holds two finished games and one in progress."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

from device.box.journal import Journal, journal_path
from device.cli.commands.journal_tools import export_lines, replay_lines
from device.simulation.simbox import SimBox
from games.core import canonical_json, digest

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
WRITTEN_AT_C9015C3 = FIXTURES / "journal-c9015c3.sql"


def restore(data_dir: Path) -> Path:
    data_dir.mkdir(parents=True, exist_ok=True)
    path = journal_path(data_dir)
    conn = sqlite3.connect(path)
    conn.executescript(WRITTEN_AT_C9015C3.read_text())
    conn.close()
    return path


def test_its_finished_games_replay_to_the_results_it_recorded(tmp_path: Path) -> None:
    journal = Journal(restore(tmp_path))
    try:
        finished = [r for r in journal.games() if r.ended_at is not None]
        assert [r.game for r in finished] == ["alien", "hwhad"]
        for record in finished:
            session = replay_lines(export_lines(journal, record.id))
            assert session.over is not None, record.game
            assert {"reason": session.over.reason, "winners": list(session.over.winners)} == record.result
            assert session.undo_stack == []
    finally:
        journal.close()


def test_its_game_in_progress_resumes_to_the_public_view_houston_replay_prints(tmp_path: Path) -> None:
    path = restore(tmp_path / "data")
    replayed = subprocess.run([sys.executable, "-m", "device.cli", "replay", str(path), "--game", "3"],
                              capture_output=True, text=True, timeout=120)
    assert replayed.returncode == 0, replayed.stderr
    printed = json.loads(replayed.stdout)
    box = SimBox(tmp_path / "data")  # the box starts on this journal and resumes game 3
    try:
        assert box.session is not None and box.service.record is not None and box.service.record.id == 3
        assert box.session.game.info.id == "alien"
        assert box.journal.count(3) == 7 and box.errors == []
        assert digest(box.session.state) == printed["digest"]
        public = box.service.public_view()["game"]
        assert canonical_json(public) == canonical_json(printed["public"])
        assert box.said[0].startswith("Resuming where we left off: Alien on Board")
    finally:
        box.close()
