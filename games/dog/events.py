"""The counts of Here Comes the Dog: Feed, Assault and Fire Fest, at a round's end or as an
incident, and what fainting does to a player's villagers. Each speaks its arithmetic in one
sentence per player. Decisions beside the rulebook's words are in docs/rules/dog.md.
"""

from __future__ import annotations

from functools import lru_cache

from games.core import Say, say
from games.dog.data import RESTORE
from games.dog.state import AT, CHARCOAL, FIRE, HANDS, MEAT, NO_STICKS, DogState, Sticks, add, remade

BONFIRE, DOGS, PACK, VILLAGERS, FAINTS = AT["bonfire"], AT["dogs"], AT["pack"], AT["villagers"], AT["faints"]

# A line of the count, made once per (key, team, numbers): the numbers are small (sticks, dogs and
# villagers of one player), so a few thousand lines cover every game; the bound keeps it so.
line = lru_cache(maxsize=4096)(say)


@lru_cache(maxsize=4096)
def feed_line(team: str, meat: int, tamed: int, wasted: int) -> Say:
    """ "Blue: 5 meat, 2 dogs tamed, 1 wasted" (made once per team and numbers)."""
    return say("feed_player", team=team, meat=meat, tamed=tamed, wasted=wasted)


@lru_cache(maxsize=4096)
def assault_line(team: str, dogs: int, by_meat: int, by_pairs: int, faint: int) -> Say:
    return say("assault_player", team=team, dogs=dogs, by_meat=by_meat, by_pairs=by_pairs, faint=faint)


@lru_cache(maxsize=256)
def fire_fest_line(team: str, fire: int) -> Say:
    return say("fire_fest_player", team=team, fire=fire)


def feed_count(meat: int, pack: int) -> tuple[int, int]:
    """(dogs tamed, meat wasted): "For every 2 meat sticks at hand: Tame 1 dog"; the odd one is
    wasted (and so is meat for which the pack has no dog left)."""
    tamed = min(meat // 2, pack)
    return tamed, meat - 2 * tamed


@lru_cache(maxsize=1024)
def assault_count(hand: Sticks) -> tuple[int, int, int]:
    """(fended by meat, fended by fire+charcoal pairs, villagers that faint) for one hand: one dog
    per meat stick attacks, every 2 meat fend one off, then each (fire + charcoal) pair one more,
    only as many pairs as there are dogs left to fend."""
    meat = hand[MEAT]
    by_meat = meat // 2
    pairs = min(hand[CHARCOAL], hand[FIRE], meat - by_meat)
    return by_meat, pairs, meat - by_meat - pairs


@lru_cache(maxsize=4096)
def assault_of(team: str, hand: Sticks) -> tuple[int, int, int, Say]:
    """`assault_count(hand)` and its line, in one cached call (6 teams x the hands that come)."""
    by_meat, pairs, fainting = assault_count(hand)
    return by_meat, pairs, fainting, assault_line(team, hand[MEAT], by_meat, pairs, fainting)


def faint(villagers: int, faints: int, n: int) -> tuple[int, int]:
    """(villagers standing, times all fainted) after n villagers faint. All fainted: restore 2,
    then 1; the third time the player is out (faints == 3). Dogs beyond the last standing
    villager return to the pack."""
    if n < villagers:
        return villagers - n, faints
    faints += 1
    return (RESTORE[faints - 1] if faints <= len(RESTORE) else 0), faints


def active(state: DogState) -> list[int] | range:
    """The players still in, in play order (all of them until someone is knocked out)."""
    faints = state.faints
    if 3 not in faints:
        return range(len(faints))
    return [i for i in range(len(faints)) if faints[i] < 3]


def feed(state: DogState, incident: bool) -> tuple[DogState, list[Say]]:
    """Every player tames a dog per 2 meat in hand. As an incident, the meat used returns."""
    hands, dogs = [*state.hands], [*state.dogs]
    pack, bonfire = state.pack, state.bonfire
    lines: list[Say] = []
    for i in active(state):
        meat = hands[i][MEAT]
        tamed, wasted = feed_count(meat, pack)
        pack -= tamed
        dogs[i] += tamed
        if incident and tamed:
            used = (2 * tamed, 0, 0)
            hands[i] = (meat - 2 * tamed, hands[i][CHARCOAL], hands[i][FIRE])
            bonfire = add(bonfire, used)
        lines.append(feed_line(state.teams[i], meat, tamed, wasted))
    fields = [*state]
    fields[HANDS], fields[DOGS], fields[PACK], fields[BONFIRE] = tuple(hands), tuple(dogs), pack, bonfire
    return remade(fields), lines


def assault(state: DogState, incident: bool) -> tuple[DogState, list[Say]]:
    """Every player is assaulted by a dog per meat in hand and fends them off; the unguarded
    villagers faint. As an incident, the sticks used for defence return to the bonfire."""
    hands, dogs = [*state.hands], [*state.dogs]
    villagers, faints = [*state.villagers], [*state.faints]
    pack, bonfire, teams = state.pack, state.bonfire, state.teams
    lines: list[Say] = []
    for i in active(state):
        hand = hands[i]
        team = teams[i]
        by_meat, pairs, fainting, said = assault_of(team, hand)
        lines.append(said)
        if incident:
            m, c, f = bonfire
            hands[i] = hand = (hand[0] - 2 * by_meat, hand[1] - pairs, hand[2] - pairs)
            bonfire = (m + 2 * by_meat, c + pairs, f + pairs)
        if not fainting:
            continue
        standing, times = faint(villagers[i], faints[i], fainting)
        if times > faints[i]:
            pack += dogs[i]
            if times >= 3:
                lines.append(say("knocked_out", team=team, dogs=dogs[i]))
                bonfire = add(bonfire, hand)  # an out player's sticks go back to the bonfire
                hands[i] = NO_STICKS
            else:
                lines.append(say("all_fainted", team=team, dogs=dogs[i], restored=standing))
            dogs[i] = 0
        villagers[i], faints[i] = standing, times
    fields = [*state]
    fields[HANDS], fields[DOGS], fields[PACK], fields[BONFIRE] = tuple(hands), tuple(dogs), pack, bonfire
    fields[VILLAGERS], fields[FAINTS] = tuple(villagers), tuple(faints)
    return remade(fields), lines


def fire_fest(state: DogState) -> tuple[DogState, list[Say]]:
    """Every player returns their fire sticks to the bonfire."""
    hands = [*state.hands]
    bonfire = state.bonfire
    lines: list[Say] = []
    for i in active(state):
        fire = hands[i][FIRE]
        hands[i] = (hands[i][MEAT], hands[i][CHARCOAL], 0)
        bonfire = (bonfire[0], bonfire[1], bonfire[2] + fire)
        lines.append(fire_fest_line(state.teams[i], fire))
    fields = [*state]
    fields[HANDS], fields[BONFIRE] = tuple(hands), bonfire
    return remade(fields), lines


def countable(state: DogState, incident: str) -> bool:
    """Whether anyone has sticks for the incident's count ("If no one has sufficient sticks for
    any count of the incident, the same player simply rolls the dice again")."""
    if incident == "feed":
        if state.pack <= 0:
            return False
        colour, least = MEAT, 2  # a dog tamed per 2 meat
    else:
        colour, least = (MEAT, 1) if incident == "assault" else (FIRE, 1)  # a dog per meat; a fire stick
    faints = state.faints
    for i, hand in enumerate(state.hands):
        if hand[colour] >= least and faints[i] < 3:
            break
    else:
        return False
    return True
