"""`houston bench vision [--json] [--world own|held-out]`: recognition accuracy and speed.

Two worlds, each a deck and a camera. **own**: the procedural deck the identifier was developed
on (six role frames, badges) and its capture model (captures.py). **held-out**: a second deck
generator and an albumentations camera (heldout_world.py) that nothing was tuned on. Each world's
deck is enrolled through the real folder enrollment (calibration included) and store; then hold
sequences, negative sequences and single frames are rendered from *evaluation* seeds only
(`EVAL_SEED_BASE` and up; tuning used seeds below it), the identifier is timed on one thread on
frames with a card and on empty frames, and at 30, 60 and 120 enrolled cards; `houston identify`
is timed on 300 images in one call. Without `--world` both worlds run and the gap is reported.
Accuracy work is spread over worker processes; timing is measured alone with cv2.setNumThreads(1).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from device.hardware.vision import captures, decks, heldout_world
from device.hardware.vision.baseline import BaselineIdentifier
from device.hardware.vision.captures import EVAL_SEED_BASE
from device.hardware.vision.card_art import render_card
from device.hardware.vision.enrollment import enroll_from_folder
from device.hardware.vision.identifier import Identifier
from device.hardware.vision.references import ReferenceSet, build_reference_set, load
from device.hardware.vision.scan_session import ScanSession

FPS = 15.0  # the session's clock in the benchmark: a slow Pi's recognition rate
SEQ_FRAMES = 20
NEG_KINDS = (("face",), ("hand",), ("lamp",), ("face", "hand", "lamp"))
_SEEDS = {"pos": 0, "neg": 100_000, "single": 200_000, "single_neg": 300_000, "timing": 400_000, "empty": 450_000}


@dataclass(frozen=True)
class World:
    """A deck and a camera: what the bench enrolls and what it shows the identifier."""

    name: str
    deck: str
    cards: Callable[[], list[str]]
    unenrolled: Callable[[], list[str]]
    render: Callable[[str], np.ndarray]
    hold: Callable[[np.ndarray | None, int, str, int], Iterator[np.ndarray]]  # card, seed, difficulty, variant
    extra_deck: Callable[[int], list[tuple[str, np.ndarray]]]  # more cards, for the scaling figure


def _own_hold(card: np.ndarray | None, seed: int, difficulty: str, variant: int) -> Iterator[np.ndarray]:
    bg = NEG_KINDS[variant % len(NEG_KINDS)] if card is None else ()
    return captures.iter_hold(card, seed, difficulty, bg)


def _held_hold(card: np.ndarray | None, seed: int, difficulty: str, variant: int) -> Iterator[np.ndarray]:
    return heldout_world.iter_hold(card, seed, difficulty)


def _own_extra(n: int) -> list[tuple[str, np.ndarray]]:
    return [(c, render_card(decks.SYNTHETIC_DECK, c)) for c in decks.synthetic_extra(n)]


WORLDS: dict[str, World] = {
    "own": World(
        "own",
        decks.SYNTHETIC_DECK,
        decks.synthetic_deck,
        decks.synthetic_unenrolled,
        lambda c: render_card(decks.SYNTHETIC_DECK, c),
        _own_hold,
        _own_extra,
    ),
    "held-out": World(
        "held-out",
        heldout_world.DECK_NAME,
        heldout_world.deck,
        heldout_world.unenrolled,
        heldout_world.render,
        _held_hold,
        _own_extra,
    ),
}
_LOW_TEXTURE_PREFIXES = ("badge-", "emblem-")  # bench bookkeeping only: which negatives are badges


_worker: dict[str, Any] = {"seed_base": EVAL_SEED_BASE, "world": "own"}


def _log(msg: str) -> None:
    print(f"[bench vision] {msg}", file=sys.stderr, flush=True)


class _Clock:
    """The session's clock, advanced one frame period per frame."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _init_worker(refs: ReferenceSet, seed_base: int = EVAL_SEED_BASE, world: str = "own") -> None:
    cv2.setNumThreads(1)
    _worker["seed_base"] = seed_base
    _worker["world"] = world
    _worker["ident"] = Identifier([refs])
    _worker["faces"] = {}


