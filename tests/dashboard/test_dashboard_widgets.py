"""The page draws widget kinds, not field names: every kind of games/widgets.py from a state the
test publishes on a real broker, a kind registered by another file, the fallback for a view that
declares no widgets, the clearing message, and offline versus a wrong password."""

from __future__ import annotations

import itertools
import json
from collections.abc import Iterator
from typing import Any

import pytest

from device.network.mqtt.broker import Broker, start_broker
from device.network.mqtt.http import DashboardServer
from games import widgets as w
from tests.dashboard.conftest import PHONE, TV, open_page, shot
from tests.support.broker import Probe
from tests.support.chromium import SHOWN_MS
from tests.support.wait import until

_ids = itertools.count(1)


class Stage:
    """A dashboard page served for box `box_id`, and the box's MQTT user to publish what it shows."""

    def __init__(self, broker: Broker, user: str = "dashboard", password: str | None = None) -> None:
        self.box_id = f"stage-{next(_ids)}"
        self.base = f"houston/{self.box_id}"
        config = {"box": self.box_id, "ws_url": f"ws://127.0.0.1:{broker.ws_port}", "username": user,
                  "password": broker.passwords[user] if password is None else password}
        self.http = DashboardServer(0, config, host="127.0.0.1").start()
        self.url = f"http://127.0.0.1:{self.http.port}/"
        self.box = Probe(broker.port, "box", broker.passwords["box"], ())
        until(self.box.client.is_connected)

    def publish(self, topic: str, payload: Any, retain: bool = True) -> None:
        data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        self.box.client.publish(f"{self.base}/{topic}", data, qos=1, retain=retain).wait_for_publish(2)

    def close(self) -> None:
        for topic in ("state", "log", "availability", "team/red"):
            self.publish(topic, b"")
        self.box.close()
        self.http.stop()


@pytest.fixture
def stage(broker: Broker) -> Iterator[Any]:
    made: list[Stage] = []

    def make(**kw: Any) -> Stage:
        s = Stage(broker, **kw)
        made.append(s)
        return s

    yield make
    for s in made:
        s.close()


def every_kind_view() -> dict[str, Any]:
    widgets = [
        w.teams("Teams", [w.team_row("red", [w.counter("points", 1), w.counter("tokens", 3)], badges=["captain"],
                                     active=True),
                          w.team_row("yellow", [w.counter("points", 4)], out=True)]),
        w.counters("Supply", [w.counter("deck", 12), w.counter("bonfire", 0)]),
        w.dice("Dice", [("fire", "red"), ("meat", "#d7a36a"), ("charcoal", "#222222")]),
        w.disc("Disc", [{"team": "red", "label": "3", "marked": True},
                        {"team": "yellow", "label": "1", "marked": False},
                        {"team": "blue", "label": "0", "marked": False}], centre="red"),
        w.slots("Ship", [{"label": "A", "team": "red", "text": ""}, {"label": "B", "team": None, "text": ""},
                         {"label": "C", "team": "blue", "text": "Wrench"}]),
        w.table("Rounds", ["team", "round 1", "total"], [["red", 2, 5], ["yellow", 1, 4]]),
        w.log("History", ["first", "second"]),
        w.cards("Open cards", [{"name": "Max", "text": "the dog"}]),
        w.banner("Result", "Red wins", "by two points"),
    ]
    assert {x["kind"] for x in widgets} == set(w.KINDS)
    return w.view("toy", "Toy Game", "playing", widgets, round=2, turn="red", scores={"red": 5, "yellow": 4})


def state(game: dict[str, Any] | None, mode: str = "game", prompt: str = "Red, roll.", seq: int = 1) -> dict[str, Any]:
    return {"schema": 1, "seq": seq, "box": "x", "mode": mode, "selected": "toy",
            "games": [{"id": "toy", "title": "Toy Game"}, {"id": "other", "title": "Other Game"}],
            "game": game, "prompt": {"key": "k", "text": prompt, "accepts": [], "lights": []}, "can_undo": False}


