"""The crash bench in small: kill -9 at every kind of moment loses nothing and sticks nowhere.
(`houston bench crash --kills 1000` is the full run; its figures are in docs/faults.md.)"""

import json

from device.cli import main
from device.simulation.crash_bench import MODES, run


def test_kills_at_every_kind_of_moment_lose_nothing(tmp_path):
    figures = run(kills=16, seed=7, data_dir=tmp_path)
    assert figures["kills"] == 16 and all(figures["by_mode"][m] == 4 for m in MODES)
    assert figures["acknowledged_inputs"] > 0 and figures["games_finished"] > 0
    for key in ("acknowledged_lost", "stuck_boxes", "integrity_failures", "rerolled_chance",
                "journaled_entries_changed", "child_errors"):
        assert figures[key] == 0, (key, figures)


def test_the_bench_command_prints_json(tmp_path, capsys):
    assert main(["bench", "crash", "--kills", "4", "--json", "--dir", str(tmp_path)]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["kills"] == 4 and figures["stuck_boxes"] == 0
