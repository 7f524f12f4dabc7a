"""Every word the game can say has a text, and every text in the catalogue is used."""

from __future__ import annotations

import string

import pytest
from alien_play import GAME, Table, play_round, seated

from games.core import RuleError, Say
from games.data import messages

TEXTS = messages("games.alien")
COLOURS = ("red", "blue", "green", "yellow", "purple", "white")


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def a_game_with_every_event() -> tuple[list[Say], list[str]]:
    """A short game touching every phase, refusal, verdict and ending; returns its words and the
    keys its refusals and GameOver name."""
    said: list[Say] = []
    keys: list[str] = []
    table = Table(rounds=3)
    said.append(GAME.prompt(table.state).ask)

    def attempt(button: str) -> None:
        try:
            table.press(button)
        except RuleError as exc:
            said.append(Say(exc.key, exc.params))

    attempt("ok")  # too few
    for colour in ("red", "blue", "green", "yellow", "purple", "white", "white"):
        table.press(colour)
    table.press("ok", hold=True)
    table.back()  # back to 3 rounds
    table.press("ok")
    said.append(GAME.prompt(table.state).ask)
    attempt("white")
    table.press("red")
    table.press("ok")
    attempt("red")  # red guessing itself
    # exposed (3 of 4), tie (2 of 4), escaped (0 of 4)
    play_round_rest(table, {"red": "green", "blue": "green", "green": "red", "yellow": "red", "purple": "green"})
    attempt("white")  # not a player as the alien
    table.press("green")
    play_round(table, {"red": "blue", "blue": "red", "green": "red", "yellow": "blue", "purple": "blue"},
               alien="red")
    play_round(table, {"red": "blue", "blue": "red", "green": "red", "yellow": "red", "purple": "red"},
               alien="purple")
    said += [e for e in table.effects if isinstance(e, Say)]
    keys += [e.reason for e in table.effects if hasattr(e, "reason")]
    try:
        GAME.setup({"rounds": 0})
    except RuleError as exc:
        said.append(Say(exc.key, exc.params))
    return said, keys


def a_shared_victory() -> list[Say]:
    table = seated(["red", "blue", "green"], rounds=1)
    play_round(table, {"red": "green", "blue": "green", "green": "red"}, alien="green")
    return [e for e in table.effects if isinstance(e, Say)]


def play_round_rest(table: Table, guesses: dict[str, str]) -> None:
    while (player := table.state.awaited()) is not None:
        table.press(guesses[player])


def test_every_announcement_has_a_text_with_the_fields_it_is_given() -> None:
    said, keys = a_game_with_every_event()
    said += a_shared_victory()
    for words in said:
        assert words.key in TEXTS, words.key
        assert fields(TEXTS[words.key]) == set(words.params), words.key
    assert all(key in TEXTS for key in keys)
    used = {w.key for w in said} | set(keys) | {"title"} | set(COLOURS)
    assert set(TEXTS) - used == set(), "texts nobody says"


@pytest.mark.parametrize("colour", COLOURS)
def test_colour_names_are_spoken_in_the_catalogues_words(colour: str) -> None:
    assert TEXTS[colour] == colour.capitalize()


def test_the_walkthrough_reaches_every_verdict_and_both_endings() -> None:
    said, _ = a_game_with_every_event()
    keys = {w.key for w in said} | {w.key for w in a_shared_victory()}
    assert {"verdict_exposed", "verdict_tie", "verdict_escaped", "winner", "shared_victory"} <= keys
