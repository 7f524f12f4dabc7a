"""Render every fixed phrase of every message catalogue into the clip cache (scripts/render-voice).

The installer runs this once, and again after an update; clips already rendered are kept, so a
second run takes a moment. The box's announcements that name a game ("Starting {title}.") are
rendered for every installed game too; other phrases with parameters are rendered by the box the
first time it says them, then cached the same way.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from device.box.config import ConfigError, config_dir, load_config
from device.hardware.voice.clips import ClipCache, VoiceStyle, VoiceUnavailable, fixed_phrases
from device.hardware.voice.render import box_messages, render
from games.core import Say
from games.registry import game_ids, load_game


def title_phrases(language: str = "en") -> list[str]:
    """Every box phrase whose only parameter is {title}, for every installed game."""
    keys = [k for k, text in box_messages(language).items() if "{title}" in text and text.count("{") == 1]
    out: set[str] = set()
    for game_id in game_ids():
        title = load_game(game_id).info.title
        out.update(render(Say(key, {"title": title}), game_id, language) for key in keys)
    return sorted(out)


def phrases_for(language: str = "en") -> list[str]:
    """What the installer pre-renders: every fixed phrase, and the game-naming ones."""
    return sorted(set(fixed_phrases(language)) | set(title_phrases(language)))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="render-voice", description=__doc__)
    parser.add_argument("--config", help="directory with houston.toml (default: the box's)")
    parser.add_argument("--data-dir", help="the box's data directory; clips go to DATA_DIR/voice")
    parser.add_argument("--language", help="catalogue language (default from houston.toml)")
    args = parser.parse_args(argv)
    try:
        settings, _ = load_config(config_dir(args.config))
    except ConfigError as exc:
        print(f"render-voice: {exc}", file=sys.stderr)
        return 2
    data_dir = Path(args.data_dir or settings.data_dir)
    language = args.language or settings.language
    clips = ClipCache(data_dir / "voice", VoiceStyle(settings.voice, settings.voice_speed))
    phrases = phrases_for(language)
    started = time.monotonic()
    try:
        new, kept = clips.render_all(phrases)
    except VoiceUnavailable as exc:
        print(f"render-voice: {exc}", file=sys.stderr)
        return 1
    print(f"{len(phrases)} phrases: {new} rendered, {kept} already cached, in {clips.directory} "
          f"({time.monotonic() - started:.1f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
