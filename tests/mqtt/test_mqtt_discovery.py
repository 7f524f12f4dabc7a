"""Home Assistant discovery: the keys HA documents, one device, retained, republished on HA's birth.

The key lists are those of Home Assistant's MQTT integration documentation (home-assistant.io:
MQTT Sensor, MQTT Event, MQTT Button, MQTT Select, and the shared entity and device options)."""

from __future__ import annotations

import jinja2

from device.network.mqtt.discovery import RESULT_TYPES, STATUS_TOPIC, device_name, discovery_messages
from device.network.mqtt.topics import Topics
from tests.support.wait import until

# Keys Home Assistant's MQTT integration accepts (its docs: MQTT sensor, MQTT event, shared entity options).
COMMON = {
    "availability", "availability_topic", "availability_mode", "availability_template", "device",
    "enabled_by_default", "encoding", "entity_category", "entity_picture", "icon", "json_attributes_template",
    "json_attributes_topic", "name", "object_id", "default_entity_id", "origin", "payload_available",
    "payload_not_available", "platform", "qos", "unique_id", "value_template",
}
ALLOWED = {
    "sensor": COMMON | {"state_topic", "device_class", "expire_after", "force_update", "last_reset_value_template",
                        "options", "suggested_display_precision", "state_class", "unit_of_measurement"},
    "event": COMMON | {"state_topic", "event_types", "device_class"},
    "button": COMMON | {"command_topic", "command_template", "device_class", "payload_press", "retain"},
    "select": COMMON | {"command_topic", "command_template", "options", "optimistic", "retain", "state_topic"},
}
REQUIRED = {"sensor": {"state_topic"}, "event": {"state_topic", "event_types"}, "button": {"command_topic"},
            "select": {"command_topic", "options"}}
DEVICE_KEYS = {"configuration_url", "connections", "hw_version", "identifiers", "manufacturer", "model", "model_id",
               "name", "serial_number", "suggested_area", "sw_version", "via_device"}


def test_every_config_has_the_keys_home_assistant_requires() -> None:
    topics = Topics("b7")
    messages = discovery_messages(topics, "1.2", dashboard_url="http://box.local:8080/",
                                  games=[("g1", "Game One"), ("g2", "Game Two")])
    components = [topic.split("/")[1] for topic, _ in messages]
    assert sorted(set(components)) == ["button", "event", "select", "sensor"]
    unique_ids = set()
    for topic, config in messages:
        prefix, component, node, _object_id, last = topic.split("/")
        assert (prefix, node, last) == ("homeassistant", "b7", "config")
        assert REQUIRED[component] <= set(config) <= ALLOWED[component], topic
        assert config["unique_id"] not in unique_ids
        unique_ids.add(config["unique_id"])
        assert set(config["device"]) <= DEVICE_KEYS and config["device"]["identifiers"] == ["houston_b7"]
        assert config["device"]["configuration_url"] == "http://box.local:8080/"
        assert config["availability_topic"] == topics.availability
        assert config.get("state_topic", topics.summary) in (topics.summary, topics.results)
        assert config["origin"]["name"]
        if component in ("button", "select"):  # ordinary commands only, never admin ones
            assert config["command_topic"].startswith(f"{topics.base}/cmd/")
    event = dict(messages)["homeassistant/event/b7/result/config"]
    assert tuple(event["event_types"]) == RESULT_TYPES == ("game_over", "round_result")
    names = {config["name"] for _, config in messages}
    assert {"Game", "Phase", "Whose turn", "Round", "Dice", "Winner", "Last announcement", "Red score"} <= names
    select = dict(messages)["homeassistant/select/b7/select_game/config"]
    assert select["options"] == ["Game One", "Game Two"]


def test_the_device_is_named_with_the_box_id_once() -> None:
    assert device_name("houston-1") == "Houston 1"
    assert device_name("kitchen") == "Houston kitchen"


def test_discovery_is_retained_and_republished_when_home_assistant_comes_online(linked, probes) -> None:
    _box, link = linked("dog", {})
    topics = ("homeassistant/+/" + link.topics.box + "/+/config", STATUS_TOPIC)
    expected = {topic for topic, _ in discovery_messages(link.topics, games=[('x', 'X')])}
    first = probes("homeassistant", topics)
    for topic in expected:  # published once the box is connected
        assert first.wait_for(lambda m, t=topic: m.topic == t) is not None, topic
    ha = probes("homeassistant", topics)  # a later subscriber gets them from the broker: retained
    for topic in expected:
        retained = ha.wait_for(lambda m, t=topic: m.topic == t)
        assert retained is not None and retained.retain, topic
    start = ha.mark()
    ha.publish(STATUS_TOPIC, b"online")  # Home Assistant restarted: its birth message
    again = set()
    while again != expected:
        message = ha.wait_for(lambda m: m.topic in expected - again, start=start)
        assert message is not None, f"missing {expected - again}"
        again.add(message.topic)
        assert not message.retain  # delivered live, i.e. published again just now


def test_home_assistant_buttons_and_select_drive_the_box_through_the_acl(linked, probes) -> None:
    """What HA sends for its button press and select option (templates rendered as HA does)
    reaches the box as the `homeassistant` user: the ACL lets it write ordinary commands."""
    box, link = linked("dog", None)
    games = [(g["id"], g["title"]) for g in box.service.public_view()["games"]]
    configs = dict(discovery_messages(link.topics, games=games))
    ha = probes("homeassistant", ())
    select = configs[f"homeassistant/select/{link.topics.box}/select_game/config"]
    other_id, other_title = next((g, t) for g, t in games if g != box.service.selected)
    payload = jinja2.Environment().from_string(select["command_template"]).render(value=other_title)
    ha.publish(select["command_topic"], payload.encode())
    assert until(lambda: box.service.selected == other_id), box.service.selected
    start = configs[f"homeassistant/button/{link.topics.box}/start/config"]
    ha.publish(start["command_topic"], start["payload_press"].encode())
    until(lambda: box.service.session is not None)
    assert box.service.session is not None and box.service.session.game.info.id == other_id
