"""What the box shows about itself and the game: the public view every display reads, and the
team views that go only to each team's topic.

Only these leave the service: the public view carries the game's own `public_view` and the
prompt, never the state; a team view is the game's `team_view` for that team alone.
"""

from __future__ import annotations

import json
from typing import Any

from games.core import Prompt
from games.registry import installed_games
from games.session import Session

PUBLIC_SCHEMA = 1
IDLE_ACCEPTS = ("press:ok", "hold:repeat")
IDLE_LIGHTS = ("ok",)


def public_view(*, box_id: str, selected: str, running: Session | None, shown: Session | None,
                prompt: Prompt | None, ask_key: str, ask_text: str,
                last_result: dict[str, Any] | None = None) -> dict[str, Any]:
    """The box's public state: mode, the installed games, the game's public view (of the game in
    progress, else the one just finished while it is still selected), the prompt, whether BACK
    can undo, and the result of the last finished game. Nothing else."""
    return {
        "schema": PUBLIC_SCHEMA,
        "box": box_id,
        "mode": "game" if running is not None else "idle",
        "selected": selected,
        "games": [{"id": g.info.id, "title": g.info.title} for g in installed_games()],
        "game": shown.game.public_view(shown.state) if shown is not None else None,
        "prompt": {
            "key": ask_key,
            "text": ask_text,
            "accepts": list(prompt.accepts) if prompt else list(IDLE_ACCEPTS),
            "lights": list(prompt.lights) if prompt else list(IDLE_LIGHTS),
        },
        "can_undo": bool(running and running.undo_stack),
        "last_result": last_result,
    }


def team_views(shown: Session | None) -> dict[str, dict[str, Any]]:
    """Each playing team's private view (for that team's topic only)."""
    if shown is None:
        return {}
    return {team: shown.game.team_view(shown.state, team) for team in shown.game.teams(shown.state)}


def public_json(seq: int, public: dict[str, Any]) -> bytes:
    """The public view as it is sent (the MQTT state payload): compact JSON, keys sorted so equal
    views give equal bytes, with `schema` and the update's `seq`."""
    return json.dumps({**public, "schema": PUBLIC_SCHEMA, "seq": seq}, separators=(",", ":"), sort_keys=True,
                      ensure_ascii=False).encode("utf-8")