def test_every_widget_kind_is_drawn_from_the_view(stage, browser) -> None:
    s = stage()
    view = every_kind_view()
    s.publish("availability", b"online")
    s.publish("state", state(view))
    page = open_page(browser, s.url, TV)
    try:
        page.wait_for_selector("#widgets [data-kind=banner]", timeout=SHOWN_MS)
        kinds = page.locator("#widgets > [data-kind]").evaluate_all("els => els.map(e => e.dataset.kind)")
        assert kinds == [x["kind"] for x in view["widgets"]]
        assert page.locator("#title").text_content() == "Houston · Toy Game"
        assert page.locator("#phase").text_content() == "playing"
        assert page.locator("#round").text_content() == "round 2"
        assert page.locator("#turn").text_content() == "Red's turn"
        teams = page.locator("[data-kind=teams] .team")
        assert teams.evaluate_all("els => els.map(e => e.dataset.team)") == ["red", "yellow"]
        assert "1 point" in teams.nth(0).text_content() and "1 points" not in teams.nth(0).text_content()
        assert "captain" in teams.nth(0).text_content() and "out" in teams.nth(1).get_attribute("class")
        assert page.locator("[data-kind=dice] .die").evaluate_all("els => els.map(e => e.dataset.face)") == \
            ["fire", "meat", "charcoal"]
        assert page.locator("[data-kind=disc] path").evaluate_all("els => els.map(e => e.dataset.team)") == \
            ["red", "yellow", "blue"]
        assert page.locator("[data-kind=disc] path[data-marked]").count() == 1
        assert page.locator("[data-kind=slots] .cell").all_text_contents() == ["ARed", "Bempty", "CWrench"]
        assert page.locator("[data-kind=table] tbody tr").count() == 2
        assert page.locator("[data-kind=log] li").all_text_contents() == ["second", "first"]  # newest first
        assert page.locator("[data-kind=cards] .card-name").all_text_contents() == ["Max"]
        assert page.locator("[data-kind=banner] .banner-text").text_content() == "Red wins"
        # no text leaks as HTML; the highlight marks what changed on the next state
        changed = json.loads(json.dumps(view))
        changed["widgets"][1]["items"][0]["value"] = 11
        s.publish("state", state(changed, seq=2))
        page.wait_for_selector("[data-kind=counters] .cell.changed", timeout=SHOWN_MS)
        assert page.locator("[data-kind=teams] .changed").count() == 0
        shot(page, "kinds-tv.png")
    finally:
        page.close()


def test_another_file_can_register_a_kind(stage, browser) -> None:
    s = stage()
    view = w.view("toy", "Toy Game", "playing", [{"kind": "sparkle", "title": "New kind", "n": 3}])
    s.publish("availability", b"online")
    s.publish("state", state(view))
    page = browser.new_page(viewport=PHONE)
    page.add_init_script("""window.HOUSTON_WIDGETS = { sparkle: (widget) => {
        const n = document.createElement('section'); n.dataset.kind = widget.kind;
        n.textContent = '*'.repeat(widget.n); return n; } };""")
    try:
        page.goto(s.url)
        page.wait_for_selector("[data-kind=sparkle]", timeout=SHOWN_MS)
        assert page.locator("[data-kind=sparkle]").text_content() == "***"
        assert page.evaluate("typeof window.HOUSTON_WIDGETS.teams") == "function"  # built-ins kept
    finally:
        page.close()


def test_a_view_without_widgets_still_shows_title_phase_and_round(stage, browser) -> None:
    s = stage()
    s.publish("availability", b"online")
    s.publish("state", state({"game": "toy", "title": "Toy Game", "phase": "rolling", "round": 3}))
    page = open_page(browser, s.url, PHONE)
    try:
        page.wait_for_function("document.getElementById('round').textContent === 'round 3'", timeout=SHOWN_MS)
        assert page.locator("#phase").text_content() == "rolling"
        assert page.locator("#title").text_content() == "Houston · Toy Game"
    finally:
        page.close()


def test_at_idle_after_choosing_another_game_nothing_of_the_old_one_shows(stage, browser) -> None:
    s = stage()
    s.publish("availability", b"online")
    over = every_kind_view()
    over["phase"], over["winners"] = "over", ["red"]
    idle = state(over, mode="idle", prompt="Press OK to play Other Game.")
    idle["selected"] = "other"
    s.publish("state", idle)
    page = open_page(browser, s.url, TV)
    try:
        page.wait_for_function("document.getElementById('title').textContent === 'Houston · Other Game'",
                               timeout=SHOWN_MS)
        assert page.locator("#phase").text_content() == "idle"
        assert page.locator("#round").is_hidden() and page.locator("#turn").is_hidden()
        assert page.locator("#reveal").is_hidden()
        assert page.locator("#widgets > *").count() == 0
    finally:
        page.close()


