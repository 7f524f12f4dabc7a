"""Comparing a warped frame with enrolled faces: band-pass filtering and robust correlation.

Kept apart from the identifier because it is pure array arithmetic with its own reasons: per
channel correlation ignores colour casts and light level, the band-pass ignores shading and glare
halos, and trimming ignores fingers and the glare spot.
"""

from __future__ import annotations

import cv2
import numpy as np


def bandpass(img: np.ndarray, sigma: float) -> np.ndarray:
    """Light smoothing minus heavy smoothing: keeps edges and texture, drops shading and glare."""
    fine = cv2.GaussianBlur(img, (3, 3), 0)
    if sigma <= 0:
        return fine
    return fine - cv2.GaussianBlur(img, (0, 0), sigma)


def bandpass_all(thumbs: np.ndarray, sigma: float) -> np.ndarray:
    """`bandpass` of every image in a stack."""
    return np.stack([bandpass(t, sigma) for t in thumbs]) if len(thumbs) else thumbs


def correlate(obs: np.ndarray, refs: np.ndarray, trim: float = 0.0) -> np.ndarray:
    """Mean over colour channels of the normalised correlation of obs (n x 3) with refs (M x n x 3).

    Per channel, so a colour cast or a dim lamp (a gain and an offset per channel) does not matter.
    With `trim`, that share of the worst-fitting pixels (fingers, glare) is dropped and the
    correlation computed again on the rest.

    Worked on channel-major rows (C x n and M x C x n), so every numpy loop runs along the pixels,
    not a pixel's 3 channels. The trimmed pass weighs the kept pixels by a 0/1 mask rather than
    gathering them (the gathers and `argpartition` were half of a duel's time), and sums pairwise:
    within ~2e-6 of the sequential sums it had before (stop 63).
    """
    n = len(obs)
    if n < 20:
        return np.zeros(len(refs))
    o = np.ascontiguousarray(np.swapaxes(obs, -2, -1))  # C x n
    r = np.ascontiguousarray(np.swapaxes(refs, -2, -1))  # M x C x n
    zo, zr = _standardise_rows(o), _standardise_rows(r)
    rho = np.add.reduce(zo * zr, axis=-1) / n  # M x C
    if trim <= 0:
        return rho.mean(axis=1)
    keep_n = max(20, int(n * (1.0 - trim)))
    resid = np.add.reduce(np.abs(zo - rho[:, :, None] * zr), axis=1)  # M x n: a pixel's misfit, all channels
    worst_kept = np.partition(resid, keep_n - 1, axis=1)[:, keep_n - 1, None]
    w = (resid <= worst_kept).astype(o.dtype)[:, None, :]  # M x 1 x n (pixels tied at the cut are all kept)
    k = np.add.reduce(w, axis=-1)  # M x 1
    dx = (o - np.add.reduce(o * w, axis=-1, keepdims=True) / k[..., None]) * w
    dy = (r - np.add.reduce(r * w, axis=-1, keepdims=True) / k[..., None]) * w
    sx = np.sqrt(np.add.reduce(dx * dx, axis=-1) / k)
    sy = np.sqrt(np.add.reduce(dy * dy, axis=-1) / k)
    cov = np.add.reduce(dx * dy, axis=-1) / k
    return (cov / ((sx + 1e-3) * (sy + 1e-3))).mean(axis=1).astype(np.float64)


def standardise(x: np.ndarray) -> np.ndarray:
    """Zero mean, unit deviation per colour channel along the pixel axis (second to last).

    A C-ordered array has a pixel's 3 channels innermost, and every numpy loop over it was 3 long:
    it is worked on channel-major rows instead."""
    rows = _standardise_rows(np.ascontiguousarray(np.swapaxes(x, -2, -1)))
    return np.ascontiguousarray(np.swapaxes(rows, -2, -1))


def _standardise_rows(rows: np.ndarray) -> np.ndarray:
    """Zero mean, unit deviation along the last axis (sums times 1/n: np.mean's bookkeeping costs
    more than the sums at these sizes)."""
    inv_n = 1.0 / rows.shape[-1]
    rows = rows - np.add.reduce(rows, axis=-1, keepdims=True) * inv_n
    return rows / (np.sqrt(np.add.reduce(rows * rows, axis=-1, keepdims=True) * inv_n) + 1e-3)


class FaceRows:
    """Enrolled faces (M x H x W x C) kept channel-major and flattened, with their squares, so that
    one view's correlation with many faces over any pixel mask is a few matrix-vector products per
    channel: `correlate(obs[mask], faces[:, mask])` gathered every face's masked pixels first,
    which at 120 enrolled cards cost 6-9 ms a call and made a frame's time grow with the deck."""

    def __init__(self, faces: np.ndarray):
        m, c, pixels = len(faces), faces.shape[-1], int(np.prod(faces.shape[1:-1]))  # (no faces: an empty stack)
        self.rows = np.ascontiguousarray(np.moveaxis(faces.reshape(m, pixels, c), -1, 0), np.float32)  # C x M x P
        self.squares = self.rows * self.rows

    def correlate(self, obs: np.ndarray, mask: np.ndarray, members: np.ndarray) -> np.ndarray:
        """`correlate(obs[mask], faces[members][:, mask])` (no trimming), for an H x W x C view."""
        where = np.flatnonzero(mask.ravel())
        n = len(where)
        if n < 20:
            return np.zeros(len(members))
        zo = standardise(obs.reshape(-1, obs.shape[-1])[where])  # n x C
        every = len(members) * 3 >= self.rows.shape[1]  # most cards: all rows, then pick (no copy)
        rows = self.rows if every else self.rows[:, members]
        squares = self.squares if every else self.squares[:, members]
        probe = np.zeros((2, self.rows.shape[2]), np.float32)  # the mask, and the view on it
        probe[0, where] = 1.0
        rho = np.empty((rows.shape[1], len(self.rows)))
        for c in range(len(self.rows)):
            probe[1, where] = zo[:, c]
            sums = (rows[c] @ probe.T).astype(np.float64)  # M x 2: sum of the face, and its dot with the view
            sq = (squares[c] @ probe[0]).astype(np.float64)
            mean = sums[:, 0] / n
            sd = np.sqrt(np.maximum(sq / n - mean * mean, 0.0))
            rho[:, c] = (sums[:, 1] - mean * float(zo[:, c].sum(dtype=np.float64))) / (n * (sd + 1e-3))
        out = rho.mean(axis=1)
        return out[members] if every else out
