"""The bench's harness: frames rendered once and reused, holds' first frames as single frames,
frames kept on disk for the timing and the CLI, and the summary of the issue's figures."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest

from device.hardware.vision import bench, captures, heldout_world
from device.hardware.vision.identifier import Identifier
from device.hardware.vision.references import build_reference_set, save

SMALL = bench.Sizes(
    sequences=3, negatives=4, singles=5, single_negatives=6, timing_frames=2, baseline_frames=0, scaling_frames=2
)


@pytest.mark.parametrize("world", ["own", "held-out"])
def test_a_single_frame_is_the_first_frame_of_a_hold(world: str) -> None:
    """What lets the medium single frames be the holds' first frames (nothing rendered twice)."""
    w = bench.WORLDS[world]
    single = captures.single_frame if world == "own" else heldout_world.single_frame
    card = w.cards()[4]
    face = w.render(card)
    truth, frames = bench.presentation(w, lambda c: face, 0, "pos", 4)
    assert truth == card
    assert np.array_equal(next(frames), single(face, bench._SEEDS["pos"] + 4, "medium"))


def test_negatives_alternate_unenrolled_cards_and_empty_scenes() -> None:
    w = bench.WORLDS["held-out"]
    truths = [bench.presentation(w, w.render, 0, "neg", i)[0] for i in range(4)]
    assert truths[0] in w.unenrolled() and truths[2] in w.unenrolled() and truths[1] is None and truths[3] is None
    assert {bench._neg_kind(t) for t in truths} <= {"empty", "unenrolled_card", "unenrolled_badge"}


def test_the_accuracy_chunks_cover_every_sample_once() -> None:
    """Medium singles beyond the holds are rendered as singles; the rest come from the holds."""
    run = bench._WorldRun("own", Path("/nonexistent"), SMALL, 0)
    seq: dict[str, list[int]] = {"pos": [], "neg": []}
    singles: list[tuple[str, str, int]] = []
    for fn, args in run.accuracy_tasks():
        if fn is bench._sequence_task:
            seq[args[3]] += args[4]
        else:
            singles += args[3]
    assert seq == {"pos": [0, 1, 2], "neg": [0, 1, 2, 3]}
    assert len(singles) == len(set(singles))
    medium = [(k, i) for k, d, i in singles if d == "medium"]
    assert medium == [("pos", 3), ("pos", 4), ("neg", 4), ("neg", 5)]
    for d, pos in (("easy", 2), ("hard", 5)):
        assert sorted(i for k, dd, i in singles if dd == d and k == "single") == list(range(pos))
        assert sorted(i for k, dd, i in singles if dd == d and k == "single_neg") == list(range(6))


@pytest.fixture
def small_store(tmp_path: Path) -> Path:
    """The own world's deck name with 8 of its cards enrolled (no calibration: it is not measured here)."""
    w = bench.WORLDS["own"]
    cards = w.cards()[:8]
    data = tmp_path / "data"
    save(build_reference_set(w.deck, {c: [w.render(c)] for c in cards}), data)
    return data


def test_workers_keep_the_frames_the_parent_times_and_the_cli_reads(tmp_path: Path, small_store: Path) -> None:
    sizes = bench.Sizes(
        sequences=3, negatives=4, singles=3, single_negatives=4, timing_frames=2, scaling_frames=2, cli_images=2
    )
    run = bench._WorldRun("own", tmp_path, sizes, 0)
    Path(run.keep.folder).mkdir(parents=True)
    bench._worker_init()
    pos = bench._sequence_task("own", str(small_store), 0, "pos", [0, 1, 2], run.keep)
    neg = bench._sequence_task("own", str(small_store), 0, "neg", [0, 1], run.keep)
    kept = sorted(p.name for p in Path(run.keep.folder).iterdir())
    assert kept == ["00000.jpg", "00001.jpg", "neg-00001.npy", "pos-00000.npy", "pos-00001.npy"]
    w = run.w
    for kind, i in (("pos", 0), ("neg", 1), ("pos", 2)):  # pos 2 was not kept: rendered again, the same
        assert np.array_equal(run.frame(kind, i), next(bench.presentation(w, w.render, 0, kind, i)[1]))
    jpg = cv2.imread(str(run.keep.jpg_path(1)))
    assert jpg is not None and jpg.shape == run.frame("pos", 1).shape
    records = pos["records"] + neg["records"]
    assert [r["index"] for r in records] == [0, 1, 2, 0, 1]
    for r in records:
        assert r["first"]["status"] in ("match", "unknown", "none")
        assert len(r["decisions"]) <= 1 or r["kind"] == "neg"
    assert pos["cpu"]["frames"] >= 3 and neg["cpu"]["frames"] == 2 * bench.SEQ_FRAMES
    assert 0 < pos["cpu"]["identify"] <= pos["cpu"]["total"]
    run.seq = records
    medium = run.medium_singles_from_holds()
    assert [(m["kind"], m["truth"]) for m in medium] == [
        ("single", w.cards()[0]),
        ("single", w.cards()[1]),
        ("single", w.cards()[2]),
        ("single_neg", w.unenrolled()[0]),
        ("single_neg", None),
    ]
    single = bench._single_task("own", str(small_store), 0, [("single", "hard", 0), ("neg", "medium", 3)], run.keep)
    assert [r["kind"] for r in single["records"]] == ["single", "single_neg"]
    assert single["records"][1]["neg_kind"] == "empty"


