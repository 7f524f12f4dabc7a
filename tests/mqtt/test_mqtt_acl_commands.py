"""Through a real Mosquitto with the box's ACL: who sees what, who may command, and the replies."""

from __future__ import annotations

import json
import threading

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

from tests.support.broker import Probe

OPTIONS = {"teams": ["red", "blue", "green"]}


def _reply(probe: Probe, topic: str, start: int = 0) -> dict:
    message = probe.wait_for(lambda m: m.topic == topic, start=start)
    assert message is not None, f"no reply on {topic}"
    return message.json()


def test_dashboard_sees_public_topics_but_no_team_topic(linked, probes) -> None:
    box, link = linked("hwhad", OPTIONS)
    dashboard = probes("dashboard")
    admin = probes("admin")
    red = probes("red")
    box.press("ok")  # crew is preset: OK starts the boarding
    state = dashboard.wait_for(lambda m: m.topic == link.topics.state and m.json()["game"]["phase"] == "boarding")
    assert state is not None
    assert red.wait_for(lambda m: m.topic == link.topics.team("red")) is not None
    assert dashboard.wait_for(lambda m: "/team/" in m.topic, 0.5) is None
    assert admin.wait_for(lambda m: m.topic == link.topics.state) is not None
    assert not any("/team/" in m.topic for m in admin.messages)  # the operator sees no hand either
    # of this box or any other on the broker: only the public topics (houston/<box>/<public kind>)
    public = {"availability", "state", "events", "log", "summary", "results"}
    assert {tuple(m.topic.split("/")[::2]) for m in dashboard.messages} <= {("houston", kind) for kind in public}
    # a team reads its own view and no other team's
    assert {m.topic for m in red.messages if "/team/" in m.topic} == {link.topics.team("red")}


def test_dashboard_publishes_are_refused(linked, probes) -> None:
    box, link = linked("dog", {})
    dashboard = probes("dashboard")
    admin = probes("admin", ("houston/#",))
    before = box.service.public_view()
    dashboard.publish(link.topics.command("press", user="dashboard"), b'{"button": "ok"}')
    dashboard.publish(link.topics.state, b'{"forged": true}', retain=True)
    dashboard.publish(link.topics.availability, b"offline", retain=True)
    box.service.wait_idle()
    assert admin.wait_for(lambda m: m.topic.endswith("/reply") or b"forged" in m.payload, 0.5) is None
    assert box.service.public_view() == before
    late = probes("dashboard")  # a new screen gets the box's retained state, not the forgery
    state = late.wait_for(lambda m: m.topic == link.topics.state)
    assert state is not None and "forged" not in state.json()
    assert late.wait_for(lambda m: m.topic == link.topics.availability).payload == b"online"


def test_team_command_goes_through_the_rules_and_is_answered(linked, probes) -> None:
    box, link = linked("dog", {"teams": ["red", "blue"]})
    red = probes("red", ("houston/+/cmd/red/+/reply", "houston/+/state"))
    topic = link.topics.command("press", user="red")
    red.publish(topic, json.dumps({"button": "ok", "transaction": "t-1"}))
    assert _reply(red, topic + "/reply") == {"status": "ok", "seq": 1, "transaction": "t-1"}
    assert box.session is not None and len(box.session.state.roll) == 3  # the dice were rolled
    start = red.mark()
    red.publish(topic, json.dumps({"button": "purple", "transaction": 2}))  # purple is not playing
    refused = _reply(red, topic + "/reply", start)
    assert refused["status"] == "error" and refused["transaction"] == 2
    assert refused["error"] == "not_expected" and refused["message"]


def test_scan_is_privileged_only_on_the_admin_prefix(linked, probes) -> None:
    box, link = linked("hwhad", OPTIONS)
    box.press("ok")
    card = box.session.state.stack[0]
    red = probes("red", ("houston/+/cmd/red/+/reply",))
    admin = probes("admin", ("houston/#",))
    plain = link.topics.command("scan", user="red")
    red.publish(plain, json.dumps({"card": card}))
    assert _reply(red, plain + "/reply")["error"] == "not_allowed"
    dealt = len(box.session.state.deck) - len(box.session.state.stack)
    assert dealt == 0
    # a team cannot write the admin prefix: the broker drops it, nothing happens
    privileged = link.topics.command("scan", admin=True)
    red.publish(privileged, json.dumps({"card": card}))
    box.service.wait_idle()
    assert admin.wait_for(lambda m: m.topic == privileged + "/reply", 0.5) is None
    admin.publish(privileged, json.dumps({"card": card}))
    assert _reply(admin, privileged + "/reply")["status"] == "ok"
    assert len(box.session.state.stack) == len(box.session.state.deck) - 1


def test_malformed_payloads_get_error_replies(linked, probes) -> None:
    box, link = linked("dog", {"teams": ["red", "blue"]})
    admin = probes("admin", ("houston/+/cmd/admin/+/reply",))
    topic = link.topics.command("press", user="admin")
    cases = [b"{not json", b"[1, 2]", b"\xff\xfe", b'"ok"', b"{" * 5000, json.dumps({"button": 3}).encode()]
    for payload in cases:
        start = admin.mark()
        admin.publish(topic, payload)
        reply = _reply(admin, topic + "/reply", start)
        assert reply["status"] == "error", payload[:20]
    start = admin.mark()
    moon = link.topics.command("fly_to_the_moon", user="admin")
    admin.publish(moon, b"{}")
    assert _reply(admin, moon + "/reply", start)["error"] == "malformed_input"
    assert box.session.state.roll == () and box.journal.count(box.service.record.id) == 0


def test_anonymous_clients_are_refused(broker) -> None:
    refused = threading.Event()
    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="anonymous")
    client.on_connect = lambda c, u, f, reason, p=None: reason.is_failure and refused.set()
    client.connect("127.0.0.1", broker.port)
    client.loop_start()
    try:
        assert refused.wait(3)
    finally:
        client.loop_stop()
