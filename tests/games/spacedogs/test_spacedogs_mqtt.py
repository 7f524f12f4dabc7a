"""The Game Runner on a real broker with the box's ACL: its own topic, its own commands, and the
public stream never carrying its goals."""

from __future__ import annotations

import json

from games.spacedogs.catalog import catalog
from tests.support.broker import Probe

CAT = catalog()
OPTIONS = {"dogs": ["nova", "orion"], "scenario": "s01"}
GOALS = [g.text for g in CAT.scenarios["s01"].goals]


def _reply(probe: Probe, topic: str, start: int = 0) -> dict:
    message = probe.wait_for(lambda m: m.topic == topic, start=start)
    assert message is not None, f"no reply on {topic}"
    return message.json()


def test_gr_commands_only_from_the_gr(linked, probes) -> None:
    box, link = linked("spacedogs", OPTIONS, page=True)
    gr = probes("gr", ("houston/#",))
    nova = probes("yellow", ("houston/#",))
    full = CAT.numbers.max_health
    # the GR's own command topic: accepted, answered there, applied
    gr_topic = link.topics.command("choose", user="gr")
    gr.publish(gr_topic, json.dumps({"option": "damage:orion:3:receive:1:0", "transaction": "g1"}))
    reply = _reply(gr, f"{gr_topic}/reply")
    assert reply["status"] == "ok" and reply["transaction"] == "g1"
    assert box.session.state.dog("orion").health == full - 2
    # the same command from a player on the shared topic: refused with words, nothing changes
    shared = link.topics.command("choose", user="yellow")
    nova.publish(shared, json.dumps({"option": "damage:orion:3:suffer", "transaction": "n1"}))
    reply = _reply(nova, f"{shared}/reply")
    assert reply["status"] == "error" and reply["error"] == "not_allowed"
    assert box.session.state.dog("orion").health == full - 2
    # a player writing on the GR's topic: the broker drops it (no reply, no change)
    before = box.session.state
    nova.publish(gr_topic, json.dumps({"option": "damage:orion:9:suffer"}))
    box.service.wait_idle()
    assert gr.wait_for(lambda m: m.topic == f"{gr_topic}/reply", 0.7, gr.mark()) is None
    assert box.session.state == before
    # the players' own buttons still work from their screens; bad numbers get the rule's words
    press = link.topics.command("press", user="yellow")
    nova.publish(press, json.dumps({"button": "ok", "transaction": "p1"}))
    assert _reply(nova, f"{press}/reply")["status"] == "ok"
    start = gr.mark()
    gr.publish(gr_topic, json.dumps({"option": "damage:orion:x:receive", "transaction": "g2"}))
    reply = _reply(gr, f"{gr_topic}/reply", start)
    assert reply["error"] == "bad_command" and "is not a number" in reply["message"]


def test_admin_may_send_gr_commands(linked, probes) -> None:
    box, link = linked("spacedogs", OPTIONS, page=True)
    admin = probes("admin", ("houston/#",))
    topic = link.topics.command("choose", admin=True)
    admin.publish(topic, json.dumps({"option": "damage:nova:2:suffer"}))
    assert _reply(admin, f"{topic}/reply")["status"] == "ok"
    assert box.session.state.dog("nova").health == CAT.numbers.max_health - 2


def test_the_public_stream_never_carries_the_gr_goals(linked, probes) -> None:
    box, link = linked("spacedogs", OPTIONS, page=True)
    mine = (f"{link.topics.base}/#",)  # this box only (others' retained states are not its stream)
    dashboard = probes("dashboard", mine)
    players = {c: probes(c, mine) for c in ("yellow", "green")}
    gr = probes("gr", mine)
    gr_topic = link.topics.command("choose", user="gr")
    for option in ("goal:s01a", "damage:orion:2:receive"):
        start = gr.mark()
        gr.publish(gr_topic, json.dumps({"option": option}))
        assert _reply(gr, f"{gr_topic}/reply", start)["status"] == "ok"
    for _ in range(4):
        box.press("ok")
    box.press("yellow")
    box.service.wait_idle()
    view = gr.wait_for(lambda m: m.topic == link.topics.team("gr") and "achieved" in m.payload.decode())
    assert view is not None and GOALS[0] in view.payload.decode()
    seen = [m.payload.decode() for m in dashboard.messages]
    seen += [m.payload.decode() for p in players.values() for m in p.messages]
    assert seen and not any(goal in text for goal in GOALS for text in seen)
    assert not any(m.topic == link.topics.team("gr") for p in players.values() for m in p.messages)
    # the end scene reveals them to everyone
    gr.publish(gr_topic, json.dumps({"option": "end"}))
    revealed = dashboard.wait_for(lambda m: m.topic == link.topics.state and GOALS[0] in m.payload.decode())
    assert revealed is not None
