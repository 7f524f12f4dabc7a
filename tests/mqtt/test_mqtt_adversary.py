"""Every team user, through the real broker and the box's ACL, sends every command kind with every
field of every command injected, on its own topics, on another user's and on the admin's: nothing
a team may not send is journaled, a forged scan never lands, each user reads only its own replies,
and no refusal names a card the public view does not show (issue 12, defect 3)."""

from __future__ import annotations

import json

from device.box.commands import COMMANDS
from device.box.secrecy import hidden_strings
from device.simulation.crash_bench import table_options
from games.core import Choose, Press
from tests.support.broker import Probe

TEAMS = ("red", "blue", "green", "yellow", "purple", "white")
OPTIONS = {"teams": ["red", "blue", "green"]}


def injected_payloads(card: str) -> list[dict]:
    """Each command's own fields plus every other command's, a `kind` naming each kind, and the card."""
    everything = {"button": "ok", "hold": True, "option": "flood", "card": card, "game": "hwhad",
                  "options": {"teams": ["red"]}}
    payloads = [dict(everything)]
    for kind in COMMANDS:
        payloads.append({**everything, "kind": kind})
        payloads.append({"kind": kind, "card": card})
    payloads.append({"card": card})
    payloads.append({"option": card})
    return payloads


def entries(box) -> list[tuple]:
    return box.journal.conn.execute("SELECT game_id, seq, kind, input FROM entries ORDER BY game_id, seq").fetchall()


def test_no_team_can_journal_what_it_may_not_send(linked, probes) -> None:
    box, link = linked("hwhad", OPTIONS)
    box.press("ok")  # boarding: the dealer scans cards next
    game = box.session.game
    hidden = hidden_strings(box.session)
    card = next(c for c in game.cards().ids if c in hidden)
    users: dict[str, Probe] = {user: probes(user, ("#",)) for user in TEAMS}
    before = entries(box)
    sent = 0
    for user, probe in users.items():
        other = TEAMS[(TEAMS.index(user) + 1) % len(TEAMS)]
        for name in COMMANDS:
            for payload in injected_payloads(card):
                data = json.dumps(payload)
                probe.publish(link.topics.command(name, user=user), data)  # its own topic
                probe.publish(link.topics.command(name, user=other), data)  # another user's: dropped
                probe.publish(link.topics.command(name, admin=True), data)  # the admin's: dropped
                probe.publish(f"{link.topics.base}/cmd/{name}", data)  # no sender level: ignored
                sent += 4
    own = len(TEAMS) * len(COMMANDS) * len(injected_payloads(card))
    # every message on its own topic is answered (to its sender); wait for all the answers
    for user, probe in users.items():
        mine = f"{link.topics.base}/cmd/{user}/"
        expected = len(COMMANDS) * len(injected_payloads(card))
        deadline_hit = probe.wait_for(
            lambda m, mine=mine, expected=expected, probe=probe: sum(
                1 for x in probe.messages if x.topic.startswith(mine) and x.topic.endswith("/reply")) >= expected,
            timeout=30)
        assert deadline_hit is not None, f"{user}: not every command was answered"
    box.service.wait_idle()
    assert sent == 4 * own
    assert entries(box) == before, "an injected command was journaled"
    assert box.journal.conn.execute(
        "SELECT COUNT(*) FROM entries WHERE input LIKE '%\"scan\"%'").fetchone()[0] == 0
    for user, probe in users.items():
        ours = [m for m in probe.messages if m.topic.startswith(link.topics.base + "/")]  # not older boxes'
        replies = [m for m in ours if m.topic.endswith("/reply")]
        assert replies and all(m.topic.startswith(f"{link.topics.base}/cmd/{user}/") for m in replies), user
        for m in replies:
            assert m.json()["status"] == "error"
        session = box.service.session
        own = json.dumps(session.game.team_view(session.state, user)) if user in OPTIONS["teams"] else ""
        unseen = [h for h in hidden if len(h) > 3 and h not in own]  # its own hand it may see
        for m in ours:  # replies, events, state, its own view: no card it cannot see
            text = m.payload.decode("utf-8", "replace")
            assert not any(h in text for h in unseen), (user, m.topic, text[:200])


def test_clean_commands_still_work_for_their_sender_only(linked, probes) -> None:
    """The control: the same path does journal a well-formed command, answered to its sender alone."""
    box, link = linked("dog", table_options("dog"))
    red, blue = probes("red", ("#",)), probes("blue", ("#",))
    legal = box.session.game.legal_inputs(box.session.state)
    inp = next(i for i in legal if isinstance(i, Press | Choose))
    name, payload = ("press", {"button": inp.button, "hold": inp.hold}) if isinstance(inp, Press) \
        else ("choose", {"option": inp.option})
    topic = link.topics.command(name, user="red")
    red.publish(topic, json.dumps(payload))
    assert red.wait_for(lambda m: m.topic == topic + "/reply").json()["status"] == "ok"
    assert len(entries(box)) == 1
    box.service.wait_idle()
    assert blue.wait_for(lambda m: m.topic.endswith("/reply"), 0.5) is None


def test_a_refusal_about_an_unseen_card_says_only_not_now(linked, probes) -> None:
    box, link = linked("hwhad", OPTIONS)
    box.press("ok")
    hidden = hidden_strings(box.session)
    card = next(c for c in box.session.game.cards().ids if c in hidden and c not in box.session.state.stack)
    admin = probes("admin", ("#",))
    topic = link.topics.command("scan", admin=True)
    admin.publish(topic, json.dumps({"card": card}))  # not the card the deal expects: refused
    reply = admin.wait_for(lambda m: m.topic == topic + "/reply").json()
    assert reply["status"] == "error"
    assert reply["error"] == "not_expected" and reply["message"] == "Not now.", reply
