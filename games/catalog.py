"""Card decks the camera can enroll: each game's cards and team badges, by deck name."""

from __future__ import annotations

from games.core import TEAM_COLOURS
from games.registry import game_ids, load_game

BADGES: tuple[str, ...] = tuple(f"badge-{colour}" for colour in TEAM_COLOURS)


def deck_names() -> tuple[str, ...]:
    """Decks that some installed game provides (a game with cards names its deck)."""
    names = []
    for game_id in game_ids():
        deck = load_game(game_id).info.deck
        if deck:
            names.append(deck)
    return tuple(names)


def deck_cards(deck: str) -> list[str] | None:
    """Card ids of a built-in deck, badges included; None for a custom deck."""
    for game_id in game_ids():
        game = load_game(game_id)
        if game.info.deck == deck:
            return [*game.cards().ids, *BADGES]
    return None


def deck_of_card(card: str) -> str | None:
    """Which built-in deck a card id belongs to (badges belong to every deck: None)."""
    for deck in deck_names():
        cards = deck_cards(deck) or []
        if card in cards and card not in BADGES:
            return deck
    return None


def card_name(card: str) -> str:
    """What the box calls a card aloud: the game's name for it, a badge's team, else the id."""
    if card in BADGES:
        return f"the {card.removeprefix('badge-')} team badge"
    for game_id in game_ids():
        game = load_game(game_id)
        if game.info.deck:  # only a game with a camera deck has cards to name
            cards = game.cards()
            if card in cards.names:
                return cards.name(card)
    return card
