"""Development figures on the *tuning* world only: a deck of the own art, the own capture model,
tuning seeds (below `EVAL_SEED_BASE`). This is what constants are chosen on; the held-out world
(heldout_world.py) is only ever measured by the bench, as evaluation.

    python -m device.hardware.vision.tuning --deck synthetic-shared --frames 200 --json

The deck is enrolled through the real folder enrollment (calibration included) into `--data-dir`
(kept, so later runs reuse it; `--fresh` enrolls again). Single frames per difficulty: top-1,
wrong, "unknown", "none"; negatives: unenrolled cards of the deck's frame and empty scenes (any
match is a false accept); CPU ms per frame (this thread).
"""

from __future__ import annotations

import argparse
import functools
import json
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from device.hardware.vision import captures, decks, identifier
from device.hardware.vision.calibration import thresholds_at
from device.hardware.vision.captures import EVAL_SEED_BASE
from device.hardware.vision.card_art import render_card, role_of
from device.hardware.vision.enrollment import enroll_from_folder
from device.hardware.vision.identifier import Identifier
from device.hardware.vision.references import load

_UNENROLLED = {
    decks.SYNTHETIC_DECK: decks.synthetic_unenrolled,
    decks.SHARED_FRAME_DECK: decks.shared_frame_unenrolled,
    decks.TEXT_FRAME_DECK: decks.text_frame_unenrolled,
    decks.PLAIN_PROBE_DECK: decks.plain_probe_unenrolled,
}


def enrolled(deck: str, data_dir: Path, fresh: bool = False, strictness: float | None = None) -> Identifier:
    """The deck enrolled from rendered scans (cached in data_dir); judged at its calibrated
    strictness, or at `strictness` (a deck's twins can make its calibration strict enough to hide
    what a change does to its other cards)."""
    store = data_dir / "vision" / f"{deck}.npz"
    if fresh or not store.exists():
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            for card in decks.card_ids_for(deck) or []:
                cv2.imwrite(str(folder / f"{card}.png"), render_card(deck, card))
            report = enroll_from_folder(deck, folder, data_dir)
            for line in report.lines():
                print(f"[tuning] {line}", file=sys.stderr)
    refs = load(data_dir, deck)
    if strictness is None:
        return Identifier([refs])
    t = replace(thresholds_at(identifier.Thresholds(), strictness), retry_min_votes=refs.retry_min_votes)
    return Identifier([refs], t)


def with_offset(
    frame: np.ndarray, seed: int, offset: tuple[float, float] | None, gain: tuple[float, float] | None = None
) -> np.ndarray:
    """The frame with every level scaled by one gain from `gain` (None: 1) and then one
    brightness offset added, drawn from [lo, hi] by the frame's seed (None: unchanged). A camera
    whose tone curve crushes its blacks (or a haze that lifts them) shifts every level by about
    the same amount; the own capture model has gains and a gamma but no offset (stop 54). A haze
    lowers the contrast as it lifts the blacks: a gain under 1 with a positive offset (stop 55)."""
    if offset is None and gain is None:
        return frame
    rng = np.random.default_rng((seed, 54))
    b = rng.uniform(*offset) if offset is not None else 0.0
    a = rng.uniform(*gain) if gain is not None else 1.0
    return np.clip(frame.astype(np.float32) * np.float32(a) + np.float32(b), 0, 255).astype(np.uint8)


