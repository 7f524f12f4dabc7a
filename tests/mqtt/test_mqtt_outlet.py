"""The outlet publishes only the public view, the events and each team's own view, where they belong."""

from __future__ import annotations

import json
from typing import Any

from device.box.service import Update
from device.network.mqtt.outlet import MqttOutlet
from device.network.mqtt.topics import Topics


class FakeBroker:
    def __init__(self) -> None:
        self.sent: list[tuple[str, bytes, int, bool]] = []

    def publish(self, topic: str, payload: bytes, qos: int = 1, retain: bool = False) -> None:
        self.sent.append((topic, payload, qos, retain))


def update(seq: int, public: dict[str, Any], teams: dict[str, Any] | None = None,
           events: list[dict[str, Any]] | None = None) -> Update:
    return Update(seq, public, teams or {}, events or [])


def test_each_part_goes_to_its_topic_with_retain_and_qos() -> None:
    fake = FakeBroker()
    outlet = MqttOutlet(Topics("b1"), fake)
    outlet.deliver(update(7, {"schema": 1, "game": {"round": 2}}, {"red": {"hand": ["secret-card"]}},
                          [{"type": "say", "text": "Hello"}]))
    by_topic = {t: (json.loads(p), q, r) for t, p, q, r in fake.sent}
    assert set(by_topic) == {"houston/b1/state", "houston/b1/events", "houston/b1/team/red"}
    assert by_topic["houston/b1/state"] == ({"schema": 1, "seq": 7, "game": {"round": 2}}, 1, True)
    assert by_topic["houston/b1/events"] == ({"type": "say", "text": "Hello", "schema": 1, "seq": 7}, 1, False)
    assert by_topic["houston/b1/team/red"] == (
        {"schema": 1, "seq": 7, "team": "red", "view": {"hand": ["secret-card"]}}, 1, True)
    public = [p for t, p, _, _ in fake.sent if "/team/" not in t]
    assert all(b"secret-card" not in p for p in public)


def test_unchanged_views_are_not_sent_again_but_events_are() -> None:
    fake = FakeBroker()
    outlet = MqttOutlet(Topics("b1"), fake)
    outlet.deliver(update(1, {"a": 1}, {"red": {"x": 1}}))
    outlet.deliver(update(2, {"a": 1}, {"red": {"x": 1}}, [{"type": "error", "key": "not_expected"}]))
    assert [t for t, *_ in fake.sent] == ["houston/b1/state", "houston/b1/team/red", "houston/b1/events"]


def test_a_team_that_left_has_its_retained_view_cleared() -> None:
    fake = FakeBroker()
    outlet = MqttOutlet(Topics("b1"), fake)
    outlet.deliver(update(1, {"a": 1}, {"red": {"x": 1}, "blue": {"x": 2}}))
    fake.sent.clear()
    outlet.deliver(update(2, {"a": 2}, {"red": {"x": 1}}))
    assert ("houston/b1/team/blue", b"", 1, True) in fake.sent
    assert not any(t == "houston/b1/team/red" for t, *_ in fake.sent)


def test_republish_sends_latest_state_and_every_team_view() -> None:
    fake = FakeBroker()
    outlet = MqttOutlet(Topics("b1"), fake)
    outlet.deliver(update(1, {"a": 1}, {"red": {"x": 1}}))
    outlet.deliver(update(2, {"a": 2}, {"red": {"x": 3}, "blue": {"x": 4}}, [{"type": "say", "text": "t"}]))
    fake.sent.clear()
    outlet.republish()
    got = {t: json.loads(p) for t, p, _, retain in fake.sent if retain}
    assert got["houston/b1/state"]["a"] == 2
    assert got["houston/b1/team/red"]["view"] == {"x": 3}
    assert got["houston/b1/team/blue"]["view"] == {"x": 4}
    assert not any(t.endswith("/events") for t, *_ in fake.sent)  # events are not replayed


def test_command_topics_parse_privilege_from_the_prefix() -> None:
    topics = Topics("b1")
    assert topics.parse_command("houston/b1/cmd/red/press") == ("press", False)
    assert topics.parse_command("houston/b1/cmd/press") is None  # no sender level
    assert topics.parse_command("houston/b1/admin/cmd/scan") == ("scan", True)
    assert topics.parse_command("houston/b1/cmd/red/press/reply") is None
    assert topics.parse_command("houston/b2/cmd/press") is None
    assert topics.parse_command("houston/b1/cmd/") is None
