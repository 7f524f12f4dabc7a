"""Army rules on one army (a tuple of (card, colour set) entries): limits, stealing, scoring.

Plain functions of an army, no state: the turn module decides when they apply.
"""

from __future__ import annotations

from games.whales.cards import COLOURS, SET_OF_THREE, SHIELD, catalogue, numbers
from games.whales.state import Army

_CARDS = catalogue()
_STRENGTH: dict[str, int] = {c.id: c.strength for c in _CARDS.values()}
_HEROES: frozenset[str] = frozenset(c.id for c in _CARDS.values() if c.kind == "superhero")
_SETS_OF_THREE: frozenset[str] = frozenset(c.id for c in _CARDS.values() if c.special == SET_OF_THREE)
_SHIELDS: frozenset[str] = frozenset(c.id for c in _CARDS.values() if c.special == SHIELD)
_PER_COLOUR = numbers().per_colour


def in_colour(army: Army, colour: str) -> list[str]:
    return [card for card, col in army if col == colour]


def capacity(army: Army, colour: str) -> int:
    """2, or 3 when the set of 3 is sorted into this colour ("this set holds up to 3 cards")."""
    holds_three = any(card in _SETS_OF_THREE for card, col in army if col == colour)
    return numbers().per_colour_with_set if holds_three else _PER_COLOUR


def overflowing(army: Army) -> str:
    """The colour whose set holds more than it may ('' if none): "If a player gets the third card
    of the same color, all 3 cards are discarded." """
    colours = [col for _, col in army]
    for colour in COLOURS:
        if colours.count(colour) > _PER_COLOUR and colours.count(colour) > capacity(army, colour):
            return colour
    return ""


def superheroes(army: Army) -> int:
    return sum(1 for card, _ in army if card in _HEROES)


def whales(army: Army) -> int:
    """Cards sorted into a colour set (whales, dolphins, the set of 3, the wild card)."""
    return sum(1 for _, colour in army if colour)


def complete(army: Army) -> bool:
    """Three completed sets: "2 of each color"."""
    if len(army) < _PER_COLOUR * len(COLOURS):
        return False
    colours = [col for _, col in army]
    return all(colours.count(colour) >= _PER_COLOUR for colour in COLOURS)


def stealable(army: Army) -> list[str]:
    """Cards a thief may take: any card but the shield ("No player can steal this card from you");
    from a colour set only its lowest ("they can only steal the lowest value card from the chosen
    set"; cards tied for lowest are each allowed)."""
    allowed = []
    for card, colour in army:
        if card in _SHIELDS:
            continue
        if colour and _STRENGTH[card] != min(_STRENGTH[c] for c, col in army if col == colour):
            continue
        allowed.append(card)
    return allowed


def score(army: Army) -> int:
    """ "For every superhero card in a player's army, they must discard their lowest value whale
    card. Then the player sums the strength of the remaining cards." The shield first discards one
    superhero ("During the scoring phase ... discard one superhero card from your army")."""
    strengths = sorted(_STRENGTH[card] for card, colour in army if colour)
    heroes = superheroes(army)
    if any(card in _SHIELDS for card, _ in army):
        heroes = max(0, heroes - 1)
    return sum(strengths[heroes:])
