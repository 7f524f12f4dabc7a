"""The campaign kept across games: the generic store (real SQLite), `houston campaign`, and the
service saving a finished scenario's campaign and starting the next one from it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from test_spacedogs_properties import _campaigns

from device.box.campaign_store import HISTORY_PER_GAME, SCHEMA_VERSION, CampaignError, CampaignStore, store_path
from device.cli import main
from device.simulation.testing import make_box
from games.session import replay
from games.spacedogs.catalog import catalog
from games.spacedogs.rules import GAME

CAT = catalog()


def test_store_is_wal_full_sync_versioned_and_survives_reopening(tmp_path: Path) -> None:
    store = CampaignStore(store_path(tmp_path))
    assert store._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert store._conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert store._conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    store.save("spacedogs", {"a": 1}, "test")
    store.close()
    again = CampaignStore(store_path(tmp_path))
    loaded = again.load("spacedogs")
    assert loaded is not None and loaded.data == {"a": 1} and loaded.source == "test"
    assert again.load("other") is None


def test_store_keeps_a_bounded_history(tmp_path: Path) -> None:
    store = CampaignStore(store_path(tmp_path))
    for i in range(HISTORY_PER_GAME + 5):
        store.save("spacedogs", {"n": i}, f"save {i}")
    history = store.history("spacedogs")
    assert len(history) == HISTORY_PER_GAME and history[-1].data == {"n": HISTORY_PER_GAME + 4}


def test_store_refuses_damaged_rows_and_newer_schemas(tmp_path: Path) -> None:
    store = CampaignStore(store_path(tmp_path))
    store._conn.execute("INSERT INTO campaigns VALUES ('spacedogs', '[1, 2]', 1.0, 'x')")
    with pytest.raises(CampaignError):
        store.load("spacedogs")
    with pytest.raises(CampaignError):
        store.load("Not A Game")
    store._conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    store.close()
    with pytest.raises(CampaignError):
        CampaignStore(store_path(tmp_path))


def _cli(tmp_path: Path, *args: str) -> int:
    return main(["campaign", *args, "--game", "spacedogs", "--data-dir", str(tmp_path)])


def test_export_import_export_is_byte_identical(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    assert _cli(tmp_path, "export", str(first)) == 0
    data = json.loads(first.read_text())
    data["snapshot"]["gr_xp"] = 7
    data["snapshot"]["dogs"]["nova"] = {"xp": 30, "level": CAT.level_for(30)}
    first.write_text(json.dumps(data))
    assert _cli(tmp_path, "import", str(first)) == 0
    assert _cli(tmp_path, "export", str(second)) == 0
    assert _cli(tmp_path, "import", str(second)) == 0
    third = tmp_path / "c.json"
    assert _cli(tmp_path, "export", str(third)) == 0
    assert second.read_bytes() == third.read_bytes()
    assert json.loads(third.read_text())["snapshot"]["gr_xp"] == 7
    assert _cli(tmp_path, "show") == 0
    assert "saved from import b.json" in capsys.readouterr().out


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(_campaigns())
def test_any_valid_campaign_round_trips_through_the_files(tmp_path: Path, snapshot: dict) -> None:
    path = tmp_path / "in.json"
    path.write_text(json.dumps({"format": "houston-campaign", "version": 1, "game": "spacedogs",
                                "snapshot": snapshot}))
    assert _cli(tmp_path, "import", str(path)) == 0
    out1, out2 = tmp_path / "o1.json", tmp_path / "o2.json"
    assert _cli(tmp_path, "export", str(out1)) == 0
    assert _cli(tmp_path, "import", str(out1)) == 0
    assert _cli(tmp_path, "export", str(out2)) == 0
    assert out1.read_bytes() == out2.read_bytes()
    assert json.loads(out1.read_text())["snapshot"] == snapshot


@pytest.mark.parametrize("text", [
    "not json",
    "[]",
    json.dumps({"format": "houston-campaign", "version": 2, "game": "spacedogs", "snapshot": {}}),
    json.dumps({"format": "houston-campaign", "version": 1, "game": "dog", "snapshot": {}}),
    json.dumps({"format": "houston-campaign", "version": 1, "game": "spacedogs", "snapshot": {"version": 1}}),
])
def test_bad_files_are_refused_with_one_line_and_no_change(tmp_path: Path, text: str,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    good = tmp_path / "good.json"
    assert _cli(tmp_path, "export", str(good)) == 0
    assert _cli(tmp_path, "import", str(good)) == 0
    before = sqlite3.connect(store_path(tmp_path)).execute("SELECT snapshot FROM campaigns").fetchall()
    bad = tmp_path / "bad.json"
    bad.write_text(text)
    capsys.readouterr()
    assert _cli(tmp_path, "import", str(bad)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("houston: ")
    after = sqlite3.connect(store_path(tmp_path)).execute("SELECT snapshot FROM campaigns").fetchall()
    assert after == before


def _finish_scenario(box) -> None:
    for option in ("goal:s01a", "end", "xp:nova:12", "xp:orion:4", "story:capture"):
        box.choose(option)
    box.press("ok")


def test_the_service_keeps_the_campaign_across_games_and_boxes(tmp_path: Path) -> None:
    with make_box(tmp_path, "spacedogs", {"dogs": ["nova", "orion"]}) as box:
        started = box.session.state.campaign
        assert started.scenarios == ()
        _finish_scenario(box)
        assert box.session is None and not box.errors
    with make_box(tmp_path, "spacedogs", {"dogs": ["nova", "orion"], "scenario": "s02"}) as box:
        campaign = box.session.state.campaign
        assert campaign.scenarios == ("s01",) and campaign.dog("nova").xp == 12
        assert campaign.gr_xp == CAT.scenarios["s01"].goals[0].xp and dict(campaign.choices) == {"s01": "capture"}
        record = box.journal.games()[-1]
        assert record.options["campaign"]["scenarios"] == ["s01"]  # journaled with the game
        rebuilt = replay(GAME, record.options, list(box.journal.entries(record.id)))
        assert rebuilt.state == box.session.state


def test_a_client_cannot_smuggle_its_own_campaign(tmp_path: Path) -> None:
    with make_box(tmp_path, "spacedogs", {"dogs": ["nova"], "campaign": "forged"}) as box:
        assert box.session.state.campaign.gr_xp == 0  # the store's (a new) campaign, not the client's
        assert box.journal.games()[-1].options["campaign"] == GAME.campaign_initial()


def test_a_damaged_stored_campaign_stops_the_start_with_words(tmp_path: Path) -> None:
    store = CampaignStore(store_path(tmp_path))
    store.save("spacedogs", {"version": 99}, "test")
    store.close()
    with make_box(tmp_path, "spacedogs") as box:
        reply = box.command("start_game", {"game": "spacedogs", "options": {}})
        assert reply["error"] == "campaign_unreadable" and box.session is None


def test_games_without_a_campaign_open_no_store(tmp_path: Path) -> None:
    with make_box(tmp_path, "dog", {}) as box:
        assert box.session is not None
    assert not store_path(tmp_path).exists()


def test_a_stop_between_the_journaled_end_and_the_campaign_save_loses_nothing(tmp_path: Path, monkeypatch) -> None:
    """The game's end is committed with its final input; the campaign lives in another file. A box
    that stops in between saves the campaign on its next start, from the journal."""
    from device.box.campaigns import Campaigns

    monkeypatch.setattr(Campaigns, "finish", lambda self, game, state, source: None)  # the stop: no save
    with make_box(tmp_path, "spacedogs", {"dogs": ["nova", "orion"]}) as box:
        _finish_scenario(box)
        assert box.session is None
    monkeypatch.undo()
    assert CampaignStore(store_path(tmp_path)).load("spacedogs") is None
    with make_box(tmp_path, "spacedogs", {"dogs": ["nova", "orion"], "scenario": "s02"}) as box:
        assert any("campaign is saved now" in s for s in box.said)
        campaign = box.session.state.campaign
        assert campaign.scenarios == ("s01",) and campaign.dog("nova").xp == 12
    with make_box(tmp_path, "spacedogs") as box:  # the next start resumes s02 and saves nothing again
        assert box.session is not None and not any("campaign is saved now" in s for s in box.said)
