"""The dashboard in a real browser: headless Chromium, a real broker over WebSockets, a running box."""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from device.box.config import Settings
from device.network.mqtt.broker import Broker
from device.network.mqtt.link import MqttLink
from device.simulation.simbox import SimBox
from device.simulation.testing import make_box

_ids = itertools.count(1)
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
PORTRAIT = {"width": 412, "height": 915}
LANDSCAPE = {"width": 1920, "height": 1080}


class Table:
    """A box linked to the broker, serving the dashboard page."""

    def __init__(self, tmp_path: Path, broker: Broker, game: str, options: dict[str, Any] | None, box_id: str) -> None:
        self.box: SimBox = make_box(tmp_path / box_id, game=game, options=options,
                                    settings=Settings(box_id=box_id, game=game))
        page = {"ws_url": f"ws://127.0.0.1:{broker.ws_port}", "username": "dashboard",
                "password": broker.passwords["dashboard"]}
        self.link = MqttLink(self.box.service, host="127.0.0.1", port=broker.port, username="box",
                             password=broker.passwords["box"], http_port=0, page_config=page).start()
        assert self.link.connection.wait_connected(5)
        assert self.link.http is not None
        self.url = f"http://127.0.0.1:{self.link.http.port}/"

    def close(self) -> None:
        self.link.stop()
        self.box.close()


@pytest.fixture
def table(tmp_path: Path, ws_broker: Broker) -> Iterator[Any]:
    made: list[Table] = []

    def make(game: str, options: dict[str, Any] | None = None) -> Table:
        t = Table(tmp_path, ws_broker, game, options, f"dash-{game}-{next(_ids)}")
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()


def _open(browser: Any, url: str, viewport: dict[str, int]) -> Any:
    page = browser.new_page(viewport=viewport)
    page.goto(url)
    page.wait_for_selector("#status[data-state=live]", timeout=5000)
    return page


def _shot(page: Any, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / name), full_page=True)


def test_a_button_press_shows_on_the_page_within_a_second(table, browser) -> None:
    t = table("dog")
    page = _open(browser, t.url, PORTRAIT)
    try:
        idle = t.box.service.public_view()["prompt"]["text"]
        page.wait_for_function("text => document.getElementById('prompt').textContent === text", arg=idle,
                               timeout=2000)
        assert page.locator("#phase").text_content() == "idle"
        started = time.monotonic()
        t.box.press("ok")  # the mock OK button: the game starts, players take their places
        page.wait_for_selector("#phase[data-phase=order]", timeout=1000)
        assert time.monotonic() - started < 1.0
        for button in ("red", "blue", "ok"):
            t.box.press(button)
        page.wait_for_selector("#phase[data-phase=turn]", timeout=1000)
        started = time.monotonic()
        t.box.press("ok")  # the dice roll
        page.wait_for_selector("#dice .die", timeout=1000)
        assert time.monotonic() - started < 1.0
        faces = page.locator("#dice .die").evaluate_all("els => els.map(e => e.dataset.face)")
        assert faces == list(t.box.session.state.roll)
        assert "round 1 / " in page.locator("#round").text_content()
        news = page.locator("#announcements li").all_text_contents()
        assert news and news[0] == t.box.said[-1]  # newest first
        _shot(page, "dashboard-dog-portrait.png")
    finally:
        page.close()


def test_offline_indicator_follows_the_box(table, browser) -> None:
    t = table("dog")
    page = _open(browser, t.url, LANDSCAPE)
    try:
        t.link.stop()  # a clean stop says offline
        page.wait_for_selector("#status[data-state=offline]", timeout=2000)
        assert page.locator("#status").text_content() == "box offline"
    finally:
        page.close()


def test_hwhad_table_shows_teams_ship_and_slots(table, browser) -> None:
    t = table("hwhad", {"teams": ["red", "blue", "green", "yellow"]})
    t.box.press("ok")
    while t.box.session.state.phase == "boarding":
        t.box.scan(t.box.session.state.stack[0])
    page = _open(browser, t.url, LANDSCAPE)
    try:
        view = t.box.service.public_view()["game"]
        page.wait_for_selector("#teams .team", timeout=2000)
        teams = page.locator("#teams .team").evaluate_all("els => els.map(e => e.dataset.team)")
        assert teams == [team["team"] for team in view["teams"]]
        text = page.locator("#teams").text_content()
        assert "astronauts" in text and "panic tokens" in text
        assert page.locator("#ship .cell").count() >= 6  # three modules, three slots
        assert page.locator("#prompt").text_content() == t.box.service.public_view()["prompt"]["text"]
        _shot(page, "dashboard-hwhad-landscape.png")
    finally:
        page.close()


def test_alien_disc_is_drawn_as_a_ring_of_colours(table, browser) -> None:
    t = table("alien")
    t.box.press("ok")
    for colour in ("red", "blue", "green", "yellow"):
        t.box.press(colour)
    page = _open(browser, t.url, PORTRAIT)
    try:
        view = t.box.service.public_view()["game"]
        page.wait_for_selector("#disc path", timeout=2000)
        colours = page.locator("#disc path").evaluate_all("els => els.map(e => e.dataset.colour)")
        assert colours == [part["colour"] for part in view["disc"]]
        _shot(page, "dashboard-alien-portrait.png")
    finally:
        page.close()


def test_a_team_screen_shows_its_own_hand_and_the_public_page_does_not(table, browser, ws_broker) -> None:
    t = table("hwhad", {"teams": ["red", "blue", "green"]})
    t.box.press("ok")
    while t.box.session.state.phase == "boarding":
        t.box.scan(t.box.session.state.stack[0])
    red_hand = [c["id"] for c in t.box.service.team_views()["red"]["hand"]]
    team_url = f"{t.url}?team=red&user=red&pass={ws_broker.passwords['red']}"
    team_page = _open(browser, team_url, PORTRAIT)
    public_page = _open(browser, f"{t.url}?team=red", PORTRAIT)  # dashboard credentials: refused the topic
    try:
        team_page.wait_for_selector("#private li[data-card]", timeout=2000)
        shown = team_page.locator("#private li[data-card]").evaluate_all("els => els.map(e => e.dataset.card)")
        assert red_hand and shown[: len(red_hand)] == red_hand
        _shot(team_page, "dashboard-hwhad-team-red.png")
        public_page.wait_for_selector("#teams .team", timeout=2000)
        time.sleep(0.3)
        assert public_page.locator("#private").is_hidden()
        assert all(card not in public_page.content() for card in red_hand)
    finally:
        team_page.close()
        public_page.close()
