"""The held-out camera passes frames to albumentations as RGB (stop 43): its colour temperature
is a lamp's (a warm lamp reddens a frame), and its JPEG is OpenCV's on the BGR frame."""

from __future__ import annotations

import functools
import itertools
from typing import Any

import albumentations as A  # type: ignore[import-untyped]
import cv2
import numpy as np
from albumentations.augmentations.pixel import functional as af  # type: ignore[import-untyped]

from device.hardware.vision import heldout_world


def _grey() -> np.ndarray:
    frame = np.zeros((48, 64, 3), np.uint8)
    frame[:] = 128
    return frame


def _planckian(img: np.ndarray, kelvin: int, **_: Any) -> np.ndarray:
    return af.planckian_jitter(img, kelvin, mode="blackbody")


def test_a_warm_lamp_makes_the_frame_red_and_a_cool_one_blue() -> None:
    for kelvin, warm in ((3500, True), (9000, False)):
        # (PlanckianJitter's own function at one temperature: the transform draws it from a range)
        jitter = A.Lambda(image=functools.partial(_planckian, kelvin=kelvin), p=1.0)
        pipe = A.Compose([jitter])
        out = heldout_world.camera(pipe, _grey()).astype(np.float64)
        blue, red = out[..., 0].mean(), out[..., 2].mean()
        assert (red > blue + 20) if warm else (blue > red + 10), (kelvin, blue, red)


def test_jpeg_is_opencvs_on_the_bgr_frame() -> None:
    rng = np.random.default_rng(5)
    frame = cv2.resize(rng.integers(0, 256, (12, 16, 3), dtype=np.uint8), (64, 48), interpolation=cv2.INTER_NEAREST)
    pipe = A.Compose([heldout_world._rgb_jpeg(quality_range=(60, 60), p=1.0)])
    ok, buf = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 60])
    assert ok
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    assert decoded is not None
    assert np.array_equal(heldout_world.camera(pipe, frame), decoded)


def test_the_same_seed_gives_the_same_frames() -> None:
    face = heldout_world.render("emblem-crimson")
    first = itertools.islice(heldout_world.iter_hold(face, 1234, "medium"), 3)
    again = itertools.islice(heldout_world.iter_hold(face, 1234, "medium"), 3)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
