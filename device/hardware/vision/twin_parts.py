"""Near-twin duels, judged part by part of what differs.

Near-twins differ in a few small places: a title's suffix ("II"), a mark in a corner. The duel
compares each twin's prediction with the frame there. Summed over every place at once, one bad
place decided it (tuning frames, stop 45: 14 of 400 twin frames named the other twin):
- *A finger over a mark* is flat, as the blank twin is there, and its error outweighed a suffix
  seen clearly elsewhere. A part whose light pixels show a colour neither twin has there is under
  something else, and says nothing (`occluded`).
- *A fit a few pixels off* at the card's far end moves the mark out of the place compared, and
  the blank twin wins again. Each part is compared where its surroundings, which both twins
  share, actually sit in the warp (`local_shift`).
- *The edge of the view*: the band-pass smears the black outside the frame over the pixels
  next to it, which then look like no twin's face. The warp continues the frame's edge outward
  instead, and the view keeps clear of its border (`detail_view`).
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from device.hardware.vision.appearance import bandpass

MIN_PART_PIXELS = 12  # a part with fewer pixels in view is not compared
_SEEN_SUM = 240  # B + G + R, light taken out: a frame pixel this bright has a usable chromaticity (noise in
# a dim pixel's chromaticity grows as its brightness falls)
_MIN_GAIN = 0.05  # a channel's gain below this: the camera barely sees it
_MIN_LIGHT_PIXELS = 8  # light pixels in view under which a part's colour is not checked
_LIGHT_SUM = 240  # B + G + R: a face pixel this light has a reliable chromaticity
_ALIKE_COLOUR = 40.0  # BGR (L1): a face pixel this near a part's colour is of that colour
_MIN_ALIKE_PIXELS = (
    10  # ... and this many of them (every 4th pixel), elsewhere on the card, show how the light renders it
)
_MIN_CONTEXT = 40  # shared pixels round a part needed to measure where it sits
_MIN_CONTEXT_ENERGY = 20.0  # mean squared band-passed level: less is a flat surrounding, which places nothing
_MIN_SHIFT_FIT = 0.5  # a shift's correlation with the surroundings must reach this ...
_SHIFT_GAIN = 0.1  # ... and beat no shift's by this much
_MIN_GAIN_PIXELS = 15  # (every 4th pixel)


@dataclass(frozen=True)
class Part:
    """One connected piece of where two twins differ, and the box of it and its surroundings."""

    mask: np.ndarray  # bool, detail-face size
    box: tuple[int, int, int, int]  # y0, y1, x0, x1: the part dilated by the shift reach


@dataclass(frozen=True)
class Reading:
    """A part's face pixels and the warp's pixels that show them (index arrays, y then x)."""

    face: tuple[np.ndarray, np.ndarray]
    frame: tuple[np.ndarray, np.ndarray]

    def __len__(self) -> int:
        return len(self.face[0])


@dataclass(frozen=True)
class DetailView:
    """The frame warped onto the detail face: band-passed, as it was (float), and what is usable."""

    obs: np.ndarray
    raw: np.ndarray
    valid: np.ndarray


def parts_of(differ: np.ndarray, reach: int) -> tuple[Part, ...]:
    """The connected parts of a twin pair's difference mask, each boxed with `reach` pixels round it."""
    n, labels = cv2.connectedComponents(differ.astype(np.uint8))
    h, w = differ.shape
    out = []
    for k in range(1, n):
        mask = labels == k
        ys, xs = np.nonzero(mask)
        box = (
            max(0, int(ys.min()) - reach),
            min(h, int(ys.max()) + 1 + reach),
            max(0, int(xs.min()) - reach),
            min(w, int(xs.max()) + 1 + reach),
        )
        out.append(Part(mask, box))
    return tuple(out)


