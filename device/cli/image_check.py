"""Check images handed to `houston identify` before the vision code sees them.

OpenCV's feature detector asserts (a traceback, not an answer) on images too small to hold any
card, e.g. 1×1 pixel; the command line refuses those with one line naming the file.
"""

from __future__ import annotations

from collections.abc import Iterable

MIN_SIDE = 16  # pixels; far below any card a camera can read, far above what makes OpenCV assert


def too_small(paths: Iterable[str]) -> str | None:
    """The first problem with an image (one line), or None when every readable image is usable.
    Unreadable files are left to the command, which already says so per file."""
    import cv2

    for path in paths:
        img = cv2.imread(path, cv2.IMREAD_UNCHANGED)
        if img is None:
            continue
        height, width = img.shape[:2]
        if min(height, width) < MIN_SIDE:
            return f"{path}: {width}×{height} pixels is too small to show a card (at least {MIN_SIDE}×{MIN_SIDE})"
    return None
