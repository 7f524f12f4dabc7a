"""The game on the box: joining, rounds, commanders, the guessing entries, BACK, refusals, the end."""

from __future__ import annotations

import pytest
from alien_play import GAME, Table, play_round, points_of, seated

from games.alien.errors import BadOption, NotPlaying, RevealNotPlayer, SelfGuess, TooFewPlayers
from games.alien.state import COMMANDER, GUESSING, JOIN, OVER, QUESTIONING, REVEAL
from games.core import GameOver, Press, Reveal, RuleError, Say
from games.session import NothingToUndo


def refused(table: Table, button: str, error: type[RuleError], key: str) -> RuleError:
    """Pressing `button` is refused with `error` and `key`, and changes nothing."""
    before = table.state
    with pytest.raises(error) as caught:
        table.press(button)
    assert caught.value.key == key
    assert table.state == before
    return caught.value


def test_setup_defaults_to_the_rulebook_standard_of_ten_rounds() -> None:
    state = GAME.setup({})
    assert (state.rounds, state.phase, state.players) == (10, JOIN, ())


@pytest.mark.parametrize("rounds", [0, 31, "5", True, 2.5])
def test_setup_refuses_bad_round_counts(rounds: object) -> None:
    with pytest.raises(BadOption) as caught:
        GAME.setup({"rounds": rounds})
    assert caught.value.key == "bad_option"


def test_setup_refuses_unknown_options() -> None:
    with pytest.raises(BadOption):
        GAME.setup({"round": 3})


def test_players_join_in_seating_order_and_a_second_press_leaves() -> None:
    table = Table()
    for colour in ("green", "red", "white", "red"):
        table.press(colour)
    assert table.state.players == ("green", "white")
    assert table.said()[-1] == "left"
    table.press("red")
    assert table.state.players == ("green", "white", "red")


def test_ok_needs_three_players() -> None:
    table = Table()
    table.press("red")
    table.press("blue")
    error = refused(table, "ok", TooFewPlayers, "too_few_players")
    assert error.params == {"min": 3, "count": 2}
    table.press("green")
    table.press("ok")
    assert table.state.phase == COMMANDER
    assert table.state.totals == (0, 0, 0)


def test_six_players_fill_the_table() -> None:
    table = seated(["red", "blue", "green", "yellow", "purple", "white"])
    assert len(table.state.players) == 6


def test_holding_ok_cycles_the_round_count() -> None:
    table = Table()
    seen = []
    for _ in range(8):
        table.press("ok", hold=True)
        seen.append(table.state.rounds)
    assert seen == [12, 15, 20, 5, 6, 8, 10, 12]
    assert table.effects[-1] == Say("rounds_set", {"rounds": 12})


def test_first_commander_by_button_and_round_announced() -> None:
    table = Table(rounds=3)
    for colour in ("red", "blue", "green"):
        table.press(colour)
    table.press("ok")
    refused(table, "white", NotPlaying, "not_playing")
    effects = table.press("blue")
    assert effects == [Say("questioning_prompt", {"round": 1, "rounds": 3, "team": "blue"})]
    assert (table.state.phase, table.state.round, table.state.commander) == (QUESTIONING, 1, "blue")


def test_guesses_are_called_from_the_commander_clockwise() -> None:
    table = seated(["red", "blue", "green", "yellow"], commander="green")
    effects = table.press("ok")
    assert table.state.phase == GUESSING
    assert effects[-1] == Say("guess_prompt", {"team": "green"})
    called = []
    while (player := table.state.awaited()) is not None:
        called.append(player)
        table.press("red" if player != "red" else "blue")
    assert called == ["green", "yellow", "red", "blue"]
    assert table.state.phase == REVEAL


def test_next_commander_is_this_rounds_alien() -> None:
    table = seated(["red", "blue", "green"], rounds=3)
    effects = play_round(table, {"red": "blue", "blue": "red", "green": "red"}, alien="green")
    assert table.state.commander == "green"
    assert effects[-1] == Say("questioning_prompt", {"round": 2, "rounds": 3, "team": "green"})


def test_refusals_while_guessing_and_revealing() -> None:
    table = seated(["red", "blue", "green"])
    table.press("ok")
    assert table.state.awaited() == "red"
    assert refused(table, "purple", NotPlaying, "not_playing").params == {"team": "purple"}
    assert refused(table, "red", SelfGuess, "guess_self").params == {"team": "red"}
    with pytest.raises(RuleError):
        table.press("ok")  # the prompt waits for a colour
    for colour in ("blue", "red", "red"):
        table.press(colour)
    assert table.state.phase == REVEAL
    assert refused(table, "white", RevealNotPlayer, "reveal_not_player").params == {"team": "white"}


