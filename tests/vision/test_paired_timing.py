"""`houston bench vision-paired`: another revision's identifier timed beside this checkout's."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from device.hardware.vision import paired_timing

REPO = Path(__file__).resolve().parents[2]


def _head() -> str:
    return subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()


@pytest.mark.skipif(not (REPO / ".git").exists(), reason="needs the git checkout")
@pytest.mark.timeout(900)  # two 60-card enrollments
def test_the_same_revision_gives_the_same_answers_and_every_figure(capsys: pytest.CaptureFixture[str]) -> None:
    """HEAD's code against this checkout's (the same identifier unless the tree has changes):
    every frame answered alike, both versions' figures and the paired differences reported."""
    argv = ["--base", "HEAD", "--world", "own", "--cards", "3", "--empty", "2", "--passes", "2", "--tuning-seeds"]
    assert paired_timing.main([*argv, "--light-calibration", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["base_revision"]["commit"] == _head() and out["world"] == "own" and out["seeds"] == "tuning"
    dirty = subprocess.run(["git", "-C", str(REPO), "status", "--porcelain", "device", "games"], capture_output=True)
    if not dirty.stdout:
        assert out["answers_differ"] == 0, out["answers_differ_examples"]
    for side in ("base", "head"):
        figures = out[side]
        assert figures["median_with_card"] > 0 and figures["median_empty"] > 0
        assert figures["p95_all"] >= figures["median_with_card"]
    assert set(out["ratio_head_to_base"]) == {"median_with_card", "median_empty", "p95_all", "mean"}
    assert set(out["paired_median_added_ms"]) == {"with_card", "empty"}


def test_a_name_that_is_not_a_commit_is_refused_before_anything_runs(tmp_path: Path) -> None:
    for rev in ("no-such-revision-anywhere", "--output=" + str(tmp_path / "x")):
        with pytest.raises(ValueError, match="is not a commit"):
            paired_timing.export_revision(REPO, rev, tmp_path / "tree")
    assert not (tmp_path / "x").exists() and not (tmp_path / "tree").exists()


@pytest.mark.skipif(not (REPO / ".git").exists(), reason="needs the git checkout")
def test_a_revision_is_exported_with_the_code_the_identifier_imports(tmp_path: Path) -> None:
    commit = paired_timing.export_revision(REPO, "HEAD", tmp_path / "tree")
    assert commit == _head()
    for path in ("device/hardware/vision/identifier.py", "games/badges.py"):
        shown = subprocess.run(["git", "-C", str(REPO), "show", f"HEAD:{path}"], capture_output=True, check=True)
        assert (tmp_path / "tree" / path).read_bytes() == shown.stdout


@pytest.mark.parametrize("line", ["", "12.5\tmatch\n", "abc\tnone\tNone\n", "1\t2\t3\t4\n"])
def test_a_malformed_worker_reply_is_an_error_not_a_figure(line: str) -> None:
    with pytest.raises((RuntimeError, ValueError)):
        paired_timing.Answer.parse(line)


def test_a_reply_is_parsed_field_by_field() -> None:
    assert paired_timing.Answer.parse("12.500\tmatch\tcard-7\n") == paired_timing.Answer(12.5, "match", "card-7")


def test_bad_counts_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (["--cards", "0", "--empty", "0"], ["--passes", "0"], ["--cards", "-1"]):
        with pytest.raises(SystemExit):
            paired_timing.main(["--base", "HEAD", *argv])
    assert "--passes" in capsys.readouterr().err


def test_figures_with_no_frames_of_a_kind_are_null_not_nan() -> None:
    """JSON has no NaN: a run with no empty frames reports null for them."""
    figures = paired_timing._figures(np.array([10.0, 20.0, 30.0]), cards=3)
    assert figures["median_empty"] is None and figures["median_with_card"] == 20.0
    json.loads(json.dumps(figures, allow_nan=False))
    assert paired_timing._ratio(None, 3.0) is None and paired_timing._ratio(2.0, 0.0) is None
    assert paired_timing._ratio(3.0, 2.0) == 1.5


def test_the_command_answers_a_bad_revision_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert paired_timing.main(["--base", "no-such-revision-anywhere", "--world", "own", "--cards", "1"]) == 2
    err = capsys.readouterr().err
    assert "is not a commit" in err and "Traceback" not in err
