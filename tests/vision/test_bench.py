"""The benchmark runs end to end on a handful of captures and reports every figure as JSON."""

from __future__ import annotations

import json

from device.hardware.vision import bench


def test_tiny_benchmark_run_reports_all_figures() -> None:
    r = bench.run(
        sequences=2,
        negatives=2,
        singles=2,
        single_negatives=2,
        timing_frames=3,
        baseline_frames=1,
        scaling_frames=0,
        workers=1,
        seed_base=0,
    )
    json.dumps(r)
    assert r["seeds"] == "tuning" and r["deck"]["cards"] >= 60
    assert r["hold_sequences"]["count"] == 2 and r["negative_sequences"]["count"] == 2
    assert set(r["single_frames"]) == {"easy", "medium", "hard"}
    assert r["ms_per_frame"]["threads"] == 1 and r["ms_per_frame"]["median"] > 0
    assert r["speedup_vs_baseline"] > 0
    assert set(r["targets"]) >= {"zero_false_decisions_on_negatives", "median_ms_le_20", "speedup_ge_10x"}
