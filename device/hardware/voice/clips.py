"""Spoken clips rendered with espeak-ng and cached on disk by a hash of what they say.

Rendering takes tens of milliseconds on a laptop and a few hundred on a Pi, too slow for the
moment a button is pressed, so every fixed phrase of every catalogue is rendered ahead of time
(`scripts/render-voice`, run by the installer). A phrase with parameters ("Starting {title}.")
is rendered the first time it is needed and kept, so the second time it is instant too.

The file name is a hash of the engine version, voice, speed and text: change any of them and the
clip is simply rendered again; nothing ever has to be invalidated by hand.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cache
from pathlib import Path

FIELD = re.compile(r"\{[^{}]*\}")


class VoiceUnavailable(RuntimeError):
    """espeak-ng is not installed or failed; str() says which."""


@dataclass(frozen=True)
class VoiceStyle:
    voice: str = "en"
    speed: int = 160  # words per minute: espeak's default 175 is hurried across a noisy table
    pitch: int = 50


@cache
def espeak_binary() -> str | None:
    return shutil.which("espeak-ng")


@cache
def engine_version() -> str:
    binary = espeak_binary()
    if binary is None:
        return "none"
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return "unknown"
    return out.stdout.split("Data at")[0].strip() or "unknown"


def clip_name(text: str, style: VoiceStyle) -> str:
    digest = hashlib.sha256(f"{engine_version()}\n{style.voice}\n{style.speed}\n{style.pitch}\n{text}".encode())
    return digest.hexdigest()[:24] + ".wav"


class ClipCache:
    """A directory of rendered clips. Safe to share between processes: files appear atomically."""

    def __init__(self, directory: Path, style: VoiceStyle | None = None) -> None:
        self.directory = Path(directory)
        self.style = style or VoiceStyle()

    def path_for(self, text: str) -> Path:
        return self.directory / clip_name(text, self.style)

    def cached(self, text: str) -> Path | None:
        path = self.path_for(text)
        return path if path.is_file() else None

    def render(self, text: str) -> Path:
        """The clip for `text`, rendering it now if it is not cached yet."""
        path = self.path_for(text)
        if path.is_file():
            return path
        binary = espeak_binary()
        if binary is None:
            raise VoiceUnavailable("espeak-ng is not installed (apt install espeak-ng)")
        self.directory.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{id(text)}.tmp")
        style = self.style
        cmd = [binary, "-v", style.voice, "-s", str(style.speed), "-p", str(style.pitch), "-w", str(tmp), "--", text]
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=30, check=False)
            if done.returncode != 0 or not tmp.is_file() or tmp.stat().st_size <= 44:
                raise VoiceUnavailable(f"espeak-ng failed on {text!r}: {done.stderr.strip() or done.returncode}")
            os.replace(tmp, path)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise VoiceUnavailable(f"espeak-ng failed on {text!r}: {exc}") from exc
        finally:
            tmp.unlink(missing_ok=True)
        return path

    def render_all(self, texts: Iterable[str], workers: int | None = None) -> tuple[int, int]:
        """Render every text not yet cached; returns (rendered now, already cached)."""
        todo = sorted({t for t in texts if t.strip()})
        missing = [t for t in todo if self.cached(t) is None]
        with ThreadPoolExecutor(max_workers=workers or os.cpu_count() or 2) as pool:
            list(pool.map(self.render, missing))
        return len(missing), len(todo) - len(missing)


def catalogues(language: str = "en") -> list[dict[str, str]]:
    """The box's catalogue and every installed game's, for `language` (read as the voice reads
    them: from the packages, so an installed box and a game outside this folder are included)."""
    from device.hardware.voice.render import box_messages
    from games.data import messages
    from games.registry import game_ids

    return [box_messages(language), *(messages(f"games.{game_id}", language) for game_id in game_ids())]


def fixed_phrases(language: str = "en") -> list[str]:
    """Every phrase with no {parameter}: these are rendered ahead of time."""
    phrases: set[str] = set()
    for table in catalogues(language):
        phrases.update(text for text in table.values() if isinstance(text, str) and not FIELD.search(text))
    return sorted(phrases)
