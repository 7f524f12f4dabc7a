"""The benchmark runs end to end on a handful of captures and reports every figure as JSON."""

from __future__ import annotations

import json

import pytest

from device.hardware.vision import bench

_LIGHT = {"folds": 1, "empty_scenes": 4, "other_cards": 2}


@pytest.mark.timeout(900)  # a whole 60-card enrollment with calibration; slow on a loaded machine
def test_tiny_benchmark_run_reports_all_figures() -> None:
    """The held-out world (the albumentations camera); the own world runs the same code."""
    world = "held-out"
    r = bench.run(
        sequences=2,
        negatives=3,
        singles=2,
        single_negatives=2,
        timing_frames=2,
        baseline_frames=1,
        scaling_frames=0,
        workers=1,
        seed_base=0,
        world=world,
        cli_images=2,
        calibration_options=_LIGHT,
    )
    json.dumps(r)
    assert r["seeds"] == "tuning" and r["deck"]["cards"] == 60 and r["world"] == world
    assert r["hold_sequences"]["count"] == 2 and r["negative_sequences"]["count"] == 3
    assert set(r["single_frames"]) == {"easy", "medium", "hard"}
    ms = r["ms_per_frame"]
    assert ms["threads"] == 1 and ms["median_with_card"] > 0 and ms["median_empty"] > 0
    assert r["enrollment"]["identify_cli"]["lines"] == 2
    assert 0.0 <= r["enrollment"]["calibration"]["strictness"] <= 1.0
    assert {"zero_false_decisions_on_negatives", "p95_ms_le_30", "self_identification_all"} <= set(r["targets"])
    assert ("single_top1_medium_ge_0_90" in r["targets"]) == (world == "held-out")


def test_the_held_out_world_cannot_be_tuned_on() -> None:
    with pytest.raises(SystemExit):
        bench.main(["--world", "held-out", "--tuning-seeds"])
