"""When the game ends, who wins, and what the box says then.

Humans win by reset, or when every team that was ever dolphinized has no astronauts left;
dolphinized teams win by flood, or when no human team has astronauts left. Elimination only counts
once some team was dolphinized (docs/rules/hwhad.md, E1-E4).
"""

from __future__ import annotations

from games.core import SLOTS, Effect, GameOver, Light, Reveal, Sound, say
from games.hwhad.state import OVER, HState, counts, evolve
from games.hwhad.text import listing


def sides(state: HState) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(human teams, dolphinized teams)."""
    humans = tuple(t for t, d in zip(state.teams, state.dolphinized, strict=True) if not d)
    dolphins = tuple(t for t, d in zip(state.teams, state.dolphinized, strict=True) if d)
    return humans, dolphins


def elimination(state: HState) -> tuple[str, tuple[str, ...]] | None:
    """(reason, winners) if one side has no astronauts left; None while both sides play on."""
    humans, dolphins = sides(state)
    if not dolphins:
        return None
    alive = counts(state)
    humans_alive = any(alive[state.teams.index(t)] for t in humans)
    dolphins_alive = any(alive[state.teams.index(t)] for t in dolphins)
    if not humans_alive and not dolphins_alive:
        return "nobody_wins_wipeout", ()
    if not dolphins_alive:
        return "humans_win_elimination", humans
    if not humans_alive:
        return "dolphins_win_elimination", dolphins
    return None


def by_order(state: HState, order: str) -> tuple[str, tuple[str, ...]]:
    """The end an executed flood or reset brings."""
    humans, dolphins = sides(state)
    if order == "reset":
        return "humans_win_reset", humans
    if dolphins:
        return "dolphins_win_flood", dolphins
    return "nobody_wins_flood", ()


def finish(state: HState, reason: str, winners: tuple[str, ...]) -> tuple[HState, list[Effect]]:
    """The game is over: announce the side and its teams, reveal the layout."""
    over = evolve(state, phase=OVER, result=reason, winners=winners, actor="", candidates=())
    effects: list[Effect] = [Light(f"slot:{s}", "off") for s in SLOTS]
    effects += [Sound("fanfare"), say(reason)]
    if winners:
        effects.append(listing("winners", winners))
    effects += [Reveal("layout"), GameOver(reason, winners)]
    return over, effects
