"""Alien on Board, scripted: three players, three rounds, a slip refused, a guess taken back."""

from __future__ import annotations

from typing import Any

# Each round: where every rocket stands (player -> colour guessed), then who turns out to be the
# alien. The box never knows the alien before the reveal press; the script plays the table.
ROUNDS: tuple[tuple[dict[str, str], str], ...] = (
    ({"red": "green", "blue": "green", "green": "red"}, "green"),  # exposed: the crew scores
    ({"red": "blue", "blue": "red", "green": "red"}, "blue"),  # a tie: 1 of 2 found the alien
    ({"red": "green", "blue": "green", "green": "blue"}, "red"),  # the alien escapes: +2
)


def play(box: Any) -> None:
    """Play a short game of Alien on Board to its end through the panel's buttons."""
    box.command("start_game", {"game": "alien", "options": {"rounds": len(ROUNDS)}})
    for colour in ("red", "blue", "purple", "purple", "green"):  # purple joins by mistake, leaves
        box.press(colour)
    box.press("ok")
    box.press("red")  # the first commander
    for number, (guesses, alien) in enumerate(ROUNDS, start=1):
        box.press("ok")  # every rocket is on the disc
        first = True
        while (player := box.session.state.awaited()) is not None:
            if number == 1 and first:
                box.press(player)  # a slip: nobody's rocket stands on their own colour
                box.press("white")  # nobody plays white: refused too
                wrong = next(p for p in box.session.state.players if p not in (player, guesses[player]))
                box.press(wrong)  # entered wrongly...
                box.press("back")  # ...and taken back
                first = False
            box.press(guesses[player])
        box.press(alien)  # the alien reveals: scored, no BACK past this
    box.press("repeat")