def test_the_clearing_message_empties_an_open_team_page(stage, browser, broker) -> None:
    s = stage()
    s.publish("availability", b"online")
    s.publish("state", state(every_kind_view()))
    hand = w.cards("Your hand", [{"name": "Wrench", "text": "faces left"}])
    s.publish("team/red", {"schema": 1, "seq": 1, "team": "red",
                           "view": {"game": "toy", "team": "red", "widgets": [hand]}})
    page = open_page(browser, f"{s.url}?team=red&user=red&pass={broker.passwords['red']}", PHONE)
    try:
        page.wait_for_selector("#private .card-name", timeout=SHOWN_MS)
        assert page.locator("#private .card-text").text_content() == "faces left"
        assert page.locator("#private h2").first.text_content() == "Team Red only"
        s.publish("team/red", b"")  # the box clears the topic
        page.wait_for_selector("#private", state="hidden", timeout=SHOWN_MS)
        assert page.locator("#private .card").count() == 0
        # a view left from another game is never drawn, even if it arrives
        s.publish("team/red", {"schema": 1, "seq": 2, "team": "red",
                               "view": {"game": "other", "team": "red", "widgets": [hand]}})
        page.wait_for_timeout(300)
        assert page.locator("#private").is_hidden()
    finally:
        page.close()


def test_a_private_view_without_widgets_reads_as_cards_and_sentences(stage, browser, broker) -> None:
    s = stage()
    s.publish("availability", b"online")
    s.publish("state", state(every_kind_view()))
    s.publish("team/red", {"schema": 1, "seq": 1, "team": "red", "view": {
        "game": "toy", "team": "red", "dolphinized": False, "seat": 0, "playing": True, "spacewalk": [],
        "hand": [{"id": "c1", "name": "Wrench", "facing": "left"}]}})
    page = open_page(browser, f"{s.url}?team=red&user=red&pass={broker.passwords['red']}", PHONE)
    try:
        page.wait_for_selector("#private .card-name", timeout=SHOWN_MS)
        text = page.locator("#private").text_content()
        assert "Wrench" in text and "facing left" in text
        assert "dolphinized" not in text.lower() and "false" not in text.lower() and "Spacewalk" not in text
    finally:
        page.close()


def test_offline_box_broker_gone_and_wrong_password_look_different(stage, browser, tmp_path) -> None:
    s = stage()
    s.publish("availability", b"offline")
    page = open_page(browser, s.url, TV, state="offline")
    try:
        assert page.locator("#status").text_content().startswith("box offline since ")
        assert page.evaluate("document.body.dataset.conn") == "offline"
        opacity = page.evaluate("getComputedStyle(document.querySelector('main')).opacity")
        assert float(opacity) < 0.6  # the whole page dims
        s.publish("availability", b"online")
        page.wait_for_selector("#status[data-state=live]", timeout=SHOWN_MS)
    finally:
        page.close()
    wrong = stage(password="not-the-password")
    page = open_page(browser, wrong.url, TV, state="auth")
    try:
        assert "wrong password" in page.locator("#status").text_content()
    finally:
        page.close()
    gone = start_broker(tmp_path / "gone")
    port = gone.ws_port
    gone.stop()
    page = browser.new_page(viewport=TV)
    try:
        page.goto(f"{s.url}?ws=ws://127.0.0.1:{port}")
        page.wait_for_selector("#status[data-state=noconn]", timeout=SHOWN_MS)
        assert page.locator("#status").text_content().startswith("no connection to the broker since ")
    finally:
        page.close()


def test_no_favicon_404_and_no_console_errors(stage, browser) -> None:
    s = stage()
    s.publish("availability", b"online")
    s.publish("state", state(every_kind_view()))
    page = browser.new_page(viewport=PHONE)
    failures: list[str] = []
    page.on("response", lambda r: failures.append(r.url) if r.status >= 400 else None)
    page.on("pageerror", lambda e: failures.append(str(e)))
    try:
        page.goto(s.url)
        page.wait_for_selector("#widgets [data-kind=teams]", timeout=SHOWN_MS)
        page.wait_for_timeout(200)
        assert failures == []
        assert page.evaluate("fetch('favicon.svg').then(r => r.status)") == 200
    finally:
        page.close()
