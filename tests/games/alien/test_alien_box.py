"""Alien on Board through the real service loop, panel code and journal on gpiozero mock pins."""

from __future__ import annotations

import pytest

from device.cli.commands.journal_tools import export_lines, replay_lines
from device.simulation.testing import make_box

PLAYERS = ("red", "blue", "green", "yellow")  # seating order = order of joining


def reference_points(alien: str, guesses: dict[str, str]) -> dict[str, int]:
    """The rulebook's scoring written out once more, independently of games.alien.scoring."""
    crew = [p for p in PLAYERS if p != alien]
    found = [p for p in crew if guesses[p] == alien]
    points = {p: (1 if p in found else 0) for p in PLAYERS}
    if len(found) * 2 > len(crew):
        for p in crew:
            points[p] += 1
    elif len(found) * 2 < len(crew):
        points[alien] = 2
    return points


def guesses_for(round_number: int, alien: str) -> dict[str, str]:
    """A varied but fixed pattern: in some rounds most crew find the alien, in others few do."""
    guesses = {}
    for i, player in enumerate(PLAYERS):
        if player != alien and (i + round_number) % 3 != 0:
            guesses[player] = alien
        else:
            guesses[player] = next(p for p in PLAYERS if p not in (player, alien))
    return guesses


@pytest.fixture
def box(tmp_path):
    b = make_box(tmp_path, game="alien", options={})
    yield b
    b.close()


def error_texts(box) -> list[str]:
    return [e["text"] for e in box.recorder.events if e["type"] == "error"]


def test_a_full_ten_round_game_through_the_pins(box) -> None:
    for colour in PLAYERS:
        box.press(colour)
    box.press("ok")
    box.press("red")  # the first commander
    assert box.said[-1].startswith("Round 1 of 10. Red commands")
    totals = dict.fromkeys(PLAYERS, 0)
    commander = "red"
    for round_number in range(1, 11):
        alien = PLAYERS[(round_number * 3) % 4]
        guesses = guesses_for(round_number, alien)
        assert box.session.state.commander == commander
        box.press("ok")  # rockets are down
        called = []
        while (player := box.session.state.awaited()) is not None:
            called.append(player)
            assert box.led(f"team:{player}") == ("off", "steady")  # nobody presses their own colour
            assert all(box.led(f"team:{p}") == ("on", "steady") for p in PLAYERS if p != player)
            box.press(guesses[player])
        start = PLAYERS.index(commander)
        assert called == [*PLAYERS[start:], *PLAYERS[:start]]
        heard_before = len(box.said)
        assert not any("was the alien" in text for text in box.said[-len(PLAYERS) - 2:])
        box.press(alien)  # the alien reveals
        points = reference_points(alien, guesses)
        for p in PLAYERS:
            totals[p] += points[p]
        heard = box.said[heard_before:]
        assert heard[0] == f"{alien.capitalize()} was the alien!"
        for p in PLAYERS:
            assert f"{p.capitalize()}: {points[p]} this round, {totals[p]} in total." in heard
        commander = alien
    assert box.session is None and box.service.finished is not None
    for round_number in range(1, 11):  # each round is announced once: the effect is the prompt
        assert sum(text.startswith(f"Round {round_number} of 10.") for text in box.said) == 1
    final = box.service.finished.state
    assert dict(zip(final.players, final.totals, strict=True)) == totals
    best = max(totals.values())
    leaders = [p for p in PLAYERS if totals[p] == best]
    if len(leaders) == 1:
        assert f"{leaders[0].capitalize()} wins with {best} points!" in box.said
    else:
        assert f"A tie at {best} points: the victory is shared." in box.said
    view = box.public_views[-1]["game"]
    assert (view["phase"], view["round"], view["rounds"]) == ("over", 10, 10)
    assert view["totals"] == totals and view["winners"] == leaders
    record = box.journal.games()[-1]
    rebuilt = replay_lines(export_lines(box.journal, record.id))
    assert rebuilt.state == final


def test_refusals_are_spoken_and_change_nothing(box) -> None:
    box.press("ok")  # too few players
    assert box.errors[-1] == "too_few_players"
    assert error_texts(box)[-1] == "At least 3 players are needed; 0 have joined."
    for colour in ("red", "blue", "green"):
        box.press(colour)
    box.press("ok")
    box.press("green")
    box.press("ok")
    before = box.session.state
    box.press("white")
    assert (box.errors[-1], error_texts(box)[-1]) == ("not_playing", "White is not playing.")
    box.press("green")  # green commands, so green's rocket is called first
    assert box.errors[-1] == "guess_self"
    assert box.session.state == before
    for colour in ("red", "green", "green"):  # green on red, red on green, blue on green
        box.press(colour)
    box.press("purple")
    assert (box.errors[-1], error_texts(box)[-1]) == (
        "reveal_not_player", "Purple is not playing. Alien, press your own colour.",
    )
    assert box.session.state.phase == "reveal"


def test_back_takes_back_guesses_but_not_a_scored_round(box) -> None:
    for colour in ("red", "blue", "green"):
        box.press(colour)
    box.press("ok")
    box.press("red")
    box.press("ok")
    box.press("blue")  # red on blue
    box.press("red")  # blue on red
    box.press("back")
    assert box.said[-2:] == ["Undone: the Red press.", "Blue, press the colour your rocket stands on."]
    assert box.session.state.guesses == (("red", "blue"),)
    box.press("green")  # blue on green
    box.press("blue")  # green on blue: all entered
    box.press("blue")  # blue reveals
    assert box.public_views[-1]["game"]["totals"] == {"red": 2, "blue": 0, "green": 2}
    box.press("back")
    assert box.errors[-1] == "nothing_to_undo"
    assert box.public_views[-1]["game"]["round"] == 2


def test_holding_ok_changes_the_rounds_before_the_start(box) -> None:
    box.hold("ok")
    assert box.said[-1] == "12 rounds."
    assert box.session.state.rounds == 12
