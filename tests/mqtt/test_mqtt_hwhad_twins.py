"""Never a secret in public, end to end: scripted games through the service and a real broker.

A `dashboard` client subscribed to houston/<box>/# records every message. For each game with a
deck (Houston, We Have a Dolphin!), two games are played that differ only in the hidden deal:
game B's deal is game A's with two interchangeable cards ("twins": same role, same facing) swapped,
and B's players scan the swapped cards where A's scanned the originals. Until the game-over reveal
the two public streams must be byte-identical (any card identity leaking would differ), while
the teams' private topics do differ (so the games really differed in hidden information). The
stream must also name no card before the reveal except the ones the rules show face up.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Callable
from itertools import combinations
from typing import Any

import pytest

from device.network.mqtt import outlet
from device.simulation.simbox import SimBox
from games.core import Chance, ChanceRequest, Input, Press, Scan, Shuffle, to_data
from games.registry import load_game
from games.session import Session
from tests.support.broker import Probe, by_topic, public_stream

DECK_GAMES = ["hwhad"]  # the twin-swap proof needs a deal of interchangeable cards
TEAMS = ["red", "blue", "green", "yellow"]
MAX_INPUTS = 500


class ScriptedDrawer:
    """Answers `below(n)` from a list, so the service draws exactly the outcomes a test wants."""

    def __init__(self, values: list[int] | None = None, rng: random.Random | None = None) -> None:
        self.values = list(values or [])
        self.rng = rng

    def below(self, n: int) -> int:
        if self.values:
            value = self.values.pop(0)
            assert 0 <= value < n
            return value
        assert self.rng is not None, "scripted draws exhausted"
        return self.rng.randrange(n)


def draws_for(request: ChanceRequest, outcome: Any) -> list[int]:
    """The `below` answers that make device.box.chance.draw_one return `outcome` (its inverse)."""
    if isinstance(request, Chance):
        return [sum(request.weights[:outcome])]
    assert isinstance(request, Shuffle)
    order, draws = list(range(request.size)), []
    for i in range(request.size - 1, 0, -1):  # Fisher-Yates, steering each swap to the target
        j = order.index(outcome[i])
        draws.append(j)
        order[i], order[j] = order[j], order[i]
    assert order == list(outcome)
    return draws


# --- per-game knowledge the test needs: which cards are interchangeable, which are shown face up --


def hwhad_twins(card_ids: list[str]) -> list[tuple[str, str]]:
    from games.hwhad.cards import catalogue

    cards = catalogue()
    return [(a, b) for a, b in combinations(card_ids, 2)
            if (cards[a].role, cards[a].facing) == (cards[b].role, cards[b].facing)]


def hwhad_face_up(state: Any) -> set[str]:
    """Cards the rules show before the end: the Captain once found, the captain's open card, and a
    card an observer's sighting named aloud (the public log of spacewalks keeps its name)."""
    from games.hwhad.cards import CAPTAIN_ID, catalogue

    seen = {str(s.params.get("name")) for said in state.reports for s in said}
    sighted = {c for c, info in catalogue().items() if info.name in seen}
    return ({CAPTAIN_ID, state.captain_card} | sighted) - {""}


def hwhad_layout(state: Any, pair: tuple[str, str] | None = None) -> Any:
    """The state as data, with the twins swapped if `pair` is given; the deck as a set of
    (card, destination) and the undealt stack as a set (their order is the catalogue's, not the deal's);
    raw chance outcomes dropped (the layout they produced is compared instead)."""
    data = {f.name: to_data(getattr(state, f.name)) for f in dataclasses.fields(state) if f.name != "chances"}
    if pair:
        data = swap(data, *pair)
    data["plan"] = sorted(zip(data["deck"], data["plan"], strict=False))
    data["deck"], data["stack"] = sorted(data["deck"]), sorted(data["stack"])
    return data


def hwhad_names() -> dict[str, str]:
    from games.hwhad.cards import catalogue

    return {c: info.name for c, info in catalogue().items()}


ADAPTERS: dict[str, tuple[Callable[..., Any], ...]] = {
    "hwhad": (hwhad_twins, hwhad_face_up, hwhad_names, hwhad_layout),
}


# --- playing ----------------------------------------------------------------------------------


def swap(value: Any, a: str, b: str) -> Any:
    """Exchange the strings a and b everywhere in plain data (the twins' identities)."""
    if isinstance(value, str):
        return b if value == a else a if value == b else value
    if isinstance(value, dict):
        return {k: swap(v, a, b) for k, v in value.items()}
    if isinstance(value, list):
        return [swap(v, a, b) for v in value]
    return value


def drive(box: SimBox, inp: Input) -> None:
    if isinstance(inp, Press):
        box.press(inp.button, hold=inp.hold)
    elif isinstance(inp, Scan):
        box.scan(inp.card)
    else:
        box.choose(inp.option)


