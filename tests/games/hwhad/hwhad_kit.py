"""Shared helpers for the hwhad tests: hand-built tables, stepping through the rules, words."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from dataclasses import replace
from typing import Any

from games.core import Chance, ChanceRequest, Effect, Input, NotExpected, Say, Scan, Shuffle, check_outcomes
from games.hwhad import spacewalk
from games.hwhad.cards import CAPTAIN_ID, astronauts, catalogue, numbers
from games.hwhad.rules import GAME
from games.hwhad.state import START_SPACEWALK, HState
from games.hwhad.text import render

GLUE = CAPTAIN_ID


def cid(name: str) -> str:
    """Card id from a short name: cid("lou") == "hwhad-lou"."""
    return name if name.startswith("hwhad-") else f"hwhad-{name}"


def table(
    hands: Mapping[str, list[str]],
    modules: tuple[str, str, str] = ("brave", "stout", "eagle"),
    captain: str | None = None,
    captain_card: str | None = None,
    tokens: Mapping[str, int] | None = None,
    detached: int = 0,
    unlocked: tuple[str, ...] = (),
    dolphinized: tuple[str, ...] = (),
) -> HState:
    """A game at the start of a spacewalk with exactly this layout; every other card in the void.

    The captain defaults to the team holding Cpt. E. Glue (card face up)."""
    teams = tuple(hands)
    hand_cards = tuple(tuple(cid(c) for c in hands[t]) for t in teams)
    mods = tuple(cid(m) if m else "" for m in modules)
    unlocked = tuple(cid(u) for u in unlocked)
    deck = (*astronauts(), *unlocked)
    placed = {c for h in hand_cards for c in h} | set(mods)
    if captain is None:
        captain = next(t for t, h in zip(teams, hand_cards, strict=True) if GLUE in h)
        captain_card = GLUE if captain_card is None else captain_card
    toks = tuple((tokens or {}).get(t, 0) for t in teams)
    dolph = tuple(
        t in dolphinized or any(catalogue()[c].role == "dolphin" for c in h)
        for t, h in zip(teams, hand_cards, strict=True)
    )
    state = HState(
        phase=START_SPACEWALK, teams=teams, locked=True, unlocked=unlocked, deck=deck,
        hands=hand_cards, modules=mods, detached=detached,
        void=tuple(c for c in deck if c not in placed), tokens=toks,
        tray=numbers().tray - sum(toks), captain=captain, captain_card=cid(captain_card) if captain_card else "",
        face_up=(cid(captain_card),) if captain_card else (),
        dolphinized=dolph, votes=(0,) * len(teams),
    )
    state, _ = spacewalk.start(state)
    return state


def check(state: HState, inp: Input) -> tuple[ChanceRequest, ...]:
    """What the box checks before it takes an input: the prompt (the session's one check), then
    the rules. Raises NotExpected for an input the prompt does not wait for."""
    prompt = GAME.prompt(state)
    if prompt.finished or not prompt.allows(inp):
        raise NotExpected("not_expected", {"expected": prompt.ask.key})
    return GAME.validate(state, inp)


def step(state: HState, inp: Input, **outcomes: Any) -> tuple[HState, list[Effect]]:
    """Check and apply one input as the box would; by default no asteroid hits and a shuffle
    keeps its order."""
    requests = check(state, inp)
    given = {
        r.name: outcomes.get(r.name, list(range(r.size)) if isinstance(r, Shuffle) else 0) for r in requests
    }
    check_outcomes(requests, given)
    return GAME.apply(state, inp, given)


def walk(state: HState, a: str, b: str, c: str, hit: str = "") -> tuple[HState, list[Effect]]:
    """A whole spacewalk: scan three cards; `hit` names the slot an asteroid hits ('' for none)."""
    state, e1 = step(state, Scan(cid(a)))
    state, e2 = step(state, Scan(cid(b)))
    state, e3 = step(state, Scan(cid(c)), asteroid=" ABC".index(hit) if hit else 0)
    return state, e1 + e2 + e3


def words(effects: list[Effect]) -> list[str]:
    """What the box says, in order."""
    return [render(e) for e in effects if isinstance(e, Say)]


def draw(request: Chance | Shuffle, rng: random.Random) -> Any:
    if isinstance(request, Shuffle):
        order = list(range(request.size))
        rng.shuffle(order)
        return order
    return rng.choices(range(len(request.weights)), weights=request.weights)[0]


def random_game(seed: int, teams: int, unlock: bool = False) -> Iterator[tuple[HState, Input, list[Effect]]]:
    """Yield (state after, input, effects) for each step of a random legal game."""
    rng = random.Random(seed)
    options: dict[str, Any] = dict(GAME.simulation_options(teams))
    if unlock:
        options["unlockables"] = ["doggo", "microwave"]
    state = GAME.setup(options)
    yield state, None, []  # type: ignore[misc]
    for _ in range(3000):
        legal = GAME.legal_inputs(state)
        if not legal:
            return
        inp = rng.choice(legal)
        requests = check(state, inp)
        state, effects = GAME.apply(state, inp, {r.name: draw(r, rng) for r in requests})
        yield state, inp, effects


def with_phase(state: HState, **changes: Any) -> HState:
    return replace(state, **changes)
