"""Home Assistant as a real installation sees the box: its documented MQTT semantics applied to
what the box publishes over a scripted game, a broker restart, a box restart and an HA restart.

The model (`HomeAssistant` below) does what Home Assistant's MQTT integration documents and does:
- an entity is built from its discovery config; its Jinja templates are rendered with `value_json`
  (Jinja2, as HA does; a rendered `None` means the state is unknown);
- with `availability_topic`, the entity is `unavailable` until `payload_available` arrives, and
  whenever `payload_not_available` does;
- an entity's state changes only when its value changes; a state trigger fires on a change,
  honouring `to`, `from` and `not_from`;
- retained messages are delivered again on every (re)subscribe (broker restart, HA restart);
- an event entity fires on each message whose `event_type` is one of its `event_types`, and ignores
  retained messages (homeassistant/components/mqtt/event.py); its state is the firing's time and
  it restores that state across an HA restart.

The two automations of docs/mqtt.md are read from that file and run against the stream: exactly
one game-over trigger per finished game, none on any reconnect or restart; the tablet card shows
the scores.
"""

from __future__ import annotations

import itertools
import json
import re
import time
from pathlib import Path
from typing import Any

import jinja2
import pytest
import yaml

from device.box.config import Settings
from device.network.mqtt.broker import Broker
from device.network.mqtt.discovery import device_name
from device.network.mqtt.outlet import SUMMARY_INTERVAL
from device.simulation.testing import make_box
from games.registry import game_ids, load_game
from games.session import Session
from tests.dashboard.drive import play, start
from tests.support.broker import CONNECT_WAIT, Probe, link_box

DOCS = Path(__file__).resolve().parents[2] / "docs" / "mqtt.md"
_env = jinja2.Environment(undefined=jinja2.Undefined)
_env.filters["tojson"] = lambda v: json.dumps(v)
_clock = itertools.count(1)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")


def render(template: str, payload: bytes) -> str:
    value = payload.decode()
    try:
        value_json = json.loads(value)
    except ValueError:
        value_json = None
    return _env.from_string(template).render(value=value, value_json=value_json).strip()


class Entity:
    def __init__(self, component: str, config: dict[str, Any]) -> None:
        self.component = component
        self.config = config
        self.entity_id = f"{component}.{slug(config['device']['name'] + ' ' + config['name'])}"
        self.available = "availability_topic" not in config
        self.value: str | None = None
        self.attributes: dict[str, Any] = {}

    @property
    def state(self) -> str:
        if not self.available:
            return "unavailable"
        return "unknown" if self.value is None else self.value


class HomeAssistant:
    """The documented behaviour of HA's MQTT integration, fed with the messages HA's user receives."""

    def __init__(self, restored: dict[str, tuple[str | None, dict[str, Any]]] | None = None) -> None:
        self.entities: dict[str, Entity] = {}
        self.restored = restored or {}
        self.triggers: list[tuple[str, dict[str, Any]]] = []  # (name, trigger) from docs/mqtt.md
        self.fired: list[tuple[str, str, str, dict[str, Any]]] = []  # (automation, entity, new state, attrs)
        self.wanted: set[str] = set()  # topics the entities subscribe to

    def receive(self, topic: str, payload: bytes, retain: bool) -> None:
        parts = topic.split("/")
        if parts[0] == "homeassistant" and parts[-1] == "config" and payload:
            config = json.loads(payload)
            entity = Entity(parts[1], config)
            if entity.entity_id not in self.entities:
                if entity.component == "event" and entity.entity_id in self.restored:
                    entity.value, entity.attributes = self.restored[entity.entity_id]
                self.entities[entity.entity_id] = entity
                # the entity subscribes to its topics (the Listener does, on the real broker, which
                # hands it their retained messages)
                self.wanted |= {config[k] for k in ("availability_topic", "state_topic") if k in config}
            return
        for entity in list(self.entities.values()):
            before = entity.state
            self._apply(entity, topic, payload, retain)
            if entity.state != before:
                self._changed(entity, before)

    def _apply(self, entity: Entity, topic: str, payload: bytes, retain: bool) -> None:
        config = entity.config
        if topic == config.get("availability_topic"):
            if payload.decode() == config["payload_available"]:
                entity.available = True
            elif payload.decode() == config["payload_not_available"]:
                entity.available = False
        if topic != config.get("state_topic") or not payload:
            return
        if entity.component == "event":
            if retain:
                return
            data = json.loads(payload)
            event_type = data.pop("event_type", None)
            if event_type not in config["event_types"]:
                return
            entity.value = f"t{next(_clock)}"
            entity.attributes = {"event_type": event_type, **data}
            return
        rendered = render(config["value_template"], payload) if "value_template" in config else payload.decode()
        entity.value = None if rendered == "None" else rendered
        if "json_attributes_template" in config:
            entity.attributes = json.loads(render(config["json_attributes_template"], payload))

    def _changed(self, entity: Entity, before: str) -> None:
        for name, trigger in self.triggers:
            if trigger.get("platform", trigger.get("trigger")) != "state" or trigger["entity_id"] != entity.entity_id:
                continue
            if "to" in trigger and entity.state != trigger["to"]:
                continue
            if "from" in trigger and before != trigger["from"]:
                continue
            if before in trigger.get("not_from", []) or entity.state in trigger.get("not_to", []):
                continue
            self.fired.append((name, entity.entity_id, entity.state, dict(entity.attributes)))

    def connection_lost(self) -> None:
        """Home Assistant's MQTT client lost the broker: every MQTT entity is unavailable."""
        for entity in self.entities.values():
            before = entity.state
            entity.available = False
            if entity.state != before:
                self._changed(entity, before)

    def states(self, entity_id: str) -> str:
        return self.entities[entity_id].state  # an entity the box did not announce is a test error

    def restore(self) -> dict[str, tuple[str | None, dict[str, Any]]]:
        return {e.entity_id: (e.value, e.attributes) for e in self.entities.values() if e.component == "event"}


