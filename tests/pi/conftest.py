"""Fixtures for the Pi adapters: a silent-but-real pygame mixer (SDL's dummy driver), a clip cache
in a temp dir, and a box on mock pins with the real speaker and status light attached."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

from device.hardware.voice.clips import ClipCache
from device.hardware.voice.speaker import Mixer, Speaker


@pytest.fixture
def clips(tmp_path: Path) -> ClipCache:
    return ClipCache(tmp_path / "voice")


@pytest.fixture
def speaker(clips: ClipCache, monkeypatch: pytest.MonkeyPatch) -> Iterator[Speaker]:
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    mixer = Mixer(0.5)
    assert mixer.ok, mixer.problem
    spk = Speaker(clips, mixer=mixer)
    yield spk
    spk.close()
