"""Never the face-down card in public, end to end: two boxes on a real broker, the same table,
the same inputs except which card is held face down over the lid. Until it is flipped, every
message on the public topics is byte-identical, topic by topic (MQTT orders messages within a
topic, not across topics: the retained first messages may arrive in any order); the offerer's own
topic does differ."""

from __future__ import annotations

from games.core import Input, Press, Scan
from games.whales.rules import GAME
from games.whales.state import OFFER_CARD
from tests.support.broker import by_topic, public_stream
from tests.support.demo import play_demo


def inputs_to_second_offer() -> tuple[list[Input], list[str]]:
    """The demo's inputs up to the second turn's face-down scan (the first turn's slip and BACK
    included), and the cards that could be held face down there."""
    run = play_demo(GAME, stop=lambda state: state.phase == OFFER_CARD and state.turns == 1)
    assert run.session.state.phase == OFFER_CARD and run.session.state.turns == 1, "the demo never got there"
    return run.played, list(run.session.state.deck)


def drive(box, inp: Input) -> None:
    if isinstance(inp, Scan):
        box.scan(inp.card)
    else:
        box.press(inp.button, hold=inp.hold)


def test_the_card_held_face_down_changes_nothing_public(linked, probes):
    played, deck = inputs_to_second_offer()
    offerer = GAME.demo_options()["teams"][1]
    receiver = GAME.demo_options()["teams"][2]
    streams, private = [], []
    for face_down in (deck[0], deck[-1]):
        box, link = linked("whales", GAME.demo_options())
        dash = probes("dashboard", (f"houston/{link.topics.box}/#",))
        team = probes(offerer, (link.topics.team(offerer),))
        topics = link.topics
        for first in (topics.availability, topics.state, topics.log, topics.summary):  # on connect
            assert dash.wait_for(lambda m, t=first: m.topic == t), f"no {first}"
        for inp in [*played, Scan(face_down), Press(receiver)]:
            drive(box, inp)
        assert box.session.state.phase == "decide" and box.session.state.offered == face_down
        box.service.wait_idle()
        last = box.recorder.updates[-1]
        assert dash.wait_for(lambda m, s=last.seq: m.topic.endswith("/state") and m.json()["seq"] == s, 3)
        for event in last.events:  # every event of the last update has arrived too
            want = {**event, "seq": last.seq}
            assert dash.wait_for(lambda m, w=want: m.topic.endswith("/events") and
                                 {k: v for k, v in m.json().items() if k != "schema"} == w, 3)
        view = box.service.team_views()[offerer]
        assert team.wait_for(lambda m, v=view: m.json()["view"] == v, 3)
        stream = public_stream(dash, link.topics.box)
        streams.append(by_topic(stream))
        private.append([m.payload for m in team.messages])
        text = b"".join(p for _, p in stream).decode()
        assert GAME.card_name(face_down) not in text and face_down not in text
    assert sum(len(payloads) for payloads in streams[0].values()) > 50
    assert streams[0] == streams[1]
    assert all("/team/" not in topic for topic in streams[0])
    assert private[0] != private[1]  # the offerer's own view names the card they hold