def documented(box_id: str) -> dict[str, Any]:
    """The YAML blocks of docs/mqtt.md, the box id put in."""
    blocks = re.findall(r"```yaml\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    slug_id = slug(device_name("houston-1"))
    docs = [yaml.safe_load(b.replace(slug_id, slug(device_name(box_id)))) for b in blocks]
    automations = [d for d in docs if isinstance(d, dict) and "alias" in d]
    cards = [d for d in docs if isinstance(d, dict) and d.get("type") == "markdown"]
    assert len(automations) == 1 and len(cards) == 1, "docs/mqtt.md shows one automation and one tablet card"
    return {"automation": automations[0], "card": cards[0]}


def condition_holds(fired: tuple[str, str, str, dict[str, Any]], condition: dict[str, Any]) -> bool:
    """A state condition, evaluated when the trigger fired (on the triggering entity's new state)."""
    _name, entity_id, state, attributes = fired
    assert condition["entity_id"] == entity_id
    if "attribute" in condition:
        return attributes.get(condition["attribute"]) == condition["state"]
    return state == condition["state"]


class Listener:
    """A Home Assistant session: a client logged in as `homeassistant` feeding the model."""

    def __init__(self, broker: Broker, box_id: str, ha: HomeAssistant) -> None:
        self.ha = ha
        self.probe = Probe(broker.port, "homeassistant", broker.passwords["homeassistant"],
                           (f"houston/{box_id}/#", "homeassistant/#"))
        self.fed = 0
        self.subscribed: set[str] = set()

    def pump(self, settle: float = 0.4) -> None:
        """Feed every message received so far (after a short quiet period) to the model; when a new
        entity wants a topic, subscribe to it, as Home Assistant does (the broker then sends its
        retained message, flagged retained), and feed that too."""
        while True:
            last = -1
            while last != len(self.probe.messages):
                last = len(self.probe.messages)
                time.sleep(settle)
            for message in self.probe.messages[self.fed:last]:
                self.ha.receive(message.topic, message.payload, message.retain)
            self.fed = last
            new = sorted(self.ha.wanted - self.subscribed)
            if not new:
                return
            self.subscribed |= set(new)
            self.probe.client.subscribe([(t, 1) for t in new])
            settle = max(settle, 0.2)

    def close(self) -> None:
        self.probe.close()


def scored_game() -> str:
    """The first installed game (in the box's order) whose view declares scores (games/widgets.py view)."""
    for game_id in game_ids():
        game = load_game(game_id)
        if "scores" in game.public_view(Session.start(game, game.demo_options()).state):
            return game_id
    pytest.skip("no installed game declares scores in its view yet")


def test_home_assistant_sees_one_game_over_per_game_and_none_on_restarts(tmp_path, broker) -> None:
    game_id = scored_game()
    box_id = f"ha-{game_id}"
    docs = documented(box_id)
    automation = docs["automation"]
    triggers = automation.get("triggers", automation.get("trigger"))
    conditions = automation.get("conditions", automation.get("condition", []))
    ha = HomeAssistant()
    ha.triggers = [(automation["alias"], t) for t in triggers]

    def game_overs() -> list[dict[str, Any]]:
        mine = [f for f in ha.fired if f[0] == automation["alias"]]
        return [f[3] for f in mine if all(condition_holds(f, c) for c in conditions)]

    listener = Listener(broker, box_id, ha)
    box = make_box(tmp_path / "box", game=game_id, settings=Settings(box_id=box_id, game=game_id))
    link = link_box(box, broker, reconnect=(1, 1))
    try:
        listener.pump()
        slug_id = slug(device_name(box_id))
        for entity_id in ("game", "phase", "round", "whose_turn", "dice", "winner"):
            assert ha.states(f"sensor.{slug_id}_{entity_id}") == "unknown" or entity_id == "phase", entity_id
        assert ha.states(f"sensor.{slug_id}_phase") == "idle"
        assert ha.states(f"sensor.{slug_id}_round") == "unknown"  # never "none"
        finished = 0
        for seed in (1, 2):
            start(box, game_id)
            listener.pump(SUMMARY_INTERVAL + 0.1)  # the summary may wait out its interval
            assert ha.states(f"sensor.{slug_id}_game") == load_game(game_id).info.title
            assert ha.states(f"sensor.{slug_id}_phase") not in ("unknown", "idle", "over")
            play(box, on_step=lambda step: listener.pump(0.02) if step % 10 == 0 else None, seed=seed)
            finished += 1
            listener.pump(SUMMARY_INTERVAL + 0.1)  # the game's last summary may wait out its interval
            assert len(game_overs()) == finished
        winners = box.service.finished.game.public_view(box.service.finished.state)["winners"]
        scores = box.service.finished.game.public_view(box.service.finished.state)["scores"]
        assert scores, "the finished game's view declares scores"
        shown = {team: ha.states(f"sensor.{slug_id}_{team}_score") for team in scores}
        assert shown == {team: str(v) for team, v in scores.items()}
        assert ha.states(f"sensor.{slug_id}_winner") == (", ".join(w.capitalize() for w in winners) or "unknown")
        card = _env.from_string(docs["card"]["content"]).render(states=ha.states)
        for team, value in scores.items():
            assert f"{team.capitalize()}: {value}" in card
        last_attrs = game_overs()[-1]
        assert last_attrs["winners"] == list(winners)

        # the broker restarts: retained messages replay; the box republishes; no new game over
        broker.stop()
        listener.pump()
        ha.connection_lost()
        broker.start()
        assert link.connection.wait_connected(CONNECT_WAIT)
        listener.close()
        listener = Listener(broker, box_id, ha)
        listener.pump(0.6)
        assert len(game_overs()) == finished, "a broker restart replayed a game over"
        assert ha.states(f"sensor.{slug_id}_{next(iter(scores))}_score") == str(next(iter(scores.values())))

        # the box restarts at idle: offline, then fresh state before online; the last result stays
        link.stop()
        box.close()
        listener.pump()
        assert ha.states(f"sensor.{slug_id}_phase") == "unavailable"
        box = make_box(tmp_path / "box", game=game_id, settings=Settings(box_id=box_id, game=game_id))
        link = link_box(box, broker, reconnect=(1, 1))
        listener.pump(0.6)
        assert len(game_overs()) == finished, "a box restart replayed a game over"
        assert ha.states(f"sensor.{slug_id}_winner") == (", ".join(w.capitalize() for w in winners) or "unknown")
        assert ha.states(f"sensor.{slug_id}_last_announcement") not in ("unknown", "unavailable")

        # Home Assistant restarts: a fresh model with the event entity's state restored
        restored = ha.restore()
        announcement = ha.states(f"sensor.{slug_id}_last_announcement")
        winner = ha.states(f"sensor.{slug_id}_winner")
        listener.close()
        ha.connection_lost()
        ha2 = HomeAssistant(restored)
        ha2.triggers = ha.triggers
        listener = Listener(broker, box_id, ha2)
        listener.pump(0.6)
        assert [f for f in ha2.fired if f[0] == automation["alias"]] == []
        assert ha2.states(f"sensor.{slug_id}_last_announcement") == announcement  # retained: survives HA's restart
        assert ha2.states(f"sensor.{slug_id}_winner") == winner
    finally:
        listener.close()
        link.stop()
        box.close()
        if broker.process is None:
            broker.start()
