"""`houston simulate GAME`: many full games between random legal players, through the real rules.

Each step asks the game for its random player's step, applied (`Game.simulation_step`: by
default `Game.random_step` lists every legal input with `Game.legal_inputs`, lets
`Game.random_input` choose one — uniform unless the game weighs its choices — and validates it,
then `Game.apply` applies it; a game may answer the same in one cheaper call), drawing the chance
outcomes the input requests through the box's own drawing code
(device/box/chance.py: a request tuple that comes back is drawn by a plan made once, whose
outcomes need no `check_outcomes`) and applies it — the rules' own functions, without the
service, and nothing the box does only for the table (prompts, views, journal copies).

Simulation only: the players' choices and the chance outcomes come from one seeded
`random.Random(seed)`, so a run with --seed is reproducible. The box never draws this way: its
real draws go through `secrets` (`SecretDrawer`) and are journaled.

A game adds statistics through `Game.simulation_stats(final_state, effects)`: text values are
tallied (e.g. which side won), numbers are averaged per game (e.g. incidents); and
`Game.simulation_options(teams)` gives the options of a game with that many teams.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from device.box.chance import SeededDrawer
from games.core import Effect, Game, Input, RuleError, State
from games.registry import UnknownGame, describe, game_ids, load_game

MAX_STEPS = 20_000


def prompted_inputs(game: Game, state: State) -> list[Input]:
    """Every input the prompt names that validate accepts (the contract's default legal inputs)."""
    return game.prompted_inputs(state)


@dataclass
class Played:
    """One simulated game: how it ended, its length and the game's own statistics."""

    finished: bool
    steps: int
    stats: dict[str, Any] = field(default_factory=dict)


def play_one(game: Game, options: dict[str, Any], rng: random.Random, max_steps: int = MAX_STEPS,
             start: State | None = None, drawer: SeededDrawer | None = None) -> Played:
    """Play one game to its end (or `max_steps`) with the game's random player. `start` is
    `game.setup(options)` when the caller already has it (setup is pure: one call serves many games);
    `drawer` a SeededDrawer of `rng` kept from game to game (with its plan for the dice)."""
    drawer = SeededDrawer(rng) if drawer is None else drawer
    pick = drawer.below  # rng.randrange(n), the same numbers, without its argument handling
    draw = drawer.outcomes  # drawn by the box's own code; checked unless a plan vouches for them
    simulation_step = game.simulation_step
    state = game.setup(options) if start is None else start
    effects: list[Effect] = []
    for steps in range(max_steps):  # noqa: B007 - read after the loop: a break at `steps` means that many inputs were applied
        step = simulation_step(state, pick, draw)  # the random player's legal input, applied
        if step is None:
            break
        state, new = step
        effects += new
    else:
        steps = max_steps
    over = game.is_over(state)
    return Played(finished=over, steps=steps, stats=dict(game.simulation_stats(state, effects)))


def simulate(game_id: str, games: int, teams: int | None, seed: int | None) -> dict[str, Any]:
    """Play `games` games and summarise: tallies, means per game, games per second."""
    game = load_game(game_id)
    rng = random.Random(seed)
    options = dict(game.simulation_options(teams)) if teams is not None else {}
    tallies: dict[str, Counter[str]] = {}
    sums: dict[str, float] = {}
    finished = steps = 0
    started, cpu_started = time.perf_counter(), time.process_time()
    start = game.setup(options)
    drawer = SeededDrawer(rng)
    for _ in range(games):
        played = play_one(game, options, rng, start=start, drawer=drawer)
        finished += played.finished
        steps += played.steps
        for key, value in played.stats.items():
            if isinstance(value, str):
                tallies.setdefault(key, Counter())[value] += 1
            elif isinstance(value, int | float) and not isinstance(value, bool):
                sums[key] = sums.get(key, 0.0) + value
    seconds, cpu_seconds = time.perf_counter() - started, time.process_time() - cpu_started
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
        # on a shared machine the wall clock counts other programs' turns too: the CPU time this
        # process spent, and the load it ran under, say how far the wall figure is from one core's
        "cpu_seconds": round(cpu_seconds, 3),
        "games_per_cpu_second": round(games / cpu_seconds, 1) if cpu_seconds > 0 else None,
        "load_average_1min": round(os.getloadavg()[0], 2),
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
    lines.append(f"  {summary['games_per_second']} games per second ({summary['seconds']} s; "
                 f"{summary['games_per_cpu_second']} per CPU second, load average {summary['load_average_1min']})")
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
        print(f"houston simulate: {describe(exc)}", file=sys.stderr)
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
