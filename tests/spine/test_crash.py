"""Pull the plug: kill -9 the box at random points, restart, and lose nothing acknowledged.

The box runs as a subprocess (`houston run --sim`) fed keys on stdin. After every update it prints
a trace line with the journal position and a digest of the live state; a line printed means the
input was acknowledged (said and lit). After each kill we check the journal against those lines.
"""

import os
import random
import signal
import subprocess
import sys
import threading
import time

import pytest

from device.box.journal import Journal, journal_path
from device.cli.commands.journal_tools import export_lines, replay_lines
from games.core import digest
from tests.support.lines import Lines

KILLS = 24
STALL = 120  # seconds a box may take to get anywhere (it takes well under one on an idle machine)


def start_box(data_dir):
    env = dict(os.environ, HOUSTON_SIM_TRACE="1", GPIOZERO_PIN_FACTORY="mock")
    return subprocess.Popen(
        [sys.executable, "-m", "device.cli", "run", "--sim", "--data-dir", str(data_dir)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, bufsize=1, env=env,
    )


def feed(proc, keys, gaps):
    try:
        for key, gap in zip(keys, gaps, strict=True):
            proc.stdin.write(key + "\n")
            proc.stdin.flush()
            time.sleep(gap)
    except (BrokenPipeError, OSError, ValueError):
        pass  # the plug was pulled


def acknowledged(lines):
    """(game, seq, digest) of every trace line the box printed."""
    out = []
    for line in lines:
        if line.strip().startswith("TRC"):
            fields = dict(part.split("=") for part in line.split()[1:])
            out.append((int(fields["game"]), int(fields["seq"]), fields["digest"]))
    return out


def replay_prefix(data_dir, game, seq):
    journal = Journal(journal_path(data_dir))
    try:
        lines = [x for x in export_lines(journal, game) if x["type"] == "game" or x["seq"] <= seq]
        return replay_lines(lines)
    finally:
        journal.close()


@pytest.mark.slow
@pytest.mark.timeout(1200)  # 24 box starts: half a minute on an idle machine, many minutes on busy cores
def test_kill_minus_nine_loses_nothing_acknowledged(tmp_path):
    rng = random.Random(20261130)
    acked_all = []
    for _kill in range(KILLS):
        proc = start_box(tmp_path)
        out = Lines(proc.stdout)
        keys = [rng.choice("rbgooooOuaa") for _ in range(200)]  # seat players, roll, take, undo, repeat
        gaps = [rng.uniform(0.0, 0.02) for _ in keys]
        feeder = threading.Thread(target=feed, args=(proc, keys, gaps), daemon=True)
        feeder.start()
        # The box is somewhere in its keys: pull the plug. Where is counted in inputs it acknowledged,
        # not in seconds (on busy cores its start alone can take longer than any fixed wait), plus a
        # random moment more, so the kill lands anywhere in its work (a commit included).
        want = rng.randint(1, 20)
        out.wait_for(lambda lines, n=want: len(acknowledged(lines)) >= n, timeout=STALL)
        time.sleep(rng.uniform(0.0, 0.05))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=STALL)
        assert out.wait_closed(STALL)
        acked = acknowledged(out.lines)
        acked_all.append(acked)
        # Every acknowledged state is exactly what the journal rebuilds at that position.
        for game, seq, seen in acked[-3:]:
            assert digest(replay_prefix(tmp_path, game, seq).state) == seen
        if acked:
            game, seq, _ = acked[-1]
            journal = Journal(journal_path(tmp_path))
            stored = {e["seq"] for e in journal.raw_entries(game)}
            journal.close()
            assert set(range(1, seq + 1)) <= stored  # nothing acknowledged was lost
    assert sum(1 for a in acked_all if a) >= KILLS // 2, "the box rarely got far enough to acknowledge"
    assert sum(len(a) for a in acked_all) >= 100
    # A clean restart resumes exactly where the journal says.
    proc = start_box(tmp_path)
    final, _ = proc.communicate("q\n", timeout=STALL)
    journal = Journal(journal_path(tmp_path))
    record = journal.unfinished() or journal.games()[-1]
    clean = replay_lines(export_lines(journal, record.id))
    journal.close()
    resumed = acknowledged(final.splitlines())
    if journal_path(tmp_path).exists() and resumed:
        assert resumed[-1][2] == digest(clean.state)
