"""Power cuts under the journal (a FUSE layer that loses every write not yet fsync'd): the journal
stays intact and keeps every acknowledged input. `houston bench powercut --cuts 200` is the full
run; its figures are in docs/faults.md."""

import pytest

from device.simulation.lazyfs import LazyFS
from device.simulation.power_cut_bench import fuse_problem, run


@pytest.fixture(autouse=True)
def needs_fuse():
    if problem := fuse_problem():
        pytest.skip(f"FUSE not available here: {problem}")


def test_cuts_lose_no_acknowledged_input(tmp_path):
    figures = run(cuts=5, seed=11, workdir=tmp_path)
    assert figures["cuts"] == 5 and figures["acknowledged_inputs"] > 0
    for key in ("acknowledged_lost", "integrity_failures", "journaled_entries_changed", "stuck_boxes",
                "child_errors", "loss_reported_on_resume"):
        assert figures[key] == 0, (key, figures)


def test_the_layer_keeps_only_what_was_fsynced(tmp_path):
    (tmp_path / "f").write_bytes(b"old")
    fs = LazyFS(str(tmp_path))
    fs.write("/f", b"new content", 0, 1)
    assert fs.read("/f", 100, 0, 1) == b"new content"
    assert (tmp_path / "f").read_bytes() == b"old"  # not synced: a cut now keeps "old"
    fs.fsync("/f", 0, 1)
    assert (tmp_path / "f").read_bytes() == b"new content"
