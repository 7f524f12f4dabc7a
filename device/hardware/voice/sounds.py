"""The box's non-spoken sounds, synthesised with numpy so no sample files need shipping.

Each sound has a job at the table: `confirm` (an input was saved), `error` (refused), `dice`
(a roll), `alarm` (time is up / attention) and `fanfare` (game over). All are 16-bit mono at
RATE, short, and faded in and out so they never click.
"""

from __future__ import annotations

import wave
from collections.abc import Callable
from pathlib import Path

import numpy as np

RATE = 44100
PEAK = 0.6  # leave headroom: the box speaker distorts near full scale


def _t(seconds: float) -> np.ndarray:
    return np.arange(int(RATE * seconds)) / RATE


def _fade(x: np.ndarray, seconds: float = 0.005) -> np.ndarray:
    n = min(len(x) // 2, int(RATE * seconds))
    if n:
        ramp = np.linspace(0.0, 1.0, n)
        x = x.copy()
        x[:n] *= ramp
        x[-n:] *= ramp[::-1]
    return x


def _tone(freq: float, seconds: float, shape: str = "sine") -> np.ndarray:
    phase = 2 * np.pi * freq * _t(seconds)
    wave_ = np.sin(phase) if shape == "sine" else np.sign(np.sin(phase)) * 0.5
    return _fade(wave_)


def _silence(seconds: float) -> np.ndarray:
    return np.zeros(int(RATE * seconds))


def confirm() -> np.ndarray:
    """Two quick rising notes."""
    return np.concatenate([_tone(880, 0.06), _silence(0.015), _tone(1320, 0.08)])


def error() -> np.ndarray:
    """A low buzz, twice."""
    buzz = _tone(140, 0.14, "square") + 0.3 * _tone(210, 0.14, "square")
    return np.concatenate([buzz, _silence(0.05), buzz])


def dice() -> np.ndarray:
    """Dice rattling: short noise clicks, denser then sparser (fixed seed: the same every time)."""
    rng = np.random.default_rng(7)
    out = _silence(0.55)
    at = 0.0
    gap = 0.012
    while at < 0.5:
        start = int(at * RATE)
        click = rng.uniform(-1, 1, int(0.008 * RATE)) * np.exp(-np.linspace(0, 6, int(0.008 * RATE)))
        out[start : start + len(click)] += click
        at += gap
        gap *= 1.12
    return _fade(out)


def alarm() -> np.ndarray:
    """Three two-tone whoops."""
    whoop = np.concatenate([_tone(988, 0.12), _tone(740, 0.12)])
    return np.concatenate([whoop, _silence(0.06)] * 3)


def fanfare() -> np.ndarray:
    """A rising major arpeggio with a held top note."""
    notes = [(523.25, 0.12), (659.25, 0.12), (783.99, 0.12), (1046.5, 0.45)]
    parts = []
    for freq, seconds in notes:
        tone = _tone(freq, seconds) + 0.3 * _tone(freq * 2, seconds)
        parts += [tone, _silence(0.02)]
    return np.concatenate(parts)


SOUNDS: dict[str, Callable[[], np.ndarray]] = {
    "confirm": confirm,
    "error": error,
    "dice": dice,
    "alarm": alarm,
    "fanfare": fanfare,
}


def pcm16(samples: np.ndarray) -> np.ndarray:
    """Float samples in about -1..1 → int16 at PEAK of full scale."""
    peak = float(np.max(np.abs(samples))) or 1.0
    return (samples / peak * PEAK * 32767).astype(np.int16)


def synthesise(name: str) -> np.ndarray:
    """int16 mono samples at RATE for sound `name` (KeyError for an unknown sound)."""
    return pcm16(SOUNDS[name]())


def write_wav(path: Path, samples: np.ndarray, rate: int = RATE) -> None:
    with wave.open(str(path), "wb") as out:
        out.setnchannels(1)
        out.setsampwidth(2)
        out.setframerate(rate)
        out.writeframes(samples.astype("<i2").tobytes())