def detail_view(
    frame: np.ndarray, m: np.ndarray, size: tuple[int, int], sigma: float, glare_level: int, erode: int
) -> DetailView:
    """The frame through frame -> detail face map `m`. Outside the frame the warp repeats the
    frame's edge (black there would band-pass into the pixels beside it), and the usable view
    keeps `erode` // 2 pixels clear of its border and of saturated glare."""
    img = frame if frame.ndim == 3 else cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    warped = cv2.warpPerspective(img, m, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    k5 = np.ones((5, 5), np.uint8)
    glare = cv2.dilate((warped.min(axis=2) >= glare_level).astype(np.uint8), k5).astype(bool)
    raw = warped.astype(np.float32)
    obs = bandpass(raw, sigma)
    if frame.ndim == 2:
        obs = np.repeat((obs @ np.float32([0.114, 0.587, 0.299]))[..., None], 3, axis=2)
    inside = cv2.warpPerspective(np.full(img.shape[:2], 255, np.uint8), m, size, flags=cv2.INTER_NEAREST)
    valid = cv2.erode((inside > 0).astype(np.uint8), np.ones((erode, erode), np.uint8)).astype(bool)
    return DetailView(obs, raw, valid & ~glare)


def colour_gain(raw: np.ndarray, face: np.ndarray, where: np.ndarray) -> np.ndarray:
    """Per-channel gain from a face to the frame (median ratio over `where`'s lit pixels): the
    light's level and colour, robust to the fingers and glare on part of the card."""
    raw, face, where = raw[::2, ::2], face[::2, ::2], where[::2, ::2]  # every 4th pixel is plenty (speed)
    lit = where & (face.mean(axis=2) > 40)
    if lit.sum() < _MIN_GAIN_PIXELS:
        return np.ones(3, np.float32)
    return np.median(raw[lit] / np.maximum(face[lit], 8.0), axis=0).astype(np.float32)


def uncovered(
    raw: np.ndarray,
    face_a: np.ndarray,
    face_b: np.ndarray,
    at: Reading,
    shared: np.ndarray,
    gain: np.ndarray,
    bar: float,
) -> Reading:
    """A part's pixels less those that something else covers: light in the warp where a twin's
    face is light too, and further in chromaticity (light level and colour cast taken out) from
    the nearer such face, by `bar` (L1), than the card's other pixels of that face colour (in
    `shared`) are from theirs (median). Chromaticity, not brightness: a glare halo or a shadow
    changes the level, a finger the colour. Against the card's own pixels of that colour,
    because the light is not only a gain per channel (a bright white clips, a lamp tints one
    colour more than another); with too few of them to compare with, nothing is taken out.
    Dark pixels are kept: their chromaticity is noise, and a dark mark is what the duel is for."""
    if float(gain.min()) < _MIN_GAIN:
        return at  # a channel the camera barely sees: no chromaticity to compare
    fa, fb = face_a[at.face], face_b[at.face]
    seen = raw[at.frame] / gain
    light_a, light_b = _flat_light(face_a)[at.face], _flat_light(face_b)[at.face]
    testable = (light_a | light_b) & (seen.sum(axis=1) > _SEEN_SUM)
    if testable.sum() < _MIN_LIGHT_PIXELS:
        return at
    c = _chroma(seen)
    dist = np.full(len(at), np.inf)
    for face, light in ((fa, light_a), (fb, light_b)):
        d = np.abs(c - _chroma(face)).sum(axis=1)
        dist = np.where(light, np.minimum(dist, d), dist)
    if not (testable & (dist > bar)).any():
        return at  # nothing off even against a perfectly rendered card (speed: most parts)
    light_face = np.where(light_a[:, None], fa, fb)[testable]
    raw4, face4 = raw[::2, ::2], face_a[::2, ::2]  # the card's other pixels: every 4th is plenty (speed)
    alike = shared[::2, ::2] & (np.abs(face4 - light_face.mean(axis=0)).sum(axis=2) < _ALIKE_COLOUR)
    alike &= face4.sum(axis=2) > _LIGHT_SUM
    if alike.sum() < _MIN_ALIKE_PIXELS:
        return at
    card = np.abs(_chroma(raw4[alike] / gain) - _chroma(face4[alike])).sum(axis=1)
    keep = ~(testable & (dist > float(np.median(card)) + bar))
    return Reading((at.face[0][keep], at.face[1][keep]), (at.frame[0][keep], at.frame[1][keep]))


def _flat_light(face: np.ndarray) -> np.ndarray:
    """Where a face is light and so are its neighbours (3 x 3): a camera's colour is coarser than
    its brightness (YUV 4:2:0, JPEG), so beside a dark stroke the frame's chromaticity is smeared."""
    light = (face.sum(axis=2) > _LIGHT_SUM).astype(np.uint8)
    return cv2.erode(light, np.ones((3, 3), np.uint8)).astype(bool)


def _chroma(bgr: np.ndarray) -> np.ndarray:
    """Each pixel's share of its B + G + R."""
    return bgr / (bgr.sum(axis=-1, keepdims=True) + 1e-3)


def local_shift(
    obs: np.ndarray, ref: np.ndarray, context: np.ndarray, box: tuple[int, int, int, int], reach: int
) -> tuple[int, int]:
    """(dy, dx) by which the warp shows a part's surroundings moved from where the face has them
    (within `reach`): normalised correlation of the face's `context` pixels in the part's box
    with the warp. (0, 0) when the surroundings are too few or too flat to place anything, or
    no shift correlates clearly better than none."""
    y0, y1, x0, x1 = box
    ctx = context[y0:y1, x0:x1]
    if reach <= 0 or ctx.sum() < _MIN_CONTEXT:
        return (0, 0)
    template = np.ascontiguousarray(ref[y0:y1, x0:x1], np.float32)
    if float((template[ctx] ** 2).mean()) < _MIN_CONTEXT_ENERGY:
        return (0, 0)
    mask = np.repeat(ctx[..., None].astype(np.float32), 3, axis=2)
    padded = cv2.copyMakeBorder(np.ascontiguousarray(obs, np.float32), reach, reach, reach, reach, cv2.BORDER_REPLICATE)
    image = np.ascontiguousarray(padded[y0 : y1 + 2 * reach, x0 : x1 + 2 * reach])
    fit = np.nan_to_num(cv2.matchTemplate(image, template, cv2.TM_CCORR_NORMED, mask=mask), nan=-1.0)
    k = np.unravel_index(int(np.argmax(fit)), fit.shape)
    if fit[k] < _MIN_SHIFT_FIT or fit[k] - fit[reach, reach] < _SHIFT_GAIN:
        return (0, 0)
    return (int(k[0]) - reach, int(k[1]) - reach)


def reading(use: np.ndarray, valid: np.ndarray, shift: tuple[int, int]) -> Reading:
    """A part's face pixels (`use`) and the warp's pixels `shift` away that show them, where those
    are in view too."""
    ys, xs = np.nonzero(use)
    yy, xx = ys + shift[0], xs + shift[1]
    ok = (yy >= 0) & (yy < valid.shape[0]) & (xx >= 0) & (xx < valid.shape[1])
    ok[ok] &= valid[yy[ok], xx[ok]]
    return Reading((ys[ok], xs[ok]), (yy[ok], xx[ok]))


def part_errors(
    obs: np.ndarray, ref_a: np.ndarray, ref_b: np.ndarray, at: Reading, gain: np.ndarray
) -> tuple[float, float]:
    """Each twin's squared prediction error (gain per channel) over a part, as the warp shows it."""
    seen = obs[at.frame]
    ea = float(((seen - gain * ref_a[at.face]) ** 2).sum())
    eb = float(((seen - gain * ref_b[at.face]) ** 2).sum())
    return ea, eb
