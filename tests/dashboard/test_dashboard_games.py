"""Every installed game, played whole through the box, on a TV (1920×1080) and a phone (390×844):
no vertical overflow on the TV at any step, the whose-turn line whenever the view names a turn,
the winner first on the phone at the end, no contrast or label violations (axe-core), the log
kept across a reload and a broker restart, a team page following a game change. Screenshots of
each game's key moments: test-artifacts/dashboard/<game>/."""

from __future__ import annotations

import time
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe

from device.network.mqtt.broker import start_broker
from games.registry import game_ids, load_game
from tests.dashboard.conftest import PHONE, TV, open_page, shot, synced
from tests.dashboard.drive import game_or_skip, give, play, start
from tests.support.broker import CONNECT_WAIT
from tests.support.chromium import SHOWN_MS

AXE_RULES = {"color-contrast", "label", "image-alt", "svg-img-alt", "role-img-alt", "aria-input-field-name",
             "button-name", "link-name", "select-name", "frame-title", "document-title", "html-has-lang"}
MAX_SHOTS = 8

OVERFLOW = """() => {
  const boxes = [...document.querySelectorAll('header, #turn, main section, main [data-kind]')]
    .filter(e => e.offsetParent !== null).map(e => e.getBoundingClientRect().bottom);
  const all = [...document.querySelectorAll('header, #turn, main section, main [data-kind]')]
    .filter(e => e.offsetParent !== null);
  const worst = all.sort((a, b) => b.getBoundingClientRect().bottom - a.getBoundingClientRect().bottom)[0];
  return { doc: document.documentElement.scrollHeight, height: innerHeight,
           worst: worst ? (worst.id || worst.className) : '', fit: document.documentElement.dataset.fit,
           bottom: Math.max(0, ...boxes), width: document.documentElement.scrollWidth, vw: innerWidth };
}"""


def _axe_violations(page: Any) -> list[str]:
    result = Axe().run(page)
    return [f"{v['id']}: {[n['target'] for n in v['nodes']][:3]}" for v in result.response["violations"]
            if v["id"] in AXE_RULES]


def _fits(page: Any) -> dict[str, Any]:
    return page.evaluate(OVERFLOW)


@pytest.mark.parametrize("game_id", game_ids())
def test_a_whole_game_fits_the_tv_and_reads_on_a_phone(game_id: str, table, browser) -> None:
    game_or_skip(game_id)
    t = table(game_id)
    tv = open_page(browser, t.url, TV)
    phone = open_page(browser, t.url, PHONE)
    shots: list[str] = []
    phases: list[str] = []
    worst = {"doc": 0, "bottom": 0.0}

    def moment(label: str) -> None:
        if len(shots) >= MAX_SHOTS and label != "over":  # the end is always shown
            return
        n = len(shots)
        shot(tv, f"{game_id}/{n:02d}-tv-{label}.png")
        shot(phone, f"{game_id}/{n:02d}-phone-{label}.png")
        shots.append(label)

    def check(step: int) -> None:
        synced(tv, t)
        fit = _fits(tv)
        worst["doc"] = max(worst["doc"], fit["doc"])
        worst["bottom"] = max(worst["bottom"], fit["bottom"])
        if not (fit["doc"] <= fit["height"] and fit["bottom"] <= fit["height"] + 1):
            shot(tv, f"{game_id}/overflow-step-{step}.png")
        assert fit["doc"] <= fit["height"] and fit["bottom"] <= fit["height"] + 1, (step, fit)
        view = t.box.service.public_view()["game"] or {}
        if view.get("turn") and t.box.session is not None:
            assert tv.locator("#turn").is_visible() and \
                tv.locator("#turn").text_content().lower().startswith(str(view["turn"]).lower()), step
        phase = str(view.get("phase", ""))
        if phase and phase not in phases:
            phases.append(phase)
            synced(phone, t)
            moment(phase)

    try:
        start(t.box, game_id)
        check(0)
        assert _axe_violations(tv) == []
        steps = play(t.box, on_step=check)
        synced(tv, t)
        synced(phone, t)
        moment("over")
        # the reveal is the main panel; on the phone the winner comes first
        assert tv.locator("#reveal").is_visible() and phone.locator("#reveal").is_visible()
        reveal_top = phone.locator("#reveal").bounding_box()["y"]
        for other in ("#widgets", ".prompt-box", "#log-box"):
            box = phone.locator(other).bounding_box()
            assert box is None or reveal_top < box["y"], other
        fit = _fits(phone)
        assert fit["width"] <= fit["vw"], fit  # no sideways scrolling on the phone
        assert _fits(tv)["doc"] <= TV["height"]
        assert _axe_violations(tv) == [] and _axe_violations(phone) == []
        lines = tv.locator("#log li").all_text_contents()
        assert lines, "the game log is drawn"
        tv.reload()
        tv.wait_for_selector("#status[data-state=live]", timeout=SHOWN_MS)
        tv.wait_for_function("n => document.querySelectorAll('#log li').length === n", arg=len(lines), timeout=SHOWN_MS)
        assert tv.locator("#log li").all_text_contents() == lines
        assert steps > 0
    finally:
        tv.close()
        phone.close()


