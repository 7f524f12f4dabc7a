"""Card decks the camera can enroll and the names the box calls cards by: each game's deck
(`GameInfo.deck`) holds its `Game.cards()` (which the game reads through importlib.resources,
so this works from a wheel too) and the team badges."""

from __future__ import annotations

from games.badges import BADGES, team_of_badge
from games.registry import installed_games


def deck_names() -> tuple[str, ...]:
    """Decks that some installed game provides (a game with cards names its deck)."""
    names: list[str] = []
    for game in installed_games():
        deck = game.info.deck
        if deck and deck not in names:
            names.append(deck)
    return tuple(names)


def deck_cards(deck: str) -> list[str] | None:
    """Card ids of a built-in deck, badges included; None for a custom deck."""
    for game in installed_games():
        if game.info.deck == deck:
            return [*game.cards().ids, *BADGES]
    return None


def card_name(card: str) -> str:
    """What the box calls a card aloud: the game's name for it, a badge's team, else the id."""
    team = team_of_badge(card)
    if team is not None:
        return f"the {team} team badge"
    for game in installed_games():
        cards = game.cards()
        if card in cards.names:
            return cards.name(card)
    return card


__all__ = ["BADGES", "card_name", "deck_cards", "deck_names"]
