"""Helpers for tests: a whole box on mock pins with a real journal in a temporary directory."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from device.simulation.simbox import SimBox


def make_box(data_dir: Path, game: str | None = None, options: Mapping[str, Any] | None = None,
             **kw: Any) -> SimBox:
    """A started SimBox with `game` selected (default: the configured game). With `options` (even
    {}), that game is also started with those options, as the MQTT start_game command would;
    without, the box waits at idle and a press of OK starts it."""
    box = SimBox(Path(data_dir), game=game, **kw)
    if options is not None:
        reply = box.command("start_game", {"game": box.service.selected, "options": dict(options)})
        if reply["status"] != "ok":
            box.close()
            raise ValueError(f"could not start {game}: {reply}")
    return box
