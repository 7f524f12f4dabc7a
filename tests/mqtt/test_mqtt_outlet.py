"""The outlet publishes only the public view, the events and each team's own view, where they belong."""

from __future__ import annotations

import json
import time
from typing import Any

from device.box.service import PUBLIC_SCHEMA, Update
from device.network.mqtt.gamelog import GameLog
from device.network.mqtt.outlet import SUMMARY_INTERVAL, MqttOutlet
from device.network.mqtt.topics import Topics, encode


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
    by_topic = {t: (json.loads(p), q, r) for t, p, q, r in fake.sent if p}
    assert set(by_topic) == {"houston/b1/state", "houston/b1/events", "houston/b1/team/red", "houston/b1/summary"}
    cleared = {t for t, p, _, r in fake.sent if not p and r}
    assert cleared == {f"houston/b1/team/{c}" for c in ("blue", "green", "yellow", "purple", "white")}
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
    fake.sent.clear()
    outlet.deliver(update(2, {"a": 1}, {"red": {"x": 1}}, [{"type": "error", "key": "not_expected"}]))
    assert [t for t, *_ in fake.sent] == ["houston/b1/events"]


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
    got = {t: json.loads(p) for t, p, _, retain in fake.sent if retain and p}
    assert got["houston/b1/state"]["a"] == 2
    assert got["houston/b1/team/red"]["view"] == {"x": 3}
    assert got["houston/b1/team/blue"]["view"] == {"x": 4}
    assert not any(t.endswith("/events") for t, *_ in fake.sent)  # events are not replayed


def _game(game: str, phase: str = "p", round_: int | None = 1, **extra: Any) -> dict[str, Any]:
    return {"game": game, "title": game.upper(), "phase": phase, "round": round_, "turn": None, "scores": {},
            "winners": [], "widgets": [], **extra}


def test_every_team_topic_is_cleared_when_a_game_starts_and_ends() -> None:
    fake = FakeBroker()
    outlet = MqttOutlet(Topics("b1"), fake)
    outlet.deliver(update(1, {"mode": "idle", "selected": "g1", "game": None}))  # box start: all six cleared
    assert len([t for t, p, *_ in fake.sent if "/team/" in t and not p]) == 6
    fake.sent.clear()
    outlet.deliver(update(2, {"mode": "game", "selected": "g1", "game": _game("g1")}, {"red": {"game": "g1"}}))
    cleared = {t.rsplit("/", 1)[1] for t, p, *_ in fake.sent if "/team/" in t and not p}
    assert cleared == {"blue", "green", "yellow", "purple", "white"}
    fake.sent.clear()
    outlet.deliver(update(3, {"mode": "idle", "selected": "g1", "game": _game("g1", "over")}, {}))
    assert ("houston/b1/team/red", b"", 1, True) in fake.sent


def test_the_game_log_is_retained_bounded_and_new_for_each_game() -> None:
    fake = FakeBroker()
    outlet = MqttOutlet(Topics("b1"), fake)
    outlet.deliver(update(1, {"mode": "game", "game": _game("g1")}, {}, [{"type": "say", "text": "one"}]))
    for i in range(100):
        outlet.deliver(update(2 + i, {"mode": "game", "game": _game("g1")}, {},
                              [{"type": "prompt", "text": f"p{i}"}, {"type": "prompt", "text": f"p{i}"},
                               {"type": "say", "text": "again", "repeat": True}]))
    logs = [(json.loads(p), r) for t, p, _, r in fake.sent if t == "houston/b1/log"]
    log, retained = logs[-1]
    assert retained and log["game"] == "g1" and len(log["lines"]) == 40
    assert [line["text"] for line in log["lines"]][-2:] == ["p98", "p99"]  # no doubles, no repeats
    outlet.deliver(update(200, {"mode": "idle", "game": _game("g1", "over")}, {}))
    outlet.deliver(update(201, {"mode": "game", "game": _game("g2")}, {}, [{"type": "say", "text": "new"}]))
    log = json.loads([p for t, p, *_ in fake.sent if t == "houston/b1/log"][-1])
    assert log["game"] == "g2" and [line["text"] for line in log["lines"]] == ["new"]


def test_results_fire_once_per_result_and_are_never_retained_or_republished() -> None:
    fake = FakeBroker()
    outlet = MqttOutlet(Topics("b1"), fake)
    outlet.deliver(update(1, {"mode": "game", "game": _game("g1", round_=1)}, {}, [{"type": "light"}]))
    outlet.deliver(update(2, {"mode": "game", "game": _game("g1", round_=1)}, {}, [{"type": "sound"}]))
    outlet.deliver(update(3, {"mode": "game", "game": _game("g1", round_=2, scores={"red": 3})}, {}))
    outlet.deliver(update(4, {"mode": "idle", "selected": "g1", "game": _game("g1", "over", winners=["red"])}, {},
                          [{"type": "game_over", "winners": ["red"], "reason": "won"}]))
    results = [(json.loads(p), r) for t, p, _, r in fake.sent if t == "houston/b1/results"]
    assert [(r["event_type"], retained) for r, retained in results] == [("round_result", False), ("game_over", False)]
    assert results[0][0]["round"] == 1 and results[0][0]["scores"] == {"red": 3}
    assert results[1][0]["winners"] == ["red"]
    fake.sent.clear()
    outlet.republish()
    assert not any(t.endswith("/results") for t, *_ in fake.sent)


