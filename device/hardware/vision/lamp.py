"""The colour of the light on a frame, as a lamp's colour temperature (for the badge finder).

A plain card's field is found by its chromaticity, and the light's colour moves that: under a
warm room lamp (2,700-3,300 K, most home lighting) a blue field's chromaticity moves by ~0.3
(L1), past the finder's tolerance and its seek radius, and a warm table then lies nearer the
field's enrolled colour than the field itself (stop 43, tuning seeds). The appearance checks do
not suffer: they judge a field's colour over the card's own white, where a per-channel gain
cancels. So only the search needs the light: this estimates it once per frame from the frame's
brightest colours (a white-patch estimate) and keeps it only when it lies on the locus of
black-body lamps, away from neutral daylight.
"""

from __future__ import annotations

import numpy as np

_REFERENCE_K = 6500.0  # enrolled faces are scans: their white is daylight
_BRIGHT_PERCENTILE = 99  # per channel: the frame's white (a card's border or emblem, paper, a lamp's glare)
_LOCUS_MAX = 0.06  # an estimate further (L1 chromaticity) from every lamp is some coloured thing, not the light
_NEUTRAL_MIN = 0.04  # a lamp this close to daylight (L1 chromaticity) changes nothing worth a second search


def blackbody_bgr(kelvin: float) -> np.ndarray:
    """A black body's colour at `kelvin` in sRGB (B, G, R, 1-255): Tanner Helland's published
    fit of the CIE colour-matching data (good to a few levels from 1,000 to 40,000 K)."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.698727446 * (t - 60) ** -0.1332047592
    g = 99.4708025861 * np.log(t) - 161.1195681661 if t <= 66 else 288.1221695283 * (t - 60) ** -0.0755148492
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5177312231 * np.log(t - 10) - 305.0447927307)
    return np.clip(np.array([b, g, r], np.float64), 1.0, 255.0)


def lamp_gains(kelvin: float) -> np.ndarray:
    """Per-channel gains (B, G, R, mean 1) of a lamp at `kelvin` over daylight."""
    g = blackbody_bgr(kelvin) / blackbody_bgr(_REFERENCE_K)
    return (g * 3 / g.sum()).astype(np.float32)


_LOCUS_K = np.arange(2500.0, 13001.0, 250.0)
_LOCUS = np.array([lamp_gains(k) / 3 for k in _LOCUS_K], np.float32)  # chromaticity of each lamp's gains


def frame_lamp(img: np.ndarray) -> np.ndarray | None:
    """The light on a (small) BGR frame as per-channel gains over daylight (mean 1), or None when
    it is near daylight or its colour is not a lamp's. The brightest colours of a frame are its
    whites lit by the lamp; on a frame with none (a coloured table alone) the estimate is that
    colour, which lies off the locus or only adds one search the judge then refuses."""
    pix = np.asarray(img, np.float32).reshape(-1, 3)
    if len(pix) == 0:
        return None
    e = np.percentile(pix, _BRIGHT_PERCENTILE, axis=0)
    if float(e.min()) <= 0:
        return None
    e = e / e.sum()
    d = np.abs(_LOCUS - e).sum(axis=1)
    k = int(np.argmin(d))
    if d[k] > _LOCUS_MAX or float(np.abs(_LOCUS[k] - 1 / 3).sum()) < _NEUTRAL_MIN:
        return None
    return (_LOCUS[k] * 3).astype(np.float32)
