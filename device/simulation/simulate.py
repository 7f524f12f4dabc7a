"""`houston simulate GAME`: many full games between random legal players, through the real rules.

Each step asks the rules for every legal input (`legal_inputs(state)`; for a game without it, the
inputs its prompt names that `validate` accepts), picks one at random, validates it, draws the
chance outcomes it requests and applies it — the rules' own functions, without the service.

Simulation only: the players' choices and the chance outcomes come from one seeded
`random.Random(seed)`, so a run with --seed is reproducible. The box never draws this way: its
real draws go through `secrets` (device/box/chance.py) and are journaled.

A game may add statistics through an optional `simulation_stats(final_state, effects) -> dict`:
text values are tallied (e.g. which side won), numbers are averaged per game (e.g. incidents),
and `simulation_options(teams) -> dict` gives the options of a game with that many teams.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from games.core import (
    ChanceRequest,
    Choose,
    Effect,
    Game,
    GameOver,
    Input,
    Press,
    RuleError,
    Scan,
    Shuffle,
    State,
    check_outcomes,
)
from games.registry import UnknownGame, game_ids, load_game

MAX_STEPS = 20_000


def draw(request: ChanceRequest, rng: random.Random) -> Any:
    """A chance outcome with the request's exact odds (an index, or a permutation)."""
    if isinstance(request, Shuffle):
        order = list(range(request.size))
        rng.shuffle(order)
        return order
    weights = request.weights
    if min(weights) == max(weights):
        return rng.randrange(len(weights))
    ticket = rng.randrange(sum(weights))
    for index, weight in enumerate(weights):
        if ticket < weight:
            return index
        ticket -= weight
    raise AssertionError("unreachable")


def prompted_inputs(game: Game, state: State) -> list[Input]:
    """Every input the prompt names that validate accepts (for games without legal_inputs)."""
    prompt = game.prompt(state)
    candidates: list[Input] = []
    for pattern in prompt.accepts:
        kind, _, arg = pattern.partition(":")
        if kind in ("press", "hold"):
            candidates.append(Press(arg, hold=kind == "hold"))
        elif kind == "choose":
            candidates.append(Choose(arg))
        elif kind == "scan":
            cards = getattr(game, "card_ids", None)
            candidates += [Scan(c) for c in (cards() if cards else ())]
    legal = []
    for inp in candidates:
        try:
            game.validate(state, inp)
        except RuleError:
            continue
        legal.append(inp)
    return legal


@dataclass
class Played:
    """One simulated game: how it ended, its length and the game's own statistics."""

    finished: bool
    steps: int
    stats: dict[str, Any] = field(default_factory=dict)


def play_one(game: Game, options: dict[str, Any], rng: random.Random, max_steps: int = MAX_STEPS) -> Played:
    """Play one game to its end (or `max_steps`) with uniformly random legal choices."""
    legal_inputs = getattr(game, "legal_inputs", None)
    choose = getattr(game, "random_input", None)  # a game may weigh its random player's choices
    state = game.setup(options)
    effects: list[Effect] = []
    steps = 0
    over = False
    while steps < max_steps:
        if game.prompt(state).finished:
            over = True
            break
        legal = legal_inputs(state) if legal_inputs else prompted_inputs(game, state)
        if not legal:
            break
        inp = choose(state, legal, rng.randrange) if choose else legal[rng.randrange(len(legal))]
        requests = game.validate(state, inp)
        outcomes = {r.name: draw(r, rng) for r in requests}
        check_outcomes(requests, outcomes)
        state, new = game.apply(state, inp, outcomes)
        effects += new
        steps += 1
        if any(isinstance(e, GameOver) for e in new):
            over = True
            break
    hook = getattr(game, "simulation_stats", None)
    stats = dict(hook(state, effects)) if hook else {}
    return Played(finished=over, steps=steps, stats=stats)


def simulate(game_id: str, games: int, teams: int | None, seed: int | None) -> dict[str, Any]:
    """Play `games` games and summarise: tallies, means per game, games per second."""
    game = load_game(game_id)
    rng = random.Random(seed)
    hook = getattr(game, "simulation_options", None)
    options = dict(hook(teams)) if hook and teams is not None else {}
    tallies: dict[str, Counter[str]] = {}
    sums: Counter[str] = Counter()
    finished = steps = 0
    started = time.perf_counter()
    for _ in range(games):
        played = play_one(game, options, rng)
        finished += played.finished
        steps += played.steps
        for key, value in played.stats.items():
            if isinstance(value, str):
                tallies.setdefault(key, Counter())[value] += 1
            elif isinstance(value, int | float) and not isinstance(value, bool):
                sums[key] += value
    seconds = time.perf_counter() - started
    return {
        "game": game_id,
        "games": games,
        "teams": teams,
        "seed": seed,
        "finished": finished,
        "mean_steps": steps / games if games else 0.0,
        "rates": {k: {v: n / games for v, n in sorted(c.items())} for k, c in sorted(tallies.items())},
        "means": {k: v / games for k, v in sorted(sums.items())},
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 1) if seconds > 0 else None,
    }


def format_summary(summary: dict[str, Any]) -> str:
    """The summary as a few readable lines."""
    lines = [f"{summary['game']}: {summary['games']} games, {summary['teams']} teams, seed {summary['seed']}",
             f"  finished {summary['finished']}, mean {summary['mean_steps']:.1f} inputs per game"]
    for key, rates in summary["rates"].items():
        parts = ", ".join(f"{value} {rate:.1%}" for value, rate in rates.items())
        lines.append(f"  {key}: {parts}")
    for key, mean in summary["means"].items():
        lines.append(f"  {key}: {mean:.3f} per game")
    lines.append(f"  {summary['games_per_second']} games per second ({summary['seconds']} s)")
    return "\n".join(lines)


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", help=f"game id ({', '.join(game_ids())})")
    p.add_argument("--games", type=int, default=1000, help="how many games to play (default 1000)")
    p.add_argument("--teams", type=int, default=None, help="number of teams, for games that take teams")
    p.add_argument("--seed", type=int, default=None, help="seed for a reproducible run")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=simulate_command)


def register(sub: Any) -> None:
    add_arguments(sub.add_parser("simulate", help="play many games between random legal players"))


def simulate_command(args: argparse.Namespace) -> int:
    if args.games < 1:
        print("houston simulate: --games must be at least 1", file=sys.stderr)
        return 2
    try:
        summary = simulate(args.game, args.games, args.teams, args.seed)
    except UnknownGame as exc:
        print(f"houston simulate: {exc}", file=sys.stderr)
        return 2
    except RuleError as exc:
        print(f"houston simulate: the game refused the options: {exc.key} {exc.params}", file=sys.stderr)
        return 2
    print(json.dumps(summary, sort_keys=True) if args.json else format_summary(summary))
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="houston simulate", description=__doc__.splitlines()[0])
    add_arguments(parser)
    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    sys.exit(main())