def test_back_undoes_guess_entries_one_by_one_until_the_round_is_scored() -> None:
    table = seated(["red", "blue", "green"])
    table.press("ok")
    table.press("green")  # red on green
    table.press("green")  # blue on green
    table.back()
    assert table.state.guesses == (("red", "green"),)
    assert table.state.awaited() == "blue"
    table.press("red")  # blue corrects: on red
    table.press("red")  # green on red
    assert table.state.phase == REVEAL
    table.back()
    assert (table.state.phase, table.state.awaited()) == (GUESSING, "green")
    table.press("blue")
    effects = table.press("red")  # red reveals: scored
    assert Reveal("alien") in effects
    with pytest.raises(NothingToUndo):
        table.back()
    assert points_of(table) == {"red": 0, "blue": 1, "green": 0}  # 1 of 2: a tie


def test_back_can_reopen_the_questioning() -> None:
    table = seated(["red", "blue", "green"])
    table.press("ok")
    table.back()
    assert table.state.phase == QUESTIONING


def test_nothing_names_an_alien_before_the_reveal() -> None:
    """The box does not know the alien until the reveal press; views and words show no candidate."""
    table = seated(["red", "blue", "green", "yellow"], rounds=2)
    table.press("ok")
    for colour in ("blue", "red", "red"):
        table.press(colour)
    view = GAME.public_view(table.state)
    assert view["last_round"] is None
    assert "alien" not in view and all("alien" not in seat for seat in view["disc"])
    assert not [e for e in table.effects if isinstance(e, Say) and e.key == "alien_revealed"]
    table.press("green")
    table.press("yellow")
    assert GAME.public_view(table.state)["last_round"]["alien"] == "yellow"


def test_the_end_announces_the_winner() -> None:
    table = seated(["red", "blue", "green"], rounds=2)
    play_round(table, {"red": "green", "blue": "green", "green": "red"}, alien="green")  # 2 2 0
    effects = play_round(table, {"red": "green", "blue": "red", "green": "red"}, alien="blue")  # 0 2 0
    assert table.state.phase == OVER
    assert table.state.totals == (2, 4, 0)
    assert GameOver("most_points", ("blue",)) in effects
    assert Say("winner", {"team": "blue", "points": 4}) in effects
    assert GAME.prompt(table.state).finished
    assert GAME.legal_inputs(table.state) == []
    assert GAME.public_view(table.state)["winners"] == ["blue"]


def test_a_tie_at_the_top_shares_the_victory() -> None:
    table = seated(["red", "blue", "green"], rounds=1)
    effects = play_round(table, {"red": "green", "blue": "green", "green": "red"}, alien="green")
    assert GameOver("most_points", ("red", "blue")) in effects
    assert Say("shared_victory", {"points": 2}) in effects
    assert [e.params["team"] for e in effects if isinstance(e, Say) and e.key == "shares_victory"] == [
        "red", "blue",
    ]


def test_views_show_round_commander_totals_and_the_disc_ring() -> None:
    table = seated(["yellow", "red", "purple", "blue"], rounds=4, commander="red")
    play_round(table, {"red": "blue", "purple": "blue", "blue": "red", "yellow": "blue"}, alien="blue")
    table.press("ok")
    table.press("purple")  # blue (commander now) on purple
    view = GAME.public_view(table.state)
    assert (view["round"], view["rounds"], view["commander"], view["phase"]) == (2, 4, "blue", GUESSING)
    assert view["totals"] == {"yellow": 2, "red": 2, "purple": 2, "blue": 0}
    assert view["awaiting"] == {"entry": "guess", "team": "yellow"}
    assert view["guesses"] == {"blue": "purple"}
    assert view["last_round"]["points"] == {"yellow": 2, "red": 2, "purple": 2, "blue": 0}
    assert view["last_round"]["guesses"]["blue"] == "red"
    assert [(s["colour"], s["seat"]) for s in view["disc"]] == [
        ("yellow", 0), ("red", 1), ("purple", 2), ("blue", 3),
    ]
    assert all(s["hex"].startswith("#") for s in view["disc"])
    assert GAME.team_view(table.state, "yellow")["your_turn"] is True
    assert GAME.team_view(table.state, "white")["playing"] is False


def test_legal_inputs_match_what_the_rules_accept() -> None:
    table = seated(["red", "blue", "green"])
    assert GAME.legal_inputs(table.state) == [Press("ok")]
    table.press("ok")
    assert GAME.legal_inputs(table.state) == [Press("blue"), Press("green")]
