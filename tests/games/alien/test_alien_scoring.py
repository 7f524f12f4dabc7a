"""Scoring exactly by the rulebook: the worked example, every rule, and the ties for 3-6 players."""

from __future__ import annotations

import pytest
from alien_play import play_round, points_of, seated

from games.alien.scoring import ESCAPED, EXPOSED, TIE, score_round, verdict, winners

COLOURS = ("red", "blue", "green", "yellow", "purple", "white")


def test_rulebook_worked_example_through_the_rules() -> None:
    """Mathias and Henrik guessed Florian (alien), Sandra guessed Mathias, Florian guessed Henrik."""
    mathias, henrik, sandra, florian = "red", "blue", "green", "yellow"
    table = seated([mathias, henrik, sandra, florian])
    effects = play_round(
        table, {mathias: florian, henrik: florian, sandra: mathias, florian: henrik}, alien=florian
    )
    assert points_of(table) == {henrik: 2, mathias: 2, sandra: 1, florian: 0}
    assert table.state.totals == (2, 2, 1, 0)
    assert table.state.history[-1].verdict == EXPOSED
    spoken = [(e.key, dict(e.params)) for e in effects if hasattr(e, "key")]
    assert ("verdict_exposed", {"correct": 2, "crew": 3}) in spoken
    assert ("round_points", {"team": henrik, "points": 2, "total": 2}) in spoken
    assert ("round_points", {"team": florian, "points": 0, "total": 0}) in spoken


def test_rulebook_worked_example_scoring_function() -> None:
    players = ("mathias", "henrik", "sandra", "florian")
    guesses = {"mathias": "florian", "henrik": "florian", "sandra": "mathias", "florian": "henrik"}
    scored = score_round(players, "florian", guesses)
    assert scored.points == (2, 2, 1, 0)
    assert (scored.correct, scored.crew, scored.verdict) == (2, 3, EXPOSED)


def test_correct_guess_earns_one_even_when_the_alien_escapes() -> None:
    players = ("red", "blue", "green", "yellow")  # alien yellow, crew of 3; one finds it
    guesses = {"red": "yellow", "blue": "green", "green": "red", "yellow": "red"}
    assert score_round(players, "yellow", guesses).points == (1, 0, 0, 2)


def test_exposed_alien_gives_every_crew_member_the_bonus_including_wrong_guessers() -> None:
    players = ("red", "blue", "green", "yellow", "purple", "white")  # crew of 5; 3 find purple
    guesses = {"red": "purple", "blue": "purple", "green": "purple", "yellow": "red",
               "purple": "red", "white": "blue"}
    assert score_round(players, "purple", guesses).points == (2, 2, 2, 1, 0, 1)


def test_nobody_finds_the_alien() -> None:
    players = ("red", "blue", "green")
    guesses = {"red": "blue", "blue": "red", "green": "red"}
    assert score_round(players, "green", guesses).points == (0, 0, 2)


def test_everybody_finds_the_alien() -> None:
    players = ("red", "blue", "green")
    guesses = {"red": "green", "blue": "green", "green": "red"}
    assert score_round(players, "green", guesses).points == (2, 2, 0)


# Every number of crew members who found the alien, for every table size: exactly half is the tie
# ("In case of a tie there are no points"); more than half exposes; fewer lets the alien escape.
VERDICTS = {
    3: [ESCAPED, TIE, EXPOSED],  # crew 2: 1 of 2 is a tie
    4: [ESCAPED, ESCAPED, EXPOSED, EXPOSED],  # crew 3: no tie possible
    5: [ESCAPED, ESCAPED, TIE, EXPOSED, EXPOSED],  # crew 4: 2 of 4 is a tie
    6: [ESCAPED, ESCAPED, ESCAPED, EXPOSED, EXPOSED, EXPOSED],  # crew 5: no tie possible
}


@pytest.mark.parametrize(
    ("players", "correct", "expected"),
    [(n, k, v) for n, row in VERDICTS.items() for k, v in enumerate(row)],
)
def test_verdict_for_every_table_size(players: int, correct: int, expected: str) -> None:
    seats = COLOURS[:players]
    alien, crew = seats[-1], seats[:-1]
    # the first `correct` crew members find the alien; the others point at the first crew member
    # (or the second, for the first crew member themselves); the alien points at the first.
    guesses = {p: alien if i < correct else (crew[1] if p == crew[0] else crew[0])
               for i, p in enumerate(crew)}
    guesses[alien] = crew[0]
    scored = score_round(seats, alien, guesses)
    assert scored.verdict == expected == verdict(correct, len(crew))
    bonus = 1 if expected == EXPOSED else 0
    for i, p in enumerate(crew):
        assert scored.points[seats.index(p)] == (1 if i < correct else 0) + bonus
    assert scored.points[seats.index(alien)] == (2 if expected == ESCAPED else 0)


@pytest.mark.parametrize("players", [3, 5])
def test_tie_gives_neither_bonus_through_the_rules(players: int) -> None:
    seats = list(COLOURS[:players])
    alien, crew = seats[0], seats[1:]
    half = len(crew) // 2
    guesses = {p: alien if i < half else seats[1] if p != seats[1] else seats[2] for i, p in enumerate(crew)}
    guesses[alien] = seats[1]
    table = seated(seats)
    effects = play_round(table, guesses, alien)
    assert table.state.history[-1].verdict == TIE
    assert points_of(table) == {p: (1 if guesses[p] == alien and p != alien else 0) for p in seats}
    assert any(getattr(e, "key", "") == "verdict_tie" for e in effects)


def test_winners_single_and_shared() -> None:
    assert winners(("red", "blue", "green"), (3, 5, 4)) == ("blue",)
    assert winners(("red", "blue", "green"), (5, 2, 5)) == ("red", "green")
    assert winners(("red", "blue", "green"), (0, 0, 0)) == ("red", "blue", "green")
