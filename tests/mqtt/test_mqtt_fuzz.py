"""Thousands of malformed commands: every one gets an error reply and none changes the game."""

from __future__ import annotations

import json
import threading
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from device.network.mqtt.commands import MAX_COMMAND_BYTES, CommandHandler
from device.network.mqtt.topics import Topics
from device.simulation.testing import make_box
from games.core import digest

KNOWN = ("press", "choose", "scan", "undo", "repeat", "select_game", "start_game")
junk = st.recursive(st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=4)
not_ok = junk.filter(lambda b: b not in ("ok", "repeat"))  # OK plays and REPEAT is harmless: neither is malformed
name_chars = st.characters(blacklist_characters="/+#\x00", blacklist_categories=("Cs",))


def _encode(value: Any) -> bytes:
    return json.dumps(value).encode()


# (command name, payload bytes, privileged), each malformed or wrong for a dice game in progress
commands = st.one_of(
    st.tuples(st.sampled_from(KNOWN), st.binary(max_size=40).filter(lambda b: not b.strip().startswith(b"{")),
              st.booleans()).filter(lambda c: c[1].strip() != b""),
    st.tuples(st.sampled_from(KNOWN), st.sampled_from([b"{", b'{"button": }', b"\xff{}", b"{'a': 1}"]), st.booleans()),
    st.tuples(st.sampled_from(KNOWN), (st.lists(junk) | st.integers() | st.text()).map(_encode), st.booleans()),
    st.tuples(st.text(name_chars, min_size=1, max_size=12).filter(lambda n: n not in KNOWN),
              st.dictionaries(st.text(max_size=8), junk, max_size=3).map(_encode), st.booleans()),
    st.tuples(st.just("press"), st.fixed_dictionaries({"button": not_ok}, optional={"hold": junk}).map(_encode),
              st.booleans()),
    st.tuples(st.just("press"), st.fixed_dictionaries({"button": st.just("ok"), "hold": junk.filter(
        lambda h: not isinstance(h, bool) and h not in (0, 1))}).map(_encode), st.booleans()),
    st.tuples(st.just("choose"), st.dictionaries(st.sampled_from(["option", "x"]), junk).map(_encode), st.booleans()),
    st.tuples(st.just("scan"), st.dictionaries(st.sampled_from(["card", "x"]), junk).map(_encode), st.booleans()),
    st.tuples(st.sampled_from(["select_game", "start_game"]),
              st.dictionaries(st.sampled_from(["game", "options"]), junk).map(_encode), st.booleans()),
    st.tuples(st.just("undo"), st.dictionaries(st.text(max_size=5), junk, max_size=2).map(_encode), st.booleans()),
    st.tuples(st.sampled_from(KNOWN), st.integers(MAX_COMMAND_BYTES + 1, 3 * MAX_COMMAND_BYTES).map(
        lambda n: b'{"button": "' + b"x" * n + b'"}'), st.booleans()),
)


class Replies:
    def __init__(self) -> None:
        self.last: dict[str, Any] | None = None
        self.arrived = threading.Event()

    def publish(self, topic: str, payload: bytes) -> None:
        self.last = {"topic": topic, **json.loads(payload)}
        self.arrived.set()


def test_malformed_commands_are_refused_and_change_nothing(tmp_path: Path) -> None:
    box = make_box(tmp_path, game="dog", options={"teams": ["red", "blue"]})
    # red's first turn with empty hands: only OK plays (a long press finds nothing to exchange)
    replies = Replies()
    handler = CommandHandler(Topics(box.service.box_id), box.service.post, replies.publish)
    session = box.session
    assert session is not None
    before = (digest(session.state), len(session.undo_stack), box.journal.count(box.service.record.id))
    seen = {"n": 0}

    @settings(max_examples=2000, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(commands)
    def fuzz(command: tuple[str, bytes, bool]) -> None:
        name, payload, privileged = command
        replies.arrived.clear()
        topic = Topics(box.service.box_id).command(name, user="red", admin=privileged)
        assert handler.handle(topic, payload)
        assert replies.arrived.wait(5), "no reply"
        assert replies.last is not None and replies.last["status"] == "error", (command, replies.last)
        assert replies.last["topic"] == topic + "/reply"
        assert isinstance(replies.last["error"], str) and isinstance(replies.last["message"], str)
        assert box.session is session
        now = (digest(session.state), len(session.undo_stack), box.journal.count(box.service.record.id))
        assert now == before
        seen["n"] += 1

    try:
        fuzz()
        assert seen["n"] >= 2000
    finally:
        box.close()


def test_a_valid_command_among_them_does_change_the_game(tmp_path: Path) -> None:
    """The fuzz's `no change` check can fail: a well-formed press does change the state."""
    box = make_box(tmp_path, game="dog", options={"teams": ["red", "blue"]})
    replies = Replies()
    handler = CommandHandler(Topics(box.service.box_id), box.service.post, replies.publish)
    try:
        before = digest(box.session.state)
        handler.handle(Topics(box.service.box_id).command("press", user="red"), b'{"button": "ok"}')
        assert replies.arrived.wait(5) and replies.last["status"] == "ok"
        assert digest(box.session.state) != before
    finally:
        box.close()