def test_the_summary_holds_every_figure_the_issue_asks_for() -> None:
    singles = {
        d: {
            "top1": 0.5,
            "wrong_card_rate": 0.0,
            "false_accepts": {"empty": 1, "unenrolled_card": 0, "unenrolled_badge": 2},
            "top1_by_kind": {"plain": {"count": 4, "rate": 0.25}, "twin": {"count": 2, "rate": 1.0}},
        }
        for d in ("easy", "medium", "hard")
    }
    world = {
        "hold_sequences": {
            "correct_rate": 0.99,
            "wrong": 0,
            "frames_to_decision": {"median": 3.0},
            "correct_rate_by_kind": {"plain": {"count": 10, "rate": 0.9}},
        },
        "negative_sequences": {"false_decisions": 0},
        "single_frames": singles,
        "ms_per_frame": {"median_with_card": 12.0, "median_empty": 9.0, "p95_all": 25.0},
        "cpu_ms_per_frame": {"median_with_card": 11.0, "median_empty": 8.0, "p95_all": 24.0},
        "ms_per_frame_by_cards": {"ratio_120_to_30": 1.2},
        "enrollment": {"identify_cli": {"images_per_s": 31.0}, "self_identified": "60/60"},
    }
    s = bench.summary(
        {"worlds": {"own": world, "held-out": world}, "gap_own_minus_held_out": {"x": 0.0}, "seconds": 400}
    )
    own = s["worlds"]["own"]
    assert own["single_false_accepts"] == {"empty": 3, "unenrolled_card": 0, "unenrolled_badge": 6}
    assert own["identify_images_per_s"] == 31.0 and own["ratio_120_to_30_cards"] == 1.2
    assert own["frames_to_decision_median"] == 3.0 and own["ms_p95_all"] == 24.0  # CPU ms, not wall
    assert own["wall_ms"]["p95_all"] == 25.0
    assert own["single_top1_medium_by_kind"] == {"plain": 0.25, "twin": 1.0}
    assert own["hold_sequences_correct_by_kind"] == {"plain": 0.9}
    assert s["bench_seconds"] == 400 and s["gap_own_minus_held_out"] == {"x": 0.0}


def test_the_baseline_runs_first_in_a_worker_on_the_holds_first_frames(small_store: Path) -> None:
    """The baseline (1-3 s a frame) is the first chunk of a world, not a tail the parent runs alone."""
    sizes = bench.Sizes(sequences=3, negatives=4, singles=3, single_negatives=4, baseline_frames=2)
    fn, args = bench._WorldRun("own", Path("/nonexistent"), sizes, 0).accuracy_tasks()[0]
    assert fn is bench._baseline_task and args == ("own", "/nonexistent/own/data", 0, 2)
    bench._worker_init()
    got = bench._baseline_task("own", str(small_store), 0, 2)
    assert len(got["baseline_cpu_ms"]) == 2 and all(ms > 0 for ms in got["baseline_cpu_ms"])


def test_misses_are_counted_by_card_kind_with_twins_as_the_identifier_measured_them() -> None:
    """Bookkeeping only: a badge is "plain" by the world's prefix; a card is a "twin" when the
    identifier measured a near-twin for it at enrollment, not by its name."""
    cards = ["art-ember", "art-ember-twin", "art-frost", "emblem-crimson"]
    refs = build_reference_set(heldout_world.DECK_NAME, {c: [heldout_world.render(c)] for c in cards})
    ident = Identifier([refs])
    kinds = {c: bench.card_kind(ident, heldout_world.DECK_NAME, c) for c in cards}
    assert kinds == {
        "art-ember": "twin",
        "art-ember-twin": "twin",
        "art-frost": "illustrated",
        "emblem-crimson": "plain",
    }
    assert bench.card_kind(ident, heldout_world.DECK_NAME, None) is None

    def single(truth: str, match: str | None, kind: str) -> dict:
        return bench._single_record("single", "medium", truth, match, "match" if match else "none", kind)

    singles = [
        single("art-ember", "art-ember", "twin"),
        single("art-ember-twin", "art-ember", "twin"),  # wrong twin: not right
        single("art-frost", "art-frost", "illustrated"),
        single("emblem-crimson", None, "plain"),
        bench._single_record("single_neg", "medium", None, None, "none", "plain"),  # a negative has no kind
    ]
    by_kind = bench._single_figures(singles)["medium"]["top1_by_kind"]
    assert by_kind == {
        "illustrated": {"count": 1, "rate": 1.0},
        "plain": {"count": 1, "rate": 0.0},
        "twin": {"count": 2, "rate": 0.5},
    }

    def hold(truth: str, decided: str | None, kind: str) -> dict:
        decisions = [{"kind": "card", "card": decided, "frame": 3}] if decided else []
        return {"kind": "pos", "truth": truth, "card_kind": kind, "decisions": decisions}

    holds = [hold("art-frost", "art-frost", "illustrated"), hold("emblem-crimson", None, "plain")]
    holds += [hold("emblem-crimson", "emblem-crimson", "plain")]
    figures = bench._sequence_figures(holds)["hold_sequences"]
    assert figures["correct_rate_by_kind"] == {
        "illustrated": {"count": 1, "rate": 1.0},
        "plain": {"count": 2, "rate": 0.5},
    }