def play_random(box: SimBox, seed: int) -> list[Input]:
    rng = random.Random(seed)
    played: list[Input] = []
    while box.session is not None and len(played) < MAX_INPUTS:
        legal = box.session.game.legal_inputs(box.session.state)
        if not legal:
            break
        calm = [i for i in legal if getattr(i, "option", "") != "flood"]
        inp = rng.choice(calm if calm and rng.random() < 0.9 else legal)  # longer games: rarely flood
        drive(box, inp)
        played.append(inp)
    return played


def twin_outcomes(game: Any, options: dict[str, Any], entries: list[Any], a: str, b: str,
                  layout: Callable[..., Any]) -> list[Any]:
    """Game A's states, and for game B the outcomes that make B's state A's with a and b swapped."""
    sa, sb = Session.start(game, options), Session.start(game, options)
    b_outcomes = []
    for n, entry in enumerate(entries, start=1):
        sa.submit(entry.inp, entry.outcomes, n)
        inp_b = Scan(swap(entry.inp.card, a, b)) if isinstance(entry.inp, Scan) else entry.inp
        requests = sb.check(inp_b)
        target = layout(sa.state, (a, b))
        found = None
        for candidate in _variants(requests, entry.outcomes):
            trial, _ = game.apply(sb.state, inp_b, candidate)
            if layout(trial) == target:
                found = candidate
                break
        assert found is not None, f"no deal of B mirrors A at input {n}"
        sb.submit(inp_b, found, n)
        b_outcomes.append((requests, found))
    return b_outcomes


def _variants(requests: tuple[ChanceRequest, ...], outcomes: dict[str, Any]):
    yield dict(outcomes)
    for request in sorted(requests, key=lambda r: not isinstance(r, Shuffle)):  # cheap variants first
        if isinstance(request, Shuffle):
            order = list(outcomes[request.name])
            for i, j in combinations(range(len(order)), 2):
                changed = list(order)
                changed[i], changed[j] = changed[j], changed[i]
                yield {**outcomes, request.name: changed}
        elif isinstance(request, Chance):
            for k in range(len(request.weights)):
                yield {**outcomes, request.name: k}


def all_delivered(probe: Probe, box: SimBox) -> None:
    """Wait for the box's last published message (one publisher, one subscriber: MQTT keeps order)."""
    box.service.wait_idle()
    last = box.recorder.updates[-1]
    if last.events:
        want = {**last.events[-1], "seq": last.seq}
        match = probe.wait_for(lambda m: m.topic.endswith("/events") and
                               {k: v for k, v in m.json().items() if k != "schema"} == want)
    else:
        match = probe.wait_for(lambda m: m.topic.endswith("/state") and m.json()["seq"] == last.seq)
    assert match is not None


