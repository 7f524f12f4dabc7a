"""`python -m device.hardware.vision.feature_compare [--frames N] [--json]`: which local feature?

Compares ORB (the identifier's), SIFT (OpenCV's main package) and, when `cv2.xfeatures2d` is
there (opencv-contrib), TEBLID and BEBLID descriptors on ORB keypoints, under the same matcher
on both worlds: every enrolled face described at 1.5x, sharp and blurred (as the identifier
does); each frame's descriptors matched against all of them by brute-force 2-NN with Lowe's
ratio 0.8; the three best-voted cards verified by a RANSAC homography; the most inliers (>= 10)
names the card. Reports top-1, wrong and CPU ms per frame (one thread) on medium frames from
evaluation seeds. It measures the features, not the whole identifier (whose index is built for
256-bit binary descriptors).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

import cv2
import numpy as np

from device.hardware.vision.captures import EVAL_SEED_BASE
from device.hardware.vision.references import normalise_card_image

_SEED = EVAL_SEED_BASE + 600_000


def _extractors() -> dict[str, tuple[Callable[[], Any], Callable[[], Any] | None, int]]:
    """name -> (detector factory, descriptor factory or None, matcher norm)."""
    out: dict[str, tuple[Callable[[], Any], Callable[[], Any] | None, int]] = {
        "ORB": (lambda: cv2.ORB_create(600, scaleFactor=1.25, nlevels=7, fastThreshold=12), None, cv2.NORM_HAMMING),
        "SIFT": (lambda: cv2.SIFT_create(600), None, cv2.NORM_L2),
    }
    xf = getattr(cv2, "xfeatures2d", None)
    if xf is not None and hasattr(xf, "TEBLID_create"):
        orb = out["ORB"][0]
        out["ORB+TEBLID"] = (orb, lambda: xf.TEBLID_create(1.0, xf.TEBLID_SIZE_256_BITS), cv2.NORM_HAMMING)
        out["ORB+BEBLID"] = (orb, lambda: xf.BEBLID_create(1.0, xf.BEBLID_SIZE_256_BITS), cv2.NORM_HAMMING)
    return out


def _describe(det: Any, desc: Any, grey: np.ndarray) -> tuple[np.ndarray, np.ndarray | None]:
    if desc is None:
        kps, d = det.detectAndCompute(grey, None)
    else:
        kps = det.detect(grey, None)
        kps, d = desc.compute(grey, kps)
    pts = np.array([k.pt for k in kps], np.float32).reshape(-1, 2)
    return pts, d


def _world(name: str, n: int) -> tuple[list[str], dict[str, np.ndarray], list[tuple[str, np.ndarray]]]:
    from device.hardware.vision import bench

    w = bench.WORLDS[name]
    cards = w.cards()
    faces = {c: normalise_card_image(w.render(c)) for c in cards}
    frames = [
        (cards[i % len(cards)], next(w.hold(w.render(cards[i % len(cards)]), _SEED + i, "medium", i))) for i in range(n)
    ]
    return cards, faces, frames


def compare(n: int = 120) -> dict[str, Any]:
    cv2.setNumThreads(1)
    result: dict[str, Any] = {"frames_per_world": n, "matcher": "BF 2-NN, ratio 0.8, RANSAC on the 3 best-voted cards"}
    worlds = {name: _world(name, n) for name in ("own", "held-out")}
    for feat, (make_det, make_desc, norm) in _extractors().items():
        det, desc = make_det(), (make_desc() if make_desc else None)
        row: dict[str, Any] = {}
        for wname, (cards, faces, frames) in worlds.items():
            pts_all, desc_all, owner = [], [], []
            for k, c in enumerate(cards):
                grey = cv2.resize(cv2.cvtColor(faces[c], cv2.COLOR_BGR2GRAY), None, fx=1.5, fy=1.5)
                for view in (grey, cv2.GaussianBlur(grey, (0, 0), 2.0)):
                    p, d = _describe(det, desc, cv2.equalizeHist(view))
                    if d is None:
                        continue
                    pts_all.append(p / 1.5)
                    desc_all.append(d)
                    owner.append(np.full(len(p), k))
            ref_pts, ref_desc, ref_owner = np.concatenate(pts_all), np.concatenate(desc_all), np.concatenate(owner)
            matcher = cv2.BFMatcher(norm)
            right = wrong = 0
            cpu = []
            for truth, frame in frames:
                t = time.thread_time()
                p, d = _describe(det, desc, cv2.equalizeHist(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)))
                named = None
                if d is not None and len(p) >= 10:
                    pairs = matcher.knnMatch(d, ref_desc, k=2)
                    good = [m[0] for m in pairs if len(m) == 2 and m[0].distance < 0.8 * m[1].distance]
                    if good:
                        q = np.array([g.queryIdx for g in good])
                        r = np.array([g.trainIdx for g in good])
                        votes = np.bincount(ref_owner[r], minlength=len(cards))
                        best_inl = 0
                        for k in np.argsort(-votes)[:3]:
                            sel = ref_owner[r] == k
                            if sel.sum() < 10:
                                continue
                            _, inl = cv2.findHomography(p[q[sel]], ref_pts[r[sel]], cv2.RANSAC, 6.0)
                            inliers = int(inl.sum()) if inl is not None else 0
                            if inliers >= 10 and inliers > best_inl:
                                best_inl, named = inliers, cards[int(k)]
                cpu.append((time.thread_time() - t) * 1000)
                right += named == truth
                wrong += named is not None and named != truth
            row[wname] = {
                "top1": round(right / len(frames), 3),
                "wrong": round(wrong / len(frames), 3),
                "cpu_ms_median": round(float(np.median(cpu)), 1),
                "reference_descriptors": len(ref_desc),
            }
        result[feat] = row
    missing = [f for f in ("ORB+TEBLID", "ORB+BEBLID") if f not in result]
    if missing:
        result["not_measured"] = {f: "cv2.xfeatures2d missing (needs opencv-contrib-python-headless)" for f in missing}
    return result


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(prog="feature_compare", description=__doc__)
    p.add_argument("--frames", type=int, default=120)
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    r = compare(args.frames)
    print(json.dumps(r, sort_keys=True) if args.json else json.dumps(r, indent=1, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
