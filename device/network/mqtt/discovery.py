"""Home Assistant MQTT discovery: the box appears as one device an automation can trust.

Per-entity discovery (homeassistant/<component>/<box>/<object>/config, retained); all entities
share one `device` block, so they group under one device named once ("Houston 1" for box
`houston-1`, else "Houston <box>"), with `configuration_url` pointing at the dashboard.

- Sensors read the retained summary topic (device/network/mqtt/summary.py): game, phase, whose
  turn, round, dice, winner and last result (kept at idle and across a restart), last
  announcement, selected game, and one score sensor per team colour with that team's counters as
  attributes. "Not started" is None, which Home Assistant shows as "unknown".
- The `Result` event entity reads the results topic, which carries results only (`game_over`,
  `round_result`), one message per result, never retained (and Home Assistant ignores retained
  payloads for events anyway), so a restart never replays one.
- Buttons and a select send the safe public commands (repeat, start the selected game, select a
  game) on houston/<box>/cmd/homeassistant/<name>, which the broker's ACL lets `homeassistant` write.

Needs Home Assistant 2023.8 or newer: the MQTT `event` platform arrived in 2023.8 (tried with
Core 2024.3.3). Older releases ignore the event entity and keep the rest. Republished when
homeassistant/status says online. The box says `online` only after this and its fresh state.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from device.network.mqtt.topics import OFFLINE, ONLINE, Topics
from games.core import TEAM_COLOURS

PREFIX = "homeassistant"
STATUS_TOPIC = f"{PREFIX}/status"
HA_USER = "homeassistant"  # its MQTT user: commands go on cmd/homeassistant/ (the ACL)
MIN_HA_VERSION = "2023.8"
RESULT_TYPES = ("game_over", "round_result")


def device_name(box: str) -> str:
    """'houston-1' -> 'Houston 1'; any other id -> 'Houston <id>' (the box id appears once)."""
    if box.lower().startswith("houston"):
        rest = box[len("houston"):].strip("-_ ")
        return f"Houston {rest}".strip()
    return f"Houston {box}"


def device_block(box: str, version: str, dashboard_url: str | None = None) -> dict[str, Any]:
    block: dict[str, Any] = {
        "identifiers": [f"houston_{box}"],
        "name": device_name(box),
        "manufacturer": "Houston",
        "model": "Houston games referee",
        "sw_version": version,
    }
    if dashboard_url:
        block["configuration_url"] = dashboard_url
    return block


def _none_if_missing(expr: str) -> str:
    """A template printing `expr`, or None (Home Assistant: unknown) when it is null or absent."""
    return f"{{{{ {expr} if {expr} is defined and {expr} is not none else 'None' }}}}"


def discovery_messages(
    topics: Topics,
    version: str = "0",
    *,
    dashboard_url: str | None = None,
    games: Sequence[tuple[str, str]] = (),
) -> list[tuple[str, dict[str, Any]]]:
    """(config topic, config payload) for every entity of this box. `games`: (id, title) pairs."""
    box = topics.box
    device = device_block(box, version, dashboard_url)

    def common(object_id: str, name: str, icon: str) -> dict[str, Any]:
        return {
            "name": name,
            "unique_id": f"houston_{box}_{object_id}",
            "availability_topic": topics.availability,
            "payload_available": ONLINE.decode(),
            "payload_not_available": OFFLINE.decode(),
            "device": device,
            "origin": {"name": "Houston", "sw_version": version},
            "icon": icon,
        }

    out: list[tuple[str, dict[str, Any]]] = []
    sensors = {
        "game": ("Game", "value_json.game", "mdi:dice-multiple"),
        "phase": ("Phase", "value_json.phase", "mdi:timeline-clock"),
        "turn": ("Whose turn", "value_json.turn", "mdi:account-arrow-right"),
        "round": ("Round", "value_json.round", "mdi:counter"),
        "dice": ("Dice", "value_json.dice", "mdi:dice-5"),
        "winner": ("Winner", "value_json.winner", "mdi:trophy-outline"),
        "selected": ("Selected game", "value_json.selected", "mdi:format-list-bulleted"),
        "prompt": ("Waiting for", "value_json.prompt", "mdi:gesture-tap"),
        "announcement": ("Last announcement", "value_json.announcement", "mdi:bullhorn"),
    }
    for object_id, (name, expr, icon) in sensors.items():
        config = common(object_id, name, icon)
        config.update({"state_topic": topics.summary, "value_template": _none_if_missing(expr)})
        if object_id == "winner":
            config.update({"json_attributes_topic": topics.summary,
                           "json_attributes_template": "{{ (value_json.last_result or {}) | tojson }}"})
        if object_id in ("prompt", "announcement"):
            value = f"value_json.{object_id}"
            config["value_template"] = "{{ " + value + " | truncate(250) if " + value + " else 'None' }}"
        out.append((f"{PREFIX}/sensor/{box}/{object_id}/config", config))
    for team in TEAM_COLOURS:
        config = common(f"score_{team}", f"{team.capitalize()} score", "mdi:scoreboard-outline")
        config.update({
            "state_topic": topics.summary,
            "value_template": _none_if_missing(f"value_json.scores.{team}"),
            "json_attributes_topic": topics.summary,
            "json_attributes_template": f"{{{{ (value_json.teams.{team} if value_json.teams.{team} is defined "
                                        f"else {{}}) | tojson }}}}",
        })
        out.append((f"{PREFIX}/sensor/{box}/score_{team}/config", config))
    event = common("result", "Result", "mdi:trophy")
    event.update({"state_topic": topics.results, "event_types": list(RESULT_TYPES)})
    out.append((f"{PREFIX}/event/{box}/result/config", event))
    for object_id, name, command, icon in (("repeat", "Repeat", "repeat", "mdi:repeat"),
                                           ("start", "Start game", "start_game", "mdi:play")):
        button = common(object_id, name, icon)
        button.update({"command_topic": topics.command(command, user=HA_USER), "payload_press": "{}"})
        out.append((f"{PREFIX}/button/{box}/{object_id}/config", button))
    if games:
        ids = {title: game_id for game_id, title in games}
        select = common("select_game", "Game to play", "mdi:dice-multiple-outline")
        select.update({
            "command_topic": topics.command("select_game", user=HA_USER),
            "command_template": "{{ {'game': " + json.dumps(ids) + "[value]} | tojson }}",
            "state_topic": topics.summary,
            "value_template": "{{ value_json.selected }}",
            "options": [title for _, title in games],
        })
        out.append((f"{PREFIX}/select/{box}/select_game/config", select))
    return out