def before_reveal(stream: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    """Messages before the first one that shows the game over (the reveal)."""
    for i, (topic, payload) in enumerate(stream):
        if topic.endswith("/state") and (json.loads(payload).get("game") or {}).get("phase") == "over":
            cut = json.loads(payload)["seq"]
            return [(t, p) for t, p in stream[:i] if not p.startswith(b"{") or json.loads(p)["seq"] < cut]
    return stream


@pytest.mark.parametrize("game_id", ["hwhad"])
def test_hidden_deal_changes_nothing_public(game_id: str, linked, probes, monkeypatch) -> None:
    # every update's summary, no rate limit: with it, which of a burst's digests go out depends
    # on the clock, and the two runs' streams are compared below message by message
    monkeypatch.setattr(outlet, "SUMMARY_INTERVAL", 0.0)
    game = load_game(game_id)
    twins_of, face_up, names_of, layout = ADAPTERS[game_id]
    options = {"teams": TEAMS}
    # game A: a random table with the OS's randomness replaced by a seeded one
    box_a, link_a = linked(game_id, options, drawer=ScriptedDrawer(rng=random.Random(11)))
    dash_a = probes("dashboard", (f"houston/{link_a.topics.box}/#",))
    red_a = probes("red", (link_a.topics.team("red"),))
    dash_a.wait_for(lambda m: m.topic == link_a.topics.state)
    inputs = play_random(box_a, seed=3)
    entries = [e for e in box_a.journal.entries(box_a.journal.games()[-1].id) if e.inp is not None]
    assert len(entries) == len(inputs) > 30
    states = [Session.start(game, options).state]
    replay = Session.start(game, options)
    for n, entry in enumerate(entries, start=1):
        replay.submit(entry.inp, entry.outcomes, n)
        states.append(replay.state)
    shown = set().union(*(face_up(s) for s in states))
    hands = {c: t for s in states for t, hand in zip(s.teams, s.hands, strict=False) for c in hand}
    twins = [(a, b) for a, b in twins_of(list(game.cards().ids))
             if a not in shown and b not in shown and hands.get(a) and hands.get(b) and hands[a] != hands[b]]
    assert twins, "no pair of twin cards in different hands to swap"
    a, b = twins[0]
    # game B: the same table, the deal mirrored so a and b trade places
    b_outcomes = twin_outcomes(game, options, entries, a, b, layout)
    draws = [v for requests, outcomes in b_outcomes for r in requests for v in draws_for(r, outcomes[r.name])]
    box_b, link_b = linked(game_id, options, drawer=ScriptedDrawer(draws))
    dash_b = probes("dashboard", (f"houston/{link_b.topics.box}/#",))
    red_b = probes("red", (link_b.topics.team("red"),))
    dash_b.wait_for(lambda m: m.topic == link_b.topics.state)
    for inp in inputs:
        drive(box_b, Scan(swap(inp.card, a, b)) if isinstance(inp, Scan) else inp)
    final_a = (box_a.service.finished or box_a.session).state
    final_b = (box_b.service.finished or box_b.session).state
    assert layout(final_b) == layout(final_a, (a, b))  # B is A with the twins' identities exchanged
    assert layout(final_b) != layout(final_a)
    for dash, red, box in ((dash_a, red_a, box_a), (dash_b, red_b, box_b)):  # all delivered
        all_delivered(dash, box)
        view = box.service.team_views()["red"]
        assert red.wait_for(lambda m, v=view: m.json()["view"] == v)
    stream_a = before_reveal(public_stream(dash_a, link_a.topics.box))
    stream_b = before_reveal(public_stream(dash_b, link_b.topics.box))
    assert len(stream_a) > 50
    # the hidden deal differed; nothing public did. Compared topic by topic: MQTT keeps the order
    # within a topic, not across topics (the retained messages a new subscriber gets come in any order)
    assert by_topic(stream_a) == by_topic(stream_b)
    assert all("/team/" not in topic for topic, _ in stream_a)
    team_a = [m.payload for m in red_a.messages]
    team_b = [m.payload for m in red_b.messages]
    assert team_a != team_b or hands[a] != "red" != hands[b]  # red's own view did see the difference
    # and no card the rules keep face down is named before the reveal
    names = names_of()
    secret = [c for c in game.cards().ids if c not in shown]
    pattern = re.compile("|".join(re.escape(c) for c in secret))
    name_pattern = re.compile(r"\b(" + "|".join(re.escape(names[c]) for c in secret) + r")\b")
    for topic, payload in stream_a:
        text = payload.decode()
        assert not pattern.search(text), (topic, text[:300])
        assert not name_pattern.search(text), (topic, text[:300])


def _public_trace(game: Any, options: dict[str, Any], steps: list[tuple[Input, dict[str, Any]]]) -> list[str]:
    """What the box would publish at each step (public view and effects), up to the reveal."""
    session, trace = Session.start(game, options), []
    for n, (inp, outcomes) in enumerate(steps, start=1):
        effects = session.submit(inp, outcomes, n)
        view = game.public_view(session.state)
        if view.get("phase") == "over":
            break
        trace.append(json.dumps([view, to_data(effects)], sort_keys=True))
    return trace


@pytest.mark.parametrize("game_id", ["hwhad"])
def test_every_twin_swap_leaves_the_public_trace_unchanged(game_id: str, tmp_path) -> None:
    """The same check without the broker, over many twin pairs: a leak of any property of a card's
    identity (not only the identity itself) shows up for some pair."""
    from device.simulation.testing import make_box

    game = load_game(game_id)
    twins_of, face_up, _, layout = ADAPTERS[game_id]
    options = {"teams": TEAMS}
    box = make_box(tmp_path, game=game_id, options=options, drawer=ScriptedDrawer(rng=random.Random(11)))
    try:
        play_random(box, seed=8)
        entries = [e for e in box.journal.entries(box.journal.games()[-1].id) if e.inp is not None]
    finally:
        box.close()
    steps = [(e.inp, e.outcomes) for e in entries]
    replay, states = Session.start(game, options), []
    for n, (inp, outcomes) in enumerate(steps, start=1):
        replay.submit(inp, outcomes, n)
        states.append(replay.state)
    shown = set().union(*(face_up(s) for s in states))
    hands = {c: t for s in states for t, hand in zip(s.teams, s.hands, strict=False) for c in hand}
    pairs = [(a, b) for a, b in twins_of(list(game.cards().ids)) if a not in shown and b not in shown
             and hands.get(a) and hands.get(b) and hands[a] != hands[b]]
    assert len(pairs) >= 3
    trace_a = _public_trace(game, options, steps)
    for a, b in pairs[:8]:
        b_outcomes = twin_outcomes(game, options, entries, a, b, layout)
        steps_b = [(Scan(swap(inp.card, a, b)) if isinstance(inp, Scan) else inp, outcomes)
                   for (inp, _), (_, outcomes) in zip(steps, b_outcomes, strict=True)]
        assert _public_trace(game, options, steps_b) == trace_a, (a, b)
