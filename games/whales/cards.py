"""The card catalogue and the game's numbers, read from cards.toml and game.toml.

The composition in cards.toml is a placeholder a table edits to match its printing; this module
checks whatever it finds and turns it into small frozen records the rules look up quickly.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from games.data import load_toml

PACKAGE = "games.whales"
COLOURS: tuple[str, ...] = ("red", "blue", "grey")
KINDS: tuple[str, ...] = ("whale", "superhero", "turtle", "special")
SPECIALS: tuple[str, ...] = ("shield", "set_of_three", "wild")
SHIELD, SET_OF_THREE, WILD = SPECIALS


@dataclass(frozen=True, slots=True)
class Card:
    """One card as printed. `colour` is '' for cards without one (superheroes, turtles, the shield,
    the wild card, whose colour its owner chooses)."""

    id: str
    name: str
    kind: str
    colour: str = ""
    strength: int = 0
    five_plus: bool = False
    expansion: bool = False
    special: str = ""

    @property
    def whale_like(self) -> bool:
        """Sorted into a colour set of an army: whales, dolphins, the set of 3 and the wild card."""
        return self.kind == "whale" or self.special in (SET_OF_THREE, WILD)


@dataclass(frozen=True, slots=True)
class Numbers:
    """game.toml: order, deck name, team range, deal and army limits, expansion roles."""

    order: int
    deck: str
    min_teams: int
    max_teams: int
    rulebook_max: int
    whales_each: int
    five_plus_from: int
    per_colour: int
    per_colour_with_set: int
    superheroes_to_end: int
    extra_roles: tuple[str, ...]
    werewhale_from: int
    two_superspies_at: int


@cache
def catalogue() -> dict[str, Card]:
    """Every card by id in the data file's order; refuses a malformed catalogue."""
    cards: dict[str, Card] = {}
    names: set[str] = set()
    for entry in load_toml(PACKAGE, "cards.toml")["card"]:
        card = Card(
            id=str(entry["id"]),
            name=str(entry["name"]),
            kind=str(entry["kind"]),
            colour=str(entry.get("colour", "")),
            strength=int(entry.get("strength", 0)),
            five_plus=bool(entry.get("five_plus", False)),
            expansion=bool(entry.get("expansion", False)),
            special=str(entry.get("special", "")),
        )
        bad = (
            not card.id.startswith("whales-")
            or card.id in cards
            or card.name in names
            or card.kind not in KINDS
            or (card.kind == "special") != (card.special in SPECIALS)
            or (card.kind == "whale" or card.special == SET_OF_THREE) != (card.colour in COLOURS)
            or (card.colour and card.colour not in COLOURS)
            or card.strength < 0
        )
        if bad:
            raise ValueError(f"cards.toml: bad card {entry!r}")
        cards[card.id] = card
        names.add(card.name)
    for colour in COLOURS:
        if sum(1 for c in cards.values() if c.kind == "whale" and c.colour == colour and not c.expansion) < 2:
            raise ValueError(f"cards.toml: fewer than 2 {colour} whales")
    return cards


@cache
def numbers() -> Numbers:
    data = load_toml(PACKAGE, "game.toml")
    teams, deal, army, roles = data["teams"], data["deal"], data["army"], data["roles"]
    result = Numbers(
        order=int(data["order"]),
        deck=str(data["deck"]),
        min_teams=int(teams["min"]),
        max_teams=int(teams["max"]),
        rulebook_max=int(teams["rulebook_max"]),
        whales_each=int(deal["whales_each"]),
        five_plus_from=int(deal["five_plus_from"]),
        per_colour=int(army["per_colour"]),
        per_colour_with_set=int(army["per_colour_with_set_of_three"]),
        superheroes_to_end=int(army["superheroes_to_end"]),
        extra_roles=tuple(str(r) for r in roles["extra"]),
        werewhale_from=int(roles["werewhale_from"]),
        two_superspies_at=int(roles["two_superspies_at"]),
    )
    if not 3 <= result.min_teams <= result.max_teams <= 6:
        raise ValueError("game.toml: the panel seats 3 to 6 teams")
    return result


def deck_for(teams: int, expansion: bool) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(cards in play, cards left in the box) for a table of `teams`.

    Base game: "When playing with less than 5 players, pull marked cards (5+) from the playing
    deck." Expansion: "When playing with less than 5 players, make sure to add all superhero cards
    (5+) to the playing deck. In 5 or more, don't use extra (marked 5+) whale cards." So with the
    expansion the 5+ superheroes always play and the other 5+ cards never do (up to 6 players).
    """
    play: list[str] = []
    out: list[str] = []
    for card in catalogue().values():
        if card.expansion and not expansion:
            continue
        if not card.five_plus:
            keep = True
        elif expansion:
            keep = card.kind == "superhero"
        else:
            keep = teams >= numbers().five_plus_from
        (play if keep else out).append(card.id)
    return tuple(play), tuple(out)
