"""Boarding: where every card goes, chosen at random within the rulebook's constraints.

The box decides the whole layout when boarding starts, from two chance requests that always
produce a valid layout (no rejection loop): `deal_specials` picks, uniformly among the valid
combinations, the positions of the Captain and both dolphins; `deal_order` shuffles every other
card into the remaining positions. Together this is uniform over all valid layouts. Positions are
the destinations listed team by team, then modules 1-3, then the void.

Constraints ("You can be sure that there's at least one dolphin somewhere on the ship. (Two
dolphins in case of 4 or 5 players.)"; the Captain is dealt to a team or a module): the Captain
never goes to the void; at least `dolphins_on_ship` dolphins go to hands or modules; and the deal
never dolphinizes every team (docs/rules/hwhad.md, decision D3).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache
from itertools import permutations
from typing import Any

from games.core import Chance, ChanceRequest, Shuffle
from games.hwhad.cards import CAPTAIN_ID, catalogue, numbers
from games.hwhad.state import MODULES, VOID

SPECIALS = "deal_specials"
ORDER = "deal_order"


def destinations(teams: tuple[str, ...], deck_size: int) -> tuple[str, ...]:
    """The destination of each position: each team's hand, the three modules, then the void."""
    hand = numbers().hand_size[len(teams)]
    ship = tuple(team for team in teams for _ in range(hand)) + MODULES
    return ship + (VOID,) * (deck_size - len(ship))


@lru_cache(maxsize=64)
def special_positions(teams: tuple[str, ...], deck_size: int) -> tuple[tuple[int, int, int], ...]:
    """Every valid (captain, first dolphin, second dolphin) position triple, in a fixed order."""
    dest = destinations(teams, deck_size)
    ship = sum(1 for d in dest if d != VOID)
    need = numbers().dolphins_on_ship[len(teams)]
    valid = []
    for captain in range(ship):
        for d1, d2 in permutations(range(deck_size), 2):
            if captain in (d1, d2):
                continue
            if (d1 < ship) + (d2 < ship) < need:
                continue
            if {dest[d1], dest[d2]} >= set(teams):
                continue  # every team would be dolphinized
            valid.append((captain, d1, d2))
    return tuple(valid)


@lru_cache(maxsize=256)
def deal_requests(teams: tuple[str, ...], deck: tuple[str, ...]) -> tuple[ChanceRequest, ...]:
    """The chance the deal needs: which valid special triple, and the order of the other cards
    (cached: the equal weights of thousands of triples are built once per table)."""
    triples = special_positions(teams, len(deck))
    return (Chance(SPECIALS, (1,) * len(triples)), Shuffle(ORDER, len(deck) - 3))


def plan_deal(teams: tuple[str, ...], deck: tuple[str, ...], outcomes: Mapping[str, Any]) -> tuple[str, ...]:
    """The destination of each deck card (aligned with `deck`) from the journaled outcomes."""
    dest = destinations(teams, len(deck))
    captain, d1, d2 = special_positions(teams, len(deck))[int(outcomes[SPECIALS])]
    cards = catalogue()
    dolphins = [c for c in deck if cards[c].role == "dolphin"]
    others = [c for c in deck if c != CAPTAIN_ID and cards[c].role != "dolphin"]
    free = [p for p in range(len(deck)) if p not in (captain, d1, d2)]
    where = {CAPTAIN_ID: dest[captain], dolphins[0]: dest[d1], dolphins[1]: dest[d2]}
    for position, pick in zip(free, outcomes[ORDER], strict=True):
        where[others[pick]] = dest[position]
    return tuple(where[c] for c in deck)
