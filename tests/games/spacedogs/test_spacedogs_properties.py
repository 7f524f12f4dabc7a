"""Properties over random legal play: bounds, one activation per figure per round, replay = live,
secrets never public, the campaign's JSON round trip."""

from __future__ import annotations

import contextlib
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st
from spacedogs_kit import Driver

from games.core import BACK, Choose, NothingToUndo, Press, RuleError, Say, canonical_json, digest
from games.session import replay
from games.spacedogs import campaign as camp
from games.spacedogs.catalog import catalog
from games.spacedogs.rules import GAME

CAT = catalog()
DOG_SETS = st.lists(st.sampled_from(list(CAT.dogs)), min_size=1, max_size=4, unique=True)


def _play(data: st.DataObject, dogs: list[str], scenario: str, steps: int, back: bool) -> Driver:
    d = Driver({"dogs": dogs, "scenario": scenario})
    for _ in range(steps):
        legal = GAME.legal_inputs(d.state)
        if not legal:
            break
        if back and data.draw(st.integers(0, 9)) == 0:
            with contextlib.suppress(NothingToUndo):
                d.send(Press(BACK))
            continue
        inp = GAME.random_input(d.state, legal, lambda n: data.draw(st.integers(0, n - 1)))
        d.send(inp)
        yield_check(d)
    return d


def yield_check(d: Driver) -> None:
    state = d.state
    for dog in state.dogs:
        assert 0 <= dog.health <= CAT.numbers.max_health
        assert 0 <= dog.temper < CAT.numbers.scale_length
    for group in state.groups:
        assert all(0 <= h <= group.max_health for h in group.health)
    public = canonical_json(GAME.public_view(state))
    assert not any(secret in public for secret in GAME.secrets(state))
    for dog in state.dogs:
        assert not any(secret in canonical_json(GAME.team_view(state, dog.colour)) for secret in GAME.secrets(state))


@settings(max_examples=25, deadline=None)
@given(st.data(), DOG_SETS, st.sampled_from(sorted(CAT.scenarios)))
def test_random_play_keeps_bounds_and_secrets(data: st.DataObject, dogs: list[str], scenario: str) -> None:
    _play(data, dogs, scenario, 120, back=True)


@settings(max_examples=20, deadline=None)
@given(st.data(), DOG_SETS, st.sampled_from(["s01", "s03", "s08"]))
def test_every_figure_acts_once_per_round(data: st.DataObject, dogs: list[str], scenario: str) -> None:
    d = Driver({"dogs": dogs, "scenario": scenario})
    acts: Counter[tuple[int, str]] = Counter()
    for _ in range(150):
        legal = GAME.legal_inputs(d.state)
        if not legal:
            break
        inp = GAME.random_input(d.state, legal, lambda n: data.draw(st.integers(0, n - 1)))
        round_before = d.state.round
        effects = d.send(inp)
        for e in effects:
            if isinstance(e, Say) and e.key in ("dog_activates", "no_actions"):
                acts[(round_before, str(e.params["dog"]))] += 1
            if isinstance(e, Say) and e.key == "group_activated":
                acts[(round_before, str(e.params["group"]))] += 1
            if isinstance(e, Say) and e.key == "all_acted":
                assert all(x.acted or not x.can_activate for x in d.state.dogs)
                assert all(g.activated or g.defeated or not g.placed for g in d.state.groups)
    assert all(n == 1 for n in acts.values()), acts


@settings(max_examples=20, deadline=None)
@given(st.data(), DOG_SETS)
def test_replay_equals_live(data: st.DataObject, dogs: list[str]) -> None:
    d = _play(data, dogs, "s01", 80, back=True)
    rebuilt = replay(GAME, d.options, d.entries)
    assert digest(rebuilt.state) == digest(d.state)
    assert rebuilt.state == d.state