def test_command_topics_parse_privilege_from_the_prefix() -> None:
    topics = Topics("b1")
    assert topics.parse_command("houston/b1/cmd/red/press") == ("press", False)
    assert topics.parse_command("houston/b1/cmd/press") is None  # no sender level
    assert topics.parse_command("houston/b1/admin/cmd/scan") == ("scan", True)
    assert topics.parse_command("houston/b1/cmd/red/press/reply") is None
    assert topics.parse_command("houston/b2/cmd/press") is None
    assert topics.parse_command("houston/b1/cmd/") is None


def test_the_state_goes_ahead_of_the_other_outlets_and_is_not_sent_twice() -> None:
    fake = FakeBroker()
    outlet = MqttOutlet(Topics("b1"), fake)
    changed = update(3, {"a": 1}, {"red": {"x": 1}}, [{"type": "say", "text": "t"}])
    outlet.state_first.deliver(changed)
    assert [t for t, *_ in fake.sent] == ["houston/b1/state"]  # before the lights and the voice
    outlet.deliver(changed)
    sent = [t for t, *_ in fake.sent]
    assert sent.count("houston/b1/state") == 1 and sent[-1] == "houston/b1/events"
    fake.sent.clear()
    quiet = update(4, {"a": 2}, {"red": {"x": 2}})  # no events: the state stays the update's last message
    outlet.state_first.deliver(quiet)
    assert fake.sent == []
    outlet.deliver(quiet)
    assert [t for t, *_ in fake.sent][-1] == "houston/b1/state"


def _summaries(fake: FakeBroker) -> list[dict[str, Any]]:
    return [json.loads(p) for t, p, _, _ in fake.sent if t == "houston/b1/summary"]


def _running(turn: str) -> dict[str, Any]:
    return {"mode": "game", "game": {"game": "g", "title": "G", "turn": turn}}


def test_a_burst_sends_home_assistant_one_summary_at_once_and_the_latest_when_the_interval_is_up() -> None:
    fake = FakeBroker()
    outlet = MqttOutlet(Topics("b1"), fake)
    for seq in range(1, 41):
        outlet.deliver(update(seq, _running("red" if seq % 2 else "blue")))
    assert [s["seq"] for s in _summaries(fake)] == [1], "the first of a burst goes at once, the rest wait"
    time.sleep(SUMMARY_INTERVAL + 0.3)
    assert [s["seq"] for s in _summaries(fake)] == [1, 40], "the latest is sent when the interval is up"
    assert _summaries(fake)[-1]["turn"] == "blue"
    time.sleep(SUMMARY_INTERVAL)
    outlet.deliver(update(41, _running("green")))  # after a quiet interval: at once again
    assert [s["seq"] for s in _summaries(fake)] == [1, 40, 41]


def test_a_waiting_summary_goes_out_with_a_republish_or_a_flush_and_only_once() -> None:
    fake = FakeBroker()
    outlet = MqttOutlet(Topics("b1"), fake)
    outlet.deliver(update(1, _running("red")))
    outlet.deliver(update(2, _running("blue")))
    outlet.republish()
    assert [s["seq"] for s in _summaries(fake)] == [1, 2]
    outlet.deliver(update(3, _running("green")))
    outlet.flush()
    time.sleep(SUMMARY_INTERVAL + 0.3)
    assert [s["seq"] for s in _summaries(fake)] == [1, 2, 3], "the cancelled timer sent nothing more"


def test_the_log_payload_joined_from_encoded_lines_is_the_whole_log_encoded() -> None:
    log = GameLog(limit=5)
    texts = ["Hello", "Héllo — “quoted” \\ and \"escaped\"", "Hello", "", "Dice: 🔥"]
    for seq in range(1, 30):
        mode = "idle" if seq in (12, 13) else "game"
        title = None if seq > 20 else f"G{seq // 13}"
        events = [{"type": "say", "text": texts[seq % 5]}, {"type": "prompt", "text": f"p{seq % 3}"},
                  {"type": "game_over", "winners": ["red", "blue"][: seq % 3]} if seq % 7 == 0 else {"type": "x"}]
        log.update(seq, {"mode": mode, "game": {"game": f"g{seq // 13}", "title": title}}, events)
        assert log.encoded(PUBLIC_SCHEMA, seq) == encode({**log.payload(), "schema": PUBLIC_SCHEMA, "seq": seq})
    assert len(log.payload()["lines"]) == 5
