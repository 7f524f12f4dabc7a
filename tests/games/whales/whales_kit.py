"""Shared helpers for the whales tests: hand-built tables, stepping through the rules, random games."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from games.core import Effect, GameOver, Input, Press, Say, Scan
from games.session import Session
from games.whales.cards import catalogue, deck_for
from games.whales.rules import GAME
from games.whales.state import DISCARD, WState, evolve
from games.whales.text import catalogue_words


def cid(short: str) -> str:
    """Card id from a short name: cid("red-3") == "whales-red-3"."""
    return short if short.startswith("whales-") else f"whales-{short}"


def entry(short: str) -> tuple[str, str]:
    """An army entry; "wild:grey" puts the wild card in the grey set."""
    card, _, colour = short.partition(":")
    card = cid(card)
    return card, colour or catalogue()[card].colour


def table(
    armies: Mapping[str, Sequence[str]],
    *,
    expansion: bool = False,
    roles: Sequence[str] = (),
    player: int = 0,
    discard: Sequence[str] = (),
    deck: Sequence[str] | None = None,
) -> WState:
    """A game at the start of `player`'s turn with exactly these armies; every other card of the
    table's deck is in the deck (or only `deck`, the rest on the discard pile)."""
    teams = tuple(armies)
    in_play, out = deck_for(len(teams), expansion)
    army_entries = tuple(tuple(entry(c) for c in armies[t]) for t in teams)
    placed = {c for a in army_entries for c, _ in a} | {cid(c) for c in discard}
    rest = [c for c in in_play if c not in placed]
    pile = [cid(c) for c in discard]
    if deck is not None:
        wanted = [cid(c) for c in deck]
        pile += [c for c in rest if c not in wanted]
        rest = [c for c in rest if c in wanted]
    return WState(phase=DISCARD, teams=teams, locked=True, expansion=expansion, roles=tuple(roles),
                  deck=tuple(rest), out=out, armies=army_entries, discard=tuple(pile), dealt=2 * len(teams),
                  player=player)


def step(state: WState, inp: Input) -> tuple[WState, list[Effect]]:
    """Validate and apply one input as the box does (the session's prompt check included)."""
    session = Session(GAME, state)
    effects = session.submit(inp, {}, 0)
    return session.state, effects


def scan(state: WState, *shorts: str) -> tuple[WState, list[Effect]]:
    effects: list[Effect] = []
    for short in shorts:
        state, more = step(state, Scan(cid(short)))
        effects += more
    return state, effects


def press(state: WState, *buttons: str) -> tuple[WState, list[Effect]]:
    effects: list[Effect] = []
    for button in buttons:
        state, more = step(state, Press(button))
        effects += more
    return state, effects


def give(state: WState, offered: str, to: str, keep: bool = True, discard: str | None = None) -> tuple[
        WState, list[Effect]]:
    """One whole turn: discard (the first other deck card unless named), offer `offered` face down
    to `to`, who keeps it or sends it back."""
    offered = cid(offered)
    drop = cid(discard) if discard else next(c for c in state.deck if c != offered)
    state, e1 = scan(state, drop, offered)
    state, e2 = press(state, to)
    if keep:
        state, e3 = scan(state, offered)
    else:
        offerer = state.teams[state.player]
        state, e3 = press(state, offerer)
        state, e4 = scan(state, offered)
        e3 += e4
    return state, e1 + e2 + e3


def keys(effects: Sequence[Effect]) -> list[str]:
    return [e.key for e in effects if isinstance(e, Say)]


def over(effects: Sequence[Effect]) -> GameOver | None:
    return next((e for e in effects if isinstance(e, GameOver)), None)


def army(state: WState, team: str) -> list[str]:
    return [c.removeprefix("whales-") for c, _ in state.armies[state.teams.index(team)]]


def with_offer(state: WState, **changes: Any) -> WState:
    return evolve(state, **changes)


def random_game(seed: int, teams: int, expansion: bool = False, roles: Sequence[str] = ()) -> Iterator[
        tuple[WState, Input | None, list[Effect]]]:
    """(state, input that led to it, its effects) along one random legal game, from the set-up."""
    rng = random.Random(seed)
    options: dict[str, Any] = {"teams": list(("red", "blue", "green", "yellow", "purple", "white")[:teams]),
                               "expansion": expansion, "roles": list(roles)}
    state = GAME.setup(options)
    yield state, None, []
    for _ in range(2000):
        legal = GAME.legal_inputs(state)
        if not legal:
            return
        inp = GAME.random_input(state, legal, rng.randrange)
        GAME.validate(state, inp)
        state, effects = GAME.apply(state, inp, {})
        yield state, inp, effects
    raise AssertionError("a random game did not end in 2000 inputs")


def words_exist(effects: Sequence[Effect]) -> bool:
    texts = catalogue_words()
    return all(e.key in texts for e in effects if isinstance(e, Say))