def _campaigns() -> st.SearchStrategy[dict]:
    ids = sorted(CAT.scenarios)
    return st.builds(
        lambda scen, xps, stickers, unlocked, choose, gr_xp, upgrades: {
            "version": camp.VERSION,
            "scenarios": scen,
            "dogs": {dog: {"xp": xp, "level": CAT.level_for(xp)} for dog, xp in zip(CAT.dogs, xps, strict=True)},
            "stickers": stickers,
            "unlocked": unlocked,
            "choices": {s: CAT.scenarios[s].choices[0] for s in choose if CAT.scenarios[s].choices},
            "gr_xp": gr_xp,
            "upgrades": upgrades,
        },
        st.lists(st.sampled_from(ids), unique=True),
        st.lists(st.integers(0, 500), min_size=len(CAT.dogs), max_size=len(CAT.dogs)),
        st.lists(st.text("abcdefghij_", min_size=1, max_size=12), unique=True, max_size=5),
        st.lists(st.sampled_from(sorted(CAT.equipment)), unique=True),
        st.lists(st.sampled_from(ids), unique=True),
        st.integers(0, 1000),
        st.lists(st.sampled_from(sorted(CAT.upgrades)), unique=True),
    )


@settings(max_examples=60, deadline=None)
@given(_campaigns())
def test_campaign_json_round_trip(snapshot: dict) -> None:
    once = GAME.campaign_check(snapshot)
    assert GAME.campaign_check(once) == once == snapshot
    state = GAME.setup({"dogs": ["nova"], "campaign": snapshot})
    assert camp.to_json(state.campaign) == snapshot


def test_demo_policy_shows_a_round_an_interlude_a_back_and_a_refusal() -> None:
    d = Driver(GAME.demo_options())
    refused = 0
    step = 0
    while (inp := GAME.demo_input(d.state, step)) is not None:
        try:
            d.send(inp)
        except RuleError as err:  # the demo shows one refusal on purpose
            assert getattr(err, "key", "") == "dog_acted"
            refused += 1
        step += 1
    assert refused == 1 and d.state.round == 2 and d.state.phase == "beginning"
    assert Press(BACK) in [GAME.demo_input(d.state, i) for i in range(step)]
    assert Choose("explore:end") in [GAME.demo_input(d.state, i) for i in range(step)]
    assert d.state.dog("orion").health == CAT.numbers.max_health - 1  # the Orion example


def test_every_word_the_rules_say_is_in_the_catalogue() -> None:
    import random
    import string

    from games.core import Input, RuleError
    from games.data import messages

    catalogue = messages("games.spacedogs")
    seen: dict[str, set[str]] = {}

    def note(key: str, params: dict) -> None:
        seen.setdefault(key, set()).update(params)

    rng = random.Random(7)
    probes: list[Input] = [Press(c) for c in ("red", "yellow", "green", "blue", "purple", "white", "ok")]
    probes += [Choose(o) for o in ("damage:nova:3:receive", "activate:thugs", "help:orion", "stance:nova:x",
                                   "item:nova:use", "xp:nova:3", "story:spare", "upgrade:turret_core")]
    for _ in range(15):
        dogs = rng.sample(list(CAT.dogs), rng.randint(1, 4))
        d = Driver({"dogs": dogs, "scenario": rng.choice(sorted(CAT.scenarios))})
        for _ in range(200):
            prompt = GAME.prompt(d.state)
            note(prompt.ask.key, dict(prompt.ask.params))
            for probe in probes:
                try:
                    GAME.validate(d.state, probe) if prompt.allows(probe) else None
                except RuleError as err:
                    note(err.key, err.params)
            legal = GAME.legal_inputs(d.state)
            if not legal:
                break
            for e in d.send(GAME.random_input(d.state, legal, rng.randrange)):
                if isinstance(e, Say):
                    note(e.key, dict(e.params))
    fields = {k: {f for _, f, _, _ in string.Formatter().parse(v) if f} for k, v in catalogue.items()}
    missing = sorted(k for k in seen if k not in catalogue)
    assert not missing
    assert all(fields[k] <= seen[k] for k in seen), {k: fields[k] - seen[k] for k in seen if fields[k] - seen[k]}
    assert len(seen) > 40