def _face(card: str) -> np.ndarray:
    faces = _worker.setdefault("faces", {})
    if card not in faces:
        faces[card] = WORLDS[_worker["world"]].render(card)
    return faces[card]


def _run_sequence(task: tuple[str, int]) -> dict[str, Any]:
    """One hold: positive (stop at the first decision) or negative (all frames)."""
    kind, i = task
    world = WORLDS[_worker["world"]]
    ident: Identifier = _worker["ident"]
    clock = _Clock()
    session = ScanSession(ident.identify, deck=world.deck, clock=clock)
    deck, unenrolled = world.cards(), world.unenrolled()
    seed = _worker["seed_base"] + _SEEDS[kind] + i
    if kind == "pos":
        truth: str | None = deck[i % len(deck)]
        frames = world.hold(_face(truth), seed, "medium", 0)
        neg_kind = None
    elif i % 2 == 0:
        truth = unenrolled[(i // 2) % len(unenrolled)]
        frames = world.hold(_face(truth), seed, "medium", 0)
        neg_kind = "unenrolled_badge" if truth.startswith(_LOW_TEXTURE_PREFIXES) else "unenrolled_card"
    else:
        truth = None
        frames = world.hold(None, seed, "medium", i // 2)
        neg_kind = "empty"
    decisions = []
    for n in range(1, SEQ_FRAMES + 1):
        d = session.feed(next(frames))
        clock.now += 1.0 / FPS
        if d is not None:
            decisions.append({"kind": d.kind, "card": d.card, "frame": n})
            if kind == "pos":
                break
    return {"kind": kind, "truth": truth, "neg_kind": neg_kind, "decisions": decisions}


def _run_single(task: tuple[str, str, int]) -> dict[str, Any]:
    kind, difficulty, i = task
    world = WORLDS[_worker["world"]]
    ident: Identifier = _worker["ident"]
    d_index = ("easy", "medium", "hard").index(difficulty)
    seed = _worker["seed_base"] + _SEEDS[kind] + d_index * 20_000 + i
    neg_kind = None
    if kind == "single":
        deck = world.cards()
        truth: str | None = deck[i % len(deck)]
    else:
        unenrolled = world.unenrolled()
        truth = unenrolled[(i // 2) % len(unenrolled)] if i % 2 == 0 else None
        if truth is None:
            neg_kind = "empty"
        else:
            neg_kind = "unenrolled_badge" if truth.startswith(_LOW_TEXTURE_PREFIXES) else "unenrolled_card"
    frame = next(world.hold(_face(truth) if truth else None, seed, difficulty, i))
    r = ident.identify(frame)
    return {
        "kind": kind,
        "difficulty": difficulty,
        "truth": truth,
        "neg_kind": neg_kind,
        "match": r.card if r.is_match else None,
        "status": r.status,
    }


def _pct(values: list[float], q: float) -> float | None:
    return round(float(np.percentile(values, q)), 2) if values else None


def _time_identifier(ident: Any, frames: list[np.ndarray], cpu: list[float] | None = None) -> list[float]:
    """Wall ms per frame; with `cpu`, also this thread's CPU ms (less disturbed by a loaded machine)."""
    out = []
    for f in frames:
        t, c = time.perf_counter(), time.thread_time()
        ident.identify(f)
        out.append((time.perf_counter() - t) * 1000)
        if cpu is not None:
            cpu.append((time.thread_time() - c) * 1000)
    return out


def _timing_frames(world: World, cards: list[str], n: int, empty: bool = False) -> list[np.ndarray]:
    base = _worker["seed_base"] + _SEEDS["empty" if empty else "timing"]
    faces = {c: world.render(c) for c in cards}
    return [next(world.hold(None if empty else faces[cards[i % len(cards)]], base + i, "medium", i)) for i in range(n)]


def _enroll(world: World, tmp: Path) -> tuple[ReferenceSet, dict[str, Any]]:
    """Write the deck's faces as scans and enroll them like a table would (folder -> store)."""
    folder = tmp / "cards"
    folder.mkdir()
    for card in world.cards():
        cv2.imwrite(str(folder / f"{card}.png"), world.render(card))
    t = time.perf_counter()
    report = enroll_from_folder(world.deck, folder, tmp / "data", _worker.get("calibration_options"))
    seconds = time.perf_counter() - t
    for line in report.lines():
        _log(line)
    refs = load(tmp / "data", world.deck)
    # Self-identification: every enrollment image names its own card.
    ident = Identifier([refs])
    named = [ident.identify(world.render(c)) for c in refs.cards]
    own = sum(r.is_match and r.card == c for r, c in zip(named, refs.cards, strict=True))
    cli = _identify_cli(world, tmp) if _worker.get("cli_images", 0) else None
    return refs, {
        "enroll_seconds": round(seconds, 1),
        "calibration": report.calibration,
        "self_identified": f"{own}/{len(refs.cards)}",
        "identify_cli": cli,
    }


def _identify_cli(world: World, tmp: Path) -> dict[str, Any]:
    """`houston identify` on N held images in one call (a process of its own, as outside users run it)."""
    n = _worker["cli_images"]
    folder = tmp / "photos"
    folder.mkdir()
    deck = world.cards()
    paths = []
    for i in range(n):
        frame = next(world.hold(world.render(deck[i % len(deck)]), _worker["seed_base"] + 470_000 + i, "medium", i))
        path = folder / f"{i:04d}.jpg"
        cv2.imwrite(str(path), frame)
        paths.append(str(path))
    cmd = [sys.executable, "-m", "device.cli", "identify", "--deck", world.deck, "--data-dir", str(tmp / "data")]
    t = time.perf_counter()
    out = subprocess.run([*cmd, *paths], capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - t
    lines = out.stdout.strip().splitlines()
    right = sum(line.split("\t")[1] == deck[i % len(deck)] for i, line in enumerate(lines) if "\t" in line)
    return {
        "images": n,
        "seconds": round(seconds, 2),
        "images_per_s": round(n / seconds, 1),
        "lines": len(lines),
        "named_correctly": right,
    }


def run(
    sequences: int = 1000,
    negatives: int = 300,
    singles: int = 400,
    single_negatives: int = 300,
    timing_frames: int = 200,
    baseline_frames: int = 10,
    scaling_frames: int = 100,
    workers: int | None = None,
    seed_base: int = EVAL_SEED_BASE,
    world: str = "own",
    cli_images: int = 300,
    calibration_options: dict[str, int] | None = None,
) -> dict[str, Any]:
    """Run one world's benchmark and return its figures (counts are per kind; singles per difficulty).

    `seed_base` 0 renders from tuning seeds (for development); the benchmark proper evaluates
    on `EVAL_SEED_BASE` and up, which no threshold was tuned on."""
    cv2.setNumThreads(1)
    w = WORLDS[world]
    _worker["seed_base"] = seed_base
    _worker["world"] = world
    _worker["cli_images"] = cli_images
    _worker["calibration_options"] = calibration_options  # tests: a lighter calibration
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        refs, enrolled = _enroll(w, Path(tmp))
    deck = list(refs.cards)
    ident = Identifier([refs])
    result: dict[str, Any] = {
        "world": world,
        "seeds": "evaluation" if seed_base >= EVAL_SEED_BASE else "tuning",
        "deck": {"name": w.deck, "cards": len(deck), "look_alike_groups": [len(g) for g in ident.look_alike_groups()]},
        "enrollment": enrolled,
    }

    # --- speed, alone on one thread ---
    _log(f"[{world}] timing the identifier on {timing_frames} frames with a card and {timing_frames // 2} empty")
    frames = _timing_frames(w, deck, timing_frames)
    empty = _timing_frames(w, deck, max(1, timing_frames // 2), empty=True)
    _time_identifier(ident, frames[:5])  # warm caches
    cpu_card: list[float] = []
    cpu_empty: list[float] = []
    with_card = _time_identifier(ident, frames, cpu_card)
    without = _time_identifier(ident, empty, cpu_empty)
    result["ms_per_frame"] = {
        "median_with_card": _pct(with_card, 50),
        "median_empty": _pct(without, 50),
        "p95_all": _pct(with_card + without, 95),
        "threads": 1,
        "frames": len(with_card) + len(without),
        "load_average_1min": round(os.getloadavg()[0], 2),
    }
    result["cpu_ms_per_frame"] = {
        "median_with_card": _pct(cpu_card, 50),
        "median_empty": _pct(cpu_empty, 50),
        "p95_all": _pct(cpu_card + cpu_empty, 95),
    }
    if baseline_frames:
        base = _time_identifier(BaselineIdentifier(refs), frames[:baseline_frames])
        result["baseline_ms_per_frame"] = {"median": _pct(base, 50), "frames": len(base)}
        result["speedup_vs_baseline"] = round(float(np.median(base) / np.median(with_card)), 1)

    scaling: dict[str, Any] = {}
    if scaling_frames:
        _log(f"[{world}] timing at 30, 60 and 120 enrolled cards")
        extra = w.extra_deck(60)
        extra_refs = build_reference_set(w.deck + "-extra", {c: [face] for c, face in extra})
        scale_frames = _timing_frames(w, deck[:30], scaling_frames)
        for n in (30, 60, 120):
            sets = [_subset(refs, deck[:n])] + ([extra_refs] if n > len(deck) else [])
            sub = Identifier(sets)
            _time_identifier(sub, scale_frames[:3])
            scaling[str(n)] = _pct(_time_identifier(sub, scale_frames), 50)
        scaling["ratio_120_to_30"] = round(scaling["120"] / scaling["30"], 2)
    result["ms_per_frame_by_cards"] = scaling

    # --- accuracy, in worker processes ---
    workers = workers or max(1, min(2, os.cpu_count() or 1))
    seq_tasks = [("pos", i) for i in range(sequences)] + [("neg", i) for i in range(negatives)]
    single_tasks = [
        (k, d, i)
        for d in ("easy", "medium", "hard")
        for k, n in (("single", singles if d != "easy" else singles // 2), ("single_neg", single_negatives))
        for i in range(n)
    ]
    _log(f"[{world}] {len(seq_tasks)} sequences and {len(single_tasks)} single frames on {workers} workers")
    seq_results: list[dict[str, Any]] = []
    single_results: list[dict[str, Any]] = []
    with ProcessPoolExecutor(workers, initializer=_init_worker, initargs=(refs, seed_base, world)) as pool:
        for k, r in enumerate(pool.map(_run_sequence, seq_tasks, chunksize=20), 1):
            seq_results.append(r)
            if k % 200 == 0:
                _log(f"[{world}] sequences {k}/{len(seq_tasks)}")
        for k, r in enumerate(pool.map(_run_single, single_tasks, chunksize=50), 1):
            single_results.append(r)
            if k % 1000 == 0:
                _log(f"[{world}] single frames {k}/{len(single_tasks)}")
    result.update(_sequence_figures(seq_results))
    result["single_frames"] = _single_figures(single_results)
    result["targets"] = _targets(result)
    result["seconds"] = round(time.perf_counter() - started, 1)
    return result


def _subset(refs: ReferenceSet, cards: list[str]) -> ReferenceSet:
    idx = [refs.cards.index(c) for c in cards if c in refs.cards]
    rows = np.isin(refs.owner, idx)
    remap = np.full(len(refs.cards), -1, np.int32)
    remap[idx] = np.arange(len(idx), dtype=np.int32)
    return ReferenceSet(
        refs.deck,
        tuple(refs.cards[k] for k in idx),
        refs.thumbs[idx],
        refs.points[rows],
        refs.descriptors[rows],
        remap[refs.owner[rows]],
        refs.calibration,
        details=refs.details[idx] if refs.details is not None else None,
    )


def _sequence_figures(results: list[dict[str, Any]]) -> dict[str, Any]:
    pos = [r for r in results if r["kind"] == "pos"]
    neg = [r for r in results if r["kind"] == "neg"]
    correct = [
        r
        for r in pos
        if r["decisions"] and r["decisions"][0]["kind"] == "card" and r["decisions"][0]["card"] == r["truth"]
    ]
    # Wrong: a card (or "not from this game") named that is not the one held. An "unknown" for a
    # held card is not wrong, but not correct either: counted on its own.
    wrong = [r for r in pos if r["decisions"] and r["decisions"][0]["kind"] != "unknown" and r not in correct]
    unknown = [r for r in pos if r["decisions"] and r["decisions"][0]["kind"] == "unknown"]
    to_decision = [r["decisions"][0]["frame"] for r in correct]
    false_neg = 0
    unknown_on_unenrolled = 0
    for r in neg:
        for d in r["decisions"]:
            if d["kind"] == "unknown" and r["neg_kind"] != "empty":
                unknown_on_unenrolled += 1
            else:
                false_neg += 1
    return {
        "hold_sequences": {
            "count": len(pos),
            "correct": len(correct),
            "wrong": len(wrong),
            "unknown": len(unknown),
            "none": len(pos) - len(correct) - len(wrong) - len(unknown),
            "correct_rate": round(len(correct) / max(1, len(pos)), 4),
            "frames_to_decision": {"median": _pct(to_decision, 50), "p95": _pct(to_decision, 95)},
            "wrong_examples": [(r["truth"], r["decisions"][0]) for r in wrong[:5]],
            "none_examples": [r["truth"] for r in pos if not r["decisions"]][:10],
        },
        "negative_sequences": {
            "count": len(neg),
            "by_kind": {k: sum(r["neg_kind"] == k for r in neg) for k in sorted({r["neg_kind"] for r in neg})},
            "false_decisions": false_neg,
            "unknown_said_for_unenrolled_cards": unknown_on_unenrolled,
            "false_examples": [
                (r["neg_kind"], r["truth"], r["decisions"])
                for r in neg
                if any(d["kind"] != "unknown" or r["neg_kind"] == "empty" for d in r["decisions"])
            ][:5],
        },
    }


def _single_figures(results: list[dict[str, Any]]) -> dict[str, Any]:
    out = {}
    for d in ("easy", "medium", "hard"):
        pos = [r for r in results if r["difficulty"] == d and r["kind"] == "single"]
        neg = [r for r in results if r["difficulty"] == d and r["kind"] == "single_neg"]
        right = sum(r["match"] == r["truth"] for r in pos)
        wrong = sum(r["match"] is not None and r["match"] != r["truth"] for r in pos)
        unknown = sum(r["status"] == "unknown" for r in pos)
        out[d] = {
            "frames": len(pos),
            "top1": round(right / max(1, len(pos)), 4),
            "wrong_card_rate": round(wrong / max(1, len(pos)), 4),
            "unknown_rate": round(unknown / max(1, len(pos)), 4),
            "negative_frames": len(neg),
            "false_accepts": {
                k: sum(r["match"] is not None for r in neg if r["neg_kind"] == k)
                for k in ("empty", "unenrolled_card", "unenrolled_badge")
            },
            "negative_frames_by_kind": {
                k: sum(r["neg_kind"] == k for r in neg) for k in ("empty", "unenrolled_card", "unenrolled_badge")
            },
        }
    return out


def _targets(r: dict[str, Any]) -> dict[str, bool]:
    seq, neg = r["hold_sequences"], r["negative_sequences"]
    ftd = seq["frames_to_decision"]
    ms = r["ms_per_frame"]
    single = r["single_frames"]
    out = {
        "sequences_correct_ge_99pct": seq["correct_rate"] >= 0.99,
        "zero_wrong_decisions": seq["wrong"] == 0,
        "zero_false_decisions_on_negatives": neg["false_decisions"] == 0,
        "frames_to_decision_median_le_3": ftd["median"] is not None and ftd["median"] <= 3,
        "median_ms_with_card_le_15": ms["median_with_card"] <= 15,
        "median_ms_empty_le_15": ms["median_empty"] <= 15,
        "p95_ms_le_30": ms["p95_all"] <= 30,
        "single_zero_false_accepts": all(sum(s["false_accepts"].values()) == 0 for s in single.values()),
        "single_wrong_le_0_5pct": all(s["wrong_card_rate"] <= 0.005 for s in single.values()),
    }
    if r["world"] == "held-out":
        out["single_top1_medium_ge_0_90"] = single["medium"]["top1"] >= 0.90
        out["single_top1_hard_ge_0_60"] = single["hard"]["top1"] >= 0.60
    if r["ms_per_frame_by_cards"]:
        out["time_30_to_120_at_most_x1_5"] = r["ms_per_frame_by_cards"]["ratio_120_to_30"] <= 1.5
    cli = r["enrollment"].get("identify_cli")
    if cli:
        out["identify_ge_30_images_per_s"] = cli["images_per_s"] >= 30
    own, total = (int(v) for v in r["enrollment"]["self_identified"].split("/"))
    out["self_identification_all"] = own == total
    return out


def _gap(own: dict[str, Any], held: dict[str, Any]) -> dict[str, Any]:
    """Own minus held-out, for the figures both worlds report."""
    return {
        "hold_sequences_correct_rate": round(
            own["hold_sequences"]["correct_rate"] - held["hold_sequences"]["correct_rate"], 4
        ),
        **{
            f"single_top1_{d}": round(own["single_frames"][d]["top1"] - held["single_frames"][d]["top1"], 4)
            for d in ("easy", "medium", "hard")
        },
    }


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="houston bench vision", description=__doc__)
    p.add_argument("--json", action="store_true", help="print the figures as one JSON object")
    p.add_argument("--world", choices=["own", "held-out", "both"], default="both")
    p.add_argument("--sequences", type=int, default=1000)
    p.add_argument("--negatives", type=int, default=300)
    p.add_argument("--singles", type=int, default=400, help="single frames per difficulty (easy: half)")
    p.add_argument("--timing-frames", type=int, default=200)
    p.add_argument("--baseline-frames", type=int, default=10)
    p.add_argument("--cli-images", type=int, default=300)
    p.add_argument("--workers", type=int, default=None)
    p.add_argument(
        "--tuning-seeds",
        action="store_true",
        help="render from the tuning seeds (development only; the figures that count use evaluation seeds)",
    )
    args = p.parse_args(argv)
    if args.tuning_seeds and args.world != "own":
        p.error("--tuning-seeds is for the own world only: nothing is tuned on the held-out world")
    started = time.perf_counter()
    worlds = ["own", "held-out"] if args.world == "both" else [args.world]
    results = {}
    for world in worlds:
        results[world] = run(
            args.sequences,
            args.negatives,
            args.singles,
            args.singles * 3 // 4,
            args.timing_frames,
            args.baseline_frames,
            args.timing_frames // 2,
            args.workers,
            0 if args.tuning_seeds else EVAL_SEED_BASE,
            world,
            args.cli_images if world == "held-out" or args.world == "own" else 0,
        )
    out: dict[str, Any] = {"worlds": results}
    if len(results) == 2:
        out["gap_own_minus_held_out"] = _gap(results["own"], results["held-out"])
    out["seconds"] = round(time.perf_counter() - started, 1)
    if args.json:
        print(json.dumps(out, sort_keys=True))
    else:
        _print_text(out)
    return 0


def _print_text(out: dict[str, Any]) -> None:
    for world, r in out["worlds"].items():
        seq, neg = r["hold_sequences"], r["negative_sequences"]
        print(f"== {world}: {r['deck']['cards']} cards, look-alike groups {r['deck']['look_alike_groups']}")
        print(f"enrollment: {r['enrollment']}")
        print(
            f"hold sequences: {seq['correct']} correct, {seq['wrong']} wrong, {seq['unknown']} unknown, "
            f"{seq['none']} none of {seq['count']}; frames to decision median {seq['frames_to_decision']['median']}"
        )
        print(f"negative sequences: {neg['false_decisions']} false decisions of {neg['count']}")
        for d, s in r["single_frames"].items():
            print(
                f"single {d}: top-1 {s['top1']:.3f}, wrong {s['wrong_card_rate']:.4f}, "
                f"false accepts {s['false_accepts']}"
            )
        print(f"ms per frame: {r['ms_per_frame']}; by enrolled cards: {r['ms_per_frame_by_cards']}")
        for name, ok in r["targets"].items():
            print(f"{'PASS' if ok else 'FAIL'} {name}")
    if "gap_own_minus_held_out" in out:
        print(f"gap (own - held-out): {out['gap_own_minus_held_out']}")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
