"""The Game Runner's control page in headless Chromium against a real broker and a running box."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlencode

from games.spacedogs.catalog import catalog
from tests.support.chromium import SHOWN_MS

CAT = catalog()
ARTIFACTS = Path(__file__).resolve().parents[3] / "test-artifacts"


def _open_gr(browser, link, broker):
    query = urlencode({"team": "gr", "user": "gr", "pass": broker.passwords["gr"]})
    page = browser.new_page(viewport={"width": 412, "height": 915})
    page.goto(f"http://127.0.0.1:{link.http.port}/?{query}")
    page.wait_for_selector("[data-kind=controls] form[data-command=damage]", timeout=SHOWN_MS)
    return page


def _until(page, condition, seconds: float = SHOWN_MS / 1000) -> bool:
    for _ in range(int(seconds / 0.1)):
        if condition():
            return True
        page.wait_for_timeout(100)
    return condition()


def test_gr_page_sends_damage_and_shows_the_reply(linked, broker, sd_chromium) -> None:
    box, link = linked("spacedogs", {"dogs": ["nova", "orion"], "scenario": "s01"}, page=True)
    sd_chromium.run(lambda browser: _gr_page_session(browser, box, link, broker))


def _gr_page_session(browser, box, link, broker) -> None:
    page = _open_gr(browser, link, broker)
    try:
        assert CAT.scenarios["s01"].goals[0].text in page.locator("#private").text_content()
        form = page.locator("form[data-command=damage]")
        form.locator("select[name=figure]").select_option("orion")
        form.locator("input[name=amount]").fill("3")
        form.locator("select[name=mode]").select_option("receive")
        form.locator("select[name=cover]").select_option("1")
        form.locator("input[name=shields]").fill("4")
        form.locator("button[type=submit]").click()
        page.wait_for_selector("output[data-reply=damage][data-status=ok]", timeout=SHOWN_MS)
        box.service.wait_idle()
        assert box.session.state.dog("orion").health == CAT.numbers.max_health  # the Orion example: 0
        form = page.locator("form[data-command=damage]")
        form.locator("select[name=figure]").select_option("orion")
        form.locator("input[name=amount]").fill("2")
        form.locator("select[name=cover]").select_option("1")
        form.locator("input[name=shields]").fill("0")
        form.locator("button[type=submit]").click()
        assert _until(page, lambda: box.session.state.dog("orion").health == CAT.numbers.max_health - 1)
        page.wait_for_selector("output[data-reply=damage][data-status=ok]", timeout=SHOWN_MS)
        # a refused command: the rule's words come back beside the form, nothing changes
        before = box.session.state
        form = page.locator("form[data-command=activate]")
        form.locator("select[name=group]").select_option("thugs")
        form.locator("button[type=submit]").click()
        page.wait_for_selector("output[data-reply=activate][data-status=error]", timeout=SHOWN_MS)
        words = page.locator("output[data-reply=activate]").text_content()
        assert words and words != "sent…"  # the box's own words for the refusal (not the GR's turn)
        assert box.session.state == before
        # a number that is not a number never leaves the phone
        form = page.locator("form[data-command=xp]")
        form.locator("input[name=xp]").fill("-3")
        form.locator("button[type=submit]").click()
        assert page.locator("output[data-reply=xp]").get_attribute("data-status") == "error"
        ARTIFACTS.mkdir(exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / "spacedogs-gr-phone.png"), full_page=True)
        # the end scene from the phone
        page.locator("form[data-command=end] button[type=submit]").click()
        page.wait_for_selector("output[data-reply=end][data-status=ok]", timeout=SHOWN_MS)
        box.service.wait_idle()
        assert box.session.state.phase == "rewards"
    finally:
        page.close()


def test_a_players_page_has_no_controls_and_no_goals(linked, broker, sd_chromium) -> None:
    _box, link = linked("spacedogs", {"dogs": ["nova"], "scenario": "s01"}, page=True)
    sd_chromium.run(lambda browser: _players_page(browser, link, broker))


def _players_page(browser, link, broker) -> None:
    query = urlencode({"team": "yellow", "user": "yellow", "pass": broker.passwords["yellow"]})
    page = browser.new_page()
    try:
        page.goto(f"http://127.0.0.1:{link.http.port}/?{query}")
        page.wait_for_selector("#private:not([hidden])", timeout=SHOWN_MS)
        assert page.locator("[data-kind=controls]").count() == 0
        text = page.content()
        assert not any(g.text in text for g in CAT.scenarios["s01"].goals)
    finally:
        page.close()