def measure(
    ident: Identifier,
    deck: str,
    frames: int,
    difficulties: tuple[str, ...],
    seed: int,
    style: str = "ceiling",
    offset: tuple[float, float] | None = None,
    gain: tuple[float, float] | None = None,
) -> dict[str, Any]:
    """Single-frame figures on tuning seeds (seed + i, all below EVAL_SEED_BASE); every frame,
    negatives included, with a gain and a brightness offset drawn from `gain` and `offset` when
    given."""
    assert seed + 100_000 < EVAL_SEED_BASE

    def frame_of(face: np.ndarray | None, s: int, diff: str) -> np.ndarray:
        return with_offset(captures.single_frame(face, s, diff, style), s, offset, gain)

    cards = decks.card_ids_for(deck) or []
    faces = {c: render_card(deck, c) for c in cards}
    out: dict[str, Any] = {}
    cpu: list[float] = []
    cpu_empty: list[float] = []
    for d_i, diff in enumerate(difficulties):
        right = wrong = unknown = none = 0
        misses: list[str] = []
        by_prefix: dict[str, list[int]] = {}  # frames and right answers per card-id prefix (its kind)
        for i in range(frames):
            card = cards[(i * 7 + d_i) % len(cards)]
            frame = frame_of(faces[card], seed + d_i * 10_000 + i, diff)
            c = time.thread_time()
            r = ident.identify(frame)
            cpu.append((time.thread_time() - c) * 1000)
            tally = by_prefix.setdefault(role_of(card), [0, 0])
            tally[0] += 1
            if r.is_match and r.card == card:
                right += 1
                tally[1] += 1
            elif r.is_match:
                wrong += 1
                misses.append(f"{card}->{r.card}")
            elif r.status == "unknown":
                unknown += 1
            else:
                none += 1
        out[diff] = {
            "frames": frames,
            "top1": round(right / frames, 4),
            "top1_by_prefix": {k: round(v[1] / v[0], 4) for k, v in sorted(by_prefix.items())},
            "wrong": wrong,
            "unknown": unknown,
            "none": none,
            "wrong_examples": misses[:5],
        }
    unenrolled = [(c, render_card(deck, c)) for c in _UNENROLLED.get(deck, lambda: [])()]
    fa_card = fa_empty = 0
    fa_examples: list[str] = []
    negs = max(10, frames // 2)
    for i in range(negs):
        if unenrolled and i % 2 == 0:
            name, face = unenrolled[(i // 2) % len(unenrolled)]
            r = ident.identify(frame_of(face, seed + 50_000 + i, "medium"))
            fa_card += r.is_match
            if r.is_match:
                fa_examples.append(f"{name}->{r.card}")
        else:
            frame = frame_of(None, seed + 50_000 + i, "medium")
            c = time.thread_time()
            fa_empty += ident.identify(frame).is_match
            cpu_empty.append((time.thread_time() - c) * 1000)
    out["false_accepts"] = {"unenrolled_card": int(fa_card), "empty": int(fa_empty), "frames": negs}
    out["false_accept_examples"] = fa_examples[:5]
    out["cpu_ms"] = {
        "median_with_card": round(float(np.median(cpu)), 2),
        "median_empty": round(float(np.median(cpu_empty)), 2) if cpu_empty else None,
        "p95_all": round(float(np.percentile(cpu + cpu_empty, 95)), 2),
    }
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="python -m device.hardware.vision.tuning", description=__doc__)
    p.add_argument("--deck", default=decks.SHARED_FRAME_DECK)
    p.add_argument("--frames", type=int, default=100)
    p.add_argument("--difficulty", action="append", choices=list(captures.DIFFICULTIES))
    p.add_argument("--style", default="ceiling", choices=list(captures.STYLES))
    p.add_argument("--seed", type=int, default=30_000)
    p.add_argument("--data-dir", type=Path, default=Path(tempfile.gettempdir()) / "houston-vision-tuning")
    p.add_argument("--fresh", action="store_true", help="enroll again")
    p.add_argument("--json", action="store_true")
    p.add_argument("--strictness", type=float, help="judge at this strictness, not the calibrated one")
    p.add_argument(
        "--offset", type=float, nargs=2, metavar=("LO", "HI"), help="a brightness offset from [LO, HI] on every frame"
    )
    p.add_argument(
        "--gain", type=float, nargs=2, metavar=("LO", "HI"), help="every level scaled by a gain from [LO, HI] first"
    )
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE", help="a Thresholds field (trials)")
    args = p.parse_args(argv)
    cv2.setNumThreads(1)
    if args.set:  # trials: every identifier built from here on (calibration's too) uses these
        overrides = {}
        for item in args.set:
            name, value = item.split("=", 1)
            default = getattr(identifier.Thresholds(), name)
            overrides[name] = type(default)(value) if not isinstance(default, bool) else value == "true"
        identifier.Thresholds = functools.partial(identifier.Thresholds, **overrides)  # type: ignore[misc]
    ident = enrolled(args.deck, args.data_dir, args.fresh, args.strictness)
    diffs = tuple(args.difficulty or ("medium", "hard"))
    offset = (args.offset[0], args.offset[1]) if args.offset else None
    gain = (args.gain[0], args.gain[1]) if args.gain else None
    result = {
        "deck": args.deck,
        "set": args.set,
        "strictness": args.strictness,
        "style": args.style,
        "offset": args.offset,
        "gain": args.gain,
        "seeds": "tuning",
        "calibration": load(args.data_dir, args.deck).calibration,
        **measure(ident, args.deck, args.frames, diffs, args.seed, args.style, offset, gain),
    }
    print(json.dumps(result, sort_keys=True) if args.json else json.dumps(result, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
