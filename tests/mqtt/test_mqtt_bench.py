"""`houston bench mqtt --json` runs end to end and reports its figures (a short run here)."""

from __future__ import annotations

import json

import pytest

from device.network.mqtt.bench import main, percentile


def test_bench_reports_latency_percentiles(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--json", "--inputs", "60"])
    result = json.loads(capsys.readouterr().out)
    assert result["inputs"] == 60
    assert 0 < result["service_p50_ms"] <= result["p50_ms"] <= result["p99_ms"] <= result["max_ms"]
    assert code == (0 if result["meets_target"] else 1)


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 50) == 50.0
    assert percentile(values, 99) == 99.0
    assert percentile([5.0], 99) == 5.0