def _contract_games() -> list[str]:
    from games.core import Game

    return [g for g in game_ids() if isinstance(load_game(g), Game)]


def test_the_log_survives_a_broker_restart(table, browser, tmp_path) -> None:
    games = _contract_games()
    if not games:
        pytest.skip("no installed game is on the game contract yet")
    broker = start_broker(tmp_path / "own-broker")
    try:
        t = table(games[0], own_broker=broker)
        page = open_page(browser, t.url, TV)
        start(t.box, games[0])
        session = t.box.session
        assert session is not None
        for step in range(6):
            if t.box.session is None:
                break
            state = t.box.session.state
            inp = session.game.demo_input(state, step) or session.game.legal_inputs(state)[0]
            give(t.box, inp)
        synced(page, t)
        page.wait_for_function("document.querySelectorAll('#log li').length > 0", timeout=SHOWN_MS)
        lines = page.locator("#log li").all_text_contents()
        broker.stop()
        page.wait_for_selector("#status[data-state=noconn]", timeout=SHOWN_MS)
        broker.start()
        assert t.link.connection.wait_connected(CONNECT_WAIT)
        page.wait_for_selector("#status[data-state=live]", timeout=SHOWN_MS)
        page.reload()
        page.wait_for_selector("#status[data-state=live]", timeout=SHOWN_MS)
        page.wait_for_function("n => document.querySelectorAll('#log li').length === n", arg=len(lines),
                               timeout=SHOWN_MS)
        assert page.locator("#log li").all_text_contents() == lines
        page.close()
    finally:
        broker.stop()


def test_a_team_page_open_across_a_game_change_shows_the_new_game(table, browser) -> None:
    games = _contract_games()
    if not games:
        pytest.skip("no installed game is on the game contract yet")
    first, second = games[0], games[-1]
    t = table(first)
    start(t.box, first)
    session = t.box.session
    step = 0
    while session is not None and not session.game.teams(session.state) and step < 40:
        give(t.box, session.game.demo_input(session.state, step) or session.game.legal_inputs(session.state)[0])
        session, step = t.box.session, step + 1
    assert session is not None and session.game.teams(session.state)
    team = session.game.teams(session.state)[0]
    page = open_page(browser, t.team_url(team), PHONE)
    try:
        synced(page, t)
        page.wait_for_function("g => document.body.dataset.game === g", arg=first, timeout=SHOWN_MS)
        seen: list[tuple[str, str]] = []  # (the table's game, the private view's game) whenever shown
        page.expose_function("sawPrivate", lambda table_game, view_game: seen.append((table_game, view_game)))
        page.evaluate("""() => new MutationObserver(() => {
            const p = document.getElementById('private');
            if (!p.hidden) window.sawPrivate(document.body.dataset.game || '', p.dataset.game || ''); })
          .observe(document.getElementById('private'), {attributes: true, childList: true, subtree: true})""")
        play(t.box)
        reply = t.box.command("select_game", {"game": second})
        assert reply["status"] == "ok", reply
        start(t.box, second)
        synced(page, t)
        new = t.box.session
        assert new is not None
        page.wait_for_function("g => document.body.dataset.game === g", arg=second, timeout=SHOWN_MS)
        if team in new.game.teams(new.state):
            page.wait_for_selector(f"#private[data-game={second}]", timeout=SHOWN_MS)
        else:
            time.sleep(0.3)
            assert page.locator("#private").is_hidden()
        time.sleep(0.3)
        assert seen and all(view == table_game for table_game, view in seen if view), seen
        shot(page, f"team-{team}-after-game-change.png")
    finally:
        page.close()
