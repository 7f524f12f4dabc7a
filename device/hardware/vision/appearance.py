"""Comparing a warped frame with enrolled faces: band-pass filtering and robust correlation.

Kept apart from the identifier because it is pure array arithmetic with its own reasons: per
channel correlation ignores colour casts and light level, the band-pass ignores shading and glare
halos, and trimming ignores fingers and the glare spot.
"""

from __future__ import annotations

import cv2
import numpy as np

from device.hardware.vision.channels import channel_sum


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
    """
    n = len(obs)
    if n < 20:
        return np.zeros(len(refs))
    zo = standardise(obs)
    zr = standardise(refs)
    rho = np.einsum("nc,mnc->mc", zo, zr) / n
    if trim <= 0:
        return rho.mean(axis=1)
    out = np.empty(len(refs))
    keep_n = max(20, int(n * (1.0 - trim)))
    for m in range(len(refs)):
        resid = channel_sum(np.abs(zo - rho[m] * zr[m]))
        keep = np.argpartition(resid, keep_n - 1)[:keep_n]
        a, b = standardise(obs[keep]), standardise(refs[m][keep])
        out[m] = float((a * b).sum()) / (3 * keep_n)
    return out


def standardise(x: np.ndarray) -> np.ndarray:
    """Zero mean, unit deviation per colour channel along the pixel axis (second to last).

    A C-ordered array has a pixel's 3 channels innermost, and every numpy loop over it was 3 long:
    it is worked on channel-major rows instead. numpy's reduce over the pixel axis adds pixel after
    pixel, and `add.accumulate` on the rows makes the same additions in the same order: the same
    bits. Other layouts (a mask applied across faces puts the pixels outermost) keep the reduce,
    which is fast there."""
    if not x.flags.c_contiguous or x.ndim < 2:
        return _standardise_by_reduce(x)
    inv_n = 1.0 / x.shape[-2]  # sums times 1/n: np.mean's bookkeeping costs more than the sums here
    rows = np.ascontiguousarray(np.swapaxes(x, -2, -1))
    rows = rows - _sequential_sums(rows) * inv_n
    rows = rows / (np.sqrt(_sequential_sums(rows * rows) * inv_n) + 1e-3)
    return np.ascontiguousarray(np.swapaxes(rows, -2, -1))


def _standardise_by_reduce(x: np.ndarray) -> np.ndarray:
    """`standardise` as first written, for layouts where numpy's reduce has long inner loops."""
    inv_n = 1.0 / x.shape[-2]
    x = x - np.add.reduce(x, axis=-2, keepdims=True) * inv_n
    return x / (np.sqrt(np.add.reduce(x * x, axis=-2, keepdims=True) * inv_n) + 1e-3)


def _sequential_sums(rows: np.ndarray) -> np.ndarray:
    """Each row's sum, added left to right (not pairwise), kept as a column."""
    return np.add.accumulate(rows, axis=-1)[..., -1:]


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
