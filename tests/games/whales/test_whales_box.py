"""A whole game through the real service, journal and mock pins, with every card held up to the
simulated camera (procedural card faces, synthetic captures, the real scan session); and
`houston simulate whales` between random legal players."""

import io
import json

from device.cli.commands.journal_tools import export_lines, replay_lines
from device.simulation.demo import run_demo
from device.simulation.demo_camera import attach_camera
from device.simulation.simulate import simulate
from device.simulation.testing import make_box
from games.core import Scan, digest
from games.whales.rules import GAME


def test_a_whole_game_through_the_service_with_cards_held_up_to_the_camera(tmp_path):
    box = make_box(tmp_path, game="whales", options=GAME.demo_options())
    try:
        hand = attach_camera(box, "whales", tmp_path, io.StringIO())
        scans = step = 0
        while box.session is not None:
            inp = GAME.demo_input(box.session.state, step)
            assert inp is not None
            step += 1
            if isinstance(inp, Scan):
                scans += 1
                box.scan(inp.card)
            else:
                box.press(inp.button, hold=inp.hold)
        finished = box.service.finished
        assert finished is not None and finished.over is not None
        assert finished.over.reason == "whales_win" and finished.over.winners
        assert GAME.demo_input(finished.state, step) is None
        # The demo's slips: a superhero dealt by mistake, an offer taken back with BACK.
        assert box.errors == ["deal_put_aside"]
        assert any(text.startswith("Undone") for text in box.said)
        # Most cards were recognised from the captures; the rest the dealer typed in.
        assert len(hand.frames_used) + hand.typed_in == scans
        assert len(hand.frames_used) >= 0.8 * scans
        # The journal rebuilds exactly the state the box had.
        record = box.journal.games()[-1]
        rebuilt = replay_lines(export_lines(box.journal, record.id))
        assert rebuilt.state == finished.state and digest(rebuilt.state) == digest(finished.state)
        # Every published public view is plain JSON with the fields displays read.
        views = [v["game"] for v in box.public_views if v.get("game")]
        assert views and all({"round", "turn", "scores", "winners", "widgets"} <= set(v) for v in views)
        json.dumps(views)
    finally:
        box.close()


def test_simulate_plays_random_games_to_their_end_and_says_how_they_ended():
    summary = simulate("whales", 200, 4, 1)
    assert summary["finished"] == 200
    ends = summary["rates"]["end"]
    assert set(ends) <= {"end_deck_short", "end_six_whales", "end_three_superheroes", "end_turtle_claim"}
    assert abs(sum(ends.values()) - 1) < 1e-9 and "end_deck_short" in ends


def test_houston_demo_plays_the_demo_policy_and_replays_it(tmp_path):
    out = io.StringIO()
    assert run_demo(tmp_path, ["whales"], out, camera=False) == 0
    text = out.getvalue()
    assert "rebuilt state is identical" in text
    assert "Captain Harpoon is not a whale" in text and "Undone" in text and "wins" in text
