"""Here Comes the Dog as the box referees it: the rules object registered as `dog`.

The box keeps the bonfire, every hand of sticks, the dogs, the villagers and the round; it rolls
the dice (journaled chance), offers the legal takes, counts every Feed and Assault, and names the
winner. Phase functions are in phases.py, the counts in events.py, the views in views.py, the demo
policy in demo.py. Decisions beside the rulebook's words are in docs/rules/dog.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from games.core import (
    TEAM_COLOURS,
    ChanceRequest,
    Effect,
    Game,
    GameInfo,
    Input,
    NotExpected,
    Outcomes,
    Phase,
    Press,
    Prompt,
    Say,
    SetupError,
    say,
)
from games.dog import demo, phases, views
from games.dog.data import BONFIRE, DOGS, MAX_PLAYERS, MAX_ROUNDS, MIN_PLAYERS, MIN_ROUNDS, ORDER, ROUNDS
from games.dog.state import CHARCOAL, EXCHANGE, FIRE, MEAT, OVER, STEAL, TAKE, TURN, VICTIM, DogState
from games.dog.state import ORDER as ORDERING

INFO = GameInfo(
    id="dog",
    title="Here Comes the Dog",
    min_teams=MIN_PLAYERS,
    max_teams=MAX_PLAYERS,
    hidden_information=False,
    chance=True,
    order=ORDER,
)

PHASES: dict[str, Phase[DogState]] = {
    ORDERING: Phase(phases.order_prompt, phases.order_check, phases.order_apply, phases.order_legal),
    TURN: Phase(phases.turn_prompt, phases.turn_check, phases.turn_apply, phases.turn_legal),
    EXCHANGE: Phase(phases.exchange_prompt, phases.cycle_check, phases.exchange_apply, phases.cycle_legal),
    TAKE: Phase(phases.take_prompt, phases.cycle_check, phases.take_apply, phases.take_legal),
    VICTIM: Phase(phases.victim_prompt, phases.victim_check, phases.victim_apply, phases.victim_legal),
    STEAL: Phase(phases.steal_prompt, phases.cycle_check, phases.steal_apply, phases.steal_legal),
}


def _rounds(options: Mapping[str, Any]) -> int:
    rounds = options.get("rounds", ROUNDS)
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not MIN_ROUNDS <= rounds <= MAX_ROUNDS:
        raise SetupError("bad_option", {"option": "rounds", "value": rounds})
    return rounds


def _teams(options: Mapping[str, Any]) -> tuple[str, ...]:
    """Option `teams`: colours in play order, which skips ordering by buttons."""
    teams = options.get("teams", ())
    if isinstance(teams, str) or not isinstance(teams, Sequence):
        raise SetupError("bad_option", {"option": "teams", "value": teams})
    teams = tuple(teams)
    if not all(isinstance(t, str) and t in TEAM_COLOURS for t in teams) or len(set(teams)) != len(teams):
        raise SetupError("bad_option", {"option": "teams", "value": list(teams)})
    if len(teams) > MAX_PLAYERS:
        raise SetupError("too_many_players", {"max": MAX_PLAYERS, "players": len(teams)})
    if teams and len(teams) < MIN_PLAYERS:
        raise SetupError("too_few_players", {"min": MIN_PLAYERS, "players": len(teams)})
    return teams


class Dog(Game[DogState]):
    """The rules object registered as game `dog`."""

    info = INFO
    phases = PHASES

    def setup(self, options: Mapping[str, Any]) -> DogState:
        """Options: `rounds` (default 5), `teams` (2–4 colours in play order; without it the
        players press their buttons in play order). Five or more players are refused: the game
        has 12 villagers, 3 each."""
        rounds, teams = _rounds(options), _teams(options)
        if teams:
            return phases.start(teams, rounds)
        return DogState(phase=ORDERING, teams=(), rounds=rounds, bonfire=BONFIRE, pack=DOGS)

    def phase_of(self, state: DogState) -> str:
        return state.phase

    def is_over(self, state: DogState) -> bool:
        return state.phase == OVER

    # The three calls every input makes, dispatched straight from the phase table by the state's
    # phase (the contract's defaults, without the generic is_over/phase_of round trips, which
    # `houston simulate` pays on every input). Same functions, same errors.

    def legal_inputs(self, state: DogState) -> list[Input]:
        legal = _LEGAL.get(state.phase)
        return legal(state) if legal is not None else []

    def validate(self, state: DogState, inp: Input) -> tuple[ChanceRequest, ...]:
        check = _CHECK.get(state.phase)
        if check is None:
            raise NotExpected("not_expected", {"expected": "game_over"})
        return check(state, inp)

    def apply(self, state: DogState, inp: Input, outcomes: Outcomes) -> tuple[DogState, list[Effect]]:
        return _APPLY[state.phase](state, inp, outcomes)

    def final_prompt(self, state: DogState) -> Prompt:
        return Prompt(say("game_over"), accepts=(), finished=True)

    def teams(self, state: DogState) -> tuple[str, ...]:
        return state.teams

    def public_view(self, state: DogState) -> dict[str, Any]:
        return views.public_view(state, INFO)

    def team_view(self, state: DogState, team: str) -> dict[str, Any]:
        return views.team_view(state, team, INFO)

    def secrets(self, state: DogState) -> frozenset[str]:
        """Nothing: in Here Comes the Dog every stick, dog and villager lies open on the table and
        the dice are rolled in the open, so the box keeps no hidden information."""
        return frozenset()

    # --- simulation and demo ----------------------------------------------------------------

    def simulation_options(self, teams: int) -> dict[str, Any]:
        return {"teams": list(TEAM_COLOURS[:teams])}

    def simulation_stats(self, state: DogState, effects: Sequence[Effect]) -> dict[str, Any]:
        """Who won (or 'shared'), and per game: rounds ended by each event, incidents, thefts,
        exchanges, knock-outs, dogs tamed by the winner."""
        stats: dict[str, Any] = {
            "winner": state.winners[0] if len(state.winners) == 1 else "shared" if state.winners else "nobody",
            "result": state.result or "unfinished",
        }
        said = Counter([effect.key for effect in effects if type(effect) is Say])
        for key in STAT_KEYS:
            stats[key] = said[key]
        stats["winner_dogs"] = max(state.dogs, default=0)
        return stats

    def random_input(self, state: DogState, legal: Sequence[Input], pick: Callable[[int], int]) -> Input:
        """A random player's decision, each made in one input (docs/rules/dog.md, "Random games"):
        on a turn, roll five times in six (as often as the earlier player did), otherwise one of the
        legal exchanges, uniformly, by its one-step choice; a take or a stolen colour uniformly
        among those on offer, by its choice (never cycling the offers: looking is not deciding); a
        theft's victim and colour together, uniformly over the sticks there are to steal
        (`steal:<victim>:<colour>`). Only inputs from `legal`, whose order the phases fix: a turn
        lists [OK, hold OK, exchange choices...]; a take, steal or exchange [team button, OK,
        choices...]; a theft [victims' team buttons..., steal choices...]."""
        n = len(legal)
        if n == 1:
            return legal[0]
        phase = state.phase
        if phase == TURN:
            return legal[2 + pick(n - 2)] if pick(6) == 0 else legal[0]
        if phase in CYCLING:
            return legal[2 + pick(n - 2)] if n > 2 else legal[1]
        if phase == VICTIM:  # [victims' team buttons..., steal:<victim>:<colour> choices...]
            presses = sum(type(inp) is Press for inp in legal)
            return legal[presses + pick(n - presses)]
        return legal[pick(n)]

    def random_step(self, state: DogState,
                    pick: Callable[[int], int]) -> tuple[Input, tuple[ChanceRequest, ...]] | None:
        """`random_input` over `legal_inputs`, and `validate` of its choice, in one call: the
        same input from the same picks, and the chance it needs (a roll's dice; nothing else draws).
        Every input made here is one the phase lists as legal, so its check has nothing to refuse
        (test_dog_simulate checks it against the contract's default, state by state)."""
        phase = state.phase
        if phase == TURN:
            if state.must_roll:
                return ROLL_STEP
            legal = _turn_choices(state.hands[state.current], state.bonfire)
            if len(legal) == 1 or pick(6):  # roll five times in six
                return ROLL_STEP
            return legal[2 + pick(len(legal) - 2)], ()
        if phase == TAKE:
            offers = state.offers
            return _take_choices(state.teams[state.current], offers)[2 + pick(len(offers))], ()
        if phase == VICTIM:
            # [victims' buttons..., steal:<victim>:<colour>...]: at least one of each, so a choice
            choices = _steal_choices(state)
            return choices[pick(len(choices))], ()
        if phase == STEAL:
            offers = state.offers
            return (_STEAL_CHOICES[offers[pick(len(offers))]], ()) if offers else ROLLED_OK
        if phase == EXCHANGE:
            return ROLLED_OK
        return super().random_step(state, pick)

    def simulation_step(self, state: DogState, pick: Callable[[int], int],
                        draw: Callable[[tuple[ChanceRequest, ...]], Outcomes]) -> tuple[DogState, list[Effect]] | None:
        """`random_step`, then `apply`, in one call: the same picks in the same order, the input
        made by calling the function `apply` would dispatch it to (a roll: `rolled_row`; a take:
        `take`; a theft: `steal`; an exchange: `exchange`). test_dog_simulate checks it against
        the contract's default, state by state."""
        phase = state.phase
        if phase == TURN:
            if not state.must_roll:
                hand, bonfire = state.hands[state.current], state.bonfire
                # whether any exchange is legal (`_legal_exchanges` is not empty), asked without its
                # cache, whose (hand, bonfire) keys mostly miss: charcoal or fire for meat while 2+
                # meat are left, fire for charcoal while 2+ charcoal are left
                can_exchange = (((hand[CHARCOAL] or hand[FIRE]) and bonfire[MEAT] > 1)
                                or (hand[FIRE] and bonfire[CHARCOAL] > 1))
                if can_exchange and not pick(6):
                    offers = _legal_exchanges(hand, bonfire)  # exchange one time in six
                    return _exchange(state, offers[pick(len(offers))])
            outcomes = draw(_ROLL)
            return _rolled_row(state, _ROLL_TABLE[(outcomes[_DIE_A] * _FACES_B + outcomes[_DIE_B]) * _FACES_C
                                                  + outcomes[_DIE_C]])
        if phase == TAKE:
            offers = state.offers
            return _take(state, offers[pick(len(offers))])
        if phase == VICTIM:
            options = _steal_options(state)  # (victim, colour) of each steal:<victim>:<colour> choice
            victim, colour = options[pick(len(options))]
            return _steal(state, colour, victim)
        return super().simulation_step(state, pick, draw)

    def demo_options(self) -> dict[str, Any]:
        return {}

    def demo_input(self, state: DogState, step: int) -> Input | None:
        return demo.demo_input(self, state, step)


ROLL_STEP = (phases.PRESS_OK, phases.ROLL)  # roll the dice: OK, and the three dice to draw
ROLLED_OK = (phases.PRESS_OK, ())  # OK on the offer shown (an exchange menu, a lone colour)
ROLLED_OK = (phases.PRESS_OK, ())  # OK on the offer shown (an exchange menu, a lone colour)
_turn_choices, _take_choices = phases.turn_choices, phases.take_choices
_exchange, _rolled_row, _take, _steal = phases.exchange, phases.rolled_row, phases.take, phases.steal
_legal_exchanges = phases._legal_exchanges
_ROLL, _ROLL_TABLE, _FACES_B, _FACES_C = phases.ROLL, phases.ROLL_TABLE, phases.FACES_B, phases.FACES_C
_DIE_A, _DIE_B, _DIE_C, _steal_options = phases.DIE_A, phases.DIE_B, phases.DIE_C, phases.steal_options
# an exchange choice -> its exchange
_EXCHANGE_OF: dict[Input, str] = {choice: name for name, choice in phases.EXCHANGE_CHOICES.items()}
_steal_choices, _STEAL_CHOICES = phases.steal_choices, phases.STEAL_CHOICES
CYCLING = frozenset((TAKE, STEAL, EXCHANGE))  # legal inputs: [team button (next offer), OK, choices...]
_LEGAL = {name: row.legal for name, row in PHASES.items() if row.legal is not None}
_CHECK = {name: row.check for name, row in PHASES.items()}
_APPLY = {name: row.apply for name, row in PHASES.items()}
assert len(_LEGAL) == len(PHASES), "every Dog phase lists its legal inputs"
STAT_KEYS = ("round_end_feed", "round_end_assault", "round_end_none", "incident_feed", "incident_assault",
             "incident_fire_fest", "nobody_counted", "theft", "theft_nobody", "stole", "exchanged", "all_fainted",
             "knocked_out")

GAME = Dog()
