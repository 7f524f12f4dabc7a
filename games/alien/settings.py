"""The table's numbers (round counts, player range, disc colours), read from alien.toml."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from games.core import TEAM_COLOURS
from games.data import load_toml


@dataclass(frozen=True)
class Settings:
    """Defaults a table may change by editing alien.toml, not the code."""

    rounds: int
    min_rounds: int
    max_rounds: int
    round_choices: tuple[int, ...]
    min_players: int
    max_players: int
    disc_colours: tuple[tuple[str, str], ...]

    def next_round_choice(self, rounds: int) -> int:
        """The next larger round count offered by holding OK, wrapping to the smallest."""
        larger = [n for n in self.round_choices if n > rounds]
        return larger[0] if larger else self.round_choices[0]

    def disc_colour(self, colour: str) -> str:
        return dict(self.disc_colours).get(colour, colour)


@cache
def settings() -> Settings:
    data = load_toml("games.alien", "alien.toml")
    game, players = data["game"], data["players"]
    s = Settings(
        rounds=int(game["rounds"]),
        min_rounds=int(game["min_rounds"]),
        max_rounds=int(game["max_rounds"]),
        round_choices=tuple(sorted(int(n) for n in game["round_choices"])),
        min_players=int(players["min"]),
        max_players=int(players["max"]),
        disc_colours=tuple((c, str(data["disc_colours"][c])) for c in TEAM_COLOURS),
    )
    if not s.min_rounds <= s.rounds <= s.max_rounds or not s.round_choices:
        raise ValueError("alien.toml: default rounds outside min_rounds..max_rounds, or no choices")
    if not 2 <= s.min_players <= s.max_players <= len(TEAM_COLOURS):
        raise ValueError("alien.toml: player range must lie within 2..6")
    return s
