"""Home Assistant MQTT discovery: the box appears as one device with sensors and a results event.

Per-entity discovery (homeassistant/<component>/<box>/<object>/config, retained), which every
Home Assistant release with MQTT discovery understands; all entities share one `device` block, so
they group under one device. Sensors read the retained state topic; the event entity and the
announcement sensor read the events topic. Republished when homeassistant/status says online.
"""

from __future__ import annotations

from typing import Any

from device.network.mqtt.topics import OFFLINE, ONLINE, Topics

PREFIX = "homeassistant"
STATUS_TOPIC = f"{PREFIX}/status"
EVENT_TYPES = ("game_over", "say", "prompt", "error", "sound", "light")


def device_block(box: str, version: str) -> dict[str, Any]:
    return {
        "identifiers": [f"houston_{box}"],
        "name": f"Houston {box}",
        "manufacturer": "Houston",
        "model": "Houston games referee",
        "sw_version": version,
    }


def _common(topics: Topics, box: str, object_id: str, name: str, version: str) -> dict[str, Any]:
    return {
        "name": name,
        "unique_id": f"houston_{box}_{object_id}",
        "availability_topic": topics.availability,
        "payload_available": ONLINE.decode(),
        "payload_not_available": OFFLINE.decode(),
        "device": device_block(box, version),
        "origin": {"name": "Houston", "sw_version": version},
    }


def discovery_messages(topics: Topics, version: str = "0") -> list[tuple[str, dict[str, Any]]]:
    """(config topic, config payload) for every entity of this box."""
    box = topics.box
    sensors = {
        "game": ("Game", topics.state,
                 "{{ value_json.game.title if value_json.game else 'idle' }}", "mdi:dice-multiple"),
        "phase": ("Phase", topics.state,
                  "{{ value_json.game.phase if value_json.game and value_json.game.phase is defined "
                  "else value_json.mode }}", "mdi:timeline-clock"),
        "round": ("Round", topics.state,
                  "{{ value_json.game.round if value_json.game and value_json.game.round is defined "
                  "else 'none' }}", "mdi:counter"),
        "prompt": ("Waiting for", topics.state, "{{ value_json.prompt.text | truncate(250) }}", "mdi:gesture-tap"),
        "announcement": ("Last announcement", topics.events,
                         "{{ value_json.text | truncate(250) if value_json.type in ['say', 'prompt', 'error'] "
                         "else this.state }}", "mdi:bullhorn"),
    }
    out: list[tuple[str, dict[str, Any]]] = []
    for object_id, (name, state_topic, template, icon) in sensors.items():
        config = _common(topics, box, object_id, name, version)
        config.update({"state_topic": state_topic, "value_template": template, "icon": icon})
        out.append((f"{PREFIX}/sensor/{box}/{object_id}/config", config))
    event = _common(topics, box, "result", "Result", version)
    event.update({
        "state_topic": topics.events,
        "event_types": list(EVENT_TYPES),
        "value_template": "{{ dict(value_json, event_type=value_json.type) | tojson }}",
        "icon": "mdi:trophy",
    })
    out.append((f"{PREFIX}/event/{box}/result/config", event))
    return out
